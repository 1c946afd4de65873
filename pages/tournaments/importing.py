"""The entry list from a CSV, on a page (an organiser): the file or pasted rows, a preview that
flags possible duplicates with a decision for each, then the entries in one step
(``exchange.entries_import``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors import Conflict, Invalid
from exchange.csv_import import MAX_BYTES
from exchange.entries_import import NEW, SKIP, EntryRow, entries_import, preview
from pages.base import error_messages
from pages.tournaments.director import _directed
from pages.tournaments.views import _context

#: how each kind of match is said
MATCH_TEXT = {
    "same_name": gettext_lazy("the same name as"),
    "same_pinyin": gettext_lazy("read alike (same pinyin) as"),
    "near": gettext_lazy("nearly the same name as"),
}


@dataclass(frozen=True)
class PreviewLine:
    row: EntryRow
    matches: list[str]  # in words
    choices: list[tuple[str, str]]  # the decisions offered (value, words)
    problems: list[str]


def _lines(found) -> list[PreviewLine]:
    lines = []
    for row in found.rows:
        said, choices = [], []
        for m in row.matches:
            where = (_("line %(n)s of the file") % {"n": m.line} if m.player is None
                     else _("entered") if m.entered else _("a player of the club"))  # fmt: skip
            said.append(f"{MATCH_TEXT[m.kind]} {m.name} ({where})")
            if m.player is not None and (str(m.player), m.name) not in choices:
                choices.append((str(m.player), _("It is %(name)s") % {"name": m.name}))
        if row.matches:
            choices = [("", _("— decide —")), (NEW, _("A new person")), *choices,
                       (SKIP, _("Skip this row"))]  # fmt: skip
        lines.append(PreviewLine(row, said, choices, error_messages(Invalid(row.problems))
                                 if row.problems else []))  # fmt: skip
    return lines


@require_http_methods(["GET", "POST"])
def entries_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form; POST ``preview``: the rows with their flags; POST ``import``: enter."""
    tournament = _directed(request, slug)
    text, errors, found = "", [], None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is not None and upload.size <= MAX_BYTES:
            text = upload.read().decode("utf-8-sig", errors="replace")
        else:
            text = request.POST.get("csv", "")
        decisions = {
            key.removeprefix("d-"): value
            for key, value in request.POST.items()
            if key.startswith("d-") and value
        }
        data = text.encode()
        if request.POST.get("action") == "import":
            try:
                done = entries_import(tournament=tournament, data=data, decisions=decisions)
            except (Conflict, Invalid) as e:
                errors = error_messages(e)
            else:
                text = _("%(n)s entered from the file, %(s)s rows skipped.")
                messages.success(request, text % {"n": len(done.entered), "s": len(done.skipped)})
                return redirect("page-tournament-entries", slug=tournament.slug)
        found = preview(tournament, data, decisions)
        errors += error_messages(Invalid(found.problems)) if found.problems else []
    context = _context(
        request, tournament, text=text, errors=list(dict.fromkeys(errors)),
        lines=_lines(found) if found else None,
        undecided=len(found.undecided) if found else 0,
    )  # fmt: skip
    return render(request, "pages/tournaments/entries_import.html", context)
