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
    if (params.type === "chat" && params.shout) {
      // a shout is not table talk: it is the game's own action, heard in the garden within its range
      evt.detail.messageBody = JSON.stringify({
        type: "action", action: {type: "shout", text: params.text}, action_id: newActionId(), version: currentVersion()
      });
      return;
    }
    if (params.type === "chat") {
      evt.detail.messageBody = JSON.stringify({
        type: "chat", channel: params.channel, to: params.to === "" ? null : parseInt(params.to, 10), text: params.text
      });
      return;
    }
    if (params.type === "chat_publish") {
      evt.detail.messageBody = JSON.stringify({type: "chat_publish", "with": parseInt(params["with"], 10)});
      return;
    }
    var action = params.action;
    if (typeof action === "string") {
      try { action = JSON.parse(action); } catch (e) { action = null; }
    }
    // A form's fields named "action.<path>" hold the JSON of the value at that path of the action
    // (e.g. "action.give.2" = "\"c07\"" sets action.give["2"]).
    if (action && typeof action === "object") {
      Object.keys(params).forEach(function (name) {
        if (name.indexOf("action.") !== 0) return;
        var path = name.split(".").slice(1);
        var value = params[name];
        try { value = JSON.parse(Array.isArray(value) ? value[0] : value); } catch (e) { return; }
        var node = action;
        for (var i = 0; i < path.length - 1; i++) {
          if (typeof node[path[i]] !== "object" || node[path[i]] === null) node[path[i]] = {};
          node = node[path[i]];
        }
        node[path[path.length - 1]] = value;
      });
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
    else setConnection("live", "● Connected");
  }
  function showDisconnected(state, text) {
    connected = false;
    setConnection(state, text);
  }
  document.addEventListener("htmx:wsConnecting", function () { showDisconnected("connecting", "Connecting…"); });
  // Close 4013: the server could not reach its message broker as the socket opened (docs/api.md).
  // htmx reconnects by itself only after 1006, 1011, 1012 and 1013, which a server cannot send,
  // so the page loads again after a pause that grows with each try.
  var RETRIES = "snowball-try-again-later";
  var TRY_AGAIN_LATER = 4013;
  document.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    connected = true;
    try { sessionStorage.removeItem(RETRIES); } catch (e) { /* storage off: the delay stays short */ }
    showConnected();
  });
  function tryAgainLater() {
    var tries = 0;
    try { tries = parseInt(sessionStorage.getItem(RETRIES) || "0", 10) || 0; sessionStorage.setItem(RETRIES, String(tries + 1)); }
    catch (e) { /* storage off */ }
    var delay = Math.min(30000, 1000 * Math.pow(2, tries)) * (0.75 + Math.random() / 2);
    showDisconnected("lost", "The server is busy, trying again in " + Math.ceil(delay / 1000) + " s…");
    setTimeout(function () { window.location.reload(); }, delay);
  }
  document.addEventListener("htmx:wsClose", function (evt) {
    var closed = evt.detail && evt.detail.event;
    if (closed && closed.code === TRY_AGAIN_LATER) { tryAgainLater(); return; }
    showDisconnected("lost", "Reconnecting…");
  });
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

  // A deadline this far off also shows when it falls, in the browser's own time zone (a game by
  // the day's; a live game's timers are five minutes at most).
  var CLOCK_FROM_SECONDS = 600;
  var clockFormat = null;
  function clockTime(epochSeconds) {
    if (!clockFormat) {
      try {
        clockFormat = new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short",
          hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short"});
      } catch (e) {
        clockFormat = {format: function (date) { return date.toLocaleString(); }};
      }
    }
    return clockFormat.format(new Date(epochSeconds * 1000));
  }

  // Deadlines are the server's times: a page, and every presence update of a game's socket, says
  // the server's time as it was sent, and a computer whose own clock is off by more than
  // CLOCK_SLACK_SECONDS counts on the server's instead (a slow clock kept "60 s to come back"
  // on screen long after the time was up). A page shown again from the history may be an old
  // copy, its time too: it waits for its socket's word.
  var CLOCK_SLACK_SECONDS = 2;
  var clockOffset = 0;
  function syncClock(el) {
    var sent = el ? parseFloat(el.dataset.serverTime) : NaN;
    if (isNaN(sent) || el.dataset.clockRead) return;
    el.dataset.clockRead = "1";
    var offset = sent - Date.now() / 1000;
    clockOffset = Math.abs(offset) > CLOCK_SLACK_SECONDS ? offset : 0;
  }
  var fromHistory = false;
  try {
    fromHistory = performance.getEntriesByType("navigation").some(function (nav) { return nav.type === "back_forward"; });
  } catch (e) { /* no navigation timing: the page is taken as sent now */ }
  if (!fromHistory) syncClock(document.body);

  function tickCountdowns() {
    var now = Date.now() / 1000 + clockOffset;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var deadline = parseFloat(el.dataset.deadline);
      var left = Math.max(0, Math.round(deadline - now));
      el.textContent = left <= 0 ? (el.dataset.done || "time's up")
        : timeLeft(left) + (left >= CLOCK_FROM_SECONDS ? " · until " + clockTime(deadline) : "");
      el.classList.toggle("urgent", left <= 10);
    });
    document.querySelectorAll("[data-shown-from]").forEach(function (el) {
      el.hidden = now < parseFloat(el.dataset.shownFrom);
    });
    document.querySelectorAll("[data-hidden-from]").forEach(function (el) {
      el.hidden = now >= parseFloat(el.dataset.hiddenFrom);
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
    var alerts = document.getElementById("turn-alerts");  // no turns to be told of once the game is over
    if (alerts) alerts.hidden = live.dataset.status === "finished";
    var ask = document.getElementById("notify-me");
    if (ask) ask.hidden = !window.Notification || Notification.permission !== "default" || live.dataset.seat === "";
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

  // Table talk: one tab per channel; the form posts to the chosen one. A channel's unread
  // count is its messages newer than the newest one shown while its tab was open. Those marks
  // outlive a reload (localStorage "snowball.talkRead", per game, the last READ_GAMES games):
  // a message still unread when the page was left or reloaded keeps its badge.
  var talkKey = "table";
  var readUpTo = {};
  var READ_KEY = "snowball.talkRead", READ_GAMES = 30;
  var readGame = null;  // the game whose marks readUpTo holds
  function storedReadMarks() {
    try { return JSON.parse(window.localStorage.getItem(READ_KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function loadReadMarks(game) {
    readGame = game;
    readUpTo = {};
    var marks = (storedReadMarks()[game] || {}).marks || {};
    Object.keys(marks).forEach(function (key) {
      if (typeof marks[key] === "number") readUpTo[key] = marks[key];
    });
  }
  function saveReadMarks() {
    if (!readGame) return;
    var all = storedReadMarks();
    all[readGame] = {at: Date.now(), marks: readUpTo};
    Object.keys(all).sort(function (a, b) { return (all[b].at || 0) - (all[a].at || 0); })
      .slice(READ_GAMES).forEach(function (game) { delete all[game]; });
    try { window.localStorage.setItem(READ_KEY, JSON.stringify(all)); } catch (e) { /* private mode */ }
  }
  function newestId(list) {
    var last = list.lastElementChild;
    return last ? parseInt(last.dataset.id, 10) : 0;
  }
  function refreshTalk() {
    var region = document.getElementById("talk-channels");
    if (!region) return;
    var gamePage = region.closest("[data-game-id]");
    var game = gamePage ? gamePage.dataset.gameId : null;
    if (game && game !== readGame) loadReadMarks(game);
    var marked = false;
    if (!region.querySelector('.talk-tab[data-key="' + talkKey + '"]')) talkKey = "table";
    region.querySelectorAll(".talk-tab").forEach(function (tab) {
      var key = tab.dataset.key;
      var active = key === talkKey;
      var panel = document.getElementById(tab.getAttribute("aria-controls"));
      var list = panel && panel.querySelector(".talk-lines");
      tab.setAttribute("aria-selected", active ? "true" : "false");
      if (panel) panel.hidden = !active;
      if (!list) return;
      var newest = newestId(list);
      if (readUpTo[key] === undefined || active) {
        if (active && newest > (readUpTo[key] || 0)) list.scrollTop = list.scrollHeight;
        if (readUpTo[key] !== newest) marked = true;
        readUpTo[key] = newest;
      }
      var unread = 0;
      list.querySelectorAll(".talk-line").forEach(function (line) {
        if (parseInt(line.dataset.id, 10) > readUpTo[key]) unread += 1;
      });
      var badge = tab.querySelector(".unread");
      badge.hidden = unread === 0;
      badge.textContent = unread ? String(unread) : "";
      badge.setAttribute("aria-label", unread + " unread");
      if (active) chooseTalkTarget(tab);
    });
    if (marked) saveReadMarks();
  }
  function chooseTalkTarget(tab) {
    var form = document.getElementById("talk-form");
    if (!form) return;
    form.elements.channel.value = tab.dataset.channel;
    form.elements.to.value = tab.dataset.to;
    var shout = form.elements.shout;
    var shouting = !!(shout && shout.checked);
    var writable = shouting || tab.dataset.writable === "1";
    form.elements.text.disabled = !writable;
    form.querySelector("button[type=submit]").disabled = !writable;
    form.elements.text.placeholder = !writable ? ""
      : shouting ? "Shout in the garden (heard within " + shout.dataset.shoutRange + " hexes)"
      : tab.dataset.channel === "table" ? "Say something to the table"
      : tab.dataset.channel === "team" ? "Say something to your team" : "Say something to " + tab.dataset.label;
    var closed = document.getElementById("talk-closed");
    if (closed) {
      closed.hidden = writable;
      closed.textContent = writable ? "" : tab.dataset.closed;
    }
  }
  document.addEventListener("click", function (evt) {
    var tab = evt.target.closest && evt.target.closest(".talk-tab");
    if (!tab) return;
    talkKey = tab.dataset.key;
    refreshTalk();
    var form = document.getElementById("talk-form");
    if (form && !form.elements.text.disabled) form.elements.text.focus();
  });
  document.addEventListener("change", function (evt) {
    if (evt.target && evt.target.name === "shout" && evt.target.form && evt.target.form.id === "talk-form") refreshTalk();
  });
  document.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target;
    if (form && form.id === "talk-form") form.elements.text.value = "";
  });

  // On a phone the players are one line that scrolls sideways (static/css/site.css). A redraw
  // keeps where the player swiped it; when whoever is asked changes, the first of them asked (the
  // viewer first) is brought into view. The strip scrolls alone: never the page. Where the row
  // wraps (a desktop) nothing is read; where it scrolls, it is read in the next frame, once every
  // script has redrawn its part: a layout forced in the middle of a redraw, on a page not yet
  // its full height, moved the page's own scroll.
  var playersScroll = 0, playersAsked = null;
  function playersStrip() {
    var strip = document.querySelector("#live .players");
    return strip && getComputedStyle(strip).overflowX !== "visible" ? strip : null;
  }
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var strip = playersStrip();
    if (strip) playersScroll = strip.scrollLeft;
  });
  function placePlayers() {
    if (!playersStrip()) return;
    requestAnimationFrame(function () {
      var strip = playersStrip();
      if (!strip) return;
      var asked = strip.querySelectorAll(".player.waiting");
      var key = Array.prototype.map.call(asked, function (el) { return el.dataset.seat; }).join(",");
      var changed = key !== playersAsked;
      playersAsked = key;
      if (strip.scrollWidth <= strip.clientWidth) return;
      strip.scrollLeft = playersScroll;
      var chip = strip.querySelector(".player.waiting.me") || asked[0];
      if (!changed || !chip) return;
      var box = strip.getBoundingClientRect(), at = chip.getBoundingClientRect();
      var pad = parseFloat(getComputedStyle(strip).paddingLeft) || 0;
      if (at.left < box.left + pad || at.right > box.right - pad) strip.scrollLeft += at.left - box.left - pad;
    });
  }

  function afterUpdate() {
    syncClock(document.getElementById("presence"));
    refreshTalk();
    showConnected();
    animateNew();
    applyPresence();
    placePlayers();
    tickCountdowns();
    showYourTurn();
    var flash = document.getElementById("flash");
    if (flash && flash.textContent.trim() && flash.dataset.shownAt === undefined) fadeFlash(flash);
  }
  // A refusal stays 6 s from when it came, however many redraws follow it (a game against
  // computer players redraws every few seconds), then goes.
  function fadeFlash(flash) {
    var shownAt = String(Date.now());
    flash.dataset.shownAt = shownAt;
    setTimeout(function () {
      var now = document.getElementById("flash");
      if (now && now.dataset.shownAt === shownAt) { now.textContent = ""; now.className = ""; delete now.dataset.shownAt; }
    }, 6000);
  }
  // A form marked data-keep keeps the boxes its player ticked when the page is redrawn for
  // someone else's move (the same data-keep key means the same question).
  var kept = {};
  function keepTicked() {
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      var ticked = [];
      form.querySelectorAll("input:checked").forEach(function (box) { ticked.push([box.name, box.value]); });
      kept[form.dataset.keep] = ticked;
    });
  }

  // A redraw that comes while the pointer is pressed waits until it is released and its click
  // has gone through: a button swapped away between press and release would lose the click.
  var HOLD_AT_MOST_MS = 1500;
  var pressed = false, held = [], holdTimer = null;
  document.addEventListener("pointerdown", function () {
    pressed = true;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(redrawHeld, HOLD_AT_MOST_MS);
  }, true);
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function () { if (pressed) setTimeout(redrawHeld, 0); }, true);
  });
  function redrawHeld() {
    pressed = false;
    clearTimeout(holdTimer);
    var messages = held;
    held = [];
    messages.forEach(function (m) {
      keepTicked();
      htmx.swap(document.body, m.message, {swapStyle: "none"});
      htmx.trigger(m.socket, "htmx:wsAfterMessage", {message: m.message});
    });
  }
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    if (pressed) {
      evt.preventDefault();
      held.push({message: evt.detail.message, socket: evt.target});
      return;
    }
    keepTicked();
  });
  function restoreKept() {
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      (kept[form.dataset.keep] || []).forEach(function (pair) {
        form.querySelectorAll("input").forEach(function (box) {
          if (box.name === pair[0] && box.value === pair[1]) box.checked = true;
        });
      });
    });
  }
  // A rematch that starts while the page is open takes the page to the new game; a game
  // whose rematch had started before the page was opened stays on screen.
  // (This script is deferred: the page as served is parsed, and no socket message came yet.)
  var rematchSeen = !!document.querySelector("[data-follow-to]");
  function followRematch() {
    var go = document.querySelector("[data-follow-to]");
    if (go && !rematchSeen) window.location.assign(go.dataset.followTo);
  }
  document.addEventListener("htmx:wsAfterMessage", followRematch);
  document.addEventListener("htmx:oobAfterSwap", restoreKept);
  document.addEventListener("htmx:oobAfterSwap", afterUpdate);
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.addEventListener("DOMContentLoaded", afterUpdate);

  // A game page's "Options" (shown on a phone only): shows or folds the seldom-used controls of the
  // header, and the page remembers the choice for the tab's other game pages (sessionStorage).
  var OPTIONS_KEY = "snowball.gameOptionsOpen";
  function showGameOptions(toggle, open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.getElementById("game-options-toggle");
    var open = false;
    try { open = window.sessionStorage.getItem(OPTIONS_KEY) === "1"; } catch (e) { open = false; }
    if (toggle && open) showGameOptions(toggle, true);
  });

  document.addEventListener("click", function (evt) {
    var toggle = evt.target.closest && evt.target.closest("#game-options-toggle");
    if (toggle) {
      var open = toggle.getAttribute("aria-expanded") !== "true";
      showGameOptions(toggle, open);
      try { window.sessionStorage.setItem(OPTIONS_KEY, open ? "1" : "0"); } catch (e) { /* storage refused: the page still works */ }
      return;
    }
    var notify = evt.target.closest && evt.target.closest("#notify-me");
    if (notify && window.Notification) {
      Notification.requestPermission().then(showYourTurn);
      return;
    }
    var button = evt.target.closest && evt.target.closest("#copy-invite, .copy-invite");
    if (button) copyInvite(button);
  });

  // The invite link to the clipboard. A page on plain http (a friend's address on the network)
  // has no navigator.clipboard, so the selection's copy is tried next; when neither copies,
  // the link is shown for copying by hand. "Link copied" only once it is. The waiting room's
  // button has the link's path (its socket updates know no host): the page's address completes it.
  function copyInvite(button) {
    var url = button.dataset.inviteUrl || new URL(button.dataset.invitePath, window.location.href).href;
    function copied() {
      button.textContent = "Link copied";
      setTimeout(function () { button.textContent = "Copy invite link"; }, 2000);
    }
    function otherwise() {
      if (copyBySelection(url)) copied();
      else window.prompt("Copy this invite link and send it to a friend:", url);
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(copied, otherwise);
    else otherwise();
  }

  function copyBySelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    area.remove();
    return done;
  }
})();
