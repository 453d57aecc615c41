// What a Snowball! board: clicks on the village (picking a corner, placing a Kid, ending a MOVE),
// the ghost base under the pointer, and the line of fire lit up while a THROW button is pointed at.
//
// Loaded once per page by the loader at the end of templates/games/what-a-snowball/board.html.
// The board is re-rendered by the server on every version, so everything here is event
// delegation on document, reading the board's data attributes afresh each time.
// Actions go out through window.Snowball.send (static/js/site.js); the server checks every one,
// the checks here only explain a bad click at once.
(function () {
  "use strict";
  if (window.WhatASnowball) return;

  var SIZE = 24;
  var SNAP = 0.35;              // a click this close to base contact with a Kid that may be shoved snaps to it
  var CONTACT_SLACK = 0.003;    // snapped bases stop this far apart (well inside the engine's 0.01 tolerance)
  var pending = null;           // a MOVE into base contact waiting for "shove or not"
  var aimed = null;             // on a touch screen, the point a first tap chose, waiting for a second
  var lastPointer = "mouse";    // what pressed last: a mouse's click places at once, a finger's tap aims first

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function round(v) { return Math.round(v * 1000) / 1000; }
  function fmt(v) { return (Math.round(v * 10) / 10).toFixed(1); }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]; }); }

  function board() { return document.getElementById("was-board"); }
  function village() { return document.getElementById("was-village"); }
  function clickSpec() {
    var b = board();
    if (!b || !b.dataset.click) return null;
    try { return JSON.parse(b.dataset.click); } catch (e) { return null; }
  }

  function feedback(text, bad) {
    $all("#was-board [data-was-feedback]").forEach(function (el) {
      el.textContent = text || "";
      el.classList.toggle("is-bad", !!bad && !!text);
    });
  }

  function send(action) {
    if (!window.Snowball || !window.Snowball.send(action)) {
      feedback("Not connected to the game right now; try again in a moment.", true);
      return false;
    }
    var b = board();
    if (b) b.classList.add("sending");
    return true;
  }

  // Village inches (y north) <-> SVG user units (y down) <-> the screen.
  function toVillage(evt) {
    var svg = village();
    var pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, SIZE - p.y];
  }
  function toScreen(x, y) {
    var svg = village();
    var pt = svg.createSVGPoint();
    pt.x = x; pt.y = SIZE - y;
    var p = pt.matrixTransform(svg.getScreenCTM());
    return {x: p.x, y: p.y};
  }
  function inAllowed(p) {
    var area = document.getElementById("was-allowed");
    if (!area || !area.isPointInFill) return true;
    var pt = village().createSVGPoint();
    pt.x = p[0]; pt.y = SIZE - p[1];
    return area.isPointInFill(pt);
  }
  function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1]); }
  function kidName(id) {
    var el = $('#was-village .was-kid[data-kid="' + id + '"]');
    return el ? el.dataset.name : id;
  }
  function checkedKid() {
    var radio = $('#was-board input[name="was-place-kid"]:checked');
    return radio ? radio.value : null;
  }

  // A destination next to a Kid that may be shoved, snapped into base contact; or null.
  function shoveSnap(action, p) {
    var best = null;
    (action.shove || []).forEach(function (id) {
      var shape = (action.must_avoid || []).filter(function (s) { return s.kind === "circle" && s.id === id; })[0];
      if (!shape) return;
      var d = dist(p, shape.center);
      if (d === 0 || Math.abs(d - shape.radius) > SNAP) return;
      var k = (shape.radius + CONTACT_SLACK) / d;
      var q = [shape.center[0] + (p[0] - shape.center[0]) * k, shape.center[1] + (p[1] - shape.center[1]) * k];
      if (!best || Math.abs(d - shape.radius) < best.off) best = {id: id, to: [round(q[0]), round(q[1])], off: Math.abs(d - shape.radius)};
    });
    return best;
  }

  function showConfirm(action, p, snap) {
    var box = $("#was-board [data-was-confirm]");
    if (!box) return;
    pending = {plain: inAllowed(p) ? [round(p[0]), round(p[1])] : null, snap: snap};
    box.hidden = false;
    box.innerHTML = "<p><b>End next to " + esc(kidName(snap.id)) + "?</b></p>" +
      '<div class="was-btnrow"><button type="button" class="was-b-cheat" data-was-shove>Shove ' + esc(kidName(snap.id)) +
      " over (cheating: the parents roll 1D6)</button>" +
      (pending.plain ? '<button type="button" class="secondary" data-was-noshove>Just move there</button>' : "") +
      '<button type="button" class="secondary" data-was-cancel>Cancel</button></div>';
    drawGhost(snap.to, true);
  }

  function onVillageClick(evt) {
    var spec = clickSpec();
    var pick = evt.target.closest && evt.target.closest(".was-corner-pick");
    if (pick) {
      send(JSON.parse(pick.dataset.action));
      return;
    }
    if (!spec) return;
    choosePoint(spec, toVillage(evt), lastPointer !== "mouse");
  }

  // On a touch screen a tap has no marker before it: the first tap on a point shows it (and
  // fills in x and y); a second tap on the marker, within a fingertip of it, goes ahead there.
  var FINGERTIP = 22;  // px
  function onTheMarker(p) {
    if (!aimed) return false;
    var a = toScreen(aimed[0], aimed[1]), b = toScreen(p[0], p[1]);
    return Math.hypot(a.x - b.x, a.y - b.y) <= FINGERTIP;
  }
  function aim(p, what) {
    aimed = p;
    drawGhost(p, true);
    var x = $("#was-board [data-was-x]"), y = $("#was-board [data-was-y]");
    if (x && y) { x.value = fmt(p[0]); y.value = fmt(p[1]); }
    feedback("Tap the marker again to " + what + " (" + fmt(p[0]) + ", " + fmt(p[1]) + "), or tap somewhere else.");
  }

  // A point chosen by a click on the village (``tapped``: by a finger) or typed in the panel's x and y boxes.
  function choosePoint(spec, p, tapped) {
    if (tapped && onTheMarker(p)) { p = aimed; tapped = false; }
    aimed = null;
    if (spec.mode === "place") {
      var kid = checkedKid() || spec.actions[0].kid;
      if (!inAllowed(p)) {
        var place = $("#was-board [data-was-where]");
        var where = (place && place.dataset.wasWhere) || "your corner";
        feedback("Not there: a Kid's whole base must be within 6 inches of " + where + ", on free ground (the shaded area).", true);
        if (tapped) drawGhost(p, false);
        return;
      }
      if (tapped) { aim(p, "place " + kidName(kid) + " at"); return; }
      feedback("Placing " + kidName(kid) + " at (" + fmt(p[0]) + ", " + fmt(p[1]) + ")…");
      send({type: "place", kid: kid, to: [round(p[0]), round(p[1])]});
    } else if (spec.mode === "move_to") {
      var action = spec.actions[0];
      var snap = shoveSnap(action, p);
      if (snap && inAllowed(snap.to)) { showConfirm(action, p, snap); return; }
      if (!inAllowed(p)) {
        feedback("Out of reach: " + kidName(action.kid) + " can go " + action.roll + "\" along the way round terrain and Kids (the shaded area).", true);
        if (tapped) drawGhost(p, false);
        return;
      }
      if (tapped) { aim(p, "move " + kidName(action.kid) + " to"); return; }
      send({type: "move_to", to: [round(p[0]), round(p[1])]});
    }
  }

  var NS = "http://www.w3.org/2000/svg";
  function drawGhost(p, ok) {
    var layer = document.getElementById("was-over");
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (!p) return;
    var c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", p[0]); c.setAttribute("cy", SIZE - p[1]); c.setAttribute("r", 0.5);
    c.setAttribute("class", "was-ghost " + (ok ? "is-ok" : "is-bad"));
    layer.appendChild(c);
  }

  function onVillageMove(evt) {
    var spec = clickSpec();
    if (!spec || pending || evt.pointerType !== "mouse") return;
    var p = toVillage(evt);
    drawGhost(p, inAllowed(p));
  }

  function lightThrow(target, on) {
    $all('#was-village .was-lof[data-to="' + target + '"]').forEach(function (el) { el.classList.toggle("is-hot", on); });
    var group = $('#was-board .was-throw[data-target="' + target + '"]');
    var objects = group && group.dataset.objects ? group.dataset.objects.split(" ") : [];
    objects.forEach(function (id) {
      $all('#was-village [data-kid="' + id + '"], #was-village .was-t[data-id="' + id + '"]').forEach(function (el) {
        el.classList.toggle("is-near", on);
      });
    });
    $all('#was-village .was-kid[data-kid="' + target + '"]').forEach(function (el) { el.classList.toggle("is-target", on); });
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (!t.closest) return;
    if (t.closest("[data-was-shove]") && pending) {
      send({type: "move_to", to: pending.snap.to, shove: pending.snap.id});
      pending = null;
      return;
    }
    if (t.closest("[data-was-noshove]") && pending) {
      send({type: "move_to", to: pending.plain});
      pending = null;
      return;
    }
    if (t.closest("[data-was-cancel]")) {
      pending = null;
      var box = $("#was-board [data-was-confirm]");
      if (box) { box.hidden = true; box.innerHTML = ""; }
      drawGhost(null);
      return;
    }
    if (t.closest("[data-was-here]")) {
      var spec = clickSpec();
      var x = parseFloat(($("#was-board [data-was-x]") || {}).value), y = parseFloat(($("#was-board [data-was-y]") || {}).value);
      if (!spec || isNaN(x) || isNaN(y)) { feedback("Type x and y in inches (0-24; y counts north from the south edge).", true); return; }
      choosePoint(spec, [x, y]);
      return;
    }
    if (t.closest("#was-village")) onVillageClick(evt);
  });
  document.addEventListener("keyup", function (evt) {
    var pick = evt.key === "Enter" && evt.target.closest && evt.target.closest(".was-corner-pick");
    if (pick) send(JSON.parse(pick.dataset.action));
  });
  document.addEventListener("pointerdown", function (evt) { lastPointer = evt.pointerType || "mouse"; }, true);
  document.addEventListener("pointermove", function (evt) {
    if (evt.target.closest && evt.target.closest("#was-village")) onVillageMove(evt);
  });
  ["mouseover", "focusin"].forEach(function (kind) {
    document.addEventListener(kind, function (evt) {
      var b = evt.target.closest && evt.target.closest(".was-throw[data-target]");
      if (b) lightThrow(b.dataset.target, true);
    });
  });
  ["mouseout", "focusout"].forEach(function (kind) {
    document.addEventListener(kind, function (evt) {
      var b = evt.target.closest && evt.target.closest(".was-throw[data-target]");
      if (b) lightThrow(b.dataset.target, false);
    });
  });
  // A new version replaces the board: whatever was half-chosen is gone with it (a table-talk
  // message changes no board).
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.target.closest && evt.target.closest("#talk-channels")) return;
    pending = aimed = null;
  });

  window.WhatASnowball = {toScreen: toScreen, inAllowed: inAllowed, clickSpec: clickSpec};
})();
