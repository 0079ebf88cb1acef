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
      el("rect", {x: b.x - 9, y: b.y - 4.5, width: 18, height: 9, rx: 2, "class": "btn"}, svg);
      el("text", {x: b.x, y: b.y + 2, "class": "btnt"}, svg, String(b.role).toUpperCase());
    });
    (lay.edge || []).forEach(function (e) { at[e.led] = e; });
    (lay.status || []).forEach(function (i, j) {
      var e = at[i] || {x: W / 2 + (j - (lay.status.length - 1) / 2) * 9, y: H + 8};
      led(i, e.x, e.y, 3);
    });

    function update(st) {
      var v = st.view || {}, f = facts(st.header), zones = v.zones || {}, bt = v.battle, lb = v.last_battle, ch = v.choice;
      f.names.slice(0, 2).forEach(function (n, i) {
        sides[i].textContent = n + (v.turn === i && v.phase !== "over" && v.phase !== "setup" ? " \u25c0 turn" : "");
        sides[i].setAttribute("fill", pcol(i));
      });
      for (var id in zg) {
        var o = zg[id], z = o.z, info = zones[id], dyn = o.dyn, cx = z.x + z.w / 2;
        dyn.textContent = "";
        o.g.setAttribute("class", "zone" + (info ? " gated" : "") + (bt && bt.zone == id ? " battle" : "") +
                         (ch && ch.zone == id ? " choice" : "") + (lb && lb.zone == id ? " last" : ""));
        o.g.removeAttribute("data-gate");
        o.g.removeAttribute("data-bakugan");
        o.g.removeAttribute("data-teach");
        var mk = (st.marks || {})[id];
        if (mk && !info) {
          // a lesson under way: where the card and the Bakugan being taught go
          o.g.setAttribute("data-teach", mk);
          el("rect", {x: z.x + 5, y: z.y + 12, width: z.w - 10, height: z.h - 17, rx: 2, "class": "card teach"}, dyn);
          el("text", {x: cx, y: z.y + 21, "class": "gname"}, dyn, "a gate card");
          el("circle", {cx: cx, cy: z.y + z.h / 2, r: 14, "class": "teachbak"}, dyn);
          el("text", {x: cx, y: z.y + z.h / 2 + 22, "class": "bname"}, dyn, "teach " + mk);
        }
        if (!info) continue;
        var gf = f.gate[info.gate] || {bonus: {}}, oc = pcol(info.owner), bl = [], bk = info.bakugan || [];
        o.g.setAttribute("data-gate", info.gate);
        o.g.setAttribute("data-bakugan", bk.join(" "));
        el("rect", {x: z.x + 5, y: z.y + 12, width: z.w - 10, height: z.h - 17, rx: 2, "class": "card", stroke: oc, fill: oc}, dyn);
        el("text", {x: cx, y: z.y + 21, "class": "gname"}, dyn, info.gate);
        // whole names, as the words say them
        for (var a in gf.bonus) bl.push(a + " " + (gf.bonus[a] < 0 ? "" : "+") + gf.bonus[a]);
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
      var d = h("div", "player" + (v.turn === i && v.phase !== "over" && v.phase !== "setup" ? " turn" : "") +
                (v.winner === i ? " won" : ""), root);
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

  // The mat's words: one source with host_tools/words.py (its module doc
  // has the template syntax). PHRASES below is written from there; the
  // field kinds are the same functions as Words.kind there.
  /* PHRASES: written by `python -m host_tools.words --write-js` from host_tools/words.py; do not edit */
  var PHRASES = {
   "effects": {
    "attr": "attribute becomes {v}",
    "g": "{v:signed} G",
    "nullify": "cancels the opponent's ability",
    "nullify_gate": "cancels the gate card",
    "opp_g": "opponent {v:signed} G"
   },
   "fields": {
    "ability": "card",
    "at": "stamp",
    "by": "who",
    "card": "card",
    "gate": "gate",
    "owner": "who",
    "player": "who",
    "players": "who",
    "winner": "who"
   },
   "game": {
    "ability": "{player:who} plays {card:card}",
    "back": "{bakugan} goes back to {player:who}'s launch point[ ({reason})]",
    "battle": "battle on zone {zone}: {attacker:side} against {defender:side}: {winner} wins",
    "capture": "{player:who} captures {gate:gate} from zone {zone}[ ({reason:how})]",
    "choice": "{player:who} stands twice on zone {zone}: take the gate or move {bakugan}",
    "clash": "BATTLE on zone {zone}: {attacker} attacks {defender}",
    "corrected": "{player:who} opens {bakugan} on zone {zone} (the mat corrected: {bakugan}, not {was})",
    "end": "game over: {winner:end}",
    "evolve": "{player:who} skips the turn: {from} evolves into {to}[ (game level {level})]",
    "gates_needed": "the field is empty: {players:who} must place a gate",
    "gear": "{player:who} puts battle gear {gear} on {bakugan}: {g:signed} G[ and its extra ability{extra:hidden}]",
    "item": "{player:who} sets item card {card}",
    "learnt": "the mat learnt {bakugan} on zone {zone}[; can't tell it from {alike}: if one player has both, swap one]",
    "leave": "{player:who} leaves the game[ ({reason})]",
    "miss": "{player:who} misses with {bakugan}[ ({reason})]",
    "move": "{bakugan} moves from zone {from} to zone {to}",
    "pass": "{player:who} plays no item in this battle",
    "pick": "{player:who} may pick which of {options} {for:pick} on zone {zone}",
    "picked": "{player:who} picks {bakugan} to {for:picked}",
    "placed": "{player:who} places {gate:gate} on zone {zone}",
    "prize": "{player:who} takes item card {card}",
    "pure": "{player:who} chooses {attr} for pure {bakugan}",
    "refill": "{player:who} must place a card on zone {zone}",
    "reject": "not allowed ({input:input}): {reason}",
    "reuse": "{player:who} takes back {bakugan} from the used pile",
    "reuse_items": "{player:who} takes back {items} from the used pile",
    "reveal": "{gate:gate} turned over: {bonus:bonus}",
    "rotate": "the base cards turn clockwise: {moves:moves}",
    "score": "scores: {scores:scores}[ -- {reason}]",
    "seize": "{player:who} takes {bakugan}[ ({bakugan:g} G)]",
    "shot": "{player:who} scores {points} with {bakugan} (total {total}, {left} shots left)",
    "stalemate": "the game is over without a winner[: {reason}]",
    "stand": "{player:who} opens {bakugan} on zone {zone}",
    "trap": "{player:who} opens trap {trap} on {bakugan}: [attribute becomes {attr}|{g:signed} G]",
    "turn": "{player:who}'s turn",
    "undo": "the referee takes back the last {undone:undone}[ (the one at {at:stamp})]",
    "void": "{what} {id} is out of play[ ({reason})]",
    "win": "*** {player:who} WINS ***[ ({reason})]"
   },
   "maps": {
    "how": {
     "battle": "won the battle",
     "double": "stood on it twice",
     "take": "chose to take it",
     "unopposed": "nobody fought for it"
    },
    "pick": {
     "*": "stays",
     "fight": "fights"
    },
    "picked": {
     "*": "stay",
     "fight": "fight"
    },
    "undone": {
     "ability": "ability",
     "gate": "gate card",
     "land": "landing",
     "miss": "miss"
    }
   },
   "mat": {
    "button": "button {name}: {press} press",
    "corrected": "the mat corrected: {bakugan:ball}, not {was} (zone {zone})",
    "fault": "sensor channel {ch} is broken ({kind})",
    "ident": "the mat is sure: {bakugan:ball} on zone {zone}",
    "land": "the mat sees {bakugan:ball} open on zone {zone}",
    "learned": "the mat learnt {bakugan:ball} on zone {zone}[; can't tell it from {alike}: if one player has both, swap one]",
    "leave": "{bakugan:ball} is lifted off zone {zone}",
    "roll": "a ball rolls across zone {zone}",
    "unland": "the mat corrected: nothing landed on zone {zone} (a ball that paused there)",
    "unsure": "the mat is not sure: {bakugan:ball} or {alt} on zone {zone}? The thrower is asked"
   }
  };
  /* end of PHRASES */
  var GEN_ID = /^p(\d+)-(gate|card)(\d+)$/, HOLE = /\{(\w+)(?::(\w+))?\}/g, PART = /\[([^\[\]]*)\]|\{(\w+)(?::(\w+))?\}/g;

  function pad(n, w, c) { n = String(n); while (n.length < w) n = c + n; return n; }
  // the game clock, mm:ss: stamp() in words.py
  function stamp(t) {
    var s = Math.floor(Math.floor(t || 0) / 1000);
    if (s >= 3600) return Math.floor(s / 3600) + ":" + pad(Math.floor(s / 60) % 60, 2, "0") + ":" + pad(s % 60, 2, "0");
    return pad(Math.floor(s / 60), 2, "0") + ":" + pad(s % 60, 2, "0");
  }
  function signed(v) { return (v < 0 ? "-" : "+") + Math.abs(v); }
  function isInt(v) { return typeof v === "number" && Math.floor(v) === v; }
  function present(v) {
    return !(v === null || v === undefined || v === false || v === "" ||
             (Array.isArray(v) && !v.length) || (typeof v === "object" && !Array.isArray(v) && v !== null && !Object.keys(v).length));
  }
  function plain(v) {
    if (v === null || v === undefined) return "none";
    if (v === true || v === false) return v ? "yes" : "no";
    if (Array.isArray(v)) return v.map(plain).join(", ");
    if (typeof v === "object") return Object.keys(v).sort().map(function (k) { return k + " " + plain(v[k]); }).join(", ");
    return String(v);
  }

  // w = BakuMat.words(header); w.game(ev) / w.line(ev): as Words in words.py
  function words(hd) {
    var players = (hd && hd.players) || [], effects = {}, bakG = {}, stood = {}, amended = null, lastT = 0;
    var names = players.map(function (p, i) { return p.name || "player " + (i + 1); });
    players.forEach(function (p) {
      (p.abilities || []).forEach(function (a) { effects[a.id] = a.effect || {}; });
      (p.bakugan || []).forEach(function (b) { bakG[b.id] = b.g; });
    });
    function who(p) {
      if (isInt(p)) return p >= 0 && p < names.length ? names[p] : "player " + (p + 1);
      return plain(p);
    }
    function gate(id) {
      var m = GEN_ID.exec(id || "");
      return m ? who(+m[1]) + "'s " + m[2] + " " + (+m[3] + 1) : "gate " + plain(id);
    }
    function card(id) {
      var m = GEN_ID.exec(id || ""), name = m ? who(+m[1]) + "'s card " + (+m[3] + 1) : plain(id), e = effects[id];
      return e && Object.keys(e).length ? name + " (" + effectText(e) + ")" : name;
    }
    function score(caps) { return (caps || []).map(function (c) { return c.length; }).join("-"); }
    function endLine(ev) {
      var caps = ev.captured || [], w = ev.winner;
      if (w === null || w === undefined) return caps.length ? "no winner (" + score(caps) + ")" : "no winner";
      if (!caps.some(function (c) { return c && c.length; })) caps = [];   // won otherwise (points, a position): not "Dan wins 0-0"
      if (!caps.length || !isInt(w) || w < 0 || w >= caps.length) return who(w) + " wins";
      return who(w) + " wins " + score([caps[w]].concat(caps.filter(function (c, i) { return i !== w; })));
    }
    function kind(k, v, ev) {
      if (k === "who") return Array.isArray(v) ? v.map(who).join(", ") : who(v);
      if (k === "gate") return gate(v);
      if (k === "card") return card(v);
      if (k === "ball") return v || "a Bakugan";
      if (k === "signed") return isInt(v) ? signed(v) : plain(v);
      if (k === "stamp") return stamp(v).trim();
      if (k === "hidden") return "";
      if (k === "input") return plain(v && typeof v === "object" && !Array.isArray(v) ? v.ev : v);
      if (k === "bonus") {
        var b = v || {};
        return Object.keys(b).sort().map(function (a) { return a + " " + kind("signed", b[a], ev); }).join(", ") || "no bonus";
      }
      if (k === "g") return bakG[v] === undefined || bakG[v] === null ? null : plain(bakG[v]);
      if (k === "moves") return (v || []).map(function (m) { return m[0] + "->" + m[1]; }).join(", ");
      if (k === "scores") {
        var left = ev.left || [];
        return (v || []).map(function (s, i) { return who(i) + " " + plain(s) + (i < left.length ? " (" + plain(left[i]) + " left)" : ""); }).join(", ");
      }
      if (k === "side") {
        var pt = ((ev.parts || {})[v] || [0, 0, 0]), g = pt[0], gt = pt[1], ab = pt[2], bits = [g + " G"], pw = (ev.power || {})[v];
        if (gt) bits.push("gate " + signed(gt));
        if (ab) bits.push("abilities " + signed(ab));
        return plain(v) + " " + plain(pw === undefined ? g + gt + ab : pw) + " (" + bits.join(", ") + ")";
      }
      if (k === "end") return endLine(ev);
      var m = PHRASES.maps[k];
      if (m) { var s = plain(v); return m.hasOwnProperty(s) ? m[s] : (m.hasOwnProperty("*") ? m["*"] : s); }
      return plain(v);
    }
    function fill(tpl, ev) {
      function hole(name, k) { return k ? kind(k, ev[name], ev) : plain(ev[name]); }
      return tpl.replace(PART, function (all, opt, name, k) {
        if (name) { var s = hole(name, k); return s === null ? "" : s; }
        var alts = opt.split("|");
        for (var i = 0; i < alts.length; i++) {
          var said = [], ok = true, re = new RegExp(HOLE.source, "g"), h;
          while ((h = re.exec(alts[i]))) {
            var x = present(ev[h[1]]) ? hole(h[1], h[2]) : null;
            if (x === null) { ok = false; break; }
            said.push(x);
          }
          if (ok) return alts[i].replace(new RegExp(HOLE.source, "g"), function () { return said.shift(); });
        }
        return "";
      });
    }
    function effectText(e) {
      return Object.keys(e).sort().map(function (k) {
        var f = PHRASES.effects[k], v = e[k];
        if (f === undefined) return k + " " + plain(v);
        if (f.indexOf("{v") >= 0) return fill(f, {v: v});
        return v ? f : null;
      }).filter(function (x) { return x !== null; }).join(", ");
    }
    function plainEvent(ev) {
      var f = Object.keys(ev).filter(function (a) { return a !== "ev" && a !== "t"; })
        .map(function (a) { var k = PHRASES.fields[a], s = k ? kind(k, ev[a], ev) : null; return a + " " + (s === null ? plain(ev[a]) : s); }).join(", ");
      return f ? plain(ev.ev) + ": " + f : plain(ev.ev);
    }
    function game(ev) {
      var k = ev.ev, t = ev.t || 0;
      if (k === "stand") {
        var a = amended;
        amended = null;
        stood[t] = [ev.zone, ev.bakugan];
        if (a && a[0] === t && a[1] === ev.zone && a[2] !== ev.bakugan) {
          var c = {};
          for (var f in ev) c[f] = ev[f];
          c.was = a[2];
          return fill(PHRASES.game.corrected, c);
        }
      } else if (k === "undo") {
        var was = ev.undone === "land" ? stood[ev.at] : null;
        if (was) amended = [t].concat(was);
      }
      var tpl = typeof k === "string" && PHRASES.game.hasOwnProperty(k) ? PHRASES.game[k] : null;
      return tpl ? fill(tpl, ev) : plainEvent(ev);
    }
    function line(ev) {
      var t = ev.t || 0;
      if (t < lastT) t = lastT;
      lastT = t;
      return stamp(t) + "  " + game(ev);
    }
    return {game: game, line: line, who: who, endLine: endLine, effectText: effectText};
  }

  return {mat: mat, panel: panel, facts: facts, status: status, words: words, stamp: stamp, ATTR: ATTR, pcol: pcol};
})();
