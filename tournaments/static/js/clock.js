/* The round clock in the browser.
 *
 * The server renders a status partial ([data-clock]) with the round's status,
 * its deadline and the server's time (ms since the epoch); htmx polls it every
 * 3 s (10 s after time while sheets are missing; never once every table is
 * done: the server answers htmx's 286) and swaps it. This script counts down
 * from the deadline every 200 ms between polls, correcting for the offset
 * between the server's clock and this browser's (measured when each status
 * arrives), so every open browser shows the same time and stops within a poll
 * of a pause. "roundClosed" (an HX-Trigger header of the status response)
 * shows "Time!" at once. A round that has ended (every table has its result,
 * at time or before it: data-text-ended) shows "Round 4 ended" instead of the
 * time. In the last five minutes it says how many are left, rounded up as
 * the time shows them ("3 minutes left" at 2:54).
 * On a seat's page the status also shows or hides "paused" ([data-paused-note])
 * and disables the play partial's moves while paused: a pause or resume
 * arrives as the clock alone, never as a redrawn play partial.
 * Also: "find your table" ([data-find-table]) filters [data-seating] [data-name].
 */
(function () {
  "use strict";
  var state = { offset: 0, status: null, deadline: null, left: 0, closed: false, ended: "", wasFive: false };

  function fmt(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(r).padStart(2, "0");
  }

  function read(el) {
    var server = Number(el.dataset.serverMs);
    if (server) state.offset = server - Date.now();
    state.status = el.dataset.status;
    state.deadline = el.dataset.deadlineMs ? Number(el.dataset.deadlineMs) : null;
    state.left = Number(el.dataset.left || 0);
    state.closed = state.closed || state.status === "time_called" || state.status === "complete";
    state.ended = el.dataset.textEnded || "";
  }

  function secondsLeft() {
    if (state.closed) return 0;
    if (state.status === "running" && state.deadline) {
      return (state.deadline - (Date.now() + state.offset)) / 1000;
    }
    return state.left;
  }

  function render() {
    var el = document.querySelector("[data-clock]");
    if (!el) return;
    var left = secondsLeft();
    var time = el.querySelector("[data-clock-time]");
    var signal = el.querySelector("[data-clock-signal]");
    var ended = state.ended;
    var over = !ended && (state.closed || (state.status === "running" && left <= 0));
    // the last five minutes are counted as the time shows them, rounded up:
    // "3 minutes left" at 2:54 (data-text-minutes: the texts for 1 to 5,
    // "|" between them; empty in a round that never had more than 5)
    var minutes = (el.dataset.textMinutes || "").split("|");
    var five = !over && state.status === "running" && left <= 300 && minutes.length === 5;
    var shown = ended || fmt(over ? 0 : left);
    if (time && time.textContent !== shown) time.textContent = shown;
    if (signal) {
      var count = Math.min(5, Math.max(1, Math.ceil(Math.ceil(left) / 60)));
      var text = ended ? "" : over ? el.dataset.textTime : five ? minutes[count - 1] : "";
      if (signal.textContent !== text) signal.textContent = text;
    }
    el.classList.toggle("clock--five", five && !ended);
    el.classList.toggle("clock--ended", !!ended);
    el.classList.toggle("clock--time", over);
    if (five && !state.wasFive) {
      el.classList.add("clock--flash");
      setTimeout(function () { el.classList.remove("clock--flash"); }, 3000);
    }
    state.wasFive = five;
  }

  // a seat's page: "paused" and its moves greyed out follow the clock's
  // status (a pause or resume arrives as the clock alone, pushed or polled;
  // the play partial is not drawn anew for it)
  function applyPause() {
    var paused = state.status === "paused";
    document.querySelectorAll("[data-paused-note]").forEach(function (note) { note.hidden = !paused; });
    document.querySelectorAll("#play .play-form button").forEach(function (button) {
      if (paused && !button.disabled) {
        button.disabled = true;
        button.dataset.pausedOff = "1";
      } else if (!paused && button.dataset.pausedOff) {
        button.disabled = false;
        delete button.dataset.pausedOff;
      }
    });
  }

  function refresh() {
    var el = document.querySelector("[data-clock]");
    if (el) { read(el); render(); applyPause(); }
  }

  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("push:swapped", refresh); // a clock partial pushed (push.js)
  document.addEventListener("roundClosed", function () { state.closed = true; render(); });
  setInterval(render, 200);
  if (document.readyState !== "loading") refresh();

  // "find your table": filter the seating list by name
  function filter(input) {
    var q = input.value.trim().toLowerCase();
    var shown = 0;
    document.querySelectorAll("[data-seating] [data-name]").forEach(function (row) {
      var hit = !q || row.dataset.name.indexOf(q) !== -1;
      row.hidden = !hit;
      if (hit) shown += 1;
    });
    var empty = document.querySelector("[data-find-empty]");
    if (empty) empty.hidden = shown > 0 || !q;
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-find-table]")) filter(event.target);
  });
})();
