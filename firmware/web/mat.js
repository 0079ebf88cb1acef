/* BakuMat drawing, shared by the laptop view and the board's phone page.
   Plain JS, no dependencies. Data: docs/formats/web-api-v1.md, web-view-v1.md.
     var m = BakuMat.mat(svg, board, onZoneClick); m.update(state);
     BakuMat.panel(div, state);   // status, players, captures, last battle */
var BakuMat = (function () {
  "use strict";
  var ATTR = {pyrus: "#e53935", aquos: "#1e88e5", subterra: "#a1887f", haos: "#fdd835",
              darkus: "#6a1b9a", ventus: "#43a047"};
  var PLAYER = ["#0050ff", "#ff6e00", "#00c832", "#b400ff"];

  // an SVG element (svg true) or an HTML one; a: attributes (SVG) or class (HTML)
  function mk(svg, tag, a, parent, text) {
    var e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
    if (svg) for (var k in a) e.setAttribute(k, a[k]);
    else if (a) e.className = a;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function el(tag, a, parent, text) { return mk(true, tag, a, parent, text); }
  function h(tag, cls, parent, text) { return mk(false, tag, cls, parent, text); }
  function hex(c) { return "#" + ("00000" + c.toString(16)).slice(-6); }
  function pcol(p) { return p === null || p === undefined || p < 0 ? "#888" : PLAYER[p % PLAYER.length]; }
  function sgn(n) { return (n < 0 ? "\u2212 " : "+ ") + Math.abs(n); }

  // who owns what, from the game header
  function facts(hd) {
    var f = {bak: {}, gate: {}, names: []};
    ((hd && hd.players) || []).forEach(function (p, i) {
      f.names.push(p.name);
      (p.bakugan || []).forEach(function (b) { f.bak[b.id] = {owner: i, attr: b.attr, g: b.g}; });
      (p.gates || []).forEach(function (g) { f.gate[g.id] = {owner: i, bonus: g.bonus || {}}; });
    });
    return f;
  }

  // LED j of k round a zone: clockwise from the top centre (4: top, right, bottom, left)
  function ledPos(z, k, j) {
    var w = z.w - 6, ht = z.h - 6, x = z.x + 3, y = z.y + 3, per = 2 * (w + ht), d = (w / 2 + per * j / k) % per;
    if (d < w) return [x + d, y];
    if (d < w + ht) return [x + w, y + d - w];
    if (d < 2 * w + ht) return [x + w - (d - w - ht), y + ht];
    return [x, y + ht - (d - 2 * w - ht)];
  }

  function mat(svg, board, onZone) {
    if (board.colors && board.colors.player) PLAYER = board.colors.player.map(hex);
    var lay = board.leds || {}, cap = lay.cap || 255, zg = {}, leds = [], at = {};
    var W = board.outline ? board.outline.w : 0, H = board.outline ? board.outline.h : 0;
    board.zones.forEach(function (z) { W = Math.max(W, z.x + z.w + 6); H = Math.max(H, z.y + z.h + 6); });
    svg.setAttribute("viewBox", "-4 -26 " + (W + 8) + " " + (H + 52));
    svg.textContent = "";
    el("rect", {x: 0, y: 0, width: W, height: H, rx: 6, "class": "matbg"}, svg);
    var sides = [el("text", {x: W / 2, y: -8, "class": "side"}, svg), el("text", {x: W / 2, y: H + 18, "class": "side"}, svg)];
    function led(i, x, y, r) { leds[i] = el("circle", {cx: x, cy: y, r: r, "class": "led", "data-led": i}, svg); }
    board.zones.forEach(function (z, zi) {
      var g = el("g", {"class": "zone", "data-zone": z.id}, svg);
      el("rect", {x: z.x, y: z.y, width: z.w, height: z.h, rx: 3, "class": "zr"}, g);
      el("text", {x: z.x + 3, y: z.y + 9, "class": "zid"}, g, z.id);
      if (onZone) g.addEventListener("click", function () { onZone(z.id); });
      zg[z.id] = {g: g, dyn: el("g", {}, g), z: z};
      var ids = (lay.zones && lay.zones[zi]) || [];
      ids.forEach(function (i, j) { var p = ledPos(z, ids.length, j); led(i, p[0], p[1], 2.6); });
    });
    (board.buttons || []).forEach(function (b) {
      el("rect", {x: b.x - 5, y: b.y - 3, width: 10, height: 6, rx: 2, "class": "btn"}, svg);
      el("text", {x: b.x, y: b.y + 1.6, "class": "btnt"}, svg, b.role);
    });
    (lay.edge || []).forEach(function (e) { at[e.led] = e; });
    (lay.status || []).forEach(function (i, j) {
      var e = at[i] || {x: W / 2 + (j - (lay.status.length - 1) / 2) * 9, y: H + 8};
      led(i, e.x, e.y, 3);
    });

    function update(st) {
      var v = st.view || {}, f = facts(st.header), zones = v.zones || {}, bt = v.battle, lb = v.last_battle, ch = v.choice;
      f.names.slice(0, 2).forEach(function (n, i) {
        sides[i].textContent = n + (v.turn === i && v.phase !== "over" ? " \u25c0 turn" : "");
        sides[i].setAttribute("fill", pcol(i));
      });
      for (var id in zg) {
        var o = zg[id], z = o.z, info = zones[id], dyn = o.dyn, cx = z.x + z.w / 2;
        dyn.textContent = "";
        o.g.setAttribute("class", "zone" + (info ? " gated" : "") + (bt && bt.zone == id ? " battle" : "") +
                         (ch && ch.zone == id ? " choice" : "") + (lb && lb.zone == id ? " last" : ""));
        o.g.removeAttribute("data-gate");
        o.g.removeAttribute("data-bakugan");
        if (!info) continue;
        var gf = f.gate[info.gate] || {bonus: {}}, oc = pcol(info.owner), bl = [], bk = info.bakugan || [];
        o.g.setAttribute("data-gate", info.gate);
        o.g.setAttribute("data-bakugan", bk.join(" "));
        el("rect", {x: z.x + 5, y: z.y + 12, width: z.w - 10, height: z.h - 17, rx: 2, "class": "card", stroke: oc, fill: oc}, dyn);
        el("text", {x: cx, y: z.y + 21, "class": "gname"}, dyn, info.gate);
        for (var a in gf.bonus) bl.push(a.slice(0, 3) + (gf.bonus[a] < 0 ? "" : "+") + gf.bonus[a]);
        el("text", {x: cx, y: z.y + z.h - 8, "class": "bonus"}, dyn, bl.join(" "));
        bk.forEach(function (b, j) {
          var bf = f.bak[b] || {}, n = bk.length, x = cx + (j - (n - 1) / 2) * (z.w / n), y = z.y + z.h / 2, r = n > 1 ? 11 : 14;
          var g = el("g", {"class": "bak", "data-bakugan": b}, dyn);
          el("circle", {cx: x, cy: y, r: r, fill: ATTR[bf.attr] || "#999", stroke: pcol(bf.owner)}, g);
          el("text", {x: x, y: y + 3, "class": "g"}, g, bf.g === undefined ? "" : bf.g);
          el("text", {x: x, y: y + r + 8, "class": "bname"}, g, b);
        });
      }
      // LEDs as the eye sees them: undo the board's brightness cap, then a 2.2 gamma
      leds.forEach(function (e, i) {
        var q = (st.leds || [])[i] || [0, 0, 0], c = (q[0] << 16) | (q[1] << 8) | q[2];
        e.setAttribute("fill", c ? "rgb(" + q.map(function (x) { return Math.round(255 * Math.pow(Math.min(1, x / cap), 0.45)); }) + ")" : "#222");
        e.setAttribute("data-rgb", hex(c));
      });
    }
    return {update: update};
  }

  function status(v, f) {
    if (v.phase === "over") return v.winner === null || v.winner === undefined ? "Game over: no winner" : f.names[v.winner] + " wins!";
    if (v.battle) return "Battle on zone " + v.battle.zone + ": " + v.battle.attacker + " vs " + v.battle.defender;
    if (v.choice) return f.names[v.choice.player] + ": take the gate on zone " + v.choice.zone + " or move";
    if (v.phase === "setup") return "Set-up: each player places a gate card";
    if (v.phase === "refill") return "Field empty: place a gate card";
    return (f.names[v.turn] || "?") + "'s turn";
  }

  function panel(root, st) {
    var v = st.view || {}, hd = st.header || {}, f = facts(hd), on = {}, lb = v.last_battle;
    root.textContent = "";
    var s = h("div", "status" + (v.phase === "over" ? " over" : ""), root, status(v, f));
    s.id = "status";
    if (v.phase === "over") s.setAttribute("data-winner", v.winner === null ? "" : v.winner);
    for (var z in v.zones || {}) (v.zones[z].bakugan || []).forEach(function (b) { on[b] = z; });
    (hd.players || []).forEach(function (p, i) {
      var d = h("div", "player" + (v.turn === i && v.phase !== "over" ? " turn" : "") + (v.winner === i ? " won" : ""), root);
      var caps = (v.captured || [])[i] || [], ul;
      d.setAttribute("data-player", i);
      d.style.borderColor = pcol(i);
      h("b", "", d, p.name);
      h("span", "caps", d, " " + caps.length + "/" + (hd.target || 3) + " gates" + (caps.length ? ": " + caps.join(", ") : ""));
      ul = h("div", "", d);
      (p.bakugan || []).forEach(function (b) {
        var c = h("span", "chip" + (on[b.id] === undefined ? "" : " on"), ul, b.id + " " + b.g);
        c.style.borderColor = ATTR[b.attr] || "#999";
        c.title = b.attr + (on[b.id] === undefined ? "" : ", on zone " + on[b.id]);
      });
    });
    if (!lb) return;
    var t = h("table", "arith", root);
    t.id = "battle";
    h("caption", "", t, "Last battle, zone " + lb.zone);
    [lb.attacker, lb.defender].forEach(function (b) {
      var p = lb.parts[b] || [0, 0, 0], tr = h("tr", b === lb.winner ? "win" : "", t);
      tr.setAttribute("data-bakugan", b);
      h("th", "", tr, b).style.color = pcol((f.bak[b] || {}).owner);
      h("td", "", tr, p[0] + " G");
      h("td", "", tr, sgn(p[1]) + " gate");
      h("td", "", tr, sgn(p[2]) + " abilities");
      h("td", "pw", tr, "= " + (p[0] + p[1] + p[2]) + (b === lb.winner ? " \u2714" : ""));
    });
  }

  // one output event (event-log-v1) in words, for servers that send no `text`
  function say(e, hd) {
    var n = facts(hd).names, p = n[e.player] || "player " + e.player, k = e.ev, s;
    if (k === "placed") s = p + " places gate " + e.gate + " on zone " + e.zone;
    else if (k === "turn") s = "-- " + p + "'s turn";
    else if (k === "stand") s = p + " opens " + e.bakugan + " on zone " + e.zone;
    else if (k === "miss") s = p + " misses with " + e.bakugan;
    else if (k === "clash") s = "BATTLE on zone " + e.zone + ": " + e.attacker + " attacks " + e.defender;
    else if (k === "ability") s = p + " plays " + e.card;
    else if (k === "battle") s = "battle on zone " + e.zone + ": " + e.winner + " wins";
    else if (k === "capture") s = p + " captures gate " + e.gate + " (" + e.reason + ")";
    else if (k === "win") s = "*** " + p + " WINS ***";
    else if (k === "reject") s = "REJECTED " + e.input + ": " + e.reason;
    else if (k === "learnt") s = "the mat learnt " + e.bakugan + " on zone " + e.zone + (e.alike.length ? "; can't tell from " + e.alike.join(", ") + ": swap one" : "");
    else s = k + " " + JSON.stringify(e);
    return ((e.t || 0) / 1000).toFixed(3) + "s  " + s;
  }

  return {mat: mat, panel: panel, facts: facts, status: status, say: say, ATTR: ATTR, pcol: pcol};
})();
