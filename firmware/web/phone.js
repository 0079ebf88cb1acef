/* The board's phone page (docs/table-play.md, web-api-v1.md): the mat, a
   side to claim, what buttons make awkward. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var m = null, words = null, hd = null, st = null, seq = null, me = null, code = null, placing = null, teaching = null;
  var lesson = null;   // [bakugan, zone] the mat is learning: drawn on its zone until the mat learnt it
  var ATTRS = ["pyrus", "aquos", "subterra", "haos", "darkus", "ventus"];

  function post(u, body) {
    return fetch(u, {method: "POST", body: JSON.stringify(body)}).then(function (r) { return r.json(); });
  }
  // what came back: nothing to say when it was taken (the log below says what happened)
  function say(r) { $("msg").textContent = r.error || (r.ok ? "" : "refused: " + r.reason); }
  function input(body) {
    body.code = code;
    return post("api/input", body).then(function (r) { say(r); poll(); return r; });
  }
  function el(t, parent, text, before) {
    var e = document.createElement(t);
    e.textContent = text;
    return parent.insertBefore(e, before || null);
  }
  function btn(parent, text, id, f) {
    var b = el("button", parent, text);
    if (id) b.id = id;
    b.onclick = f;
    return b;
  }
  function box(title, parent) {
    var f = el("fieldset", parent || $("acts"));
    el("legend", f, title);
    return f;
  }

  var ls = localStorage;   // a reload keeps the side
  function claim(p, c) {
    post("api/claim", {player: p, code: c}).then(function (r) {
      if (r.code) {
        me = r.player; code = r.code;
        ls.side = me + " " + code;
        $("me").textContent = "You play " + hd.players[me].name + ". Side code " + code +
          ": another phone can play " + hd.players[me].name + " only with it (this phone keeps it)";
        $("acts").hidden = false;
        controls();
      } else if (code === "") sides(code = null, delete ls.side);
      else {
        var k = window.prompt(r.error + ": enter that side's code");
        if (k) claim(p, k);
      }
    });
  }
  function sides() {
    var k = (ls.side || "").split(" ");
    if (k[1] && code === null) return claim(+k[0], k[1], code = "");
    var d = $("me");
    d.textContent = "Play as: ";
    hd.players.forEach(function (p, i) { btn(d, p.name, "claim" + i, function () { claim(i); }); });
  }

  var drawn = null;
  function controls() {
    var a = $("acts"), v = st.view || {}, p = hd.players[me], tt = st.taught || [], key = [placing, teaching, v.phase, v.choice ? v.choice.player : -1, tt.join()];
    for (var k in v.zones || {}) if (v.zones[k].owner === me) key.push(k + v.zones[k].gate);
    key = JSON.stringify(key);
    if (key === drawn) return;  // keep what is being typed
    drawn = key;
    a.textContent = "";
    if (me === null) return;
    if (v.phase === "setup") {
      var un = (p.bakugan || []).filter(function (x) { return tt.indexOf(x.id) < 0; }).length;
      var tb = box("Teach the mat: pick a Bakugan, tap an empty zone" + (un ? " (" + un + " not taught: the mat cannot tell them apart)" : ""));
      (p.bakugan || []).forEach(function (x) {
        btn(tb, x.id + (tt.indexOf(x.id) < 0 ? "" : " \u2713") + (teaching === x.id ? " \u2190" : ""), "teach-" + x.id, function () { teaching = x.id; placing = null; controls(); });
      });
    }
    var g = box("Gate card: pick it, then tap its zone");
    (p.gates || []).forEach(function (c) {
      btn(g, c.id + (placing === c.id ? " \u2190" : ""), "place-" + c.id, function () { placing = c.id; teaching = null; controls(); });
    });
    for (var z in v.zones || {}) {
      var zi = v.zones[z];
      if (zi.gate && zi.owner === me) {
        var f = box("Values of " + zi.gate + " (zone " + z + "), as the deck gives them: correct them to the card's"),
            known = (BakuMat.facts(hd).gate[zi.gate] || {}).bonus || {};
        f.setAttribute("data-gate", zi.gate);
        ATTRS.forEach(function (at) {
          var n = el("input", el("label", f, at + " "));
          n.type = "number"; n.step = 10; n.name = at;
          if (known[at] !== undefined) n.value = known[at];
        });
        (function (gid, f) {
          btn(f, "Set values", "reveal-" + gid, function () {
            var bonus = {};
            f.querySelectorAll("input").forEach(function (n) { if (n.value !== "") bonus[n.name] = parseInt(n.value, 10); });
            input({ev: "reveal", gate: gid, bonus: bonus});
          });
        })(zi.gate, f);
      }
    }
    var ab = box("Abilities");
    (p.abilities || []).forEach(function (c) {
      btn(ab, c.id, "ability-" + c.id, function () { input({ev: "ability", card: c.id}); });
    });
    var o = box("Game");
    btn(o, "Battle over", "resolve", function () { input({ev: "resolve"}); });
    if (v.choice && v.choice.player === me) btn(o, "Take the gate", "take", function () { input({ev: "choose", action: "take"}); });
    btn(o, "Missed", "miss", function () {
      var on = {}, b = null;
      for (var z in v.zones || {}) (v.zones[z].bakugan || []).forEach(function (x) { on[x] = 1; });
      (p.bakugan || []).forEach(function (x) { if (b === null && !on[x.id]) b = x.id; });
      if (b !== null) input({ev: "miss", bakugan: b});
    });
    btn(o, "Undo last", "undo", function () { input({ev: "undo"}); });
  }

  // the mat is unsure who landed: the thrower answers, others are told
  var asked = null;
  function ask() {
    var q = st.asking || {}, d = $("ask"), k = q.what === "which" ? JSON.stringify([q, me]) : null, mine = k && q.player === me;
    if (k === asked) return;
    asked = k;
    d.textContent = k && !mine ? "The mat asks " + hd.players[q.player].name + " who landed on zone " + q.zone : "";
    if (!mine) return;
    var f = box("Who landed on zone " + q.zone + "? The mat thinks " + q.bakugan, d), bak = BakuMat.facts(hd).bak;
    // the one named, then every other of the thrower's Bakugan not standing
    // elsewhere (the runner-up first): any of them may be the one that landed
    var on = {}, zs = (st.view || {}).zones || {}, opts = [["Yes, ", q.bakugan, "yes"]];
    for (var z in zs) if (+z !== q.zone) (zs[z].bakugan || []).forEach(function (x) { on[x] = 1; });
    var rest = (hd.players[q.player].bakugan || []).map(function (x) { return x.id; }).filter(function (x) {
      return x !== q.bakugan && !on[x];
    });
    rest.sort(function (a, b) { return (b === q.alt) - (a === q.alt); });
    rest.forEach(function (x) { opts.push(["No, it was ", x, x]); });
    opts.forEach(function (x) {
      var b = bak[x[1]];
      btn(f, x[0] + x[1] + (b ? " (" + b.attr + " " + b.g + ")" : ""), "which-" + x[2],
          function () { input({ev: "which", zone: q.zone, bakugan: x[1]}); });
    });
  }

  function zone(z) {
    if (me === null) return;
    var v = st.view || {};
    if (teaching) {
      var b = teaching;
      teaching = null;
      controls();
      input({ev: "register", bakugan: b, zone: z}).then(function (r) {
        if (!r.ok) return;
        lesson = [b, z];
        $("msg").textContent = "put a gate card on zone " + z + " and " + b + " on the middle of it, open and still";
        if (m && st) m.update(marked(st));
      });
      return;
    }
    if (placing) { input({ev: "gate", gate: placing, zone: z}); placing = null; return; }
    if (v.choice && v.choice.player === me) input({ev: "choose", action: "move", zone: z});
  }

  // the zone of a lesson under way, drawn with the card and the Bakugan to put there
  function marked(s) {
    var c = {};
    for (var k in s) c[k] = s[k];
    c.marks = {};
    if (lesson) c.marks[lesson[1]] = lesson[0];
    return c;
  }

  // before any game: what the page is for and how a game starts
  function nogame() {
    var d = $("panel");
    if (d.querySelector("#nogame")) return;
    d.textContent = "";
    var n = el("div", d, "No game on the mat yet.");
    n.id = "nogame";
    n.className = "status";
    el("p", d, "This page shows the game once one is set up, and lets each player claim a side: " +
       "teach the mat your Bakugan, say which gate card you placed, play abilities, answer the mat's questions.");
    el("p", d, "To start a game: on the laptop, bakumat game new (docs/guide.md). This page finds it by itself.");
  }

  function poll() {
    return fetch("api/state" + (seq === null ? "" : "?since=" + seq) + (code ? (seq === null ? "?" : "&") + "code=" + code : ""))
      .then(function (r) {
        if (r.status === 503) throw new Error("waiting for a game", nogame());
        if (r.status === 403) throw new Error("claim a side", sides(code = me = null, delete ls.side, $("acts").hidden = true));
        return r.json();
      }).then(function (s) {
        if (s.board && !m) { $("mat").removeAttribute("hidden"); m = BakuMat.mat($("mat"), s.board, zone); }
        if (s.header && !hd) { hd = s.header; if (me === null) sides(); }
        s.header = hd;
        // the mat's words: host_tools/words.py's phrases (one object per game: it remembers the landings)
        var w = words || (hd ? (words = BakuMat.words(hd)) : BakuMat.words(null));
        (s.events || []).forEach(function (e) {
          if (lesson && e[1].ev === "learnt" && e[1].bakugan === lesson[0]) {
            $("msg").textContent = "the mat learnt " + lesson[0] + ": take it and the card off zone " + e[1].zone;
            lesson = null;
          }
          var li = el("li", $("events"), w.line(e[1]), $("events").firstChild);
          li.className = e[1].ev === "reject" ? "out rej" : "out";
        });
        while ($("events").children.length > 60) $("events").removeChild($("events").lastChild);
        var changed = st === null || s.seq !== seq;
        seq = s.seq;
        st = s;
        if (m) m.update(marked(s));
        BakuMat.panel($("panel"), s);
        ask();
        if (changed && me !== null) controls();
        $("live").textContent = "live";
      }).catch(function (e) { $("live").textContent = /^(wait|claim)/.test(e.message) ? e.message : "disconnected"; });
  }
  function loop() { poll().then(function () { setTimeout(loop, 700); }); }
  loop();
})();
