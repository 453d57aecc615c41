// The hint panel of a Learn game: "Show hints" (kept in localStorage as "snowball.hints") hides
// or shows the hints, on every redraw of the page.
(function () {
  "use strict";

  var KEY = "snowball.hints";

  function shown() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function apply() {
    var box = document.getElementById("hints-on");
    var body = document.getElementById("hints-body");
    if (!box || !body) return;
    box.checked = shown();
    body.hidden = !box.checked;
  }

  document.addEventListener("change", function (evt) {
    if (!evt.target || evt.target.id !== "hints-on") return;
    try { window.localStorage.setItem(KEY, evt.target.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    apply();
  });
  document.addEventListener("htmx:wsAfterMessage", apply);
  document.addEventListener("htmx:oobAfterSwap", apply);
  document.addEventListener("DOMContentLoaded", apply);
})();
