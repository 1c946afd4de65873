"""换座: putting a table's seats right after the fact (an organiser): two players swapped, or
everyone moved on by one, two or three winds, with a reason. The hands stay with the seats they
were played in (``clubs.services.sessions.seats_repair``)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.enums import Role
from clubs.selectors import seat_repairs
from clubs.services.sessions import seats_repair
from core.errors import Conflict, Invalid
from pages.base import error_messages
from pages.tables.views import table_view
from pages.templatetags.tournament_words import wind_name

if TYPE_CHECKING:
    from clubs.models import TableSession


def repair_choices(names: list[str]) -> list[tuple[str, str, list[int]]]:
    """Every repair a table can need: (key, words, order), each pair of seats swapped, then
    everyone moved on one, two or three winds."""
    seat = [f"{wind_name(n)} {names[n]}" for n in range(4)]
    out = []
    for a, b in combinations(range(4), 2):
        order = [0, 1, 2, 3]
        order[a], order[b] = b, a
        out.append((f"swap-{a}{b}", _("Swap %(a)s and %(b)s") % {"a": seat[a], "b": seat[b]},
                    order))  # fmt: skip
    for k in (1, 2, 3):
        order = [(n - k) % 4 for n in range(4)]
        after = ", ".join(f"{wind_name(n)} {names[order[n]]}" for n in range(4))
        out.append((f"rotate-{k}", _("Everyone moves on: %(after)s") % {"after": after}, order))
    return out


class RepairForm(forms.Form):
    how = forms.ChoiceField(label=gettext_lazy("What was wrong"), widget=forms.RadioSelect)
    reason = forms.CharField(label=gettext_lazy("Why (kept with the table)"), max_length=200)

    def __init__(self, *args, choices, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.orders = {key: order for key, _words, order in choices}
        self.fields["how"].choices = [(key, words) for key, words, _order in choices]


@table_view(read=Role.ORGANISER, write=Role.ORGANISER)
def seats_page(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The seats as they are, the repairs to choose from, and the repairs made so far."""
    names = [s.player.name for s in sorted(session.seats.all(), key=lambda s: s.number)]
    form = RepairForm(request.POST or None, choices=repair_choices(names))
    if request.method == "POST" and form.is_valid():
        try:
            seats_repair(
                session=session, order=form.orders[form.cleaned_data["how"]],
                reason=form.cleaned_data["reason"], user=request.user,
            )  # fmt: skip
        except (Conflict, Invalid) as e:
            for line in error_messages(e):
                form.add_error(None, line)
        else:
            messages.success(request, _("The seats are repaired; the totals follow."))
            return redirect("page-session", pk=session.pk)
    context = {
        "session": session, "form": form,
        "seats": [(wind_name(n), name) for n, name in enumerate(names)],
        "repairs": seat_repairs(session),
    }  # fmt: skip
    return render(request, "pages/tables/seats.html", context)
