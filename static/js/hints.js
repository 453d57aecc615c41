// The hint panel of a Learn game: "Show hints" (kept in localStorage as "snowball.hints") hides
// or shows the hints. The choice is a class on <html>, which no redraw replaces, so hints switched
// off stay hidden while the page is redrawn; only the box is re-ticked after a redraw.
(function () {
  "use strict";

  var KEY = "snowball.hints";

  function shown() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function apply() {
    document.documentElement.classList.toggle("hints-off", !shown());
    var box = document.getElementById("hints-on");
    if (box) box.checked = shown();
  }

  document.addEventListener("change", function (evt) {
    if (!evt.target || evt.target.id !== "hints-on") return;
    try { window.localStorage.setItem(KEY, evt.target.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    apply();
  });
  document.addEventListener("htmx:wsAfterMessage", apply);
  document.addEventListener("htmx:oobAfterSwap", apply);
  apply();
})();
