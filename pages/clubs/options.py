"""A preset's options on the forms where an organiser chooses rules (a new club, the club's
rules, a table): the options of the competition presets (RULES §3.8) and the cap, each with a
widget that fits it, filled in with what the chosen rules say.

The fields always show the values of the rules chosen above them (``rules_options.js`` fills
them in again when another preset is tapped; ``opt_for`` says which rules they were filled in
for, so a form sent without the script after the preset changed is shown again with the new
preset's values rather than read against the wrong ones). A ruleset is then the preset and the
options whose value differs from the preset's own; the engine checks it (``resolve_ruleset``)
and a refusal is shown under the option it names. Nothing here is a rule: the values, the
defaults and the refusals are the engine's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import Invalid
from pages.base import ERROR_TEXT
from pages.clubs.rulesets import preset_choices, say
from scoring.services import Options, OptionSpec, asked_options, pinned_ruleset, ruleset_resolve

#: a number-or-choice option's choice that means "the number in the amount field"
AMOUNT = "amount"
PREFIX = "opt_"


def keys() -> list[str]:
    """The options these forms set, in the order they are shown (each one whose spec says how
    a form asks for it)."""
    return [spec.key for spec in asked_options()]


def takes_amount(spec: OptionSpec) -> bool:
    """A number that also takes words (RULES §3.5 ``huazhu``, §3.8 ``false_win``): a choice,
    and an amount beside it."""
    return spec.kind == "number" and bool(spec.words)


#: refusals that name an option, in words (the engine's code with the option it names)
OPTION_ERRORS = {
    ("invalid_option", "false_win"): _(
        "A false win can pay what a flower pig pays only where a flower pig pays a price of "
        "its own (an amount, or the cap): choose an amount or a win at the cap."
    ),
    ("cap_out_of_range", "cap"): _("This cap is higher than these rules allow."),
    ("option_out_of_range", "huazhu"): _("This amount is too high."),
    ("option_out_of_range", "false_win"): _("This amount is too high."),
}


def option_fields() -> dict[str, forms.Field]:
    """The form fields of the options, by name (``opt_cap``, ``opt_huazhu_amount`` …), each
    made from its spec: a choice, a yes or no, a number, or a number that also takes words (a
    choice with an amount beside it)."""
    fields: dict[str, forms.Field] = {
        "opt_for": forms.CharField(required=False, widget=forms.HiddenInput)
    }
    numeric = {"inputmode": "numeric"}
    for spec in asked_options():
        asked = spec.asked
        assert asked is not None  # (asked_options: those a form asks for)
        label, help_text = say(asked.label), say(asked.help) if asked.help else ""
        name = PREFIX + spec.key
        if spec.kind == "flag":
            fields[name] = forms.BooleanField(label=label, required=False, help_text=help_text)
        elif spec.kind == "choice":
            fields[name] = forms.ChoiceField(
                label=label, required=False, help_text=help_text, choices=_choices(spec)
            )
        elif takes_amount(spec):
            fields[name] = forms.ChoiceField(
                label=label,
                required=False,
                help_text=help_text,
                choices=[(AMOUNT, _("An amount")), *_choices(spec)],
            )
            fields[f"{name}_amount"] = forms.IntegerField(
                label=_("Amount (× the base stake)"),
                min_value=0,
                required=False,
                widget=forms.NumberInput(attrs={**numeric, "class": "amount"}),
            )
        else:
            fields[name] = forms.IntegerField(
                label=label,
                min_value=spec.minimum,
                required=False,
                widget=forms.NumberInput(attrs=numeric),
                help_text=help_text,
            )
    return fields


def _choices(spec: OptionSpec) -> list[tuple[str, str]]:
    """A choice's values (or the words a number takes), as the form offers them."""
    return [
        (v.value, say(v.asked or v.name))
        for v in spec.values
        if isinstance(v.value, str) and (v.asked or v.name)
    ]


def option_values(options: Options) -> dict[str, Any]:
    """The options as the form's fields hold them (an amount apart from its choice)."""
    out: dict[str, Any] = {}
    for spec in asked_options():
        key = spec.key
        value = getattr(options, key)
        if takes_amount(spec):
            number = isinstance(value, int) and not isinstance(value, bool)
            out[PREFIX + key] = AMOUNT if number else value
            out[f"{PREFIX}{key}_amount"] = value if number else None
        else:
            out[PREFIX + key] = value
    return out


def chosen_options(data: Mapping[str, Any]) -> dict[str, Any]:
    """The options the cleaned fields say (an amount chosen with its number)."""
    out: dict[str, Any] = {}
    for spec in asked_options():
        key = spec.key
        value = data.get(PREFIX + key)
        if takes_amount(spec) and value == AMOUNT:
            value = data.get(f"{PREFIX}{key}_amount")
        out[key] = value
    return out


def snapshot_options(snapshot) -> tuple[str, dict[str, Any], Options]:
    """A pinned ruleset (a club's own rules) as a rules choice: its preset, the options its
    spec names, the options it settles with (those its description was stored without read
    as they were then)."""
    spec = snapshot.spec if isinstance(snapshot.spec, dict) else {}
    return snapshot.preset, dict(spec.get("options") or {}), pinned_ruleset(snapshot).options


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # (True is not the amount 1)


class RulesOptionsMixin:
    """Option fields beside a ``ruleset`` radio; ``self.rule_choices`` maps each radio's value
    to ``(preset, options spec it starts from, Options)``: a preset is ``(name, {}, its
    defaults)``, a club's own rules ``(its preset, its spec's options, its options)``."""

    rule_choices: dict[str, tuple[str, dict[str, Any], Options]]

    def offer_presets(self) -> None:
        """Every preset as a radio of ``ruleset`` (``self.presets``: each with its words)."""
        self.presets = preset_choices()
        self.fields["ruleset"].choices = [(p.name, p.title) for p in self.presets]

    def ruleset_radios(self):
        """Each radio with the rules it chooses."""
        return list(zip(self["ruleset"], self.presets, strict=True))

    def clean(self):
        data = super().clean()
        self.clean_options(data)
        return data

    def add_option_fields(self) -> None:
        self.fields.update(option_fields())
        key = self._rules_key(self.initial.get("ruleset", self.fields["ruleset"].initial))
        if key in self.rule_choices:
            self.initial.update(option_values(self.rule_choices[key][2]))
            self.initial["opt_for"] = key

    def _rules_key(self, value: Any) -> str:
        return "" if value is None else str(value)

    def option_rows(self) -> list[dict[str, Any]]:
        """The options for the template: each bound field, its amount field when it has one,
        whether it is a checkbox."""
        rows = []
        for spec in asked_options():
            key = spec.key
            rows.append({
                "key": key, "field": self[PREFIX + key], "boolean": spec.kind == "flag",
                "amount": self[f"{PREFIX}{key}_amount"] if takes_amount(spec) else None,
            })  # fmt: skip
        return rows

    def options_open(self) -> bool:
        """Whether the options' fold opens: a refusal to show there, or options sent that
        differ from what the chosen rules say."""
        if not self.is_bound:
            return False
        if getattr(self, "options_reset", False) or any(n.startswith(PREFIX) for n in self.errors):
            return True
        key = self._rules_key(self.cleaned_data.get("ruleset"))
        sent = any(name.startswith(PREFIX) for name in self.data)
        return sent and key in self.rule_choices and bool(self._differences(key, self.cleaned_data))

    def options_defaults_json(self) -> str:
        """Each rules choice's option values, for ``rules_options.js``."""
        out = {}
        for key, (_preset, _spec, options) in self.rule_choices.items():
            out[key] = {
                name: ("" if value is None else value)
                for name, value in option_values(options).items()
            }
        return json.dumps(out, separators=(",", ":"))

    def _differences(self, key: str, data: Mapping[str, Any]) -> dict[str, Any]:
        defaults = self.rule_choices[key][2]
        chosen = chosen_options(data)
        changed = {k: v for k, v in chosen.items() if not _same(v, getattr(defaults, k))}
        if "huazhu" in changed:
            # what a false win pays may follow the 花猪's price: say what the form shows, for
            # the engine to refuse if the two no longer go together
            changed["false_win"] = chosen["false_win"]
        return changed

    def clean_options(self, data: dict[str, Any]) -> None:
        """The ruleset the form chose (``self.ruleset_spec``), checked by the engine; its
        refusals under the options they name."""
        self.ruleset_spec: Any = None
        key = self._rules_key(data.get("ruleset"))
        if key not in self.rule_choices:
            return
        if not any(name.startswith(PREFIX) for name in self.data):
            self.ruleset_spec = key or None  # no option sent (a script, an old page): as they are
            return
        for name in (spec.key for spec in asked_options() if takes_amount(spec)):
            if data.get(PREFIX + name) == AMOUNT and data.get(f"{PREFIX}{name}_amount") is None:
                self.add_error(f"{PREFIX}{name}_amount", _("Give the amount."))
        if data.get("opt_for", "") != key:
            # sent without the script after another rules choice: show that choice's values
            self.add_error(None, _(
                "The options below now show what the rules you chose say: check them and send "
                "the form again."
            ))  # fmt: skip
            kept = {k: v for k, v in self.data.items() if not k.startswith(PREFIX)}
            self.data = {**kept, **_as_data(option_values(self.rule_choices[key][2]))}
            self.data["opt_for"] = key
            self.options_reset = True
            return
        if self.errors:
            return
        preset, base, _options = self.rule_choices[key]
        changed = self._differences(key, data)
        if not changed and not key:
            self.ruleset_spec = None  # the club's own rules, as they are
            return
        spec: Any = {"preset": preset, "options": {**base, **changed}} if base or changed else key
        try:
            ruleset_resolve(spec)
        except Invalid as e:
            for problem in e.problems:
                option = problem["path"].rsplit(".", 1)[-1]
                text = OPTION_ERRORS.get((problem["code"], option)) or ERROR_TEXT.get(
                    problem["code"], problem["message"]
                )
                name = PREFIX + option
                self.add_error(name if name in self.fields else None, str(text))
            return
        self.ruleset_spec = spec


def _as_data(values: Mapping[str, Any]) -> dict[str, str]:
    """Field values as a form's data holds them (a checkbox off is left out)."""
    out = {}
    for name, value in values.items():
        if value is None or value is False:
            continue
        out[name] = "on" if value is True else str(value)
    return out


def club_mode(club) -> str:
    """The mode the club's rules play (血战到底 unless they say 普通): a new table's or
    tournament's first choice."""
    return club.ruleset.description.get("options", {}).get("mode", "xuezhan")
