/* The projector: pages and rotates the slides the organizer picked.
 *
 * Each [data-slide] is shown in turn for data-seconds (on <body>) per page. A
 * slide with a [data-paged] list is split into pages that fit the screen: the
 * list is a grid of --cols columns filled top to bottom; the number of rows is
 * what fits the list's height, so every entry appears exactly once per cycle
 * and nothing overflows, at any screen size. The clock slide mirrors the
 * round's status partial ([data-clock], kept up to date by clock.js) in large
 * type. No inline script: loaded with defer.
 */
(function () {
  "use strict";
  var body = document.body;
  var seconds = Math.max(3, Number(body.dataset.seconds) || 12);
  var slides = Array.prototype.slice.call(document.querySelectorAll("[data-slide]"));
  if (!slides.length) return;
  var current = 0, page = 0, timer = null;

  function items(list) { return Array.prototype.slice.call(list.children); }

  // split a visible slide's list into pages; returns the number of pages
  function paginate(slide) {
    var list = slide.querySelector("[data-paged]");
    if (!list) return 1;
    var all = items(list);
    if (!all.length) return 1;
    // measure one line laid out row by row (a column flow without rows would
    // put every entry in a column of its own)
    all.forEach(function (li, i) { li.hidden = i > 0; });
    list.style.gridAutoFlow = "row";
    list.style.gridTemplateRows = "";
    var cols = Number(getComputedStyle(list).getPropertyValue("--cols")) || 1;
    var rowHeight = Math.ceil(all[0].getBoundingClientRect().height) || 1;
    list.style.gridAutoFlow = "";
    var rows = Math.max(1, Math.floor(list.clientHeight / rowHeight));
    var per = rows * cols;
    // fewer entries than a page holds: balance the columns
    if (all.length < per) rows = Math.max(1, Math.ceil(all.length / cols));
    list.style.gridTemplateRows = "repeat(" + rows + ", " + rowHeight + "px)";
    list.dataset.perPage = String(rows * cols);
    return Math.max(1, Math.ceil(all.length / (rows * cols)));
  }

  function showPage(slide, k, pages) {
    var list = slide.querySelector("[data-paged]");
    if (list) {
      var per = Number(list.dataset.perPage);
      items(list).forEach(function (li, i) { li.hidden = i < k * per || i >= (k + 1) * per; });
    }
    var label = slide.querySelector("[data-page-label]");
    if (label) {
      label.textContent = pages > 1
        ? label.dataset.label.replace("{page}", k + 1).replace("{pages}", pages) : "";
    }
    slide.dataset.page = String(k + 1);
    slide.dataset.pages = String(pages);
  }

  function show() {
    slides.forEach(function (s, i) { s.hidden = i !== current; });
    var slide = slides[current];
    body.dataset.showing = slide.dataset.slide;
    var pages = paginate(slide);
    if (page >= pages) page = 0;
    showPage(slide, page, pages);
    return pages;
  }

  function next() {
    var pages = Number(slides[current].dataset.pages) || 1;
    page += 1;
    if (page >= pages) { page = 0; current = (current + 1) % slides.length; }
    show();
    body.dataset.cycle = String((Number(body.dataset.cycle) || 0) + (current === 0 && page === 0 ? 1 : 0));
  }

  function start() {
    show();
    if (timer) clearInterval(timer);
    if (slides.length > 1 || Number(slides[0].dataset.pages) > 1) timer = setInterval(next, seconds * 1000);
  }

  // the big clock on the clock slide follows the status partial
  function mirror() {
    var clock = document.querySelector("[data-clock]");
    var big = document.querySelector("[data-big-clock]");
    if (!clock || !big) return;
    var time = clock.querySelector("[data-clock-time]");
    var signal = clock.querySelector("[data-clock-signal]");
    var t = big.querySelector("[data-big-time]"), s = big.querySelector("[data-big-signal]");
    if (time && t.textContent !== time.textContent) t.textContent = time.textContent;
    if (signal && s.textContent !== signal.textContent) s.textContent = signal.textContent;
    var states = Array.prototype.filter.call(clock.classList, function (c) {
      return c.indexOf("clock--") === 0;
    });
    big.className = ["big-clock"].concat(states).join(" ");
  }

  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(show, 200);
  });
  body.dataset.cycle = "0";
  start();
  setInterval(mirror, 250);
  mirror();
})();
