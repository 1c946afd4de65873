"""Forms of the scorekeeper's tournament pages: a new tournament, an entry, a table's totals."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.limits import BASE
from pages.clubs.forms import KeyedSelect, TableForm, preset_rules, search_keys
from pages.clubs.options import RulesOptionsMixin
from pages.clubs.rulesets import preset_choices
from pages.tables.confirm import RULES as CONFIRMATION_RULES
from pages.words import name_text
from tournaments.enums import PenaltyReason, SeatingMethod, SubstituteCounts
from tournaments.standings import DEFAULT_PLACEMENT_POINTS, DEFAULT_TIEBREAKS, TIEBREAKS

#: the sets of placement points a club usually plays, offered beside the field
USUAL_POINTS = ("4 2 1 0", "4 3 2 1", "8 4 2 0", "0 0 0 0")
#: the most rounds and hands a page offers (the API has its own bounds)
MAX_ROUNDS = 30
MAX_HANDS = 64


#: whose result a substitute's table is, in words
SUBSTITUTE_COUNTS_TEXT = {
    SubstituteCounts.REGISTERED: _("The registered player he replaces"),
    SubstituteCounts.SUBSTITUTE: _("The substitute himself"),
    SubstituteCounts.NOBODY: _("Nobody: the seat scores for no one"),
}


class TournamentForm(RulesOptionsMixin, forms.Form):
    """A new tournament of the club: its name and address, who sees it, its rules (the club's
    or a preset, some options changed), its format and how its rounds are seated."""

    name = forms.CharField(label=_("Tournament name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        required=False,
        help_text=_(
            "Letters, digits and hyphens, in the link /tournaments/…/. Left empty, it is made "
            "from the name's pinyin."
        ),  # fmt: skip
    )
    is_public = forms.TypedChoiceField(
        label=_("Who sees the standings"),
        choices=[("1", _("Everyone (public)")), ("", _("Members of the club only"))],
        coerce=bool,
        empty_value=False,
        initial="1",
        widget=forms.RadioSelect,
    )
    ruleset = forms.ChoiceField(label=_("Rules"), required=False, widget=forms.RadioSelect)
    base = forms.IntegerField(label=_("Base stake (底)"), min_value=BASE["min_value"],
                              max_value=BASE["max_value"])  # fmt: skip
    mode = TableForm.base_fields["mode"]
    rounds = forms.IntegerField(
        label=_("Number of rounds"), min_value=1, max_value=MAX_ROUNDS, initial=4
    )
    hands_per_table = forms.IntegerField(
        label=_("Hands per table and round"), min_value=1, max_value=MAX_HANDS, initial=8
    )
    round_minutes = forms.IntegerField(
        label=_("Round time on the clock, minutes (optional)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=_("Left empty: the rounds have no clock; the tables play their hands."),
    )
    placement_points = forms.CharField(
        label=_("Placement points, 1st to 4th"),
        initial=" ".join(map(str, DEFAULT_PLACEMENT_POINTS)),
        max_length=40,
    )
    hide_last_rounds = forms.IntegerField(
        label=_("Hide the standings of the last rounds"),
        min_value=0,
        max_value=99,
        initial=0,
        required=False,
        help_text=_(
            "How many of the last rounds the players see no result of, until you reveal the "
            "standings (0: none). They see the standings as before those rounds."
        ),
    )
    seating = forms.ChoiceField(
        label=_("Seating of the rounds"),
        choices=[
            (SeatingMethod.BALANCED, _("Balanced: fewest repeat meetings")),
            (SeatingMethod.SWISS, _("Swiss: leaders play leaders")),
            (SeatingMethod.RANDOM, _("Random")),
        ],
        initial=SeatingMethod.BALANCED,
        widget=forms.RadioSelect,
    )
    approve_gate = forms.BooleanField(
        label=_("A table counts only once the scorekeeper approves it"),
        required=False,
        help_text=_(
            "Each done table waits on the round desk for your approval; a change to it "
            "after the approval needs approving again."
        ),
    )
    check_in = forms.BooleanField(
        label=_("Seat only the players checked in on the day (签到)"),
        required=False,
        help_text=_("Tick them on the check-in page as they arrive; a round seats no one else."),
    )
    bye_points = forms.DecimalField(
        label=_("Placement points for a bye (optional)"),
        min_value=0, max_value=1000, max_digits=6, decimal_places=2, required=False,
        help_text=_("Left empty: the mean of the placement points (1.75 for 4 2 1 0)."),
    )  # fmt: skip
    substitute_counts = forms.ChoiceField(
        label=_("A substitute's (替补) table counts for"),
        choices=list(SUBSTITUTE_COUNTS_TEXT.items()),
        initial=SubstituteCounts.REGISTERED,
        required=False,
        widget=forms.RadioSelect,
        help_text=_("Standings, ratings and statistics all follow this choice."),
    )
    confirmation_rule = forms.ChoiceField(
        label=_("Confirming the hands (Bridgemate's rule)"),
        choices=[("", _("As the club does")), *CONFIRMATION_RULES.items()],
        initial="",
        required=False,
        widget=forms.RadioSelect,
        help_text=_("The players confirm each hand on their phones; a hand held waits out of "
                    "the standings until it counts."),
    )  # fmt: skip
    finals_players = forms.TypedChoiceField(
        label=_("Finals (决赛)"),
        choices=[(0, _("No finals")), (4, _("The top 4: one final table")),
                 (8, _("The top 8: two final tables")), (16, _("The top 16: four final tables"))],
        coerce=int, initial=0, required=False, empty_value=0,
    )  # fmt: skip
    finals_rounds = forms.IntegerField(
        label=_("Final rounds (the last rounds of the number above)"),
        min_value=1, max_value=10, initial=1, required=False,
    )  # fmt: skip
    finals_carry = forms.ChoiceField(
        label=_("The finals rank by"),
        choices=[("carry", _("All points: the qualifying points carry over (带分)")),
                 ("zero", _("The finals' points alone: everyone starts from zero (清零)"))],
        initial="carry", required=False, widget=forms.RadioSelect,
    )  # fmt: skip
    consolation = forms.BooleanField(
        label=_("The other players play on at their own tables during the finals"),
        required=False, initial=True,
    )  # fmt: skip
    seed = forms.IntegerField(
        label=_("Seating seed"),
        initial=0,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("The same seed seats the same players the same way again."),
    )

    def __init__(self, *args, club_rules, club_options, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["placement_points"].help_text = gettext(
            "Four whole numbers, none above the one before. Usual: %(sets)s."
        ) % {"sets": " · ".join(USUAL_POINTS)}
        self.presets = preset_choices()
        self.club_rules = club_rules
        self.fields["ruleset"].choices = [("", _("The club's rules: %(title)s") % {
            "title": club_rules.title})] + [(p.name, p.title) for p in self.presets]  # fmt: skip
        self.rule_choices = {"": club_options, **preset_rules()}
        self.add_option_fields()
        choices = [("", "—")] + [(code, name_text(t.name)) for code, t in TIEBREAKS.items()]
        for i in range(len(TIEBREAKS)):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Criterion %(n)s") % {"n": i + 1}, choices=choices, required=False,
                initial=DEFAULT_TIEBREAKS[i] if i < len(DEFAULT_TIEBREAKS) else "",
            )  # fmt: skip

    ruleset_radios = TableForm.ruleset_radios

    def tiebreak_fields(self):
        return [self[f"tiebreak_{i}"] for i in range(len(TIEBREAKS))]

    def tiebreaks(self) -> list[str]:
        """The chain as chosen, in order, each criterion once (the blanks left out); the
        default chain when the form sent none of them (a script, an older page)."""
        if not self._chain_sent():
            return list(DEFAULT_TIEBREAKS)
        return [c for i in range(len(TIEBREAKS)) if (c := self.cleaned_data.get(f"tiebreak_{i}"))]

    def _chain_sent(self) -> bool:
        return any(f"tiebreak_{i}" in self.data for i in range(len(TIEBREAKS)))

    def clean(self):
        data = super().clean()
        if not self._chain_sent():
            return data
        chosen = [data.get(f"tiebreak_{i}") for i in range(len(TIEBREAKS))]
        named = [c for c in chosen if c]
        if not named:
            self.add_error("tiebreak_0", _("Choose at least the first criterion."))
        elif len(set(named)) != len(named):
            self.add_error("tiebreak_0", _("Each criterion once."))
        return data

    def clean_placement_points(self) -> list[int]:
        words = self.cleaned_data["placement_points"].replace(",", " ").replace("/", " ").split()
        try:
            points = [int(w) for w in words]
        except ValueError:
            points = []
        if len(points) != 4 or any(a < b for a, b in zip(points, points[1:], strict=False)):
            raise ValidationError(
                _("Four whole numbers for 1st to 4th, none above the one before."),
                code="invalid_points",
            )
        return points


class PlayerOrNameForm(forms.Form):
    """A form naming someone: a player of the club (its ``player`` select, found by 汉字 or
    pinyin) or a new person by ``name`` — one of the two, else ``one_of_two`` says so."""

    one_of_two = ""

    def set_players(self, players) -> None:
        """The club's memberships the ``player`` select offers."""
        self.members = {str(m.player_id): m for m in players}
        # the widget first: setting the choices hands them to the widget there is
        self.fields["player"].widget = KeyedSelect(
            {pid: search_keys(m.name) for pid, m in self.members.items()}
        )
        self.fields["player"].choices = [("", "—")] + [
            (pid, m.name) for pid, m in self.members.items()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if bool(data.get("player")) == bool(data.get("name", "").strip()):
            raise ValidationError(self.one_of_two, code="one_of_two")
        return data

    def chosen_player(self):
        """The club's player chosen, or None (a new person: ``cleaned_data["name"]``)."""
        chosen = self.cleaned_data["player"]
        return self.members[chosen].player if chosen else None


class EntryForm(PlayerOrNameForm):
    """An entry: a player of the club, or a guest by name (a new player)."""

    player = forms.ChoiceField(label=_("A player of the club"), required=False)
    name = forms.CharField(label=_("or a guest's name"), max_length=80, required=False)
    new_player = forms.BooleanField(
        label=_("A new person, though a player of that name exists"), required=False
    )
    one_of_two = _("Choose a player of the club, or write a guest's name: one of the two.")

    def __init__(self, *args, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_players(players)

    def entry(self) -> dict[str, Any]:
        """What ``registration_create`` takes."""
        if (player := self.chosen_player()) is not None:
            return {"player": player}
        data = self.cleaned_data
        return {"name": data["name"].strip(), "new_player": data["new_player"]}


class TableTotalsForm(forms.Form):
    """A table's four totals, in seat order; their sum is the service's to check."""

    def __init__(self, *args, seats, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for n, seat in enumerate(seats):
            self.fields[f"total_{n}"] = forms.IntegerField(
                label=seat.name, min_value=-(10**9), max_value=10**9,
                initial=seat.score,
            )  # fmt: skip

    def rows(self):
        return [(seat, self[f"total_{n}"]) for n, seat in enumerate(self.seats)]

    def scores(self) -> list[dict[str, int]]:
        return [
            {"player": seat.player, "score": self.cleaned_data[f"total_{n}"]}
            for n, seat in enumerate(self.seats)
        ]


#: a penalty's reasons in words (the model's labels are English only)
PENALTY_REASONS = [
    (PenaltyReason.FALSE_WIN, _("诈胡: a false win, beyond what the table paid")),
    (PenaltyReason.LATE, _("Late")),
    (PenaltyReason.CONDUCT, _("Conduct")),
    (PenaltyReason.OTHER, _("Other")),
]
REASON_TEXT = dict(PENALTY_REASONS)


class PenaltyForm(forms.Form):
    """A referee's penalty: who, how many placement points, why, for which round."""

    player = forms.ChoiceField(label=_("Player"))
    points = forms.IntegerField(
        label=_("Placement points taken off"), min_value=1, max_value=1000, initial=1
    )
    reason = forms.ChoiceField(label=_("Reason"), choices=PENALTY_REASONS, widget=forms.RadioSelect)
    round = forms.TypedChoiceField(label=_("For"), coerce=int, empty_value=None, required=False)
    words = forms.CharField(label=_("In words (optional)"), max_length=200, required=False)

    def __init__(self, *args, entries, rounds: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        names = {str(e.player_id): e.player.name for e in entries}
        self.fields["player"].widget = KeyedSelect(
            {pid: search_keys(n) for pid, n in names.items()}
        )
        self.fields["player"].choices = [("", "—"), *names.items()]
        self.fields["round"].choices = [("", _("The tournament as a whole"))] + [
            (str(n), _("Round %(n)s") % {"n": n}) for n in range(rounds, 0, -1)
        ]
        if rounds:
            self.initial.setdefault("round", str(rounds))


class SubstituteForm(PlayerOrNameForm):
    """替补: who is absent at the table, and who plays for him (a player of the club, or a
    new person by name)."""

    absent = forms.ChoiceField(label=_("Absent player"), widget=forms.RadioSelect)
    player = forms.ChoiceField(label=_("Plays for him: a player of the club"), required=False)
    name = forms.CharField(label=_("or a new person's name"), max_length=80, required=False)
    reason = forms.CharField(label=_("Why (optional)"), max_length=200, required=False)
    one_of_two = _("Choose a player of the club, or write a new person's name: one of the two.")

    def __init__(self, *args, seats, players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = [(str(s.player), s.name) for s in seats]
        self.set_players(players)

    def substitute(self) -> dict[str, Any]:
        """What ``substitute_seat`` takes."""
        if (player := self.chosen_player()) is not None:
            return {"substitute": player}
        return {"name": self.cleaned_data["name"].strip(), "new_player": True}


class RevokeForm(forms.Form):
    reason = forms.CharField(label=_("Why it is revoked"), max_length=200)
