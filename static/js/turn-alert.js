// The "your turn" alert: a short chime (Web Audio, no sound file) once when the game's prompt
// turns to this player, and a flashing title while the tab is hidden. One switch, kept in
// localStorage ("snowball.turnAlert" = "off" to silence it), turns both on and off.
(function () {
  "use strict";

  var KEY = "snowball.turnAlert";
  var FLAG = "🔔 Your turn! ";
  var audio = null;
  var wasYourTurn = null;
  var flashTimer = null;
  var flagged = false;

  function enabled() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function setEnabled(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    if (!on) stopFlashing();
  }

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    return audio;
  }

  // Two rising notes in one oscillator, about a third of a second.
  function chime() {
    var ctx = audioContext();
    if (!ctx) return;
    if (ctx.state === "suspended" && ctx.resume) ctx.resume();
    var now = ctx.currentTime;
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, now);
    osc.frequency.setValueAtTime(880, now + 0.15);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.36);
  }

  function plainTitle() {
    return document.title.indexOf(FLAG) === 0 ? document.title.slice(FLAG.length) : document.title;
  }

  function flashTitle() {
    if (!document.hidden || !isYourTurn() || !enabled()) { stopFlashing(); return; }
    flagged = !flagged;
    document.title = flagged ? FLAG + plainTitle() : plainTitle();
  }

  function startFlashing() {
    if (flashTimer) return;
    flagged = false;
    flashTitle();
    flashTimer = setInterval(flashTitle, 1000);
  }

  function stopFlashing() {
    if (flashTimer) clearInterval(flashTimer);
    flashTimer = null;
    flagged = false;
    document.title = plainTitle();
  }

  function isYourTurn() {
    var live = document.getElementById("live");
    return !!live && live.dataset.seat !== "" && live.dataset.yourTurn === "1";
  }

  function showSwitch() {
    var box = document.getElementById("turn-alert");
    var live = document.getElementById("live");
    if (!box) return;
    box.checked = enabled();
    box.closest("label").hidden = !live || live.dataset.seat === "";
  }

  function check() {
    showSwitch();
    var yours = isYourTurn();
    if (yours && wasYourTurn === false && enabled()) chime();
    if (yours && document.hidden && enabled()) startFlashing();
    else if (!yours) stopFlashing();
    wasYourTurn = yours;
  }

  document.addEventListener("htmx:wsAfterMessage", check);
  document.addEventListener("htmx:oobAfterSwap", check);
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden && isYourTurn() && enabled()) startFlashing();
    else stopFlashing();
  });
  document.addEventListener("change", function (evt) {
    if (evt.target && evt.target.id === "turn-alert") setEnabled(evt.target.checked);
  });
  // Browsers start audio only after a gesture on the page: the first click wakes it up.
  document.addEventListener("pointerdown", function () {
    if (enabled() && !audio) audioContext();
    if (audio && audio.state === "suspended" && audio.resume) audio.resume();
  }, true);

  window.SnowballTurnAlert = {enabled: enabled, setEnabled: setEnabled};
})();
