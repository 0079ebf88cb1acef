/* Laptop view (bakumat view): live stream or log timeline, sensor traces,
   human throws. Drawing is BakuMat's (mat.js). API: docs/formats/view-api-v1.md */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var info, board, m = null, header = null, last = null, steps = null, cur = 0, traces = {}, tzone = null, curT = 0;

  function get(u) {
    return fetch(u).then(function (r) {
      if (!r.ok) throw new Error(u + ": HTTP " + r.status);
      return r.json();
    });
  }
  function li(text, cls, i) {
    var e = document.createElement("li");
    e.textContent = text;
    if (cls) e.className = cls;
    if (i !== undefined) e.setAttribute("data-step", i);
    return e;
  }
  function show(st) {
    if (st.header) header = st.header;
    st.header = header;
    last = st;
    curT = st.t || 0;
    m.update(st);
    BakuMat.panel($("panel"), st);
    if (info.traces) drawTraces();
  }

  /* ---- log timeline ---- */
  function go(i) {
    if (!steps) return;
    cur = Math.max(0, Math.min(steps.length - 1, i));
    $("scrub").value = cur;
    $("pos").textContent = "step " + cur + "/" + (steps.length - 1) + "  t=" + (steps[cur].t / 1000).toFixed(1) + "s";
    var items = $("events").querySelectorAll("li[data-step]");
    for (var k = 0; k < items.length; k++) {
      var s = +items[k].getAttribute("data-step");
      items[k].classList.toggle("now", s === cur);
      items[k].classList.toggle("future", s > cur);
    }
    var now = $("events").querySelector("li.now");
    if (now) now.scrollIntoView({block: "nearest"});
    var st = JSON.parse(JSON.stringify(steps[cur].state));
    show(st);
  }
  function timeline(tl) {
    header = tl.header;
    steps = tl.steps;
    var ul = $("events");
    steps.forEach(function (s, i) {
      var e = li(s.input, "in", i);
      e.onclick = function () { if (info.traces && s.zone !== null && s.zone !== undefined) tzone = s.zone; go(i); };
      ul.appendChild(e);
      (s.out || []).forEach(function (o) {
        var x = li(o, "out", i);
        x.onclick = function () { go(i); };
        ul.appendChild(x);
      });
    });
    var sc = $("scrub");
    sc.max = steps.length - 1;
    sc.oninput = function () { go(+sc.value); };
    $("tl").hidden = false;
    $("prev").onclick = function () { go(cur - 1); };
    $("next").onclick = function () { go(cur + 1); };
    document.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") go(cur - 1);
      if (e.key === "ArrowRight") go(cur + 1);
    });
    go(steps.length - 1);
  }

  /* ---- live: poll GET api/state?since=N (web API v1) ---- */
  var seq = null;
  function poll() {
    get("api/state" + (seq === null ? "" : "?since=" + seq)).then(function (st) {
      if (st.board && !m) start(st.board);
      if (!st.same) {
        var ul = $("events");
        (st.events || []).forEach(function (e) {
          var o = e[1];
          ul.appendChild(li(o.text || o.ev + " " + JSON.stringify(o), o.ev === "reject" ? "out rej" : "out"));
        });
        while (ul.children.length > 300) ul.removeChild(ul.firstChild);
        ul.scrollTop = ul.scrollHeight;
        seq = st.seq;
        if (st.view) show(st);
      } else if (m && last) {
        last.leds = st.leds;
        m.update(last);
      }
      $("live").textContent = st.live === false ? "finished" : "live";
      setTimeout(poll, st.live === false ? 2000 : 250);
    }).catch(function () {
      $("live").textContent = "disconnected";
      setTimeout(poll, 2000);
    });
  }

  /* ---- human throws ---- */
  function act(body) {
    fetch("api/throw", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json(); })
      .then(function (r) { $("hint").textContent = r.error || r.ok || ""; });
  }

  /* ---- sensor traces (raw logs) ---- */
  function pick(z) {
    if (info.input) return act({zone: z});
    if (!info.traces) return;
    tzone = z;
    drawTraces();
  }
  var loading = {};
  function drawTraces() {
    var svg = $("traces");
    if (tzone === null) {
      var lb = steps && steps[cur].state.view.last_battle;
      tzone = lb ? lb.zone : board.zones[0].id;
    }
    var d = traces[tzone], z = tzone;
    if (!d) {
      if (!loading[z]) {
        loading[z] = 1;
        get("api/traces?zone=" + z).then(function (x) { traces[z] = x; if (tzone === z) drawTraces(); });
      }
      return;
    }
    $("tz").textContent = "zone " + tzone;
    // symmetric log scale: noise, a threshold of tens and fields of thousands all show
    var W = 1000, H = 260, t0 = d.t[0] || 0, t1 = d.t[d.t.length - 1] || 1, lo = 0, hi = d.threshold;
    d.channels.forEach(function (c) { c.dev.forEach(function (x) { if (x < lo) lo = x; if (x > hi) hi = x; }); });
    d.energy.forEach(function (x) { if (x > hi) hi = x; });
    var k0 = Math.max(1, d.threshold / 4), lg = Math.max(hi, -lo) > 20 * Math.max(1, d.threshold);
    var sq = function (v) { return lg ? (v < 0 ? -1 : 1) * Math.log(1 + Math.abs(v) / k0) : v; };
    lo = sq(lo) * 1.05;
    hi = sq(hi) * 1.05 + 1;
    var X = function (t) { return ((t - t0) / Math.max(1, t1 - t0) * W).toFixed(1); };
    var Y = function (v) { return (H - (sq(v) - lo) / (hi - lo) * H).toFixed(1); };
    var esc = function (x) { return String(x).replace(/[<>&"]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
    var line = function (arr, cls) {
      var p = [], step = Math.max(1, Math.floor(arr.length / 2000));
      for (var i = 0; i < arr.length; i += step) p.push(X(d.t[i]) + "," + Y(arr[i]));
      return '<polyline class="' + cls + '" points="' + p.join(" ") + '"/>';
    };
    var s = '<line class="axis" x1="0" x2="' + W + '" y1="' + Y(0) + '" y2="' + Y(0) + '"/>';
    d.channels.forEach(function (c, i) { s += line(c.dev, "ch c" + (i % 6)); });
    s += line(d.energy, "energy");
    s += '<line class="thr" x1="0" x2="' + W + '" y1="' + Y(d.threshold) + '" y2="' + Y(d.threshold) + '"/>';
    for (var tk = Math.ceil(t0 / 10000) * 10000; tk <= t1; tk += 10000)
      s += '<text class="tick" x="' + X(tk) + '" y="' + (H - 3) + '">' + tk / 1000 + 's</text>';
    d.decisions.forEach(function (e, i) {
      s += '<line class="dec ' + e.ev + '" x1="' + X(e.t) + '" x2="' + X(e.t) + '" y1="0" y2="' + H + '"/>' +
           '<text class="dect" x="' + X(e.t) + '" y="' + (10 + 11 * (i % 3)) + '">' + esc(e.ev + " " + (e.bakugan || e.kind || "")) + '</text>';
    });
    s += '<line class="cursor" x1="' + X(curT) + '" x2="' + X(curT) + '" y1="0" y2="' + H + '"/>';
    svg.innerHTML = s;
    $("tlegend").textContent = d.channels.length + " channels (counts from baseline), zone energy E (thick), threshold " +
      d.threshold + " (dashed), decisions (vertical), " + (lg ? "log" : "linear") + " scale, " + ((t1 - t0) / 1000).toFixed(1) + " s";
  }

  function start(b) {
    board = b;
    m = BakuMat.mat($("mat"), board, pick);
  }

  get("api/info").catch(function () { return {live: true}; }).then(function (i) {
    info = i;
    document.title = "BakuMat: " + (info.title || "mat");
    $("src").textContent = info.title || "";
    if (info.traces) { $("tr").hidden = false; tzone = info.trace_zone === undefined ? null : info.trace_zone; }
    if (info.input) {
      $("human").hidden = false;
      $("miss").onclick = function () { act({miss: true}); };
    }
    if (info.timeline) get("api/timeline").then(function (tl) { start(tl.board); timeline(tl); });
    else poll();
  }).catch(function (e) { $("src").textContent = "error: " + e.message; });
})();
