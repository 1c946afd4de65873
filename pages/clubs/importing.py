"""Import from a spreadsheet (``/clubs/<slug>/import/``), for the club's organisers.

Two steps, both through ``exchange.csv_import``: the file is checked (a dry run: every bad row
listed in words, by line and column, and nothing stored) and what it would store shown; then,
if it is good, the same text is sent again with "Import" and stored — checked again first, so
what is stored is never what a stale preview said. The second form carries the file's text (a
file is at most ``MAX_BYTES``, within the request's bound).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from clubs.enums import Role
from exchange.csv_import import (
    MAX_BYTES,
    MAX_ROWS,
    PLAYERS,
    CsvImport,
    RowProblem,
    csv_import,
    decode,
)
from pages.base import club_for, require_role

#: a bad row in words: the code's sentence, with the cell's text (or the sum, the line …)
PROBLEM_TEXT = {
    "unknown_column": gettext_lazy("Unknown column “%(value)s”."),
    "duplicate_column": gettext_lazy("The column “%(value)s” appears twice."),
    "missing_column": gettext_lazy("The file needs a column “%(value)s”."),
    "required": gettext_lazy("This cell is empty."),
    "invalid_name": gettext_lazy("A name has at most 80 characters, without control characters."),
    "formula_name": gettext_lazy(
        "“%(value)s” begins with = + - or @: a spreadsheet would run it as a formula. "
        "Write the name without it."
    ),
    "pinyin_mismatch": gettext_lazy("The name does not read like this: it reads %(value)s."),
    "duplicate_name": gettext_lazy("This name is already on line %(value)s."),
    "invalid_date": gettext_lazy("“%(value)s” is not a date such as 2025-03-01."),
    "date_in_future": gettext_lazy("%(value)s has not come yet."),
    "invalid_table": gettext_lazy("“%(value)s” is not a table number from 1 to 1000."),
    "unknown_player": gettext_lazy(
        "%(value)s is not a player of the club: import the players first."
    ),
    "ambiguous_player": gettext_lazy(
        "The club has several players named %(value)s: rename one of them first."
    ),
    "same_player_twice": gettext_lazy("%(value)s sits at this table twice."),
    "invalid_total": gettext_lazy("“%(value)s” is not a whole number such as 12 or -5."),
    "bettor_is_seated": gettext_lazy("%(value)s sits at this table: he cannot also bet on it."),
    "duplicate_bettor": gettext_lazy("%(value)s bets twice on this table."),
    "not_zero_sum": gettext_lazy("The totals add up to %(value)s, not 0."),
    "duplicate_table": gettext_lazy("This table of this date is already on line %(value)s."),
    "already_imported": gettext_lazy("This table of this date is already in the club."),
    "file_too_large": gettext_lazy("The file is larger than %(value)s KB."),
    "too_many_rows": gettext_lazy("A file has at most %(value)s rows."),
    "not_text": gettext_lazy("This is not a CSV file in UTF-8 or GB 18030."),
    "not_csv": gettext_lazy("This is not a CSV file."),
    "unknown_file": gettext_lazy(
        "The first row names the columns: name (and pinyin) for players; date, table, "
        "player1, total1 … for results."
    ),
}


def problem_line(p: RowProblem) -> str:
    """Where and why, in the page's language: 第3行，日期列：“2025-02-30”不是日期…"""
    text = PROBLEM_TEXT.get(p.code)
    if p.code == "invalid_total" and not p.value:
        why = _("A total is needed.")
    elif text is None:
        why = p.message
    else:
        why = str(text) % {"value": p.value}
    if p.line and p.column:
        text = _("Line %(line)s, column %(column)s: %(why)s")
    elif p.line:
        text = _("Line %(line)s: %(why)s")
    else:
        text = _("The file: %(why)s")
    return text % {"line": p.line, "column": p.column, "why": why}


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("A CSV file"))


class ConfirmForm(forms.Form):
    content = forms.CharField(widget=forms.HiddenInput, max_length=MAX_BYTES, strip=False)


def _preview(club, result: CsvImport, content: str | None) -> dict:
    return {
        "club": club,
        "result": result,
        "problems": [problem_line(p) for p in result.problems],
        "bad_rows": len({p.line for p in result.problems}),
        "confirm": ConfirmForm(initial={"content": content}) if content is not None else None,
    }


@require_http_methods(["GET", "POST"])
def club_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Check a spreadsheet's players or results (stored: nothing), then import it."""
    club = club_for(request.user, slug)
    require_role(request.user, club, Role.ORGANISER)
    context = {"club": club, "max_kb": MAX_BYTES // 1024, "max_rows": MAX_ROWS}
    form = UploadForm()
    status = 200
    if request.method == "POST" and "content" in request.POST:
        confirm = ConfirmForm(request.POST)
        if confirm.is_valid():
            text = confirm.cleaned_data["content"]
            result = csv_import(club=club, data=text.encode(), user=request.user)
            if result.stored:
                if result.kind == PLAYERS:
                    n = len(result.new_players)
                    message = ngettext(
                        "%(n)s player joined the club.", "%(n)s players joined the club.", n
                    )
                    messages.success(request, message % {"n": n})
                    return redirect("page-club-players", slug=club.slug)
                n = len(result.tables)
                message = ngettext("%(n)s table was imported.", "%(n)s tables were imported.", n)
                messages.success(request, message % {"n": n})
                return redirect("page-club", slug=club.slug)
            context |= _preview(club, result, None)
        else:
            # the checked file did not come back whole (too long, tampered with): nothing is
            # stored, and the empty upload form says so (an unbound form holds no errors)
            form = UploadForm(data={}, files={})
            form.full_clean()
            form.errors.clear()
            form.add_error("file", _("Choose the file again."))
            status = 400
    elif request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read(MAX_BYTES + 1)
            result = csv_import(club=club, data=data, user=request.user, dry_run=True)
            text = decode(data) if result.ok else None
            context |= _preview(club, result, text)
            context["file_name"] = upload.name
    context["form"] = form
    return render(request, "pages/clubs/import.html", context, status=status)
