/* BakuMat drawing module: the mat and the game panel from a board
   description and a state (docs/formats/view-state-v1.md). Shared by the
   laptop view (bakumat view) and the board's own page. Plain JS, no
   dependencies.
     var m = BakuMat.mat(svgElement, board, onZoneClick);
     m.update(state);                  // zones, gates, Bakugan, LEDs
     BakuMat.panel(element, state);    // players, turn, captures, last battle */
var BakuMat = (function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var ATTR = {pyrus: "#e53935", aquos: "#1e88e5", subterra: "#a1887f", haos: "#fdd835",
              darkus: "#6a1b9a", ventus: "#43a047"};
  var PLAYER = ["#0050ff", "#ff6e00", "#00c832", "#b400ff"];

  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function hex(c) { return "#" + ("00000" + c.toString(16)).slice(-6); }
  function pcol(p) { return p === null || p === undefined || p < 0 ? "#888" : PLAYER[p % PLAYER.length]; }

  /* Facts about pieces from the game header. */
  function facts(hd) {
    var f = {bak: {}, gate: {}, names: []};
    if (!hd || !hd.players) return f;
    hd.players.forEach(function (p, i) {
      f.names.push(p.name);
      (p.bakugan || []).forEach(function (b) { f.bak[b.id] = {owner: i, attr: b.attr, g: b.g}; });
      (p.gates || []).forEach(function (g) { f.gate[g.id] = {owner: i, bonus: g.bonus || {}}; });
    });
    return f;
  }

  /* LED positions: k LEDs of a zone spread clockwise round its edge from
     the top centre (4 LEDs: top, right, bottom, left). */
  function ledPos(z, k, j) {
    var per = 2 * (z.w + z.h), d = (z.w / 2 + per * j / k) % per, x, y;
    if (d < z.w) { x = z.x + d; y = z.y; }
    else if (d < z.w + z.h) { x = z.x + z.w; y = z.y + d - z.w; }
    else if (d < 2 * z.w + z.h) { x = z.x + z.w - (d - z.w - z.h); y = z.y + z.h; }
    else { x = z.x; y = z.y + z.h - (d - 2 * z.w - z.h); }
    return [x, y];
  }

  function mat(svg, board, onZone) {
    if (board.colors && board.colors.player) PLAYER = board.colors.player.map(hex);
    var lay = board.leds || {};
    var W = board.outline ? board.outline.w : 0, H = board.outline ? board.outline.h : 0;
    board.zones.forEach(function (z) { W = Math.max(W, z.x + z.w + 6); H = Math.max(H, z.y + z.h + 6); });
    svg.setAttribute("viewBox", "-4 -26 " + (W + 8) + " " + (H + 52));
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    el("rect", {x: 0, y: 0, width: W, height: H, rx: 6, "class": "matbg"}, svg);
    var sides = [el("text", {x: W / 2, y: -8, "class": "side"}, svg),
                 el("text", {x: W / 2, y: H + 18, "class": "side"}, svg)];
    var zg = {}, leds = [];
    board.zones.forEach(function (z, zi) {
      var g = el("g", {"class": "zone", "data-zone": z.id}, svg);
      el("rect", {x: z.x, y: z.y, width: z.w, height: z.h, rx: 3, "class": "zr"}, g);
      el("text", {x: z.x + 3, y: z.y + 9, "class": "zid"}, g, z.id);
      var dyn = el("g", {}, g);
      if (onZone) g.addEventListener("click", function () { onZone(z.id); });
      zg[z.id] = {g: g, dyn: dyn, z: z};
      var ids = (lay.zones && lay.zones[zi]) || [];
      ids.forEach(function (i, j) {
        var p = ledPos({x: z.x + 3, y: z.y + 3, w: z.w - 6, h: z.h - 6}, ids.length, j);
        leds[i] = el("circle", {cx: p[0], cy: p[1], r: 2.6, "class": "led", "data-led": i}, svg);
      });
    });
    (board.buttons || []).forEach(function (b) {
      el("rect", {x: b.x - 5, y: b.y - 3, width: 10, height: 6, rx: 2, "class": "btn"}, svg);
      el("text", {x: b.x, y: b.y + 1.6, "class": "btnt"}, svg, b.role);
    });
    var at = {};
    (lay.edge || []).forEach(function (e) { at[e.led] = e; });
    (lay.status || []).forEach(function (i, j) {
      var e = at[i] || {x: W / 2 + (j - (lay.status.length - 1) / 2) * 9, y: H + 8};
      leds[i] = el("circle", {cx: e.x, cy: e.y, r: 3, "class": "led", "data-led": i}, svg);
    });
    var cap = lay.cap || 255;

    function update(st) {
      var v = st.view || {}, f = facts(st.header), zones = v.zones || {};
      f.names.forEach(function (n, i) {
        if (i < 2) {
          sides[i].textContent = n + (v.turn === i && v.phase !== "over" ? " \u25c0 turn" : "");
          sides[i].setAttribute("fill", pcol(i));
        }
      });
      var bt = v.battle, lb = v.last_battle, ch = v.choice;
      for (var id in zg) {
        var o = zg[id], z = o.z, info = zones[id], dyn = o.dyn;
        while (dyn.firstChild) dyn.removeChild(dyn.firstChild);
        var cls = "zone";
        if (info) cls += " gated";
        if (bt && bt.zone == id) cls += " battle";
        if (ch && ch.zone == id) cls += " choice";
        if (lb && lb.zone == id) cls += " last";
        o.g.setAttribute("class", cls);
        o.g.removeAttribute("data-gate");
        o.g.removeAttribute("data-bakugan");
        if (!info) continue;
        var gf = f.gate[info.gate] || {bonus: {}}, oc = pcol(info.owner);
        o.g.setAttribute("data-gate", info.gate);
        el("rect", {x: z.x + 5, y: z.y + 12, width: z.w - 10, height: z.h - 17, rx: 2, "class": "card",
                    stroke: oc, fill: oc}, dyn);
        el("text", {x: z.x + z.w / 2, y: z.y + 21, "class": "gname"}, dyn, info.gate);
        var bl = [];
        for (var a in gf.bonus) bl.push(a.slice(0, 3) + (gf.bonus[a] >= 0 ? "+" : "") + gf.bonus[a]);
        el("text", {x: z.x + z.w / 2, y: z.y + z.h - 8, "class": "bonus"}, dyn, bl.join(" "));
        var bk = info.bakugan || [];
        o.g.setAttribute("data-bakugan", bk.join(" "));
        bk.forEach(function (b, j) {
          var bf = f.bak[b] || {}, n = bk.length;
          var cx = z.x + z.w / 2 + (n > 1 ? (j - (n - 1) / 2) * (z.w / n) : 0), cy = z.y + z.h / 2;
          var r = n > 1 ? 11 : 14;
          var bg = el("g", {"class": "bak", "data-bakugan": b}, dyn);
          el("circle", {cx: cx, cy: cy, r: r, fill: ATTR[bf.attr] || "#999", stroke: pcol(bf.owner)}, bg);
          el("text", {x: cx, y: cy + 3, "class": "g"}, bg, bf.g === undefined ? "" : bf.g);
          el("text", {x: cx, y: cy + r + 8, "class": "bname"}, bg, b);
        });
      }
      var L = st.leds || [];
      for (var i = 0; i < leds.length; i++) {
        if (!leds[i]) continue;
        var q = L[i] || [0, 0, 0], c = (q[0] << 16) | (q[1] << 8) | q[2];
        // As the eye sees it: undo the brightness cap, then a gamma of 2.2.
        leds[i].setAttribute("fill", c ? "rgb(" + q.map(function (x) {
          return Math.round(255 * Math.pow(Math.min(1, x / cap), 0.45));
        }) + ")" : "#222");
        leds[i].setAttribute("data-rgb", hex(c));
      }
    }
    return {update: update};
  }

  function status(v, f) {
    if (v.phase === "over")
      return v.winner === null || v.winner === undefined ? "Game over: no winner" : f.names[v.winner] + " wins!";
    if (v.battle) return "Battle on zone " + v.battle.zone + ": " + v.battle.attacker + " vs " + v.battle.defender;
    if (v.choice) return f.names[v.choice.player] + ": take the gate on zone " + v.choice.zone + " or move";
    if (v.phase === "setup") return "Set-up: each player places a gate card";
    if (v.phase === "refill") return "Field empty: place a gate card";
    return (f.names[v.turn] || "?") + "'s turn";
  }

  function panel(root, st) {
    var v = st.view || {}, hd = st.header || {}, f = facts(hd);
    while (root.firstChild) root.removeChild(root.firstChild);
    var s = h("div", "status", root, status(v, f));
    s.id = "status";
    if (v.phase === "over") {
      s.className += " over";
      s.setAttribute("data-winner", v.winner === null ? "" : v.winner);
    }
    var onField = {};
    for (var z in v.zones || {}) (v.zones[z].bakugan || []).forEach(function (b) { onField[b] = z; });
    (hd.players || []).forEach(function (p, i) {
      var d = h("div", "player" + (v.turn === i && v.phase !== "over" ? " turn" : "") + (v.winner === i ? " won" : ""), root);
      d.setAttribute("data-player", i);
      d.style.borderColor = pcol(i);
      var caps = (v.captured || [])[i] || [];
      h("b", "", d, p.name);
      h("span", "caps", d, " " + caps.length + "/" + (hd.target || 3) + " gates" + (caps.length ? ": " + caps.join(", ") : ""));
      var ul = h("div", "baks", d);
      (p.bakugan || []).forEach(function (b) {
        var c = h("span", "chip" + (onField[b.id] !== undefined ? " on" : ""), ul, b.id + " " + b.g);
        c.style.borderColor = ATTR[b.attr] || "#999";
        c.title = b.attr + (onField[b.id] !== undefined ? ", on zone " + onField[b.id] : "");
      });
    });
    var lb = v.last_battle;
    if (lb) {
      var t = h("table", "arith", root);
      t.id = "battle";
      h("caption", "", t, "Last battle, zone " + lb.zone);
      [lb.attacker, lb.defender].forEach(function (b) {
        var p = lb.parts[b] || [0, 0, 0], bf = f.bak[b] || {};
        var tr = h("tr", b === lb.winner ? "win" : "", t);
        tr.setAttribute("data-bakugan", b);
        h("th", "", tr, b).style.color = pcol(bf.owner);
        h("td", "", tr, p[0] + " G");
        h("td", "", tr, (p[1] >= 0 ? "+ " : "\u2212 ") + Math.abs(p[1]) + " gate");
        h("td", "", tr, (p[2] >= 0 ? "+ " : "\u2212 ") + Math.abs(p[2]) + " abilities");
        h("td", "pw", tr, "= " + (p[0] + p[1] + p[2]) + (b === lb.winner ? " \u2714" : ""));
      });
    }
  }

  return {mat: mat, panel: panel, facts: facts, status: status, ATTR: ATTR, pcol: pcol};
})();
