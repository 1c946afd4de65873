/* A list filtered as one types: an <input data-filter-list="list-id"> keeps the list's items
   whose data-keys (name, pinyin, initials) contain what is typed. Without JavaScript the input
   stays hidden and the whole list shows. */
(function () {
  "use strict";
  function squash(text) { return text.replace(/\s+/g, "").toLowerCase(); }
  document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
    var list = document.getElementById(input.dataset.filterList);
    if (!list) { return; }
    input.hidden = false;
    input.addEventListener("input", function () {
      var q = squash(input.value);
      list.querySelectorAll("li[data-keys]").forEach(function (item) {
        item.hidden = !!q && !item.dataset.keys.split(" ").some(function (k) { return k.indexOf(q) >= 0; });
      });
    });
  });
})();
