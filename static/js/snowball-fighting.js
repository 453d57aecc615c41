// Snowball Fighting's board: turns clicks on the garden into setup and orders actions.
// The board is re-rendered by the server on every version; what is being written (the
// segment and the order chosen, a half-picked Bowen Bolero, the setup typed so far) lives
// here and is put back after each render. Orders are saved (not sealed) after each click, so
// the MF left and the hit chances shown are the engine's; a refusal shows the engine's reason.
(function () {
  "use strict";

  var TARGET_TOOLS = {rattlesnake: 1, baker: 1, dirigible: 1, bolero: 1};
  var HINTS = {
    move: "Click where to go: the cheapest route there is drawn.",
    collect_move: "Choose what and when, then click where to go: the cheapest route there is drawn.",
    collect: "Choose what to collect (you cannot collect on the path).",
    rattlesnake: "Click the opponent to aim at (range 6, 80%), or aim at the nearest opponent.",
    baker: "Click the opponent to aim at (range 4, 60%).",
    bolero: "Click two opponents (range 4, 50% each).",
    dirigible: "Click the opponent to aim at (range 3, 55%, 3 HP).",
    storm: "Click a conifer (range 4 to it; 90% to hit, then 70% the snow falls).",
    avalanche: "Click the north or south half of the shed roof (range 2; 80%, then 80% your side).",
    bounce: "Bounce on the spot, or click a free hex next to you to bounce there once all the throws have landed."
  };

  var S = {key: null, version: null, seg: null, tool: null, bolero: [], local: null, pending: false, queued: false,
           setupName: null, setupStarts: null, nameFocused: false, setupSent: null, setupError: null, showSeg: "all", message: "",
           scrollLeft: null, scrollTop: null, centredX: false, centredY: false, recentre: false,
           fit: false, branch: null, kbHex: null, kbActive: false, kbRow: null, refusal: null, readySent: false, replaced: null,
           said: null, cm: null};

  function board() { return document.getElementById("sf-board"); }
  function data(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  function q(sel) { return document.querySelector(sel); }
  function qa(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }

  // The map's own facts, from the garden's drawing: its row letters (north to south), the shed, the kitchen's doors.
  function mapData(name) {
    var map = q("#sf-map");
    return map && map.dataset[name] ? map.dataset[name].split(/,\s*/) : [];
  }
  function shed() { return mapData("shed")[0] || ""; }
  function doors() { return mapData("doors"); }
  function parse(ref) {
    var letters = ref.match(/^[A-Z]+/)[0];
    return [mapData("rows").indexOf(letters), parseInt(ref.slice(letters.length), 10)];
  }
  function refOf(r, c) { var rows = mapData("rows"); return r >= 0 && r < rows.length ? rows[r] + c : null; }
  function neighbours(ref) {
    if (ref === "KITCHEN") return doors();
    var p = parse(ref), out = [];
    [[-2, 0], [-1, 1], [1, 1], [2, 0], [1, -1], [-1, -1]].forEach(function (d) {
      var r = p[0] + d[0], c = p[1] + d[1];
      if (r < 0 || c < 1) return;
      var n = refOf(r, c);
      if (n && n !== shed() && q('#sf-map [data-hex="' + n + '"].sf-hex')) out.push(n);
    });
    if (doors().indexOf(ref) !== -1) out.push("KITCHEN");
    return out;
  }
  function stepCost(a, b, path) { return path.indexOf(a) !== -1 && path.indexOf(b) !== -1 ? 0.5 : 1; }
  function routeCost(start, route) {
    var path = data("sf-path") || [], here = start, cost = 0;
    route.forEach(function (h) { cost += stepCost(here, h, path); here = h; });
    return cost;
  }

  function you() { return data("sf-you"); }
  function orders() {
    var mine = you();
    var base = S.local || (mine && mine.orders) || [null, null, null];
    return JSON.parse(JSON.stringify(base));
  }
  function startOf(k) {
    var mine = you();
    if (mine && mine.plan && mine.plan[k - 1]) return mine.plan[k - 1].start;
    return mine && mine.orders_help ? mine.orders_help.start : null;
  }
  function combatantOn(hex) {
    var list = data("sf-combatants") || [];
    for (var i = 0; i < list.length; i++) if (list[i].hex === hex && list[i].status !== "gone") return list[i].seat;
    return null;
  }

  function hint(text) {
    S.message = text || "";
    var el = q("[data-sf-hint]") || q("#sf-setup-hint");
    if (el && text) el.textContent = text;
  }

  // ------------------------------------------------------------------ sending

  function sendOrders() {
    S.pending = true;
    S.queued = false;
    window.Snowball.send({type: "orders", segments: S.local});
  }
  function change(list) {
    S.refusal = null;
    S.said = null;
    var first = parseInt((q("[data-sf-orders]") || {dataset: {first: "1"}}).dataset.first, 10);
    for (var k = 0; k < first - 1; k++) list[k] = null;
    S.local = list;
    if (S.pending) S.queued = true; else sendOrders();
    paintOrderText();
  }
  // The order being written: the segment's own, or one case of a conditional third segment.
  function isConditional(list) {
    var o = list[S.seg - 1];
    return !!(o && o.type === "conditional");
  }
  function curOrder() {
    var list = orders(), o = list[S.seg - 1];
    if (!isConditional(list)) return o;
    if (S.branch === "otherwise") return o.otherwise;
    return o.cases[S.branch || 0] ? o.cases[S.branch || 0].then : null;
  }
  // One order a segment: an order of another kind written over the segment's says, beside the
  // tools, what it replaced (until the next order written).
  function noteReplaced(order) {
    var old = curOrder();
    S.replaced = null;
    if (!old || old.type === order.type) return;
    var text = q('[data-sf-card="' + S.seg + '"] [data-sf-order-text]');
    var was = text && !S.pending && !isConditional(orders()) ? text.textContent.trim() : "";
    S.replaced = {seg: S.seg, text: "This replaced segment " + S.seg + "'s order" + (was ? " (" + was + ")" : "") + ": one order a segment."};
  }
  function setOrder(order) {
    noteReplaced(order);
    var list = orders();
    if (isConditional(list)) {
      var c = list[S.seg - 1];
      if (S.branch === "otherwise") c.otherwise = order;
      else c.cases[Math.min(S.branch || 0, c.cases.length - 1)].then = order;
    } else {
      list[S.seg - 1] = order;
    }
    change(list);
  }
  function conditionOf(row) {
    var kind = row.querySelector("[data-sf-when]").value, when = {"if": kind};
    if (["hp_at_most", "snowballs_at_least", "opponent_within", "seat_within"].indexOf(kind) !== -1)
      when.value = parseInt(row.querySelector("[data-sf-when-value]").value, 10) || 0;
    if (kind === "seat_within" || kind === "seat_away")
      when.seat = parseInt(row.querySelector("[data-sf-when-seat]").value, 10);
    if (kind === "at") when.hex = row.querySelector("[data-sf-when-hex]").value.trim().toUpperCase();
    return when;
  }
  function paintConditions() {
    qa("[data-sf-case]").forEach(function (row) {
      var kind = row.querySelector("[data-sf-when]").value;
      var parts = {value: ["hp_at_most", "snowballs_at_least", "opponent_within", "seat_within"].indexOf(kind) !== -1,
                   seat: kind === "seat_within" || kind === "seat_away", hex: kind === "at"};
      row.querySelectorAll("[data-sf-when-part]").forEach(function (el) { el.hidden = !parts[el.dataset.sfWhenPart]; });
    });
    qa("[data-sf-branch]").forEach(function (btn) {
      var key = btn.dataset.sfBranch === "otherwise" ? "otherwise" : parseInt(btn.dataset.sfBranch, 10);
      var on = S.seg === 3 && (S.branch === key || (S.branch === null && key === 0));
      btn.setAttribute("aria-pressed", on ? "true" : "false");
      btn.textContent = on ? "Writing this case…" : "Write this case";
    });
  }

  // ------------------------------------------------------------------ clicks

  function clickMap(evt) {
    var b = board();
    if (!b || !b.contains(evt.target) || !evt.target.closest("#sf-map")) return false;
    var token = evt.target.closest("[data-token-seat]");
    var sideEl = evt.target.closest("[data-side]");
    var hexEl = evt.target.closest("[data-hex]");
    var hex = hexEl ? hexEl.dataset.hex : null;
    if (b.dataset.phase === "setup" && b.dataset.asked) {
      if (!hex || !q('#sf-map .sf-hex.is-start[data-hex="' + hex + '"]')) {
        hint("Only the six ★ start hexes can be chosen.");
        return true;
      }
      var starts = currentStarts();
      var at = starts.indexOf(hex);
      if (at === -1) starts.push(hex); else starts.splice(at, 1);
      S.setupStarts = starts;
      paintSetup();
      return true;
    }
    if (b.dataset.phase !== "orders" || !b.dataset.asked || !S.seg || !S.tool) return false;
    var tool = S.tool;
    if (tool === "move" || tool === "collect_move") {
      if (!hex) return true;
      var cur = curOrder();
      var route = routeTo(hex, cur && cur.type === tool ? cur.route.slice() : [], tool);
      if (route === null) return true;
      if (!route.length) { setOrder(isConditional(orders()) ? {type: "stand"} : null); return true; }
      var look = cur && cur.type === tool && cur.if_hazard ? {if_hazard: cur.if_hazard} : {};
      if (tool === "move") setOrder(Object.assign({type: "move", route: route}, look));
      else {
        var what = (q("[data-sf-cm-what]") || {value: "ss"}).value, when = (q("[data-sf-cm-at]") || {value: "start"}).value;
        var order = Object.assign({type: "collect_move", what: what, count: 1, collect_at: when, route: route}, look);
        var why = collectMoveProblem(order);
        if (why) { say(why); return true; }
        setOrder(order);
      }
      return true;
    }
    if (tool === "bounce") {
      if (!hex) return true;
      var bake = curOrder();
      if (!bake || bake.type !== "baker") return true;
      bake.bounce = hex;
      setOrder(bake);
      return true;
    }
    if (TARGET_TOOLS[tool]) {
      var seat = token ? parseInt(token.dataset.tokenSeat, 10) : (hex ? combatantOn(hex) : null);
      if (seat === null || isNaN(seat)) { hint("Click an opponent's token."); return true; }
      aimAt(seat);
      return true;
    }
    if (tool === "storm") {
      if (hex && q('.sf-conifer[data-conifer="' + hex + '"]')) setOrder({type: "storm", conifer: hex});
      else hint("Click one of the conifers.");
      return true;
    }
    if (tool === "avalanche") {
      if (sideEl) setOrder({type: "avalanche", side: sideEl.dataset.side});
      else hint("Click the north or the south half of the shed roof.");
      return true;
    }
    return false;
  }

  // The route after a click on ``hex`` while writing a move: a hex of the route ends it there (the
  // start: no move), the hex next to its end adds one step, any other hex within reach is gone to
  // by the cheapest route the server drew from the engine's movement rules (#sf-routes).
  // null: nothing to change, or out of reach (then said beside the orders unless ``quiet``).
  function moveBudget(tool) { return tool === "collect_move" ? 2 : 4; }
  function reachOf(seg) { return (data("sf-routes") || [])[seg - 1] || {}; }
  function routeTo(hex, route, tool, quiet) {
    var start = startOf(S.seg), budget = moveBudget(tool), reach = reachOf(S.seg);
    if (hex === start) return route.length ? [] : null;
    var at = route.indexOf(hex);
    if (at !== -1) return at === route.length - 1 ? null : route.slice(0, at + 1);
    var end = route.length ? route[route.length - 1] : start;
    if (route.length && neighbours(end).indexOf(hex) !== -1 && routeCost(start, route.concat([hex])) <= budget)
      return route.concat([hex]);
    var found = reach[hex];
    if (found && found.mf <= budget) return found.route.slice();
    if (quiet) return null;
    say(hex === shed() ? "Nobody can enter the shed (" + shed() + ")." :
      hex + " is out of reach this segment: the cheapest route there costs more than the " + budget +
      " MF you have for moving. The amber-edged hexes are within reach.");
    return null;
  }
  // Why a click wrote nothing (out of reach, no snow where it would collect), said in the segment's
  // hint until the player writes, picks another order or segment; it outlives the board's redraws.
  function say(text) {
    S.said = {seg: S.seg, text: text};
    var el = q("[data-sf-hint]");
    if (el) { el.textContent = text; el.classList.add("is-refusal"); }
  }

  // ------------------------------------------------------------------ collecting
  // The engine's own checks (orders._collect_at), made here before an order is written: there is
  // no snow on the path nor inside the kitchen. The server checks again, and its word stands.

  // Why no snow can be collected on ``hex`` (the engine's words), or "" where it can.
  function noSnowAt(hex) {
    if (!hex) return "";
    if (hex === "KITCHEN") return "there is no snow inside the kitchen";
    if ((data("sf-path") || []).indexOf(hex) !== -1) return "snowballs cannot be collected on the path (" + hex + ")";
    return "";
  }
  // Where a seat stands, in words: "in the kitchen", "on U11".
  function placeWords(hex) { return hex === "KITCHEN" ? "in the kitchen" : "on " + hex; }
  // Why the engine would refuse this collect-and-move where it collects, or "".
  function collectMoveProblem(order) {
    var start = startOf(S.seg), end = order.route[order.route.length - 1];
    if (order.collect_at === "start" && noSnowAt(start))
      return "You cannot collect first in segment " + S.seg + ": you start it " + placeWords(start) +
        ", and " + noSnowAt(start) + ". Choose 'after moving' and end the route off the path.";
    if (order.collect_at === "end" && noSnowAt(end))
      return "You cannot collect after moving to " + (end === "KITCHEN" ? "the kitchen" : end) + ": " + noSnowAt(end) +
        ". End the route on a hex off the path" + (noSnowAt(start) ? "." : ", or collect first, then move.");
    return "";
  }
  // Why plain collecting is not offered in this segment (standing on the path or in the kitchen), or "".
  function collectProblem() {
    var start = startOf(S.seg);
    if (!noSnowAt(start)) return "";
    return "You cannot collect in segment " + S.seg + ": you stand " + placeWords(start) + ", and " +
      noSnowAt(start) + ". Move off it first, or choose Collect and move and collect after moving.";
  }

  // What the seat holds when segment ``k`` begins, if its earlier orders go as written: {ss, dd}.
  function holdingAt(k) {
    var mine = you();
    if (mine && mine.plan && mine.plan[k - 1]) return {ss: mine.plan[k - 1].ss, dd: mine.plan[k - 1].dd};
    var help = mine && mine.orders_help;
    return help ? {ss: help.ss, dd: help.dd} : null;
  }
  // A mover carries two simple snowballs or one Dirigible (the book; rules.carry_fits).
  function carryFits(ss, dd) { return (dd === 0 && ss <= 2) || (ss === 0 && dd <= 1); }
  // What a mover takes along (rules.carried_after_leaving): all that fits, else the Dirigible
  // (or the simple snowballs when its move says carry "ss"); the rest is trampled.
  function carried(ss, dd, prefer) {
    if (carryFits(ss, dd)) return {ss: ss, dd: dd};
    if (dd && (prefer !== "ss" || ss === 0)) return {ss: 0, dd: 1};
    return {ss: Math.min(ss, 2), dd: 0};
  }
  function ballWords(ss, dd) {
    var parts = [];
    if (ss) parts.push(ss + " simple snowball" + (ss === 1 ? "" : "s"));
    if (dd) parts.push(dd + " Dirigible" + (dd === 1 ? "" : "s"));
    return parts.join(" and ") || "nothing";
  }
  // Before a collect is chosen: when the seat already holds as much as a mover carries, all it collects is extra.
  function fullHandsWarning() {
    var held = holdingAt(S.seg);
    if (!held || carryFits(held.ss + 1, held.dd)) return "";
    return "You will hold " + ballWords(held.ss, held.dd) + " here, " + (carryFits(held.ss, held.dd) ? "as much as" : "more than") +
      " a mover carries (2 simple snowballs or 1 Dirigible): " +
      "what you collect stays behind and is trampled when you next move, unless you throw it first.";
  }
  // Snow collected beyond what a mover can carry is wasted: what the player is told beside the
  // tools before choosing (``order`` a collect or collect-and-move, written or about to be).
  function carryWarning(order) {
    var held = holdingAt(S.seg);
    if (!held || !order) return "";
    var gain = order.what === "ss" ? [order.count || 1, 0] : [0, 1];
    var moving = order.type === "collect_move", first = moving && order.collect_at === "start";
    var before = moving && !first ? carried(held.ss, held.dd, order.carry) : held;
    var ss = before.ss + gain[0], dd = before.dd + gain[1];
    if (carryFits(ss, dd)) return "";
    var kept = carried(ss, dd, order.carry), lost = ballWords(ss - kept.ss, dd - kept.dd);
    var text = "Collecting " + (order.what === "ss" ? ballWords(gain[0], 0) : order.what === "head" ? "the snowman's head" : "a Dirigible") +
      " leaves you holding " + ballWords(ss, dd) + ", but a mover carries only 2 simple snowballs or 1 Dirigible: ";
    if (first) return text + lost + " will be trampled underfoot as you move off " + startOf(S.seg) + " this segment.";
    return text + "when you next move, " + lost + " stay" + (ss - kept.ss + dd - kept.dd === 1 ? "s" : "") +
      " behind and " + (ss - kept.ss + dd - kept.dd === 1 ? "is" : "are") + " trampled (throw first to use them).";
  }

  // With the pointer over a hex while writing a move, the route a click would make is drawn
  // dashed, with its MF.
  function hexCentre(ref) {
    var el = kbEl(ref), shape = el && el.querySelector("polygon, rect");
    if (!shape) return null;
    var box = shape.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
  function preview(hexEl) {
    var g = q("#sf-map .sf-preview");
    if (!g) return;
    var tool = S.tool, start = S.seg && startOf(S.seg), next = null;
    if (hexEl && start && (tool === "move" || tool === "collect_move")) {
      var cur = curOrder();
      next = routeTo(hexEl.dataset.hex, cur && cur.type === tool ? cur.route.slice() : [], tool, true);
      if (next && next.length && tool === "collect_move" && collectAt() === "end" && noSnowAt(next[next.length - 1])) next = null;
    }
    var points = next && next.length ? [start].concat(next).map(hexCentre) : [];
    if (!points.length || points.some(function (p) { return !p; })) { g.setAttribute("hidden", ""); return; }
    g.querySelector("polyline").setAttribute("points", points.map(function (p) { return p.join(","); }).join(" "));
    var label = g.querySelector("text"), end = points[points.length - 1];
    label.setAttribute("x", end[0]);
    label.setAttribute("y", end[1]);
    label.textContent = routeCost(start, next) + " MF";
    g.removeAttribute("hidden");
  }
  document.addEventListener("mouseover", function (evt) {
    if (!evt.target.closest || !evt.target.closest("#sf-map")) return;
    preview(evt.target.closest("#sf-map .sf-hex, #sf-map .sf-kitchen"));
  });
  document.addEventListener("mouseout", function (evt) {
    if (evt.target.closest && evt.target.closest("#sf-map") && !(evt.relatedTarget && evt.relatedTarget.closest && evt.relatedTarget.closest("#sf-map"))) preview(null);
  });

  function aimAt(seat) {
    var tool = S.tool;
    if (tool === "bolero") {
      if (seat === "nearest") return;
      if (S.bolero.indexOf(seat) >= 0) { hint("A Bolero needs two different opponents: click another one."); return; }
      S.bolero.push(seat);
      if (S.bolero.length < 2) { paintTools(); hint("Now click the second target."); return; }
      setOrder({type: "bolero", targets: S.bolero.slice(-2)});
      S.bolero = [];
      return;
    }
    if (tool === "baker") {
      setOrder({type: "baker", target: seat, bounce: "spot"});
      S.tool = "bounce";
      paintTools();
      return;
    }
    setOrder({type: tool, target: seat});
  }

  function chooseTool(tool) {
    S.tool = tool;
    hideRefusalHint();
    S.said = null;
    S.bolero = [];
    if (tool === "stand") { setOrder({type: "stand"}); }
    else if (tool === "maniac") { setOrder({type: "maniac"}); }
    else if (tool === "move" || tool === "collect_move") {
      var cur = curOrder();
      if (!cur || cur.type !== tool) { hint(HINTS[tool]); }
    }
    paintTools();
  }

  // A provisional move (Fogbound): stand still instead when its first step meets a hazard the player knows of.
  document.addEventListener("change", function (evt) {
    var box = evt.target.closest && evt.target.closest("[data-sf-if-hazard]");
    if (!box) return;
    var list = orders(), k = parseInt(box.dataset.sfIfHazard, 10) - 1, o = list[k];
    if (!o || (o.type !== "move" && o.type !== "collect_move")) return;
    if (box.checked) o.if_hazard = "stand"; else delete o.if_hazard;
    change(list);
  });
  // What and when of a collect-and-move, as chosen: kept across the board's redraws, and a written
  // one is rewritten with them (checked here first, as a click on the map is).
  document.addEventListener("change", function (evt) {
    var sel = evt.target.closest && evt.target.closest("[data-sf-cm-what], [data-sf-cm-at]");
    if (!sel || !board() || !board().contains(sel)) return;
    S.cm = {what: q("[data-sf-cm-what]").value, at: q("[data-sf-cm-at]").value};
    var cur = curOrder();
    if (cur && cur.type === "collect_move") {
      var order = Object.assign({}, cur, {what: S.cm.what, collect_at: S.cm.at});
      var why = collectMoveProblem(order);
      S.cm = null;
      if (why) { S.said = {seg: S.seg, text: why}; paintTools(); return; }
      setOrder(order);
    }
    paintTools();
  });
  document.addEventListener("click", function (evt) {
    var b = board();
    if (!b || !b.contains(evt.target)) return;
    var el;
    if (evt.target.closest("[data-sf-fit]")) { S.fit = !S.fit; S.scrollLeft = S.scrollTop = null; paintScroll(); return; }
    if ((el = evt.target.closest("[data-sf-seg]"))) { S.showSeg = el.dataset.sfSeg; paintSegments(); return; }
    if ((el = evt.target.closest("[data-sf-edit]"))) {
      var seg = parseInt(el.dataset.sfEdit, 10);
      S.seg = S.seg === seg ? null : seg;
      S.tool = null; S.bolero = []; S.branch = null; S.replaced = null; S.said = null; S.cm = null;
      hideRefusalHint();
      paintTools();
      paintScroll();
      return;
    }
    if ((el = evt.target.closest("[data-sf-tool]"))) { chooseTool(el.dataset.sfTool); return; }
    if ((el = evt.target.closest("[data-sf-collect]"))) {
      var c = JSON.parse(el.dataset.sfCollect);
      setOrder(Object.assign({type: "collect"}, c));
      return;
    }
    if ((el = evt.target.closest("[data-sf-target]"))) {
      var t = el.dataset.sfTarget;
      aimAt(t === "nearest" ? "nearest" : parseInt(t, 10));
      return;
    }
    if ((el = evt.target.closest("[data-sf-conifer]")) && el.tagName === "BUTTON") { setOrder({type: "storm", conifer: el.dataset.sfConifer}); return; }
    if ((el = evt.target.closest("[data-sf-side]")) && el.tagName === "BUTTON") { setOrder({type: "avalanche", side: el.dataset.sfSide}); return; }
    if ((el = evt.target.closest("[data-sf-bounce]"))) {
      var bake = curOrder();
      if (bake && bake.type === "baker") { bake.bounce = "spot"; setOrder(bake); }
      return;
    }
    if (evt.target.closest("[data-sf-undo]")) {
      var cur = curOrder();
      if (cur && cur.route) {
        cur.route.pop();
        setOrder(cur.route.length ? cur : (isConditional(orders()) ? {type: "stand"} : null));
      }
      return;
    }
    if ((el = evt.target.closest("[data-sf-branch]"))) {
      S.seg = 3;
      S.branch = el.dataset.sfBranch === "otherwise" ? "otherwise" : parseInt(el.dataset.sfBranch, 10);
      S.tool = null;
      paintTools();
      return;
    }
    if (evt.target.closest("[data-sf-make-cond]")) {
      var plain = orders();
      plain[2] = {type: "conditional", cases: [{when: {"if": "hit"}, then: plain[2] || {type: "stand"}}], otherwise: {type: "stand"}};
      S.seg = 3; S.branch = 0;
      change(plain);
      paintTools();
      return;
    }
    if (evt.target.closest("[data-sf-case-add]")) {
      var more = orders();
      more[2].cases.push({when: {"if": "not_hit"}, then: {type: "stand"}});
      S.seg = 3; S.branch = more[2].cases.length - 1;
      change(more);
      return;
    }
    if ((el = evt.target.closest("[data-sf-case-remove]"))) {
      var fewer = orders(), i = parseInt(el.dataset.sfCaseRemove, 10);
      fewer[2].cases.splice(i, 1);
      if (!fewer[2].cases.length) fewer[2] = fewer[2].otherwise;
      S.branch = 0;
      change(fewer);
      return;
    }
    if (evt.target.closest("[data-sf-uncond]")) {
      var back = orders();
      back[2] = back[2].cases[0].then;
      S.branch = null;
      change(back);
      return;
    }
    if (evt.target.closest("[data-sf-done]") && S.tool === "bolero" && S.bolero.length === 1) {
      hint("This Bolero has one target: click a second opponent, or choose another order.");
      return;
    }
    if (evt.target.closest("[data-sf-done]")) { S.seg = null; S.tool = null; S.said = null; hideRefusalHint(); paintTools(); paintScroll(); return; }
    if (evt.target.closest("#sf-ready, #sf-stand-all")) { S.readySent = true; S.refusal = null; paintRefusal(); return; }
    if (evt.target.closest("[data-sf-starts-clear]")) { S.setupStarts = []; paintSetup(); return; }
    if (evt.target.closest("[data-sf-setup-save]")) { sendSetup(false); return; }
    if (evt.target.closest("[data-sf-setup-ready]")) { sendSetup(true); return; }
    clickMap(evt);
  });

  document.addEventListener("change", function (evt) {
    var row = evt.target.closest && evt.target.closest("[data-sf-case]");
    if (!row || !board() || !board().contains(row)) return;
    var list = orders(), i = parseInt(row.dataset.sfCase, 10);
    if (!isConditionalAt(list, 2)) return;
    list[2].cases[i].when = conditionOf(row);
    paintConditions();
    change(list);
  });
  function isConditionalAt(list, k) { return !!(list[k] && list[k].type === "conditional"); }

  document.addEventListener("input", function (evt) {
    if (evt.target.id === "sf-name") S.setupName = evt.target.value;
  });
  document.addEventListener("focusin", function (evt) { if (evt.target.id === "sf-name") S.nameFocused = true; });
  document.addEventListener("focusout", function (evt) { if (evt.target.id === "sf-name") S.nameFocused = false; });
  document.addEventListener("keydown", function (evt) {
    if (evt.target.id === "sf-name" && evt.key === "Enter") { evt.preventDefault(); sendSetup(false); }
  });

  function currentStarts() {
    if (S.setupStarts) return S.setupStarts.slice();
    var el = q("#sf-starts");
    return el && el.dataset.saved ? el.dataset.saved.split(",") : [];
  }
  function sendSetup(ready) {
    var input = q("#sf-name");
    var action = {type: "setup", name: input ? input.value : "", starts: currentStarts()};
    if (ready) action.ready = true;
    if (input && !action.name.trim()) {  // nothing to send yet: say what is missing, by the field
      S.setupError = "Write your nom de guerre first, e.g. Jack Frost.";
      paintSetupError();
      input.focus();
      return;
    }
    S.setupSent = action.name.trim().split(/\s+/).join(" ");
    window.Snowball.send(action);
  }
  // A refused setup's reason stands under the field it is about (the name, or the start hexes)
  // and stays, across redraws, until a setup is saved.
  function setupSettled() {
    var mine = you();
    if (S.setupSent !== null && mine && mine.setup && mine.setup.name === S.setupSent) {
      S.setupSent = null;
      S.setupError = null;
    }
  }
  function paintSetupError() {
    setupSettled();
    var text = S.setupError, aboutStarts = !!text && /start (hex|choice)/.test(text);
    [["#sf-name-error", text && !aboutStarts], ["#sf-starts-error", aboutStarts]].forEach(function (pair) {
      var el = q(pair[0]);
      if (!el) return;
      el.textContent = pair[1] ? text : "";
      el.hidden = !pair[1];
    });
    var input = q("#sf-name");
    if (input) {
      if (text && !aboutStarts) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
  }

  // ------------------------------------------------------------------ painting

  function paintSegments() {
    var b = board();
    if (!b || !q("[data-sf-seg]")) return;
    b.dataset.showSeg = S.showSeg;
    qa("[data-sf-seg]").forEach(function (btn) { btn.setAttribute("aria-pressed", btn.dataset.sfSeg === S.showSeg ? "true" : "false"); });
  }

  function paintSetup() {
    var b = board();
    if (!b || b.dataset.phase !== "setup") return;
    var input = q("#sf-name");
    if (input && S.setupName !== null) input.value = S.setupName;
    if (input && S.nameFocused && document.activeElement !== input) {
      input.focus({preventScroll: true});
      input.setSelectionRange(input.value.length, input.value.length);
    }
    paintSetupError();
    var starts = currentStarts();
    var shown = q("#sf-starts");
    if (shown) shown.textContent = starts.length ? starts.join(", ") : "none yet";
    qa("#sf-map .sf-start").forEach(function (g) {
      var old = g.querySelector(".sf-rank");
      if (old) old.remove();
      g.classList.remove("is-picked");
    });
    starts.forEach(function (ref, i) {
      var hexEl = q('#sf-map [data-hex="' + ref + '"].sf-hex');
      var star = hexEl && qa("#sf-map .sf-start").filter(function (g) { return g.dataset.start === ref; })[0];
      if (!star) return;
      star.classList.add("is-picked");
      var t = document.createElementNS("http://www.w3.org/2000/svg", "text");
      t.setAttribute("class", "sf-rank");
      t.setAttribute("y", "3");
      t.textContent = String(i + 1);
      star.appendChild(t);
    });
    if (S.message) hint(S.message);
    kbLabels();
  }

  function paintOrderText() {
    var list = orders();
    qa("[data-sf-card]").forEach(function (card) {
      var k = parseInt(card.dataset.sfCard, 10);
      card.classList.toggle("is-unsaved", !!S.local && JSON.stringify(list[k - 1]) !== JSON.stringify(((you() || {}).orders || [])[k - 1] || null));
    });
  }

  function paintTools() {
    var b = board();
    qa("#sf-map .is-next, #sf-map .is-aimable, #sf-map .is-picked-target, #sf-map .is-reach").forEach(function (el) {
      el.classList.remove("is-next", "is-aimable", "is-picked-target", "is-reach");
    });
    var tools = q("[data-sf-tools]");
    if (!b || !tools || b.dataset.phase !== "orders") return;
    b.dataset.editing = S.seg || "";
    qa("[data-sf-edit]").forEach(function (btn) {
      var on = parseInt(btn.dataset.sfEdit, 10) === S.seg;
      btn.setAttribute("aria-pressed", on ? "true" : "false");
      btn.textContent = on ? "Writing…" : btn.dataset.label;
      btn.closest("[data-sf-card]").classList.toggle("is-editing", on);
    });
    qa("[data-sf-card]").forEach(function (card) {
      if (parseInt(card.dataset.sfCard, 10) !== S.seg) card.classList.remove("is-editing");
    });
    tools.hidden = !S.seg;
    if (!S.seg) { paintRefusal(); return; }
    // the tools sit under the segment being written
    var card = q('[data-sf-card="' + S.seg + '"]');
    if (card && tools.previousElementSibling !== card && card.parentNode) card.appendChild(tools);
    q("[data-sf-tool-seg]").textContent = S.seg;
    var cur = curOrder();
    var tool = S.tool;
    qa("[data-sf-tool]").forEach(function (btn) {
      var name = btn.dataset.sfTool;
      btn.setAttribute("aria-pressed", (tool === name || (tool === "bounce" && name === "baker")) ? "true" : "false");
    });
    var opts = {collect: tool === "collect", collect_move: tool === "collect_move",
                target: !!TARGET_TOOLS[tool], conifer: tool === "storm", side: tool === "avalanche", bounce: tool === "bounce"};
    qa("[data-sf-opts]").forEach(function (el) { el.hidden = !opts[el.dataset.sfOpts]; });
    qa("[data-sf-only]").forEach(function (el) { el.hidden = el.dataset.sfOnly !== tool; });
    paintCollectChoices(startOf(S.seg));
    var undo = q("[data-sf-undo]");
    if (undo) undo.hidden = !(cur && cur.route && (tool === "move" || tool === "collect_move"));
    var start = startOf(S.seg);
    paintCollectMove(cur, start);
    var text = tool ? (HINTS[tool] || "") : "Choose an order for this segment.";
    if ((tool === "move" || tool === "collect_move") && start) {
      var route = cur && cur.type === tool ? cur.route : [];
      var end = route.length ? route[route.length - 1] : start;
      var budget = moveBudget(tool);
      var spent = routeCost(start, route);
      var path = data("sf-path") || [], reach = reachOf(S.seg);
      var endsHere = function (n) { return tool !== "collect_move" || collectAt() !== "end" || !noSnowAt(n); };
      Object.keys(reach).forEach(function (n) {
        var el = reach[n].mf <= budget && endsHere(n) && (q('#sf-map .sf-hex[data-hex="' + n + '"]') || (n === "KITCHEN" && q("#sf-map [data-hex=KITCHEN]")));
        if (el) el.classList.add("is-reach");
      });
      neighbours(end).forEach(function (n) {
        if (spent + stepCost(end, n, path) > budget || !endsHere(n)) return;
        var el = q('#sf-map .sf-hex[data-hex="' + n + '"]') || (n === "KITCHEN" && q("#sf-map [data-hex=KITCHEN]"));
        if (el) el.classList.add("is-next");
      });
      text = (route.length ? "Route " + start + " → " + route.join(" → ") + ": " : "From " + start + ": ")
        + spent + " of " + budget + " MF" + (tool === "collect_move" ? " for moving (2 go to collecting)" : "")
        + ", " + (budget - spent) + " left. " + (route.length
          ? "Click a hex of the route to stop there, the next hex to add a step, or any amber-edged hex to go there."
          : "Click where to go (amber-edged hexes are within reach): the cheapest route there is drawn.");
    }
    if (TARGET_TOOLS[tool]) {
      var help = (you() || {}).orders_help || {targets: []};
      help.targets.forEach(function (s) {
        var tok = q('#sf-map [data-token-seat="' + s + '"]');
        if (tok) tok.classList.add(S.bolero.indexOf(s) !== -1 ? "is-picked-target" : "is-aimable");
      });
      if (tool === "bolero" && S.bolero.length === 1) text = "Now click the second target.";
    }
    if (tool === "storm") qa("#sf-map .sf-conifer:not(.is-used)").forEach(function (g) {
      var h = q('#sf-map .sf-hex[data-hex="' + g.dataset.conifer + '"]');
      if (h) h.classList.add("is-aimable");
    });
    if (tool === "avalanche") qa("#sf-map .sf-roof:not(.is-used)").forEach(function (r) { r.classList.add("is-aimable"); });
    if (tool === "bounce" && start) neighbours(start).forEach(function (n) {
      var el = q('#sf-map .sf-hex[data-hex="' + n + '"]');
      if (el) el.classList.add("is-next");
    });
    if (S.replaced && S.replaced.seg === S.seg) text = S.replaced.text + " " + text;
    var h = q("[data-sf-hint]"), said = S.said && S.said.seg === S.seg ? S.said.text : "";
    if (h) { h.textContent = said || text; h.classList.toggle("is-refusal", !!said); }
    paintCollectWarning(cur, tool);
    paintRefusal();
    kbLabels();
  }

  // A snowman's head is offered only standing on a snowman whose head is still there, the
  // wheelbarrow's Dirigible only at the wheelbarrow: where the segment starts (the orders help's
  // snowman_heads and wheelbarrow); elsewhere a note says where they can be taken.
  function paintCollectChoices(here) {
    var help = (you() || {}).orders_help || {};
    qa("[data-sf-collect]").forEach(function (btn) {
      var what = JSON.parse(btn.dataset.sfCollect).what, off = false;
      if (what === "head") off = (help.snowman_heads || []).indexOf(here) === -1;
      else if (what === "barrow") off = help.wheelbarrow !== here;
      btn.hidden = off;
      btn.disabled = !!noSnowAt(here);
      var note = q('[data-sf-collect-note="' + what + '"]');
      if (note) note.hidden = !off;
    });
  }

  // When a collect-and-move collects ("start" or "end"), as its select says.
  function collectAt() { return (q("[data-sf-cm-at]") || {value: "start"}).value; }
  // The collect-and-move selects show the written order's what and when, else the player's last
  // choice; collecting first is not offered where the segment starts with no snow (the path, the kitchen).
  function paintCollectMove(cur, start) {
    var w = q("[data-sf-cm-what]"), a = q("[data-sf-cm-at]");
    if (!w || !a) return;
    var pick = cur && cur.type === "collect_move" ? {what: cur.what, at: cur.collect_at} : S.cm;
    if (pick && w.querySelector('option[value="' + pick.what + '"]')) w.value = pick.what;
    if (pick) a.value = pick.at;
    var first = a.querySelector('option[value="start"]'), none = !!noSnowAt(start);
    if (first) first.disabled = none;
    if (none && a.value === "start" && !(cur && cur.type === "collect_move")) a.value = "end";
  }
  // Beside the collect tools: why collecting is not offered here, and when what is collected
  // would be more than can be carried (the excess is trampled when its owner moves off).
  function paintCollectWarning(cur, tool) {
    var el = q("[data-sf-collect-warn]");
    if (!el) return;
    var words = [];
    if (tool === "collect") {
      words.push(collectProblem());
      if (!words[0]) words.push(cur && cur.type === "collect" ? carryWarning(cur) : fullHandsWarning());
    } else if (tool === "collect_move") {
      var start = startOf(S.seg);
      if (noSnowAt(start)) words.push("You start segment " + S.seg + " " + placeWords(start) + ", and " +
        noSnowAt(start) + ": collect after moving, on a hex off the path.");
      words.push(carryWarning(cur && cur.type === "collect_move" ? cur :
        {type: "collect_move", what: (q("[data-sf-cm-what]") || {value: "ss"}).value, count: 1, collect_at: collectAt()}));
    }
    var text = words.filter(Boolean).join(" ");
    el.textContent = text;
    el.hidden = !text;
  }

  // An order or a seal the server refused (its reason, also at the top of the page, where it fades)
  // is told where the player is: above the Ready button until the player writes or seals again, and
  // a refused order also in the hint of the segment being written, until another order or segment
  // is picked.
  function hideRefusalHint() { if (S.refusal) S.refusal.inTools = false; }
  function paintRefusal() {
    var tools = q("[data-sf-tools]"), h = q("[data-sf-hint]"), spot = q("[data-sf-refusal]"), r = S.refusal;
    if (r && r.inTools && tools && !tools.hidden && h) { h.textContent = r.text; h.classList.add("is-refusal"); }
    if (spot) {
      spot.textContent = r ? (r.sealing ? "Your orders were not sealed: " : "Not saved, the cards show the orders that stand: ") + r.text : "";
      spot.hidden = !r;
    }
  }


  // ------------------------------------------------------------------ keyboard
  // One hex of the garden is in the Tab order (a roving tabindex); the arrow keys move the
  // focus from hex to hex and Enter or Space chooses the focused hex as a click would. Each
  // hex's label names it and says what is on it. The focus survives the board's re-renders.

  var KB = "#sf-map .sf-hex, #sf-map .sf-kitchen";
  function kbEl(ref) {
    return ref ? q('#sf-map .sf-hex[data-hex="' + ref + '"]') || (ref === "KITCHEN" ? q("#sf-map .sf-kitchen") : null) : null;
  }
  function kbDefault() {
    var me = q("#sf-map .sf-token.is-me"), start = q("#sf-map .sf-hex.is-start"), any = q("#sf-map .sf-hex");
    return (me && kbEl(me.dataset.hex) && me.dataset.hex) || (start && start.dataset.hex) || (any && any.dataset.hex);
  }
  // The hex the arrow key leads to: up and down a column, left and right to the next column,
  // zigzagging about the row the sideways run started from.
  function kbStep(ref, key) {
    if (ref === "KITCHEN") return key === "ArrowUp" ? doors()[0] : null;
    var p = parse(ref), r = p[0], c = p[1], tries;
    if (key === "ArrowUp") tries = [[r - 2, c]];
    else if (key === "ArrowDown") tries = [[r + 2, c]];
    else if (key === "ArrowLeft" || key === "ArrowRight") {
      var dc = key === "ArrowLeft" ? -1 : 1, anchor = S.kbRow === null ? r : S.kbRow;
      tries = r <= anchor ? [[r + 1, c + dc], [r - 1, c + dc]] : [[r - 1, c + dc], [r + 1, c + dc]];
    } else return undefined;
    for (var i = 0; i < tries.length; i++) {
      if (tries[i][0] < 0 || tries[i][1] < 1) continue;
      var n = refOf(tries[i][0], tries[i][1]);
      if (n && kbEl(n)) return n;
    }
    return key === "ArrowDown" && doors().indexOf(ref) !== -1 ? "KITCHEN" : null;
  }
  function kbFocus(ref, keepScroll) {
    var el = kbEl(ref);
    if (!el) return;
    qa(KB).forEach(function (h) { h.setAttribute("tabindex", h === el ? "0" : "-1"); });
    S.kbHex = ref;
    el.focus({preventScroll: !!keepScroll});
  }
  function kbRing(el) {
    var ring = q("#sf-map .sf-kbring");
    if (!ring) return;
    if (!el || !el.matches(":focus-visible")) { ring.setAttribute("hidden", ""); return; }
    var points, shape = el.querySelector("polygon");
    if (shape) points = shape.getAttribute("points");
    else {
      var box = el.querySelector("rect"), x = +box.getAttribute("x"), y = +box.getAttribute("y"),
          w = +box.getAttribute("width"), h = +box.getAttribute("height");
      points = [x, y, x + w, y, x + w, y + h, x, y + h].join(" ");
    }
    ring.querySelectorAll("polygon").forEach(function (p) { p.setAttribute("points", points); });
    ring.removeAttribute("hidden");
  }
  function kbLabels() {
    var els = qa(KB);
    if (!els.length) return;
    var people = {}, mine = board() ? board().dataset.seat : "";
    (data("sf-combatants") || []).forEach(function (c) {
      if (!c.hex || c.status === "gone" || c.seen === false) return;
      var words = c.name + (String(c.seat) === mine ? " (you)" : "") + ": " + c.hp + " HP, " + c.vp + " VP" + (c.vp === 1 ? "" : "s")
        + ", " + c.ss + " snowball" + (c.ss === 1 ? "" : "s") + (c.dd ? ", " + c.dd + " Dirigible" + (c.dd === 1 ? "" : "s") : "")
        + (c.status === "fighting" ? "" : ", " + (c.status === "running" ? "running to the kitchen" : c.status === "drying" ? "drying their socks" : "fled"));
      (people[c.hex] = people[c.hex] || []).push(words);
    });
    var stormed = {}, headless = {}, aimable = {}, ranked = {};
    qa("#sf-map .sf-conifer.is-used").forEach(function (g) { stormed[g.dataset.conifer] = true; });
    qa("#sf-map .sf-snowman.is-used").forEach(function (g) { headless[g.dataset.snowman] = true; });
    qa("#sf-map .sf-token.is-aimable, #sf-map .sf-token.is-picked-target").forEach(function (g) {
      aimable[g.dataset.hex] = g.classList.contains("is-picked-target") ? "your first target" : "can be aimed at";
    });
    qa("#sf-map .sf-start.is-picked").forEach(function (g) {
      var rank = g.querySelector(".sf-rank");
      if (rank) ranked[g.dataset.start] = rank.textContent;
    });
    var fogged = {};
    qa("#sf-map .sf-fog-hex").forEach(function (p) { fogged[p.dataset.fog] = true; });
    var current = kbEl(S.kbHex) ? S.kbHex : kbDefault();
    els.forEach(function (el) {
      var ref = el.dataset.hex, words = [el.dataset.what];
      if (stormed[ref]) words.push("its snow already stormed down");
      if (el.classList.contains("is-snowman")) words.push(headless[ref] ? "the snowman's head is gone" : "its head can be taken as a Dirigible");
      if (people[ref]) words = words.concat(people[ref]);
      else if (fogged[ref]) words.push("in the fog: you cannot see who is there");
      else if (ref !== "KITCHEN" && !el.classList.contains("is-shed")) words.push("nobody on it");
      if (ranked[ref]) words.push("your start choice " + ranked[ref]);
      if (el.classList.contains("is-next")) words.push("can be the next hex of your route");
      else if (el.classList.contains("is-reach")) words.push("within reach of your move");
      if (el.classList.contains("is-aimable")) words.push("can be aimed at");
      if (aimable[ref]) words.push(aimable[ref]);
      el.setAttribute("aria-label", (ref === "KITCHEN" ? "The kitchen" : ref) + ": " + words.join("; "));
      el.setAttribute("tabindex", ref === current ? "0" : "-1");
    });
    var active = document.activeElement;
    if (S.kbActive && (!active || active === document.body || !document.contains(active))) kbFocus(current, true);
    else kbRing(active && active.closest ? active.closest(KB) : null);
  }

  document.addEventListener("keydown", function (evt) {
    var el = evt.target.closest && evt.target.closest(KB);
    if (!el || !board() || !board().contains(el)) return;
    var ref = el.dataset.hex;
    if (evt.key === "Enter" || evt.key === " " || evt.key === "Spacebar") {
      evt.preventDefault();
      S.kbActive = true;
      S.kbHex = ref;
      var b = board();
      if (!clickMap({target: el}) && b.dataset.asked && b.dataset.phase === "orders")
        hint(S.seg ? "Choose an order for segment " + S.seg + " first, then the hexes." : "Choose a segment to write first.");
      kbLabels();
      return;
    }
    if (evt.key === "ArrowUp" || evt.key === "ArrowDown") S.kbRow = null;
    var next = kbStep(ref, evt.key);
    if (next === undefined) return;
    evt.preventDefault();
    if ((evt.key === "ArrowLeft" || evt.key === "ArrowRight") && S.kbRow === null) S.kbRow = parse(ref)[0];
    if (evt.key === "ArrowUp" || evt.key === "ArrowDown") S.kbRow = null;
    if (next) kbFocus(next);
  });
  document.addEventListener("focusin", function (evt) {
    var el = evt.target.closest && evt.target.closest(KB);
    if (el) {
      S.kbHex = el.dataset.hex;
      S.kbActive = el.matches(":focus-visible");
      qa(KB).forEach(function (h) { h.setAttribute("tabindex", h === el ? "0" : "-1"); });
    } else if (evt.target !== document.body) {
      S.kbActive = false;
    }
    kbRing(el);
  });
  document.addEventListener("focusout", function (evt) {
    if (evt.target.closest && evt.target.closest(KB)) kbRing(null);
  });

  // The phone's scroll of the garden survives re-renders. The first time your combatant is drawn in a
  // garden that scrolls (each way), it is centred, whatever was scrolled before (the setup's start
  // hexes); at a new turn it is centred again only if it stands out of sight in the box.
  document.addEventListener("scroll", function (evt) {
    if (evt.target && evt.target.id === "sf-mapscroll") { S.scrollLeft = evt.target.scrollLeft; S.scrollTop = evt.target.scrollTop; }
  }, true);
  function paintScroll() {
    var b = board(), box = document.getElementById("sf-mapscroll");
    if (!b || !box) return;
    b.classList.toggle("is-fit", !!S.fit);
    var toggle = q("[data-sf-fit]");
    if (toggle) {
      toggle.setAttribute("aria-pressed", S.fit ? "true" : "false");
      toggle.textContent = S.fit ? "Zoom in on the garden" : "Show the whole garden";
    }
    var wide = box.scrollWidth > box.clientWidth, tall = box.scrollHeight > box.clientHeight;
    if (!wide && !tall) return;
    var me = q("#sf-map .sf-token.is-me .sf-body") || (b.dataset.seat === "" ? q("#sf-map .sf-token .sf-body") : null);
    if (me) {
      var r = me.getBoundingClientRect(), outer = box.getBoundingClientRect();
      var x = box.scrollLeft + r.left + r.width / 2 - outer.left, y = box.scrollTop + r.top + r.height / 2 - outer.top;
      var unset = function (v) { return v === null || v === undefined; };
      var outX = x < box.scrollLeft || x > box.scrollLeft + box.clientWidth;
      var outY = y < box.scrollTop || y > box.scrollTop + box.clientHeight;
      if (wide && (unset(S.scrollLeft) || !S.centredX || (S.recentre && outX))) {
        S.scrollLeft = Math.max(0, Math.round(x - box.clientWidth / 2));
        S.centredX = true;
      }
      if (tall && (unset(S.scrollTop) || !S.centredY || (S.recentre && outY))) {
        S.scrollTop = Math.max(0, Math.round(y - box.clientHeight / 2));
        S.centredY = true;
      }
      S.recentre = false;
    }
    if (wide && S.scrollLeft !== null && S.scrollLeft !== undefined) box.scrollLeft = S.scrollLeft;
    if (tall && S.scrollTop !== null && S.scrollTop !== undefined) box.scrollTop = S.scrollTop;
  }

  function refresh() {
    var b = board();
    if (!b) return;
    var key = b.dataset.game + ":" + b.dataset.phase + ":" + b.dataset.turn + ":" + b.dataset.seat;
    if (S.key !== key) {
      S.key = key; S.seg = null; S.replaced = null; S.tool = null; S.bolero = []; S.branch = null; S.local = null; S.pending = false; S.queued = false;
      S.setupStarts = null; S.showSeg = "all"; S.message = ""; S.kbHex = null; S.kbRow = null;
      S.refusal = null; S.readySent = false; S.recentre = true; S.said = null; S.cm = null;
      if (b.dataset.phase !== "setup") { S.setupName = null; S.setupSent = null; S.setupError = null; }
      var first = q("[data-sf-orders]");
      if (first && b.dataset.asked) S.seg = parseInt(first.dataset.first, 10);
    }
    var live = document.getElementById("live");
    var version = live ? live.dataset.version : b.dataset.version;
    if (version !== S.version) {
      S.version = version;
      S.readySent = false;
      if (S.pending) {
        S.pending = false;
        if (S.queued) sendOrders(); else S.local = null;
      }
    }
    paintSegments();
    paintSetup();
    paintOrderText();
    paintTools();
    paintConditions();
    paintScroll();
    kbLabels();
  }

  // Every message from the server may have redrawn the board: put back what is being written.
  document.addEventListener("htmx:wsAfterMessage", function () { refresh(); });
  // A refusal comes as a new #flash with its error code (its classes settle a moment later), before
  // any view the server sends after it (a stale one's). While orders or a seal of ours are on their
  // way it is theirs: forget the unsaved change and tell why by the orders.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var flash = evt.target;
    var refused = flash && flash.id === "flash" && flash.hasAttribute("data-code") && flash.textContent.trim();
    if (refused && S.setupSent !== null && board() && board().dataset.phase === "setup") {
      S.setupError = flash.textContent.trim();
      S.setupSent = null;
      paintSetupError();
      return;
    }
    if (refused && (S.pending || S.readySent)) {
      S.refusal = {text: flash.textContent.trim(), sealing: S.readySent && !S.pending, inTools: !S.readySent || S.pending};
      S.pending = false; S.queued = false; S.local = null; S.readySent = false;
    }
    refresh();
  });

  window.SnowballFighting = {refresh: refresh, state: function () { return S; }, neighbours: neighbours, startOf: startOf};
  refresh();
})();
