/* The players page at the door.
 *
 * - Search as you type ([data-player-search]): hides the rows whose name and
 *   club do not contain what was typed, compared the way names sort (case and
 *   marks ignored: "sahin" finds "Şahin", "lukasz" finds "Łukasz").
 * - Asks before dropping a player (the tbody's data-drop-confirm, "%(name)s"
 *   replaced) and before "check in all" (the button's data-confirm).
 * No inline script: this file is loaded with defer.
 */
(function () {
  "use strict";
  var BASE = { "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th" };

  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[łøđħıæœßþ]/g, function (c) { return BASE[c]; });
  }

  var index = null;
  function rows() {
    if (index === null) {
      index = [];
      document.querySelectorAll("table.players tbody tr[id]").forEach(function (tr) {
        index.push([tr, fold(tr.cells[0].textContent + " " + tr.cells[1].textContent)]);
      });
    }
    return index;
  }

  function filter(input) {
    var q = fold(input.value.trim());
    var shown = 0;
    rows().forEach(function (entry) {
      var tr = entry[0];
      if (!tr.isConnected) return;
      var hit = !q || entry[1].indexOf(q) !== -1;
      tr.hidden = !hit;
      if (hit) shown += 1;
    });
    var empty = document.querySelector("[data-search-empty]");
    if (empty) empty.hidden = shown > 0 || !q;
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-player-search]")) filter(event.target);
  });
  // a swapped row is a new element: index again on the next search
  document.addEventListener("htmx:afterSwap", function () {
    index = null;
    var input = document.querySelector("[data-player-search]");
    if (input && input.value) filter(input);
  });
  document.addEventListener("keydown", function (event) {
    // Enter in the search box checks in the one player left, if exactly one is shown
    if (event.key !== "Enter" || !event.target.matches("[data-player-search]")) return;
    var visible = rows().filter(function (e) { return e[0].isConnected && !e[0].hidden; });
    if (visible.length === 1) {
      var button = visible[0][0].querySelector("button.check-in");
      if (button) { event.preventDefault(); button.click(); }
    }
  });
  document.addEventListener("htmx:confirm", function (event) {
    var el = event.detail.elt;
    if (!el.matches || !el.matches("button.drop")) return;
    event.preventDefault();
    var tbody = el.closest("tbody");
    var row = el.closest("tr");
    var label = row ? row.cells[0].textContent.trim() : "";
    var text = (tbody && tbody.dataset.dropConfirm || "{name}?").replace("{name}", label);
    if (window.confirm(text)) event.detail.issueRequest(true);
  });
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("button[data-confirm]");
    if (el && !window.confirm(el.dataset.confirm)) event.preventDefault();
  });
  var input = document.querySelector("[data-player-search]");
  if (input && input.value) filter(input);
})();
