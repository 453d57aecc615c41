// The roster editor (games/roster_field.py): a table of Kids written back as JSON into the
// field's textarea. The number of players comes from the form's "Players" select, the types
// allowed from its "special players" box. The engine checks the rules when the game is created.
(function () {
  "use strict";
  if (window.RosterEditor) return;
  var NAMES = ["Holly", "Noel", "Ivy", "Rudy", "Carol", "Nick", "Robin", "Eve", "Gabriel", "Joy", "Frost", "Star"];
  var TRAITS_OF = {kid: 1, big_kid: 2, elf: 0, snowman: 1, yeti: 0, penguin: 1};

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function select(options, value, label) {
    var s = el("select", {"aria-label": label});
    options.forEach(function (o) {
      var opt = el("option", {value: o[0]}, o[1]);
      if (String(o[0]) === String(value)) opt.selected = true;
      s.appendChild(opt);
    });
    return s;
  }

  function setUp(root) {
    var form = root.closest("form");
    var choices = JSON.parse(root.dataset.choices);
    var area = root.querySelector("[data-roster-json]");
    var ui = root.querySelector("[data-roster-ui]");
    var useDefault = root.querySelector("[data-roster-default]");
    var table = root.querySelector("[data-roster-table]");
    var rows = root.querySelector("[data-roster-rows]");
    var controls = root.querySelector("[data-roster-controls]");
    var count = root.querySelector("[data-roster-count]");
    var kids;
    try { kids = area.value.trim() ? JSON.parse(area.value) : null; } catch (e) { return; }  // leave bad JSON editable as text
    area.hidden = true;
    var fallback = root.querySelector("[data-roster-fallback]");
    if (fallback) fallback.hidden = true;
    ui.hidden = false;

    function players() {
      var s = form && form.querySelector("[name=num_seats]");
      return s ? parseInt(s.value, 10) : 2;
    }
    function special() {
      var box = form && form.querySelector("[name=opt_special_players]");
      return !!(box && box.checked);
    }
    function defaults() {
      var n = players(), per = Math.max(1, Math.ceil(6 / n)), out = [];
      for (var seat = 0; seat < n; seat++) {
        for (var i = 0; i < per; i++) {
          var k = out.length;
          out.push({name: NAMES[k % NAMES.length], seat: seat, type: "kid", traits: [choices.traits[k % 4][0]]});
        }
      }
      return out;
    }
    function write() {
      area.value = useDefault.checked || !kids ? "" : JSON.stringify(kids.map(function (k) {
        var out = {name: k.name, seat: k.seat, type: k.type};
        if (TRAITS_OF[k.type] > 0) out.traits = k.traits.slice(0, TRAITS_OF[k.type]);
        return out;
      }));
      count.textContent = kids ? kids.length + (kids.length === 1 ? " Kid" : " Kids") + " (6 to 12 in all, 1 to 3 per player)" : "";
    }
    function draw() {
      table.hidden = controls.hidden = useDefault.checked;
      while (rows.firstChild) rows.removeChild(rows.firstChild);
      if (useDefault.checked) { write(); return; }
      var seats = [];
      for (var s = 0; s < players(); s++) seats.push([s, "Player " + (s + 1)]);
      var types = choices.types.filter(function (t) { return special() || t[0] === "kid"; });
      kids.forEach(function (kid, index) {
        if (!special() && kid.type !== "kid") kid.type = "kid";
        var tr = el("tr", {"data-roster-row": index});
        var name = el("input", {type: "text", maxlength: "20", value: kid.name, "aria-label": "Name of Kid " + (index + 1)});
        name.addEventListener("input", function () { kid.name = name.value; write(); });
        var seat = select(seats, kid.seat, "Player commanding Kid " + (index + 1));
        seat.addEventListener("change", function () { kid.seat = parseInt(seat.value, 10); write(); });
        var type = select(types, kid.type, "Type of Kid " + (index + 1));
        type.addEventListener("change", function () { kid.type = type.value; draw(); });
        var traitCell = el("td");
        for (var t = 0; t < TRAITS_OF[kid.type]; t++) {
          (function (slot) {
            if (!kid.traits[slot]) kid.traits[slot] = choices.traits[(index + slot) % 4][0];
            var pick = select(choices.traits, kid.traits[slot], "Trait " + (slot + 1) + " of Kid " + (index + 1));
            pick.addEventListener("change", function () { kid.traits[slot] = pick.value; write(); });
            traitCell.appendChild(pick);
          })(t);
        }
        if (!TRAITS_OF[kid.type]) traitCell.appendChild(el("span", {"class": "muted"}, kid.type === "yeti" ? "Fast and Strong" : "none"));
        var remove = el("button", {type: "button", "class": "small secondary", "aria-label": "Remove Kid " + (index + 1)}, "Remove");
        remove.addEventListener("click", function () { kids.splice(index, 1); draw(); });
        [name, seat, type].forEach(function (input) { var td = el("td"); td.appendChild(input); tr.appendChild(td); });
        tr.appendChild(traitCell);
        var last = el("td"); last.appendChild(remove); tr.appendChild(last);
        rows.appendChild(tr);
      });
      write();
    }
    useDefault.checked = !kids;
    useDefault.addEventListener("change", function () {
      if (!useDefault.checked && !kids) kids = defaults();
      draw();
    });
    root.querySelector("[data-roster-add]").addEventListener("click", function () {
      var k = kids.length;
      kids.push({name: NAMES[k % NAMES.length] + (k >= NAMES.length ? " " + (k + 1) : ""), seat: k % players(), type: "kid",
                 traits: [choices.traits[k % 4][0]]});
      draw();
    });
    if (form) form.addEventListener("change", function (evt) {
      if (evt.target.name === "num_seats" || evt.target.name === "opt_special_players") {
        if (kids && evt.target.name === "num_seats") kids = kids.filter(function (k) { return k.seat < players(); });
        draw();
      }
    });
    draw();
  }

  function all() { document.querySelectorAll("[data-roster-editor]").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all); else all();
  window.RosterEditor = {setUp: setUp};
})();
