/* The options of the rules chosen on a form (templates/pages/clubs/rules_options.html): when
 * other rules are tapped, their own option values are filled in (from the fold's
 * data-rules-options: {choice: {field: value}}) and opt_for says so; an amount field is shown
 * only beside the choice "an amount". Without this file the form still works: the server shows
 * the new rules' values and asks to send it again. No rule is computed here. */
(function () {
  "use strict";
  document.querySelectorAll("[data-rules-options]").forEach(function (box) {
    var form = box.closest("form");
    var choices;
    try { choices = JSON.parse(box.getAttribute("data-rules-options")); } catch (e) { return; }
    function amounts() {
      box.querySelectorAll("[data-amount-for]").forEach(function (wrap) {
        var select = form.elements[wrap.getAttribute("data-amount-for")];
        wrap.hidden = !select || select.value !== "amount";
      });
    }
    function fill(key) {
      var values = choices[key];
      if (!values) return;
      Object.keys(values).forEach(function (name) {
        var field = form.elements[name];
        if (!field) return;
        if (field.type === "checkbox") field.checked = values[name] === true;
        else field.value = String(values[name]);
      });
      if (form.elements.opt_for) form.elements.opt_for.value = key;
      amounts();
    }
    form.addEventListener("change", function (e) {
      if (e.target.name === "ruleset") fill(e.target.value);
      else if (e.target.closest && e.target.closest("[data-rules-options]") === box) amounts();
    });
    amounts();
  });
})();
