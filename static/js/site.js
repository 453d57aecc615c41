// Snowball's page glue: stamps actions with an id and the version seen, shows the
// connection state, who is online, and prompt countdowns. Everything else is htmx.
(function () {
  "use strict";

  function newActionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "a-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  var socket = null;

  // For boards that build an action in script (e.g. a point clicked on a table):
  // Snowball.send({type: "move", ...}) sends it like a ws-send button would.
  window.Snowball = {
    send: function (action) {
      if (!socket) return false;
      socket.send(JSON.stringify({type: "action", action: action, action_id: newActionId(), version: currentVersion()}));
      return true;
    }
  };

  function currentVersion() {
    var live = document.getElementById("live");
    return live ? parseInt(live.dataset.version, 10) : 0;
  }

  // Turn htmx's form values into the frame the game socket expects (docs/api.md).
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = evt.detail.parameters;
    var action = params.action;
    if (typeof action === "string") {
      try { action = JSON.parse(action); } catch (e) { action = null; }
    }
    evt.detail.messageBody = JSON.stringify({
      type: "action", action: action, action_id: newActionId(), version: currentVersion()
    });
    var elt = evt.detail.elt || evt.target;
    if (elt && elt.closest) {
      var box = elt.closest("[data-busy-scope]") || elt;
      box.classList.add("sending");
    }
  });

  function setConnection(state, text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.className = "conn conn-" + state;
    el.textContent = text;
  }
  var connected = false;
  function showConnected() {
    if (!connected) return;
    var live = document.getElementById("live");
    if (live && live.dataset.status === "finished") setConnection("over", "Game over");
    else setConnection("live", "● Live");
  }
  function showDisconnected(state, text) {
    connected = false;
    setConnection(state, text);
  }
  document.addEventListener("htmx:wsConnecting", function () { showDisconnected("connecting", "Connecting…"); });
  document.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    connected = true;
    showConnected();
  });
  document.addEventListener("htmx:wsClose", function () { showDisconnected("lost", "Reconnecting…"); });
  document.addEventListener("htmx:wsError", function () { showDisconnected("lost", "Connection problem, retrying…"); });
  window.addEventListener("offline", function () { showDisconnected("lost", "Offline, waiting for the network…"); });

  function applyPresence() {
    var presence = document.getElementById("presence");
    if (!presence) return;
    var online = (presence.dataset.seatsConnected || "").split(",").filter(Boolean);
    document.querySelectorAll(".player[data-seat]").forEach(function (el) {
      var on = online.indexOf(el.dataset.seat) !== -1 || el.classList.contains("bot");
      el.classList.toggle("online", on);
      el.classList.toggle("offline", !on);
      var dot = el.querySelector(".dot");
      if (dot) dot.title = on ? "connected" : "not connected";
    });
  }

  function timeLeft(seconds) {
    if (seconds < 120) return seconds + "s left";
    if (seconds < 3600) return Math.floor(seconds / 60) + " min left";
    if (seconds < 172800) return Math.floor(seconds / 3600) + " h " + Math.floor((seconds % 3600) / 60) + " min left";
    return Math.floor(seconds / 86400) + " days " + Math.floor((seconds % 86400) / 3600) + " h left";
  }

  function tickCountdowns() {
    var now = Date.now() / 1000;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round(parseFloat(el.dataset.deadline) - now));
      el.textContent = left > 0 ? timeLeft(left) : (el.dataset.done || "time's up");
      el.classList.toggle("urgent", left <= 10);
    });
  }

  // "(Your turn)" in the title while the game waits for this viewer; a notification when a
  // turn starts while the tab is hidden, if the player asked for them with the button.
  var baseTitle = document.title;
  var wasYourTurn = null;
  function showYourTurn() {
    var live = document.getElementById("live");
    if (!live) return;
    var yours = live.dataset.yourTurn === "1";
    document.title = (yours ? "(Your turn) " : "") + baseTitle;
    if (yours && wasYourTurn === false && document.hidden && window.Notification
        && Notification.permission === "granted") {
      new Notification("Your turn", {body: baseTitle, tag: "snowball-turn-" + (live.closest("[data-game-id]") || {dataset: {}}).dataset.gameId});
    }
    wasYourTurn = yours;
    var ask = document.getElementById("notify-me");
    if (ask) ask.hidden = !window.Notification || Notification.permission !== "default";
  }
  setInterval(tickCountdowns, 1000);

  // Elements with data-animate-key play their entrance once, when the key is new (a new
  // reveal), not on every re-render of the page.
  var seenKeys = {};
  var firstPaint = true;
  function animateNew() {
    document.querySelectorAll("[data-animate-key]").forEach(function (el) {
      var key = el.dataset.animateKey;
      if (!seenKeys[key] && !firstPaint) el.classList.add("fresh");
      seenKeys[key] = true;
    });
    firstPaint = false;
  }

  function afterUpdate() {
    showConnected();
    animateNew();
    applyPresence();
    tickCountdowns();
    showYourTurn();
    var flash = document.getElementById("flash");
    if (flash && flash.textContent.trim()) {
      clearTimeout(afterUpdate.flashTimer);
      afterUpdate.flashTimer = setTimeout(function () { flash.textContent = ""; flash.className = ""; }, 6000);
    }
  }
  document.addEventListener("htmx:oobAfterSwap", afterUpdate);
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.addEventListener("DOMContentLoaded", afterUpdate);

  document.addEventListener("click", function (evt) {
    var notify = evt.target.closest && evt.target.closest("#notify-me");
    if (notify && window.Notification) {
      Notification.requestPermission().then(showYourTurn);
      return;
    }
    var button = evt.target.closest && evt.target.closest("#copy-invite");
    if (!button) return;
    var url = button.dataset.inviteUrl;
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(function () {});
    button.textContent = "Link copied";
    setTimeout(function () { button.textContent = "Copy invite link"; }, 2000);
  });
})();
