/* Live screens by push, polling as the fallback.
 *
 * A live screen (#play at a seat, #watch for a spectator) names its stream
 * in data-stream. This script opens it (Server-Sent Events): each "panel" or
 * "board" event is the screen anew, each "clock" event the round's clock
 * partial; they replace the element on the page as htmx's poll would. While
 * the stream is open the page's polls (the screen's and the clock's) rest,
 * but for one in ten of the clock's (every 3 s) and one in nineteen of the
 * screen's (every 0.8 s): a signal lost on its way shows within 15–30 s;
 * whenever it is not (a proxy that buffers, bad Wi-Fi, a phone that
 * slept, a server without push: 204), the polls run as before, so nothing is
 * lost. The browser reconnects by itself and sends the version it last got
 * (Last-Event-ID); the server then sends the current screen if it is newer.
 * A stream the server refused is tried again after a while. A "reload"
 * event (the seat link leads to another seat now, after a re-seat) loads the
 * page anew.
 */
(function () {
  "use strict";
  var source = null;
  var live = false;
  var retryTimer = null;
  var RETRY_CLOSED_MS = 15000;

  function screenEl() {
    return document.querySelector("[data-stream]");
  }

  function fragment(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    return tpl.content.firstElementChild;
  }

  function replace(old, fresh) {
    if (!old || !fresh) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    document.dispatchEvent(new CustomEvent("push:swapped", { detail: { elt: fresh } }));
  }

  function onScreen(event) {
    var old = screenEl();
    var fresh = fragment(event.data);
    if (!old || !fresh) return;
    if (old.dataset.version && old.dataset.version === fresh.dataset.version) return;
    replace(old, fresh);
  }

  function onClock(event) {
    var old = document.querySelector("[data-clock]");
    var fresh = fragment(event.data);
    if (!old || !fresh) return;
    // the page's own poll address stays (the pushed partial has none)
    if (fresh.hasAttribute("hx-get")) {
      if (old.hasAttribute("hx-get")) fresh.setAttribute("hx-get", old.getAttribute("hx-get"));
      else fresh.removeAttribute("hx-get");
    }
    replace(old, fresh);
  }

  function open() {
    var el = screenEl();
    if (!el || !window.EventSource || source) return;
    var url = el.dataset.stream;
    if (el.dataset.version) url += (url.indexOf("?") < 0 ? "?" : "&") + "v=" + encodeURIComponent(el.dataset.version);
    source = new EventSource(url);
    source.addEventListener("open", function () { live = true; document.documentElement.dataset.push = "live"; });
    source.addEventListener("panel", onScreen);
    source.addEventListener("board", onScreen);
    source.addEventListener("clock", onClock);
    // the link leads to another seat now (a re-seat), or can't act: the page anew
    source.addEventListener("reload", function () {
      if (source) source.close();
      window.location.reload();
    });
    source.addEventListener("error", function () {
      live = false;
      document.documentElement.dataset.push = "off";
      if (source && source.readyState === EventSource.CLOSED) {
        // refused (204) or failed for good: poll, and try again later
        source = null;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(open, RETRY_CLOSED_MS);
      }
    });
  }

  // while the stream is open, the polls of the live screen and the clock
  // rest; every REST_POLLS-th still goes out, a safety net for a signal lost
  // on its way (the answer is a 204 without a query when nothing changed)
  var REST_POLLS = { clock: 10, screen: 19 };
  var rested = { clock: 0, screen: 0 };
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!live) return;
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.matches) return;
    var verb = (event.detail.requestConfig && event.detail.requestConfig.verb) || "get";
    if (verb !== "get") return;
    if (!elt.matches("[data-stream], [data-clock]")) return;
    var kind = elt.matches("[data-clock]") ? "clock" : "screen";
    rested[kind] += 1;
    if (rested[kind] % REST_POLLS[kind] !== 0) event.preventDefault();
  });

  // a phone waking up: the stream may be dead without an error yet
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !source) open();
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", open);
  else open();
})();
