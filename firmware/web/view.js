/* The laptop page (bakumat view): a log's timeline, a live game, a raw log's
   sensor traces, human throws. Drawing: mat.js. API: docs/formats/web-view-v1.md */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var info, board, m = null, header = null, last = null, steps = null, cur = 0, seq = null;
  var traces = {}, loading = {}, tzone = null, drawn = null, X = null;

  function get(u) {
    return fetch(u).then(function (r) {
      if (!r.ok) throw new Error(u + ": HTTP " + r.status);
      return r.json();
    });
  }
  function li(text, cls, i) {
    var e = document.createElement("li");
    e.textContent = text;
    e.className = cls;
    if (i !== undefined) {
      e.setAttribute("data-step", i);
      e.onclick = function () { if (steps[i].zone !== null && steps[i].zone !== undefined) tzone = steps[i].zone; go(i); };
    }
    $("events").appendChild(e);
  }
  function show(st) {
    if (st.header) header = st.header;
    st.header = header;
    last = st;
    m.update(st);
    BakuMat.panel($("panel"), st);
    var q = st.asking || {}, n = BakuMat.facts(header).names;
    $("ask").textContent = q.what === "which" ? "The mat asks " + n[q.player] + " who landed on zone " + q.zone +
      ": " + q.bakugan + " or " + q.alt + "?" : "";
    if (info.input) $("hint").textContent = st.prompt ? st.prompt :
      st.throw ? "your throw with " + st.throw + ": click a zone" : "wait for your turn";
    if (info.traces) drawTraces();
  }

  /* ---- a log: steps to scrub ---- */
  function go(i) {
    cur = Math.max(0, Math.min(steps.length - 1, i));
    $("scrub").value = cur;
    $("pos").textContent = "step " + cur + "/" + (steps.length - 1) + "  " + BakuMat.stamp(steps[cur].t);
    var items = $("events").children;
    for (var k = 0; k < items.length; k++) {
      var s = +items[k].getAttribute("data-step");
      items[k].classList.toggle("now", s === cur);
      items[k].classList.toggle("future", s > cur);
    }
    var now = $("events").querySelector("li.now");
    if (now) now.scrollIntoView({block: "nearest"});
    show(JSON.parse(JSON.stringify(steps[cur].state)));
  }
  function timeline(tl) {
    header = tl.header;
    steps = tl.steps;
    steps.forEach(function (s, i) {
      li(s.input, "in", i);
      (s.out || []).forEach(function (o) { li(o, "out", i); });
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
    go(0);      // a log opens where the game starts; the slider, arrows and keys go on from there
  }

  /* ---- live: poll GET api/state?since=N ---- */
  var said = null, saidFor = null;   // the mat's words (host_tools/words.py's, BakuMat.words) for this header
  function poll() {
    get("api/state" + (seq === null ? "" : "?since=" + seq)).then(function (st) {
      if (st.board && !m) start(st.board);
      if (st.header) header = st.header;   // (sent once: kept even from a state with no view yet)
      if (!st.same) {
        var ul = $("events");
        (st.events || []).forEach(function (e) {
          if (!said || saidFor !== header) { said = BakuMat.words(header); saidFor = header; }
          li(e[1].text || said.line(e[1]), e[1].ev === "reject" ? "out rej" : "out");
        });
        while (ul.children.length > 300) ul.removeChild(ul.firstChild);
        ul.scrollTop = ul.scrollHeight;
        seq = st.seq;
        if (st.view) show(st);
      } else if (last) {
        last.leds = st.leds;
        last.throw = st.throw;
        last.prompt = st.prompt;
        show(last);
      }
      $("live").textContent = st.live === false ? "finished" : "live";
      setTimeout(poll, st.live === false ? 2000 : 250);
    }).catch(function () {
      $("live").textContent = "disconnected";
      setTimeout(poll, 2000);
    });
  }

  function act(body) {
    fetch("api/throw", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (r) { return r.json(); })
      .then(function (r) { $("hint").textContent = r.error || r.ok; });
  }
  function pick(z) {
    if (info.input) return act({zone: z});
    if (info.traces) { tzone = z; drawTraces(); }
  }

  /* ---- a raw log: sensor traces of one zone, a cursor at the step's time ---- */
  function drawTraces() {
    if (tzone === null) tzone = board.zones[0].id;
    var z = tzone, d = traces[z], svg = $("traces"), t = (last && last.t) || 0;
    if (!d) {
      if (!loading[z]) {
        loading[z] = 1;
        get("api/traces?zone=" + z).then(function (x) { traces[z] = x; if (tzone === z) drawTraces(); });
      }
      return;
    }
    if (drawn !== z) {
      drawn = z;
      var W = 1000, H = 260, t0 = d.t[0] || 0, t1 = d.t[d.t.length - 1] || 1, lo = 0, hi = d.threshold;
      d.channels.forEach(function (c) { c.dev.forEach(function (x) { lo = Math.min(lo, x); hi = Math.max(hi, x); }); });
      d.energy.concat(d.coherent || []).forEach(function (x) { hi = Math.max(hi, x); });
      // strong fields: a symmetric log scale, so the threshold stays visible
      var k0 = Math.max(1, d.threshold / 4), lg = Math.max(hi, -lo) > 20 * Math.max(1, d.threshold);
      var f = function (v) { return lg ? (v < 0 ? -1 : 1) * Math.log(1 + Math.abs(v) / k0) : v; };
      lo = f(lo) * 1.05;
      hi = f(hi) * 1.05 + 1;
      X = function (t) { return ((t - t0) / Math.max(1, t1 - t0) * W).toFixed(1); };
      var Y = function (v) { return (H - (f(v) - lo) / (hi - lo) * H).toFixed(1); };
      var esc = function (x) { return String(x).replace(/[<>&"]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
      var vl = function (cls, x) { return '<line class="' + cls + '" x1="' + x + '" x2="' + x + '" y1="0" y2="' + H + '"/>'; };
      var hl = function (cls, y) { return '<line class="' + cls + '" x1="0" x2="' + W + '" y1="' + y + '" y2="' + y + '"/>'; };
      var line = function (arr, cls) {
        var p = [], step = Math.max(1, Math.floor(arr.length / 2000));
        for (var i = 0; i < arr.length; i += step) p.push(X(d.t[i]) + "," + Y(arr[i]));
        return '<polyline class="' + cls + '" points="' + p.join(" ") + '"/>';
      };
      var s = hl("axis", Y(0));
      d.channels.forEach(function (c, i) { s += line(c.dev, "ch c" + (i % 6)); });
      s += line(d.energy, "energy") + hl("thr", Y(d.threshold));
      if (d.coherent) s += line(d.coherent, "coh") + hl("thr cthr", Y(d.coherent_threshold));
      for (var tk = Math.ceil(t0 / 10000) * 10000; tk <= t1; tk += 10000)
        s += '<text class="tick" x="' + X(tk) + '" y="' + (H - 3) + '">' + tk / 1000 + "s</text>";
      d.decisions.forEach(function (e, i) {
        s += vl("dec " + e.ev, X(e.t)) + '<text class="dect" x="' + X(e.t) + '" y="' + (10 + 11 * (i % 3)) + '">' +
             esc(e.ev + " " + (e.bakugan || e.kind || "")) + "</text>";
      });
      svg.innerHTML = s + vl("cursor", 0);
      $("tz").textContent = "zone " + z;
      $("tlegend").textContent = d.channels.length + " sensors (counts from baseline), zone energy E (white, threshold " +
        d.threshold + " dashed red)" + (d.coherent ? ", coherent sum C (green, threshold " + d.coherent_threshold + " dashed)" : "") + ", decisions (vertical), " + (lg ? "log" : "linear") + " scale, " + ((t1 - t0) / 1000).toFixed(1) + " s";
    }
    var c = svg.querySelector(".cursor");
    c.setAttribute("x1", X(t));
    c.setAttribute("x2", X(t));
  }

  function start(b) {
    board = b;
    m = BakuMat.mat($("mat"), board, pick);
  }

  get("api/info").catch(function () { return {live: true}; }).then(function (i) {
    info = i;
    document.title = "BakuMat: " + (info.title || "mat");
    $("src").textContent = info.title || "";
    if (info.traces) {
      $("tr").hidden = false;
      if (info.trace_zone !== undefined) tzone = info.trace_zone;
    }
    if (info.input) {
      $("human").hidden = false;
      $("miss").onclick = function () { act({miss: true}); };
    }
    if (info.timeline) get("api/timeline").then(function (tl) { start(tl.board); timeline(tl); });
    else poll();
  }).catch(function (e) { $("src").textContent = "error: " + e.message; });
})();
