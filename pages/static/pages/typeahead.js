/* Type-ahead over a select: an <input data-filter-for="select-id"> keeps only the options
   whose data-keys (name, pinyin, initials) contain what is typed, and picks the first match.
   Without JavaScript the input stays hidden and the select works alone. */
(function () {
  "use strict";
  function squash(text) { return text.replace(/\s+/g, "").toLowerCase(); }
  document.querySelectorAll("input[data-filter-for]").forEach(function (input) {
    var select = document.getElementById(input.dataset.filterFor);
    if (!select) { return; }
    var all = Array.prototype.map.call(select.options, function (o) { return o.cloneNode(true); });
    input.hidden = false;
    input.addEventListener("input", function () {
      var q = squash(input.value);
      var chosen = select.value;
      var kept = all.filter(function (o) {
        return !o.value || !q || (o.dataset.keys || "").split(" ").some(function (k) { return k.indexOf(q) >= 0; });
      });
      select.replaceChildren.apply(select, kept.map(function (o) { return o.cloneNode(true); }));
      var first = kept.filter(function (o) { return o.value; })[0];
      if (q && first) { select.value = first.value; }
      else if (kept.some(function (o) { return o.value === chosen; })) { select.value = chosen; }
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
})();
