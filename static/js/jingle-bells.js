// Jingle Bells board: what the table does when clicked, pointed at or driven by keys.
//
// Loaded once per page by the little loader at the end of templates/games/jingle-bells/board.html.
// The board is re-rendered by the server on every version (an out-of-band swap), so everything
// here is event delegation on document, and refresh() re-reads the board's JSON blocks and
// re-applies what the player was doing: the selected character, a move being aimed, the setup
// being arranged, the dice chosen for a re-roll or given to characters.
// Actions built here go out through window.Snowball.send (static/js/site.js); the server checks
// every one exactly, the checks here are only there to explain a bad click at once.
(function () {
  "use strict";
  if (window.JingleBells) return;

  var NS = "http://www.w3.org/2000/svg";
  var TOL = 0.01;
  var CONTACT = 2.75;           // snowman radius 1.5 + character radius 1.25
  var MOVE_LABEL = "Move 8.9 cm", THROW_LABEL = "Snowball 17.8 cm";

  var ctx = {};                 // what the current board says (read() fills it)
  var ui = {                    // what this player is doing; survives re-renders
    game: null, version: null, selected: null, hover: null, pointer: null,
    move: null,                 // {index, action, ghost: [x, y] | null}
    deploy: null,               // {key, current, snowman, chars: {name: [x, y]}, manual: {name: true}}
    reroll: null,               // {key, picked: {index: true}}
    alloc: null,                // {key, given: {name: [index]}, picked: index | null}
    ret: null,                  // {key, index, y}
    reactedAt: null, focusKey: null
  };

  // ---------------------------------------------------------------- small helpers

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function json(id) {
    var el = document.getElementById(id);
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }
  function svgEl(tag, attrs, parent) {
    var el = document.createElementNS(NS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  }
  function clear(el) { while (el && el.firstChild) el.removeChild(el.firstChild); }
  function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1]); }
  function round(v, n) { var f = Math.pow(10, n || 2); return Math.round(v * f) / f; }
  function fmt(v) { return (Math.round(v * 10) / 10).toFixed(1); }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]; }); }
  var FACE_WORDS = {M: "Move", MM: "Move twice", T: "Throw", TT: "Throw twice", D: "Dodge"};

  function send(action, button) {
    if (!window.Snowball || !window.Snowball.send(action)) {
      feedback("Not connected to the game right now; try again in a moment.", true);
      return false;
    }
    if (button) button.classList.add("sending");
    return true;
  }

  function feedback(text, bad, root) {
    var boxes = root ? $all("[data-jb-feedback]", root) : $all("#jb-board [data-jb-feedback]");
    boxes.forEach(function (el) {
      el.textContent = text || "";
      el.classList.toggle("is-bad", !!bad && !!text);
      el.classList.toggle("is-good", !bad && !!text);
    });
  }

  // ---------------------------------------------------------------- geometry (mirrors the engine's)

  function segDist(p, a, b) {
    var dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
    var t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
    return Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
  }
  function inside(p, pts) {
    var sign = 0;
    for (var i = 0; i < pts.length; i++) {
      var a = pts[i], b = pts[(i + 1) % pts.length];
      var cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      if (cross === 0) continue;
      var s = cross > 0 ? 1 : -1;
      if (sign === 0) sign = s; else if (s !== sign) return false;
    }
    return true;
  }
  function polyDist(p, pts) {
    if (inside(p, pts)) return -1;
    var best = Infinity;
    for (var i = 0; i < pts.length; i++) best = Math.min(best, segDist(p, pts[i], pts[(i + 1) % pts.length]));
    return best;
  }
  // The first shape in `avoid` that a base of `extra` radius at p would overlap, or null.
  function overlap(avoid, p, extra) {
    for (var i = 0; i < (avoid || []).length; i++) {
      var s = avoid[i];
      if (s.kind === "circle") { if (dist(p, s.center) < s.radius + extra - TOL) return s.id; }
      else if (polyDist(p, s.points) < s.clearance + extra - TOL) return s.id;
    }
    return null;
  }
  function inTable(p, r) { return p[0] - r >= -TOL && p[1] - r >= -TOL && p[0] + r <= 50 + TOL && p[1] + r <= 30 + TOL; }

  function nameOf(id) {
    var p = ctx.pieces && ctx.pieces[id];
    if (p) return p.kind === "snowman" ? (p.seat === ctx.seat ? "your snowman" : "the enemy snowman") : p.name;
    var obs = ctx.svg && ctx.svg.querySelector('.jb-obs[data-id="' + id + '"]');
    return obs ? "the " + obs.dataset.label : id;
  }

  // ---------------------------------------------------------------- reading the board

  function read() {
    var b = document.getElementById("jb-board");
    if (!b) return false;
    ctx.board = b;
    ctx.phase = b.dataset.phase;
    ctx.seat = b.dataset.seat === "" ? null : parseInt(b.dataset.seat, 10);
    ctx.turn = parseInt(b.dataset.turn, 10) || 0;
    ctx.game = b.dataset.game;
    ctx.version = parseInt(b.dataset.version, 10) || 0;
    ctx.prompt = b.dataset.prompt;
    ctx.followup = b.dataset.followup;
    ctx.pieces = json("jb-pieces") || {};
    ctx.sight = json("jb-sight") || [];
    ctx.legal = json("jb-legal") || [];
    ctx.pending = json("jb-pending");
    ctx.def = json("jb-default");
    ctx.svg = document.getElementById("jb-table");
    ctx.under = document.getElementById("jb-under");
    ctx.over = document.getElementById("jb-over");
    return !!ctx.svg;
  }

  function legalOf(type) { return ctx.legal.filter(function (a) { return a.type === type; }); }
  function onField(id) { var p = ctx.pieces[id]; return p && p.pos ? p : null; }

  // ---------------------------------------------------------------- refresh: re-apply after each render

  function refresh() {
    if (!read()) return;
    ctx.board.classList.add("jb-js");
    paintFit();
    if (ui.game !== ctx.game) {
      ui.game = ctx.game; ui.selected = null; ui.move = null; ui.deploy = null; ui.reroll = null; ui.alloc = null; ui.ret = null;
    }
    var changed = ui.version !== ctx.version;
    ui.version = ctx.version;
    if (changed) { ui.move = null; ui.hover = null; }
    if (ui.selected && !onField(ui.selected)) ui.selected = null;
    if (ctx.phase === "actions" && (ctx.prompt === "turn" || ctx.prompt === "effect")) {
      if (ctx.followup) {
        var first = ctx.legal[0];
        if (first && first.character) ui.selected = first.character;
        if (first && first.type === "move" && !ui.move) startMove(0, true);
      } else if (!ui.selected || (onField(ui.selected) || {}).seat !== ctx.seat || !onField(ui.selected).dice.length) {
        var mine = $all("#jb-board .jb-char[data-char]").map(function (el) { return el.dataset.char; });
        if (mine.length) ui.selected = mine[0];
      }
    }
    if (ctx.prompt === "reaction" && ui.reactedAt !== ctx.version) {
      ui.reactedAt = ctx.version;
      var target = ctx.pending && ctx.pending.target;
      if (target && ctx.pieces[target]) ui.selected = ctx.pieces[target].kind === "character" ? target : ui.selected;
    }
    prepareDeploy();
    prepareDice();
    prepareReturn();
    render();
    restoreFocus();
    if (ctx.prompt === "reaction" && changed) {
      var btn = $("#jb-board .jb-reaction button");
      var active = document.activeElement;
      if (btn && (!active || active === document.body || !ctx.board.contains(active))) btn.focus({preventScroll: true});
    }
  }

  // ---------------------------------------------------------------- drawing

  function render() {
    clear(ctx.under); clear(ctx.over);
    ctx.labelBoxes = obstacleLabelBoxes();
    $all("#jb-table .is-selected, #jb-table .is-target, #jb-table .is-blocker").forEach(function (el) {
      el.classList.remove("is-selected", "is-target", "is-blocker");
    });
    ctx.svg.classList.toggle("is-picking", !!(ui.move || deployRegion() || returnRegion()));
    if (deployRegion()) { renderDeploy(); return; }
    if (returnRegion()) renderReturn();
    var sel = ui.selected && onField(ui.selected);
    $all("#jb-board [data-select]").forEach(function (el) {
      var on = el.dataset.select === ui.selected;
      if (el.matches(".jb-piece, .jb-row")) el.classList.toggle("is-selected", on);
      if (el.matches(".jb-char-head")) el.setAttribute("aria-expanded", on ? "true" : "false");
    });
    $all("#jb-board .jb-char[data-char]").forEach(function (el) { el.classList.toggle("is-selected", el.dataset.char === ui.selected); });
    if (sel && ctx.phase !== "return" && ctx.phase !== "over") {  // no reach to show once the game is over
      drawRings(sel);
      if (ctx.phase === "actions") {
        ctx.sight.forEach(function (l) {
          if (l.from === sel.id && l.clear && l.in_throw_range) {
            var t = ctx.svg.querySelector('.jb-piece[data-id="' + l.to + '"]');
            if (t) t.classList.add("is-target");
          }
        });
      }
    }
    if (ctx.pending) drawLine(ctx.pending.thrower, ctx.pending.target, "flying");
    if (ui.hover) drawLine(ui.hover[0], ui.hover[1]);
    var named = {};
    [ui.selected].concat(ui.hover || [], ctx.pending ? [ctx.pending.thrower, ctx.pending.target] : []).forEach(function (id) {
      if (id && !named[id]) { named[id] = true; nameTag(id); }
    });
    if (ui.move) renderMove();
    $all("#jb-over > .jb-leader, #jb-over > text").forEach(function (el) { ctx.over.appendChild(el); });
    $all("#jb-board [data-jb-move]").forEach(function (b) {
      b.classList.toggle("is-active", !!ui.move && String(ui.move.index) === b.dataset.jbMove);
    });
    renderReach();
    renderDice();
  }

  // Who each of your characters can throw at, and why not: from the board's sight lines.
  function renderReach() {
    $all("#jb-board [data-jb-reach]:not([data-filled])").forEach(function (ul) {
      var from = ul.dataset.jbReach, html = "";
      ctx.sight.forEach(function (l) {
        if (l.from !== from) return;
        var ok = l.clear && l.in_throw_range;
        var cls = ok ? "is-clear" : !l.in_throw_range ? "is-far" : "is-blocked";
        var why = ok ? "clear line" : !l.in_throw_range ? "too far (Snowball distance is 17.8 cm)" : "blocked by " + nameOf(l.blocker);
        html += '<li class="' + cls + '" tabindex="0" data-los="' + esc(l.from + "|" + l.to) + '"><span class="jb-mark" aria-hidden="true">' +
          (ok ? "✓" : "✗") + "</span> " + esc(nameOf(l.to)) + " " + fmt(l.distance) + " cm, " + esc(why) + "</li>";
      });
      ul.innerHTML = html;
      ul.setAttribute("data-filled", "");
    });
  }

  function drawRings(p) {
    var c = p.pos;
    var moving = ui.move && ui.move.action.character === p.id;
    svgEl("circle", {cx: c[0], cy: c[1], r: 17.8, "class": "jb-ring-throw"}, ctx.under);
    svgEl("circle", {cx: c[0], cy: c[1], r: 8.9, "class": "jb-ring-move" + (moving ? " is-active" : "")}, ctx.under);
    ringLabel(c, 8.9, MOVE_LABEL, "m");
    ringLabel(c, 17.8, THROW_LABEL, "t");
  }
  function ringLabel(c, r, text, cls) {
    var spots = [[c[0], c[1] - r - 0.25, "middle"], [c[0], c[1] + r + 0.85, "middle"]]
      .filter(function (s) { return s[1] > 0.8 && s[1] <= 29.6; });
    if (!spots.length) return;
    var t = svgEl("text", {"class": "jb-ring-label " + cls}, ctx.over);
    t.textContent = text;
    placeLabel(t, spots, 0);
  }

  function nameTag(id) {
    var p = onField(id), el = ctx.svg.querySelector('.jb-piece[data-id="' + id + '"]');
    if (!p || !el) return;
    var x = p.pos[0], y = p.pos[1], r = p.radius, side = r * 0.75;
    var spots = [[x, y + r + 0.9, "middle"], [x, y - r - 0.45, "middle"],
                 [x + r + 0.3, y + 0.28, "start"], [x - r - 0.3, y + 0.28, "end"],
                 [x + side, y + r + 0.7, "start"], [x - side, y + r + 0.7, "end"],
                 [x + side, y - r - 0.25, "start"], [x - side, y - r - 0.25, "end"]];
    for (var k = 1; k <= 3; k++) {
      spots.push([x, y + r + 0.9 + 1.1 * k, "middle", p.pos], [x, y - r - 0.45 - 1.1 * k, "middle", p.pos],
                 [x + r + 0.3 + 1.2 * k, y + 0.28, "start", p.pos], [x - r - 0.3 - 1.2 * k, y + 0.28, "end", p.pos]);
    }
    var t = svgEl("text", {"class": "jb-name"}, ctx.over);
    t.textContent = el.dataset.name + " " + p.cold + "/" + p.cold_limit;
    placeLabel(t, spots, r);
  }

  // Where a line's label may go, best first: just above or below its middle, then beside the
  // line further along it and further out (those with a leader back to the line).
  function lineLabelSpots(a, b, t) {
    var len = dist(a, b) || 1, u = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    var n = u[0] >= 0 ? [u[1], -u[0]] : [-u[1], u[0]];
    var box = t.getBBox(), half = Math.abs(n[0]) * box.width / 2 + Math.abs(n[1]) * box.height / 2 + 0.2;
    var mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], spots = [[mid[0], mid[1] - 0.5, "middle"], [mid[0], mid[1] + 1.05, "middle"]];
    [0, 1.2, 2.4, 3.6].forEach(function (extra) {
      [0.5, 0.35, 0.65, 0.2, 0.8].forEach(function (f) {
        var on = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
        [1, -1].forEach(function (s) {
          var d = s * (half + extra);
          spots.push([on[0] + n[0] * d, on[1] + n[1] * d + 0.27, "middle", extra ? on : null]);
        });
      });
    });
    return spots;
  }

  // Table labels go where they cover no base and no label placed before them: the first spot
  // of `spots` ([x, y, text-anchor, leader to]) that is free, else the least covered one. A
  // spot with a leader gets a line back to that point, stopping `clearance` short of it.
  function placeLabel(t, spots, clearance) {
    var best = null;
    for (var i = 0; i < spots.length; i++) {
      t.setAttribute("x", spots[i][0]);
      t.setAttribute("y", spots[i][1]);
      t.setAttribute("text-anchor", spots[i][2]);
      var b = t.getBBox(), box = [b.x - 0.1, b.y - 0.05, b.x + b.width + 0.1, b.y + b.height + 0.05];
      var cost = labelCost(box) + (spots[i][3] ? leaderCost(leaderOf(box, spots[i][3], clearance)) : 0);
      if (!best || cost < best.cost) best = {cost: cost, box: box, spot: spots[i], index: i};
      if (cost === 0) break;
    }
    t.setAttribute("x", best.spot[0]);
    t.setAttribute("y", best.spot[1]);
    t.setAttribute("text-anchor", best.spot[2]);
    ctx.labelBoxes.push(best.box);
    var leader = best.spot[3] && leaderOf(best.box, best.spot[3], clearance);
    if (leader) svgEl("line", {x1: leader[0][0], y1: leader[0][1], x2: leader[1][0], y2: leader[1][1], "class": "jb-leader"}, ctx.over);
  }

  // The boxes of the obstructions' own labels (drawn with the table), in the labels' layer's
  // units: a label placed on the table keeps off them as it keeps off the labels placed before it.
  function obstacleLabelBoxes() {
    var toLayer = ctx.over.getScreenCTM();
    if (!toLayer) return [];
    toLayer = toLayer.inverse();
    return $all("#jb-table .jb-obs-label").map(function (el) {
      var r = el.getBoundingClientRect(), corners = [[r.left, r.top], [r.right, r.bottom]].map(function (p) {
        var q = ctx.svg.createSVGPoint();
        q.x = p[0]; q.y = p[1];
        return q.matrixTransform(toLayer);
      });
      return [corners[0].x, corners[0].y, corners[1].x, corners[1].y];
    });
  }

  function labelCost(box) {
    var cost = 0;
    Object.keys(ctx.pieces).forEach(function (id) {
      var p = ctx.pieces[id];
      if (!p.pos) return;
      var nx = Math.max(box[0], Math.min(p.pos[0], box[2])), ny = Math.max(box[1], Math.min(p.pos[1], box[3]));
      cost += Math.max(0, p.radius + 0.1 - dist(p.pos, [nx, ny])) * 10;
    });
    ctx.labelBoxes.forEach(function (o) {
      cost += Math.max(0, Math.min(box[2], o[2]) - Math.max(box[0], o[0])) * Math.max(0, Math.min(box[3], o[3]) - Math.max(box[1], o[1])) * 10;
    });
    var inside = Math.max(0, Math.min(box[2], 50) - Math.max(box[0], 0)) * Math.max(0, Math.min(box[3], 30) - Math.max(box[1], 0));
    return cost + ((box[2] - box[0]) * (box[3] - box[1]) - inside) * 10;
  }

  // The leader from a label's box to `to`, stopping `clearance` short of it; null when they touch.
  function leaderOf(box, to, clearance) {
    var from = [Math.max(box[0], Math.min(to[0], box[2])), Math.max(box[1], Math.min(to[1], box[3]))];
    var d = dist(from, to);
    if (d <= clearance + 0.2) return null;
    var k = clearance / d;
    return [from, [to[0] + (from[0] - to[0]) * k, to[1] + (from[1] - to[1]) * k]];
  }

  function leaderCost(leader) {
    if (!leader) return 0;
    var a = leader[0], b = leader[1], dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy || 1;
    return Object.keys(ctx.pieces).reduce(function (cost, id) {
      var p = ctx.pieces[id];
      if (!p.pos) return cost;
      var f = Math.max(0, Math.min(1, ((p.pos[0] - a[0]) * dx + (p.pos[1] - a[1]) * dy) / len2));
      return cost + Math.max(0, p.radius - 0.05 - dist(p.pos, [a[0] + f * dx, a[1] + f * dy])) * 5;
    }, 0);
  }

  function sightOf(from, to) {
    for (var i = 0; i < ctx.sight.length; i++) if (ctx.sight[i].from === from && ctx.sight[i].to === to) return ctx.sight[i];
    return null;
  }
  function centreOf(id) {
    var p = ctx.pieces[id];
    if (p && p.pos) return p.pos;
    var poly = ctx.svg.querySelector('.jb-obs[data-id="' + id + '"] polygon');
    if (!poly) return null;
    var b = poly.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  }

  // The line between two pieces: green when the throw is on, red dashed and the blocker
  // marked when something is in the way, grey dotted when it is too far.
  function drawLine(from, to, kind) {
    var a = onField(from), b = onField(to);
    if (!a || !b) return;
    var l = sightOf(from, to);
    var cls = kind === "flying" ? "is-flying" : !l ? "is-clear" : !l.in_throw_range ? "is-far" : l.clear ? "is-clear" : "is-blocked";
    svgEl("line", {x1: a.pos[0], y1: a.pos[1], x2: b.pos[0], y2: b.pos[1], "class": "jb-los " + cls}, ctx.over);
    var d = dist(a.pos, b.pos);
    var text = fmt(d) + " cm";
    if (kind === "flying") text = "snowball in the air";
    else if (l && !l.in_throw_range) text += ": too far to throw";
    else if (l && !l.clear) text += ": blocked by " + nameOf(l.blocker);
    else if (l) text += ": clear";
    var label = svgEl("text", {"class": "jb-los-label " + cls}, ctx.over);
    label.textContent = text;
    placeLabel(label, lineLabelSpots(a.pos, b.pos, label), 0);
    if (l && !l.clear && l.blocker && kind !== "flying") {
      var el = ctx.svg.querySelector('[data-id="' + l.blocker + '"]');
      if (el) el.classList.add("is-blocker");
      var c = centreOf(l.blocker);
      if (c) {
        // mark where the line meets the blocker: the point of the line nearest its centre
        var dx = b.pos[0] - a.pos[0], dy = b.pos[1] - a.pos[1], len2 = dx * dx + dy * dy;
        var t = Math.max(0, Math.min(1, ((c[0] - a.pos[0]) * dx + (c[1] - a.pos[1]) * dy) / len2));
        var x = a.pos[0] + t * dx, y = a.pos[1] + t * dy, s = 0.6;
        svgEl("path", {d: "M" + (x - s) + " " + (y - s) + "L" + (x + s) + " " + (y + s) + "M" + (x - s) + " " + (y + s) + "L" + (x + s) + " " + (y - s), "class": "jb-x"}, ctx.over);
      }
    }
  }

  function ghost(p, r, opts) {
    var g = svgEl("g", {"class": "jb-ghost " + (opts.cls || ""), transform: "translate(" + p[0] + " " + p[1] + ")"}, ctx.over);
    svgEl("circle", {r: r}, g);
    if (opts.snowman) {
      svgEl("circle", {cy: -0.3, r: 0.36, "class": "jb-sm"}, g);
      svgEl("circle", {cy: 0.45, r: 0.55, "class": "jb-sm"}, g);
    } else if (opts.text) {
      var t = svgEl("text", {"text-anchor": "middle", "dominant-baseline": "central", y: 0.05}, g);
      t.textContent = opts.text;
    }
    return g;
  }

  // ---------------------------------------------------------------- moves

  function startMove(index, quiet) {
    var a = ctx.legal[index];
    if (!a || a.type !== "move") return;
    ui.move = {index: index, action: a, ghost: null};
    ui.selected = a.character;
    var box = $("#jb-board [data-jb-moveedit]");
    if (box) {
      box.hidden = false;
      var title = $("[data-jb-move-title]", box);
      if (title) title.textContent = "Moving " + a.character + (a.die ? " with the " + a.die + (a.as ? " (as a " + a.as + ")" : "") : " again");
      var x = $("[data-jb-x]", box), y = $("[data-jb-y]", box);
      if (x && y) { x.value = fmt(a.center[0]); y.value = fmt(a.center[1]); }
    }
    feedback(quiet ? "" : (lastPointer === "mouse" ? "Click" : "Tap") + " where " + a.character + " should go: anywhere inside the purple ring.", false);
    render();
  }
  // The ring to click in, brought into sight when it is not (on a phone the table is far above the buttons).
  function showTheRing() {
    var ring = $("#jb-board .jb-ring-move.is-active");
    if (!ring) return;
    var r = ring.getBoundingClientRect();
    var seen = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    if (!seen) ring.scrollIntoView({block: "center", inline: "center", behavior: "smooth"});
  }
  function stopMove() {
    ui.move = null;
    var box = $("#jb-board [data-jb-moveedit]");
    if (box) box.hidden = true;
    render();
  }
  function moveProblem(a, p) {
    var d = dist(p, a.center);
    if (d > a.radius + TOL) return "That point is " + fmt(d) + " cm from " + a.character + "; a Move is " + a.radius + " cm.";
    var b = a.bounds;
    if (p[0] < b[0] - TOL || p[0] > b[2] + TOL || p[1] < b[1] - TOL || p[1] > b[3] + TOL) return a.character + " would stick out of the table there.";
    var hit = overlap(a.must_avoid, p, 0);
    if (hit) return a.character + " would overlap " + nameOf(hit) + " there.";
    return null;
  }
  // A click a little outside the ring means "as far as I can go that way".
  function clampToRing(a, p) {
    var d = dist(p, a.center);
    if (d <= a.radius || d > a.radius + 1.5) return p;
    var k = (a.radius - 0.02) / d;
    return [a.center[0] + (p[0] - a.center[0]) * k, a.center[1] + (p[1] - a.center[1]) * k];
  }
  function renderMove() {
    var m = ui.move, a = m.action;
    var box = $("#jb-board [data-jb-moveedit]");
    if (box) box.hidden = false;
    if (!m.ghost) return;
    var problem = moveProblem(a, m.ghost);
    svgEl("line", {x1: a.center[0], y1: a.center[1], x2: m.ghost[0], y2: m.ghost[1], "class": "jb-path"}, ctx.over);
    ghost(m.ghost, a.piece_radius, {cls: problem ? "is-bad" : "", text: a.character.charAt(0)});
  }
  function aimMove(p, commit, button) {
    var a = ui.move.action;
    p = clampToRing(a, p);
    ui.move.ghost = [round(p[0]), round(p[1])];
    var box = $("#jb-board [data-jb-moveedit]");
    if (box) {
      var x = $("[data-jb-x]", box), y = $("[data-jb-y]", box);
      if (x && y && document.activeElement !== x && document.activeElement !== y) { x.value = fmt(p[0]); y.value = fmt(p[1]); }
    }
    var problem = moveProblem(a, ui.move.ghost);
    if (commit) {
      if (problem) { feedback(problem, true); }
      else {
        var action = {type: "move", character: a.character, to: ui.move.ghost};
        if (a.die !== undefined) action.die = a.die;
        if (a.as !== undefined && a.as !== null) action.as = a.as;
        if (send(action, button)) feedback("Moving " + a.character + " " + fmt(dist(a.center, ui.move.ghost)) + " cm…", false);
      }
    } else {
      feedback(problem || (a.character + " can go there (" + fmt(dist(a.center, ui.move.ghost)) + " cm)."), !!problem);
    }
    render();
  }

  // ---------------------------------------------------------------- setup

  function deployRegion() { return ctx.phase === "deploy" ? legalOf("deploy")[0] || null : null; }

  function prepareDeploy() {
    var region = deployRegion();
    if (!region) { if (ctx.phase !== "deploy") ui.deploy = null; return; }
    var key = ctx.game + ":deploy:" + ctx.seat;
    if (!ui.deploy || ui.deploy.key !== key) ui.deploy = {key: key, current: "snowman", snowman: null, chars: {}, manual: {}};
  }

  function facing() { return ctx.seat === 1 ? Math.PI : 0; }
  function around(snow, angle) { return [round(snow[0] + CONTACT * Math.cos(angle), 3), round(snow[1] + CONTACT * Math.sin(angle), 3)]; }

  function deployProblem(region, id, placed) {
    var d = ui.deploy;
    if (id === "snowman") {
      var s = d.snowman;
      if (!s) return "not placed";
      var b = region.snowman.bounds;
      if (s[0] < b[0] - TOL || s[0] > b[2] + TOL || s[1] < b[1] - TOL || s[1] > b[3] + TOL) {
        return "must be within 1 Move (8.9 cm) of your edge and on the table";
      }
      var hit = overlap(region.must_avoid, s, region.snowman.radius);
      return hit ? "overlaps " + nameOf(hit) : null;
    }
    var p = d.chars[id];
    if (!p || !d.snowman) return "not placed";
    if (!inTable(p, region.character_radius)) return "sticks out of the table";
    var hit2 = overlap(region.must_avoid, p, region.character_radius);
    if (hit2) return "overlaps " + nameOf(hit2);
    var others = placed || region.characters;
    for (var i = 0; i < others.length; i++) {
      var o = others[i];
      if (o !== id && d.chars[o] && dist(d.chars[o], p) < 2 * region.character_radius - TOL) return "overlaps " + o;
    }
    return null;
  }

  // Stand every character not placed by hand around the snowman, facing the enemy, where it fits.
  function autoPlace(region) {
    var d = ui.deploy, base = facing();
    var steps = [0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8, -9, 9, -10, 10, -11, 11, 12];
    var done = region.characters.filter(function (n) { return d.manual[n] && d.chars[n]; });
    region.characters.forEach(function (name) {
      if (d.manual[name] && d.chars[name]) return;
      for (var i = 0; i < steps.length; i++) {
        d.chars[name] = around(d.snowman, base + steps[i] * Math.PI / 12 * (i < 3 ? 4 : 1));
        if (!deployProblem(region, name, done.concat([name]))) break;
      }
      done.push(name);
    });
  }

  function placeDeploy(p) {
    var region = deployRegion(), d = ui.deploy;
    if (d.current === "snowman") {
      var b = region.snowman.bounds;
      var moved = p[0] < b[0] || p[0] > b[2] || p[1] < b[1] || p[1] > b[3];
      var old = d.snowman;
      d.snowman = [round(Math.min(b[2], Math.max(b[0], p[0])), 2), round(Math.min(b[3], Math.max(b[1], p[1])), 2)];
      if (old) {  // the characters keep their places around it
        region.characters.forEach(function (n) {
          if (d.chars[n]) d.chars[n] = around(d.snowman, Math.atan2(d.chars[n][1] - old[1], d.chars[n][0] - old[0]));
        });
      }
      autoPlace(region);
      var problem = deployProblem(region, "snowman");
      feedback(problem ? "The snowman " + problem + "." : (moved ? "Snowman placed as near as the rules allow. " : "Snowman placed. ") +
        "Choose a character and click beside the snowman to move it, or confirm.", !!problem);
    } else {
      if (!d.snowman) { feedback("Place the snowman first.", true); return; }
      var angle = Math.atan2(p[1] - d.snowman[1], p[0] - d.snowman[0]);
      d.chars[d.current] = around(d.snowman, angle);
      d.manual[d.current] = true;
      var prob = deployProblem(region, d.current);
      feedback(prob ? d.current + " " + prob + "." : d.current + " placed.", !!prob);
    }
    render();
  }

  function nudgeDeploy(dx, dy, big) {
    var d = ui.deploy, step = big ? 2 : 0.5;
    if (d.current === "snowman") {
      var s = d.snowman || deployRegion().example.snowman;
      placeDeploy([s[0] + dx * step, s[1] + dy * step]);
    } else if (d.snowman) {
      var p = d.chars[d.current] || around(d.snowman, facing());
      var angle = Math.atan2(p[1] - d.snowman[1], p[0] - d.snowman[0]) + (dx || dy) * (big ? Math.PI / 4 : Math.PI / 12);
      placeDeploy([d.snowman[0] + Math.cos(angle), d.snowman[1] + Math.sin(angle)]);
    }
  }

  function renderDeploy() {
    var region = deployRegion(), d = ui.deploy;
    var ok = true;
    if (d.snowman) {
      svgEl("circle", {cx: d.snowman[0], cy: d.snowman[1], r: CONTACT, "class": "jb-ring-move"}, ctx.under);
      var sp = deployProblem(region, "snowman");
      ghost(d.snowman, region.snowman.radius, {cls: "is-snowman is-placed jb-s" + ctx.seat + (sp ? " is-bad" : "") + (d.current === "snowman" ? " is-current" : ""), snowman: true});
      region.characters.forEach(function (n) {
        if (!d.chars[n]) return;
        var prob = deployProblem(region, n);
        ghost(d.chars[n], region.character_radius, {cls: "is-placed jb-s" + ctx.seat + (prob ? " is-bad" : "") + (d.current === n ? " is-current" : ""), text: n.charAt(0)});
      });
    }
    ["snowman"].concat(region.characters).forEach(function (id) {
      var prob = deployProblem(region, id);
      if (prob) ok = false;
      var s = $('#jb-board [data-jb-status="' + id + '"]');
      if (s) { s.textContent = prob ? "✗ " + prob : "✓"; s.classList.toggle("is-good", !prob); s.classList.toggle("is-bad", !!prob && prob !== "not placed"); }
      var b = $('#jb-board [data-jb-place="' + id + '"]');
      if (b) b.setAttribute("aria-pressed", d.current === id ? "true" : "false");
    });
    var confirm = $("#jb-board [data-jb-deploy-send]");
    if (confirm) confirm.disabled = !ok;
  }

  function sendDeploy(button) {
    var region = deployRegion(), d = ui.deploy;
    var bad = ["snowman"].concat(region.characters).filter(function (id) { return deployProblem(region, id); });
    if (bad.length) { feedback("Not yet: " + bad.map(function (id) { return (id === "snowman" ? "the snowman" : id) + " " + deployProblem(region, id); }).join("; ") + ".", true); return; }
    var chars = {};
    region.characters.forEach(function (n) { chars[n] = d.chars[n]; });
    send({type: "deploy", snowman: d.snowman, characters: chars}, button);
  }

  function useExample() {
    var region = deployRegion(), d = ui.deploy, ex = region.example;
    if (!ex) return;
    d.snowman = ex.snowman.slice();
    region.characters.forEach(function (n) { d.chars[n] = ex.characters[n].slice(); d.manual[n] = true; });
    feedback("The suggested setup is in place: change anything you like, then confirm.", false);
    render();
  }

  // ---------------------------------------------------------------- coming back

  function returnRegion() { return ctx.phase === "return" ? legalOf("return")[0] || null : null; }
  function prepareReturn() {
    var r = returnRegion();
    if (!r) { ui.ret = null; return; }
    var key = ctx.version + ":" + r.character;
    if (!ui.ret || ui.ret.key !== key) ui.ret = {key: key, y: r.example_y};
  }
  function returnProblem(r, y) {
    if (y < r.y_range[0] - TOL || y > r.y_range[1] + TOL) return r.character + " must stand on the table (y from " + r.y_range[0] + " to " + r.y_range[1] + ").";
    var hit = overlap(r.must_avoid, [r.x, y], 0);
    return hit ? r.character + " would overlap " + nameOf(hit) + " there." : null;
  }
  function renderReturn() {
    var r = returnRegion();
    if (ui.ret && ui.ret.y !== null && ui.ret.y !== undefined) {
      ghost([r.x, ui.ret.y], r.radius, {cls: returnProblem(r, ui.ret.y) ? "is-bad" : "", text: r.character.charAt(0)});
    }
  }
  function aimReturn(y, commit, button) {
    var r = returnRegion();
    y = round(Math.min(r.y_range[1], Math.max(r.y_range[0], y)), 2);
    ui.ret.y = y;
    var input = $("#jb-board [data-jb-return-row] [data-jb-y]");
    if (input && document.activeElement !== input) input.value = fmt(y);
    var problem = returnProblem(r, y);
    if (commit && !problem) send({type: "return", character: r.character, y: y}, button);
    feedback(problem || (commit ? "" : r.character + " fits there."), !!problem);
    render();
  }

  // ---------------------------------------------------------------- dice

  function diceBox() { return $("#jb-board [data-jb-dice]"); }
  function rolled() {
    var box = diceBox();
    return box && box.dataset.rolled ? box.dataset.rolled.split(",").map(Number) : [];
  }
  function prepareDice() {
    var box = diceBox();
    if (!box) { return; }
    var key = ctx.game + ":" + ctx.turn + ":" + box.dataset.rolled;
    if (!ui.reroll || ui.reroll.key !== key) ui.reroll = {key: key, picked: {}};
    if (!ui.alloc || ui.alloc.key !== key) ui.alloc = {key: key, given: {}, picked: null};
  }
  function allocChars() { return $all("#jb-board [data-jb-arow]").map(function (el) { return el.dataset.jbArow; }); }
  function givenIndex() {
    var used = {};
    for (var n in ui.alloc.given) ui.alloc.given[n].forEach(function (i) { used[i] = n; });
    return used;
  }
  function facesOf(name) {
    var row = $('#jb-board [data-jb-arow="' + name + '"]'), out = {};
    if (row) row.dataset.faces.split(",").forEach(function (pair) { out[pair.charAt(0)] = pair.slice(1); });
    return out;
  }
  function dieSvg(v, cls) { return '<svg class="jb-die ' + (cls || "") + '" viewBox="0 0 24 24" aria-hidden="true"><use href="#jb-d' + v + '"/></svg>'; }

  function renderDice() {
    var box = diceBox();
    if (!box || !ui.alloc) return;
    var dice = rolled();
    // re-roll choice
    var picks = 0;
    $all("[data-jb-reroll-die]", box).forEach(function (b) {
      var on = !!ui.reroll.picked[b.dataset.jbRerollDie];
      if (on) picks++;
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var rr = $("[data-jb-reroll]", box);
    if (rr) { rr.disabled = picks === 0; rr.textContent = picks ? "Re-roll " + picks + " " + (picks === 1 ? "die" : "dice") : "Re-roll the chosen dice"; }
    // allocation
    var pool = $("[data-jb-pool]", box);
    if (!pool) return;
    var used = givenIndex(), html = "";
    dice.forEach(function (v, i) {
      if (used[i] !== undefined) return;
      var on = ui.alloc.picked === i;
      html += '<button type="button" class="jb-dbtn" data-jb-pool-die="' + i + '" aria-pressed="' + on + '" aria-label="die showing ' + v + (on ? ", chosen" : "") + '">' + dieSvg(v, "jb-die-l") + "</button>";
    });
    pool.innerHTML = html;
    var complete = true;
    allocChars().forEach(function (name) {
      var slots = $('[data-jb-slots="' + name + '"]', box), faces = facesOf(name);
      var mine = ui.alloc.given[name] || [];
      var h = "";
      mine.forEach(function (i) {
        var f = faces[String(dice[i])];
        h += '<button type="button" class="jb-slot" data-jb-slot-die="' + i + '" data-char="' + esc(name) + '" title="Take this die back">' + dieSvg(dice[i], "jb-die-s") +
          '<span class="jb-face jb-f-' + f + '"><svg class="jb-ficon" viewBox="0 0 20 20" aria-hidden="true"><use href="#jb-i-' + f + '"/></svg>' + FACE_WORDS[f] + "</span> ×</button>";
      });
      for (var k = mine.length; k < 2; k++) h += '<span class="jb-slot-empty" aria-label="empty"></span>';
      slots.innerHTML = h;
      var row = slots.closest(".jb-arow");
      row.classList.toggle("is-full", mine.length === 2);
      $all(".jb-strip li", row).forEach(function (li) {
        li.classList.toggle("is-held", mine.some(function (i) { return String(dice[i]) === li.dataset.v; }) ||
          (ui.alloc.picked !== null && mine.length < 2 && String(dice[ui.alloc.picked]) === li.dataset.v));
      });
      var put = $("[data-jb-put]", row);
      if (put) put.disabled = mine.length >= 2;
      if (mine.length !== 2) complete = false;
    });
    var lock = $("[data-jb-lock]", box);
    if (lock) lock.disabled = !complete;
  }

  function giveDie(name) {
    var a = ui.alloc, mine = a.given[name] || (a.given[name] = []);
    if (mine.length >= 2) { feedback(name + " already has two dice; click one of them to take it back.", true); return; }
    var idx = a.picked;
    if (idx === null) {
      var used = givenIndex();
      var free = rolled().map(function (v, i) { return i; }).filter(function (i) { return used[i] === undefined; });
      if (!free.length) return;
      if (free.length > 1) { feedback("Click a die first, then give it to " + name + ".", true); return; }
      idx = free[0];
    }
    mine.push(idx);
    a.picked = null;
    feedback("", false);
    renderDice();
  }

  function suggest() {
    var d = ctx.def, dice = rolled(), a = ui.alloc;
    if (!d || !d.allocation) return;
    a.given = {}; a.picked = null;
    var taken = {};
    Object.keys(d.allocation).forEach(function (name) {
      a.given[name] = d.allocation[name].map(function (v) {
        for (var i = 0; i < dice.length; i++) if (dice[i] === v && !taken[i]) { taken[i] = true; return i; }
        return null;
      }).filter(function (i) { return i !== null; });
    });
    feedback("Suggested: the highest dice first. Change anything, then lock.", false);
    renderDice();
  }

  function lockDice(button) {
    var dice = rolled(), alloc = {};
    var names = allocChars();
    for (var k = 0; k < names.length; k++) {
      var mine = ui.alloc.given[names[k]] || [];
      if (mine.length !== 2) { feedback(names[k] + " needs two dice.", true); return; }
      alloc[names[k]] = mine.map(function (i) { return dice[i]; }).sort();
    }
    send({type: "allocate", allocation: alloc, lock: true}, button);
  }

  // ---------------------------------------------------------------- pointer and keys on the table

  function tablePoint(evt) {
    var m = ctx.svg.getScreenCTM();
    if (!m) return null;
    var pt = ctx.svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var p = pt.matrixTransform(m.inverse());
    return [p.x, p.y];
  }
  // Where a table point is on the screen (tests click it; nothing else needs it).
  function toScreen(x, y) {
    read();
    var m = ctx.svg.getScreenCTM(), pt = ctx.svg.createSVGPoint();
    pt.x = x; pt.y = y;
    var p = pt.matrixTransform(m);
    return {x: p.x, y: p.y};
  }

  // On a phone the table is drawn wider than the screen and scrolls sideways (or is fitted
  // whole with the toggle); the choice and the scroll survive every redraw.
  function paintFit() {
    var wrap = document.querySelector("#jb-board .jb-tablewrap"), box = document.getElementById("jb-tablescroll");
    if (!wrap || !box) return;
    wrap.classList.toggle("is-fit", !!ui.fit);
    var toggle = wrap.querySelector("[data-jb-fit]");
    if (toggle) {
      toggle.setAttribute("aria-pressed", ui.fit ? "true" : "false");
      toggle.textContent = ui.fit ? "Zoom in on the table" : "Show the whole table";
    }
    if (box.scrollWidth <= box.clientWidth) return;
    if (ui.scrollLeft == null) ui.scrollLeft = ctx.seat === 1 ? box.scrollWidth : 0;  // your own edge first
    box.scrollLeft = ui.scrollLeft;
  }
  document.addEventListener("scroll", function (evt) {
    if (evt.target && evt.target.id === "jb-tablescroll") ui.scrollLeft = evt.target.scrollLeft;
  }, true);

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (!t.closest || !t.closest("#jb-board")) return;
    if (t.closest("[data-jb-fit]")) { ui.fit = !ui.fit; ui.scrollLeft = null; paintFit(); return; }
    if (!read()) return;
    var el;
    if ((el = t.closest("[data-jb-send]"))) {
      var action;
      try { action = JSON.parse(el.dataset.jbSend); } catch (e) { return; }
      send(action, el);
      return;
    }
    if ((el = t.closest("[data-jb-move]"))) {
      startMove(parseInt(el.dataset.jbMove, 10));
      if (evt.detail === 0) { var input = $("#jb-board [data-jb-moveedit] [data-jb-x]"); if (input) input.focus(); }  // keyboard: on to the position
      else showTheRing();
      return;
    }
    if ((el = t.closest("[data-jb-move-cancel]"))) { stopMove(); feedback("", false); return; }
    if ((el = t.closest("[data-jb-move-here]"))) {
      var box = el.closest("[data-jb-moveedit]");
      var x = parseFloat($("[data-jb-x]", box).value), y = parseFloat($("[data-jb-y]", box).value);
      if (ui.move && isFinite(x) && isFinite(y)) aimMove([x, y], true, el); else feedback("Type a position first.", true);
      return;
    }
    if ((el = t.closest("[data-jb-place]"))) { ui.deploy.current = el.dataset.jbPlace; feedback("Click the table to place " + (ui.deploy.current === "snowman" ? "the snowman" : ui.deploy.current) + ".", false); render(); return; }
    if ((el = t.closest("[data-jb-place-here]"))) {
      var panel = el.closest("[data-jb-deploy-panel]");
      var px = parseFloat($("[data-jb-x]", panel).value), py = parseFloat($("[data-jb-y]", panel).value);
      if (isFinite(px) && isFinite(py)) placeDeploy([px, py]); else feedback("Type x and y in centimetres first.", true);
      return;
    }
    if ((el = t.closest("[data-jb-example]"))) { useExample(); return; }
    if ((el = t.closest("[data-jb-deploy-send]"))) { sendDeploy(el); return; }
    if ((el = t.closest("[data-jb-reroll-die]"))) {
      var i = el.dataset.jbRerollDie;
      if (ui.reroll.picked[i]) delete ui.reroll.picked[i]; else ui.reroll.picked[i] = true;
      renderDice(); return;
    }
    if ((el = t.closest("[data-jb-reroll]"))) {
      var dice = rolled(), chosen = Object.keys(ui.reroll.picked).map(function (k) { return dice[+k]; }).sort();
      if (chosen.length) send({type: "reroll", dice: chosen}, el);
      return;
    }
    if ((el = t.closest("[data-jb-pool-die]"))) {
      var idx = parseInt(el.dataset.jbPoolDie, 10);
      ui.alloc.picked = ui.alloc.picked === idx ? null : idx;
      renderDice();
      var next = $("#jb-board [data-jb-put]:not([disabled])");
      if (ui.alloc.picked !== null && evt.detail === 0 && next) next.focus();  // keyboard: go on to the characters
      return;
    }
    if ((el = t.closest("[data-jb-put]"))) { giveDie(el.dataset.jbPut); return; }
    if ((el = t.closest("[data-jb-slot-die]"))) {
      var who = el.dataset.char, n = parseInt(el.dataset.jbSlotDie, 10);
      ui.alloc.given[who] = (ui.alloc.given[who] || []).filter(function (k) { return k !== n; });
      renderDice(); return;
    }
    if ((el = t.closest("[data-jb-suggest]"))) { suggest(); return; }
    if ((el = t.closest("[data-jb-clear]"))) { ui.alloc.given = {}; ui.alloc.picked = null; renderDice(); return; }
    if ((el = t.closest("[data-jb-lock]"))) { lockDice(el); return; }
    if ((el = t.closest("[data-jb-return]"))) {
      var row = el.closest("[data-jb-return-row]");
      var ry = parseFloat($("[data-jb-y]", row).value);
      if (isFinite(ry)) aimReturn(ry, true, el); else feedback("Type a position along the edge first.", true);
      return;
    }
    if (t.closest("#jb-table")) { tableClick(evt); return; }
    if ((el = t.closest("[data-select]"))) { select(el.dataset.select); }
  });

  function select(id) {
    if (ui.move && ui.move.action.character !== id) stopMove();
    ui.selected = id;
    render();
  }

  function tableClick(evt) {
    var p = tablePoint(evt);
    if (!p) return;
    var piece = evt.target.closest(".jb-piece[data-select]");
    if (deployRegion()) { placeDeploy(p); return; }
    if (returnRegion() && ui.ret) { aimReturn(p[1], true); return; }
    if (ui.move) {
      if (piece && piece.dataset.select !== ui.move.action.character && !ctx.followup) { select(piece.dataset.select); return; }
      if (lastPointer === "mouse") { aimMove(p, true); return; }
      if (onTheMarker(p)) { aimMove(ui.move.ghost, true); return; }
      aimMove(p, false);  // a touch has no pointer to follow: the first tap shows where, the second moves
      if (!moveProblem(ui.move.action, ui.move.ghost)) feedback(ui.move.action.character + " can go there (" + fmt(dist(ui.move.action.center, ui.move.ghost)) + " cm). Tap the marker again, or press Move here, to move.", false);
      return;
    }
    if (piece) select(piece.dataset.select);
  }

  // Whether the last press was a mouse's (a click moves at once) or a finger's or pen's.
  var lastPointer = "mouse";
  document.addEventListener("pointerdown", function (evt) { lastPointer = evt.pointerType || "mouse"; }, true);
  function onTheMarker(p) {
    var g = ui.move && ui.move.ghost;
    return !!g && dist(g, clampToRing(ui.move.action, p)) <= Math.max(ui.move.action.piece_radius, 1);
  }

  // The marker follows the pointer while a move or a return is being aimed (one redraw a frame).
  var frame = null, lastHint = null;
  document.addEventListener("pointermove", function (evt) {
    if (evt.pointerType !== "mouse") return;  // a finger sets the marker down by tapping
    if (!ctx.svg || !evt.target.closest || !evt.target.closest("#jb-table")) return;
    if (!ui.move && !(returnRegion() && ui.ret)) return;
    var p = tablePoint(evt);
    if (!p) return;
    if (ui.move) {
      var a = ui.move.action, q = clampToRing(a, p);
      ui.move.ghost = [round(q[0]), round(q[1])];
      var hint = moveProblem(a, ui.move.ghost) || (a.character + " can go there (" + fmt(dist(a.center, ui.move.ghost)) + " cm). Click to move.");
      if (hint !== lastHint) { lastHint = hint; feedback(hint, hint.indexOf("can go there") === -1); }
    } else {
      var r = returnRegion();
      ui.ret.y = round(Math.min(r.y_range[1], Math.max(r.y_range[0], p[1])), 2);
    }
    if (frame === null) frame = requestAnimationFrame(function () { frame = null; render(); });
  });

  // Pointing at a target (a throw button, a line in the list, an enemy on the table) shows the line.
  function hoverFrom(el) {
    if (el.dataset.los) return el.dataset.los.split("|");
    if (el.matches(".jb-piece") && ui.selected && el.dataset.id !== ui.selected) {
      var from = onField(ui.selected), to = onField(el.dataset.id);
      if (from && to && from.seat !== to.seat) return [ui.selected, el.dataset.id];
    }
    return null;
  }
  function onOver(evt) {
    var el = evt.target.closest && evt.target.closest("#jb-board [data-los], #jb-table .jb-piece");
    if (!el || !read()) return;
    var line = hoverFrom(el);
    if (!line) return;
    ui.hover = line;
    render();
  }
  function onOut(evt) {
    var el = evt.target.closest && evt.target.closest("#jb-board [data-los], #jb-table .jb-piece");
    if (!el || !ui.hover) return;
    var to = evt.relatedTarget;
    if (to && el.contains && el.contains(to)) return;
    ui.hover = null;
    if (read()) render();
  }
  document.addEventListener("mouseover", onOver);
  document.addEventListener("mouseout", onOut);
  document.addEventListener("focusin", onOver);
  document.addEventListener("focusout", onOut);

  document.addEventListener("keydown", function (evt) {
    var t = evt.target;
    if (!t.closest) return;
    if (t.matches("[data-jb-x], [data-jb-y]") && evt.key === "Enter") {
      var go = t.closest("[data-jb-moveedit], [data-jb-deploy-panel], [data-jb-return-row]");
      var btn = go && $("[data-jb-move-here], [data-jb-place-here], [data-jb-return]", go);
      if (btn) { evt.preventDefault(); btn.click(); }
      return;
    }
    if (!t.closest("#jb-table") || !read()) return;
    var keys = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    var k = keys[evt.key];
    if (deployRegion()) {
      if (k) { evt.preventDefault(); nudgeDeploy(k[0], k[1], evt.shiftKey); }
      return;
    }
    if (returnRegion() && ui.ret) {
      if (k) { evt.preventDefault(); aimReturn((ui.ret.y || 15) + k[1] * (evt.shiftKey ? 2 : 0.5), false); }
      else if (evt.key === "Enter") { evt.preventDefault(); aimReturn(ui.ret.y || 15, true); }
      return;
    }
    if (ui.move) {
      if (k) {
        evt.preventDefault();
        var g = ui.move.ghost || ui.move.action.center, step = evt.shiftKey ? 2 : 0.5;
        aimMove([g[0] + k[0] * step, g[1] + k[1] * step], false);
      } else if (evt.key === "Enter") { evt.preventDefault(); aimMove(ui.move.ghost || ui.move.action.center, true); }
      else if (evt.key === "Escape") { stopMove(); }
    }
  });

  // ---------------------------------------------------------------- keeping focus across re-renders

  function focusKey(el) {
    if (!el || !el.closest || !el.closest("#jb-board")) return null;
    if (el.id) return "#" + el.id;
    var attrs = ["data-jb-x", "data-jb-y", "data-jb-move", "data-jb-put", "data-jb-pool-die", "data-jb-reroll-die", "data-jb-place", "data-select", "data-los", "data-jb-lock", "data-jb-reroll", "data-jb-deploy-send", "data-jb-move-here", "data-jb-place-here"];
    for (var i = 0; i < attrs.length; i++) {
      if (el.hasAttribute(attrs[i])) {
        var scope = el.closest("[data-jb-moveedit]") ? "[data-jb-moveedit] " : el.closest("[data-jb-deploy-panel]") ? "[data-jb-deploy-panel] " : "";
        return "#jb-board " + scope + (el.tagName.toLowerCase()) + "[" + attrs[i] + '="' + el.getAttribute(attrs[i]) + '"]';
      }
    }
    return null;
  }
  document.addEventListener("htmx:oobBeforeSwap", function () { ui.focusKey = focusKey(document.activeElement); });
  function restoreFocus() {
    if (!ui.focusKey) return;
    var key = ui.focusKey;
    ui.focusKey = null;
    var active = document.activeElement;
    if (active && active !== document.body && ctx.board.contains(active)) return;
    try {
      var el = document.querySelector(key);
      if (el && !el.disabled) el.focus({preventScroll: true});
    } catch (e) { /* a key that is no selector any more */ }
  }

  // ---------------------------------------------------------------- wiring

  function onSwap() { refresh(); }
  document.addEventListener("htmx:oobAfterSwap", onSwap);
  document.addEventListener("htmx:wsAfterMessage", onSwap);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();

  window.JingleBells = {
    refresh: refresh,
    toScreen: toScreen,
    moveProblem: moveProblem,
    state: function () { return ui; }
  };
})();
