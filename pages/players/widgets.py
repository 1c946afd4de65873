"""The repeated rows of a player's page, built as HTML in Python (as ``pages/tables/widgets.py``
builds the 流水 sheet): his head-to-head (up to 20 opponents) and his last sessions and
tournament tables are most of what the template language would spend on the page.

The words are the page's language (gettext, the catalogue's own strings), dates the club's.
"""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.selectors import RecentSession
from pages.templatetags.club_words import sign_class, signed
from ratings.stats import Opponent


def h2h_rows(opponents: Iterable[Opponent]) -> SafeString:
    """The head-to-head table's body: a row per opponent, his name linking to his page."""
    rows = [
        f'<tr><th scope="row"><a href="{escape(reverse("page-player", args=[o.player_id]))}">'
        f'{escape(o.name)}</a></th><td class="num">{o.sessions}</td>'
        f'<td class="num">{o.above}–{o.below}–{o.level}</td>'
        f'<td class="num {sign_class(o.net)}">{signed(o.net)}</td></tr>'
        for o in opponents
    ]
    return mark_safe("".join(rows))  # noqa: S308 - every value above is escaped or an int


def session_items(sessions: Iterable[RecentSession], *, tournament: bool = False) -> SafeString:
    """The items of a list of his sessions, each linking to its table: its number, its day in
    its club's time zone and the club, for a club table whether he bet (叫马) and whether it is
    still open; his total (coloured by its sign at a club table: money, not points)."""
    bettor, still_open = _("bettor (叫马)"), _("open")
    items = []
    for p in sessions:
        s = p.session
        notes = [s.started_at.astimezone(ZoneInfo(s.club.time_zone)).strftime("%Y-%m-%d"),
                 s.club.name]  # fmt: skip
        if not tournament and p.role == "bettor":
            notes.append(bettor)
        if not tournament and s.is_open:
            notes.append(still_open)
        css = "num" if tournament else f"num {sign_class(p.total)}"
        name = escape(_("Table %(n)s") % {"n": s.pk})
        items.append(
            f'<li><a href="{escape(reverse("page-session", args=[s.pk]))}">'
            f"<span>{name} "
            f'<span class="muted small">{" · ".join(escape(n) for n in notes)}</span></span> '
            f'<span class="{css}">{signed(p.total)}</span></a></li>'
        )
    return mark_safe("".join(items))  # noqa: S308 - every value above is escaped or an int
