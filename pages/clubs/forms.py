"""Forms of the club pages: a new club, a new player, opening a table."""

from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.limits import BASE
from clubs.pinyin import pinyin_keys, pinyin_words
from pages.clubs.options import RulesOptionsMixin
from pages.clubs.rulesets import preset_choices
from scoring.services import PRESETS

#: slugs a club may not take: the pages' own words under /clubs/
RESERVED_SLUGS = frozenset({"new"})
#: rows of 叫马 bettors the table form offers
BETTOR_ROWS = 4
#: the four seats in play order, by their wind
SEAT_WINDS = (_("East (东)"), _("South (南)"), _("West (西)"), _("North (北)"))


def slug_from_name(name: str) -> str:
    """A slug suggested from a club's name: its pinyin without tones, words joined by hyphens
    (成都茶馆 → cheng-du-cha-guan); empty when nothing of the name is a letter or digit."""
    return slugify("-".join(part.strip() for part in pinyin_words(name) if part.strip()))[:60]


def _time_zones() -> list[tuple[str, str]]:
    return [(z, z) for z in sorted(available_timezones()) if "/" in z and not z.startswith("Etc")]


def preset_rules() -> dict[str, tuple[str, dict, Any]]:
    """Each preset as a rules choice of :class:`RulesOptionsMixin`: its name, no options, its
    own option values."""
    return {name: (name, {}, preset.defaults) for name, preset in PRESETS.items()}


class ClubForm(RulesOptionsMixin, forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        required=False,
        help_text=_(
            "Letters, digits and hyphens, in the club's link /clubs/…/. Left empty, it "
            "is made from the name's pinyin."
        ),  # fmt: skip
    )
    visibility = forms.ChoiceField(
        label=_("Who sees the results"),
        choices=[
            ("public", _("Everyone (public club)")),
            ("members", _("Members only")),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    ruleset = forms.ChoiceField(label=_("Rules"), widget=forms.RadioSelect, initial="qq")
    base = forms.IntegerField(
        label=_("Base stake (底)"),
        initial=1,
        min_value=BASE["min_value"],
        max_value=BASE["max_value"],
    )
    unit_label = forms.CharField(
        label=_("Unit"),
        max_length=16,
        initial=pgettext_lazy("the unit a club counts in", "points"),
        help_text=_("What a point is called: points, 分 (fen), 元 (yuan), chips …"),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        initial="Asia/Shanghai",
        help_text=_("A club evening is a day in this time zone."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.offer_presets()
        self.fields["time_zone"].choices = _time_zones()
        self.rule_choices = preset_rules()
        self.add_option_fields()

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug", "")
        if slug in RESERVED_SLUGS:
            raise ValidationError(_("This address is reserved; choose another."), code="reserved")
        return slug


class ClubRulesForm(RulesOptionsMixin, forms.Form):
    """A club's rules, changed by an organiser: a preset and some of its options. The club's
    own preset starts from the options the club plays (``club_options``,
    :func:`pages.clubs.options.snapshot_options`), every other preset from its own."""

    ruleset = forms.ChoiceField(label=_("Rules"), widget=forms.RadioSelect)

    def __init__(self, *args, club_options, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.offer_presets()
        self.rule_choices = {**preset_rules(), club_options[0]: club_options}
        self.add_option_fields()


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    display_name = forms.CharField(
        label=_("Name in this club"),
        max_length=80,
        required=False,
        help_text=_("Optional: a nickname the club knows him by."),
    )


class KeyedSelect(forms.Select):
    """A select whose options carry their search keys (``data-keys``: the name, its pinyin and
    initials), which ``typeahead.js`` filters by; without JavaScript it is a plain select."""

    def __init__(self, keys: dict[str, str], attrs=None) -> None:
        super().__init__(attrs)
        self.keys = keys

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.keys:
            option["attrs"]["data-keys"] = self.keys[str(value)]
        return option


def search_keys(name: str) -> str:
    """What a type-ahead matches a name by: the name, its full pinyin and its initials."""
    fulls, initials = pinyin_keys(name)
    return " ".join(dict.fromkeys(["".join(name.split()).lower(), *fulls, *initials]))


class TableForm(RulesOptionsMixin, forms.Form):
    """Four players in seat order, base, mode, rules (the club's, or a preset; some options
    changed) and up to ``BETTOR_ROWS`` 叫马 bettors.

    ``players``: the club's memberships (``clubs.selectors.club_players``); ``club_rules``: the
    club's rules as a choice (``snapshot_choice``); ``club_options``: its preset, its spec's
    options and its option values, which the options start from when they are chosen."""

    base = forms.IntegerField(label=_("Base stake (底)"), min_value=BASE["min_value"],
                              max_value=BASE["max_value"])  # fmt: skip
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[
            ("xuezhan", _("Blood battle (血战到底): until three have won")),
            ("single", _("One win (普通): the hand ends at the first win")),
        ],  # fmt: skip
        widget=forms.RadioSelect,
    )
    ruleset = forms.ChoiceField(label=_("Rules"), required=False, widget=forms.RadioSelect)

    def __init__(self, *args, players, club_rules, club_options, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.members = {str(m.player_id): m for m in players}
        self.presets = preset_choices()
        self.club_rules = club_rules
        choices = [("", "—")] + [(pid, m.name) for pid, m in self.members.items()]
        keys = {pid: search_keys(m.name) for pid, m in self.members.items()}
        for n, wind in enumerate(SEAT_WINDS):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=wind, choices=choices, widget=KeyedSelect(keys)
            )
        self.fields["ruleset"].choices = [("", _("The club's rules: %(title)s") % {
            "title": club_rules.title})] + [(p.name, p.title) for p in self.presets]  # fmt: skip
        for i in range(BETTOR_ROWS):
            self.fields[f"bettor_player_{i}"] = forms.ChoiceField(
                label=_("Bettor (叫马) %(n)s: a club player") % {"n": i + 1},
                choices=choices,
                required=False,
                widget=KeyedSelect(keys),
            )
            self.fields[f"bettor_guest_{i}"] = forms.CharField(
                label=_("or a guest's name"), max_length=80, required=False
            )
        self.rule_choices = {"": club_options, **preset_rules()}
        self.add_option_fields()

    def ruleset_radios(self):
        """The club's own rules first, then each preset: each radio with what it chooses."""
        return list(zip(self["ruleset"], [self.club_rules, *self.presets], strict=True))

    def seat_fields(self):
        return [(n, self[f"seat_{n}"]) for n in range(4)]

    def bettor_rows(self):
        return [(i, self[f"bettor_player_{i}"], self[f"bettor_guest_{i}"])
                for i in range(BETTOR_ROWS)]  # fmt: skip

    def clean(self):
        data = super().clean()
        for i in range(BETTOR_ROWS):
            if data.get(f"bettor_player_{i}") and data.get(f"bettor_guest_{i}", "").strip():
                self.add_error(
                    f"bettor_guest_{i}",
                    ValidationError(
                        _("A bettor is a club player or a guest, not both."), code="both"
                    ),  # fmt: skip
                )
        return data

    def players(self):
        """The four players, in seat order."""
        return [self.members[self.cleaned_data[f"seat_{n}"]].player for n in range(4)]

    def bettors(self) -> tuple[list[dict], list[int]]:
        """The bettors as ``session_create`` takes them, and the form row of each."""
        out, rows = [], []
        for i in range(BETTOR_ROWS):
            pid = self.cleaned_data.get(f"bettor_player_{i}")
            guest = self.cleaned_data.get(f"bettor_guest_{i}", "").strip()
            if pid:
                out.append({"player": self.members[pid].player})
            elif guest:
                out.append({"guest_name": guest})
            else:
                continue
            rows.append(i)
        return out, rows
