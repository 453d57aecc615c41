// The review page: the arrow keys step back and forth (Home/End: start and end).
(function () {
  var keys = { ArrowLeft: "review-prev", ArrowRight: "review-next", Home: "review-first", End: "review-last" };
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) return;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    var link = document.getElementById(keys[event.key]);
    if (!link || link.classList.contains("disabled")) return;
    event.preventDefault();
    link.click();
  });
})();
