"""Share cards (战绩图): an evening's 结算, a hand, a player's season and a tournament's
standings as one image for a chat app.

An SVG of 1080 × 1350 (4:5, what chat apps show whole on a phone), text as text, with a QR code
back to its page; served as SVG (sharp, searchable) and as PNG (``pages.cards.png``: WeChat and
most chat apps take no SVG), which the server renders with the CJK fonts it has.

This module lays a read model out in lines at fixed heights: formatting only, every number the
read model's own (``clubs.selectors.evening``, ``ratings.stats.player_stats``). Long names are
cut with an ellipsis, long lists cut with "and N more": a line of an SVG never wraps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pages.words import chinese, name_text, roots_text

WIDTH, HEIGHT = 1080, 1350
#: the longest name a line shows whole (a CJK character is as wide as the type is tall)
NAME_CHARS = 12
#: the longest title and subtitle (left of the QR code in the title band)
TITLE_CHARS, SUBTITLE_CHARS = 12, 20
#: lines of each list a card shows
NETS_SHOWN, TRANSFERS_SHOWN = 10, 5


def signed(n: int) -> str:
    """+5, −3, 0 (a true minus sign), as the pages write it."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def sign_class(n: int) -> str:
    return "pos" if n > 0 else "neg" if n < 0 else "zero"


def short(name: str, chars: int = NAME_CHARS) -> str:
    """A name cut to fit its line: 欧阳娜娜娜娜娜娜娜娜娜娜 → 欧阳娜娜娜娜娜娜娜娜娜…"""
    return name if len(name) <= chars else name[: chars - 1] + "…"


@dataclass
class Item:
    """One thing a card draws at height ``y``, in reading order: a ``heading``, a ``line``
    (text on the left, ``value`` on the right), a ``stat`` (a big figure over its label, at
    ``x``) or a ``bar`` (``value`` drawn ``width`` long)."""

    kind: str
    y: int
    text: str
    value: str = ""
    css: str = ""
    note: str = ""
    x: int = 0
    width: int = 0


@dataclass
class Card:
    """What a card's template draws: a title band, then its items."""

    title: str
    subtitle: str
    kicker: str
    items: list[Item] = field(default_factory=list)
    footer: str = ""
    label: str = ""  # what the whole image says, for a screen reader
    qr: str = ""  # the QR code of its page, drawn in the title band (``qr_svg_sized``)

    width: int = WIDTH
    height: int = HEIGHT

    def add(self, kind: str, y: int, text: str, value: str = "", css: str = "", **kw) -> None:
        self.items.append(Item(kind, y, text, value, css, **kw))


#: where a card's lists start (below the title band and its one line) and end (the footer)
TOP, BOTTOM = 430, 1270
#: a line of each list: roomy when the lists are short, tighter when they are long
STEPS = ((64, 56), (50, 46))


def _evening_height(nets: int, shown: int, transfers: int, shown_t: int, steps) -> int:
    """How tall the lists are with ``shown`` of ``nets`` and ``shown_t`` of ``transfers``: a
    heading (66) and a line each, "and N more" and the sum for the nets; a gap (80), a heading
    (58), a line each and "and N more" for the transfers."""
    rows = shown + (shown < nets) + 1
    rows_t = max(shown_t, 1) + (shown_t < transfers)
    return 66 + steps[0] * rows + 80 + 58 + steps[1] * rows_t


def evening_card(club, evening, url: str = "") -> Card:
    """An evening's 结算: each person's net (largest first) and the fewest transfers; lists
    too long for the card are cut ("and N more"), the transfers first (to 3), then the nets."""
    day = evening.day.isoformat()
    tables, people = len(evening.tables), len(evening.lines)
    card = Card(
        title=short(club.name, TITLE_CHARS),
        subtitle=_("Settling up (结算), %(day)s") % {"day": day},
        kicker=ngettext("%(n)s table", "%(n)s tables", tables) % {"n": tables}
        + " · "
        + ngettext("%(n)s person", "%(n)s people", people) % {"n": people},
        footer=url,
    )
    card.label = f"{card.title} · {card.subtitle}"
    y = TOP
    if not evening.lines:
        card.add("heading", y + 60, _("No club table that day."))
        return card
    n, n_t = len(evening.lines), len(evening.transfers)
    shown, shown_t = min(n, NETS_SHOWN), min(n_t, TRANSFERS_SHOWN)
    steps = STEPS[0]
    if y + _evening_height(n, shown, n_t, shown_t, steps) > BOTTOM:
        steps = STEPS[1]
    while y + _evening_height(n, shown, n_t, shown_t, steps) > BOTTOM and shown_t > 3:
        shown_t -= 1
    while y + _evening_height(n, shown, n_t, shown_t, steps) > BOTTOM and shown > 3:
        shown -= 1
    size = "big" if steps == STEPS[0] else ""
    unit = f"（{club.unit_label}）" if chinese() else f" ({club.unit_label})"
    card.add("heading", y, _("Each person's net") + unit)
    y += 66
    for i, line in enumerate(evening.lines[:shown], start=1):
        guest = "" if line.person.player else _("guest")
        card.add("line", y, f"{i}. {short(line.person.name)}", signed(line.net),
                 f"{size} {sign_class(line.net)}", note=guest)  # fmt: skip
        y += steps[0]
    if n > shown:
        card.add("line", y, _("and %(n)s more") % {"n": n - shown}, css="more")
        y += steps[0]
    total = sum(line.net for line in evening.lines)
    card.add("line", y, _("Sum (zero-sum)"), str(total), "sum")
    y += 80 + 58
    card.add("heading", y - 58, _("Who pays whom (最少转账)"))
    if not evening.transfers:
        card.add("line", y, _("Everyone is square: nobody pays."), css="transfer")
    for t in evening.transfers[:shown_t]:
        text = f"{short(t.payer.name, 8)} → {short(t.payee.name, 8)}"
        card.add("line", y, text, str(t.amount), f"transfer {size}")
        y += steps[1]
    if n_t > shown_t:
        card.add("line", y, _("and %(n)s more") % {"n": n_t - shown_t}, css="more transfer")
    return card


def _rating(stats, club) -> tuple[str, str]:
    """The rating shown: the club's asked for, else the club pool he played most in."""
    pools = [r for r in stats.ratings if r.tournament is None]
    if club is not None:
        pools = [r for r in pools if r.club.slug == club.slug]
    if not pools:
        return "—", ""
    best = max(pools, key=lambda r: (r.sessions, r.club.slug))
    mark = _("provisional") if best.provisional else ""
    return str(round(best.rating)), mark


#: the centres of a card's big figures, three in a row
STAT_X = (200, 540, 880)


def player_card(stats, year: int | None, club=None, url: str = "") -> Card:
    """A player's season: sessions, total, rating, places and his biggest hand."""
    scope = club.name if club is not None else ""
    season = _("Season %(year)s") % {"year": year} if year else _("All seasons")
    card = Card(
        title=short(stats.name, TITLE_CHARS),
        subtitle=f"{season} · {short(scope, 10)}" if scope else season,
        kicker=_("Club tables"),
        footer=url,
    )
    card.label = f"{card.title} · {card.subtitle}"
    scores = stats.scores
    rating, mark = _rating(stats, club)
    figures = [
        (_("Sessions"), str(scores.sessions), "", ""),
        (_("Total"), signed(scores.total_score), sign_class(scores.total_score), ""),
        (_("Rating"), rating, "", mark),
    ]
    for x, (label, value, css, note) in zip(STAT_X, figures, strict=True):
        card.add("stat", 470, label, value, css, note=note, x=x)
    y = 700
    card.add("heading", y, _("Places"))
    most = max(scores.places) or 1
    labels = (_("1st"), _("2nd"), _("3rd"), _("4th"))
    for i, (label, count) in enumerate(zip(labels, scores.places, strict=True)):
        card.add("bar", y + 60 + i * 64, label, str(count), width=round(560 * count / most))
    y += 60 + 4 * 64 + 60
    card.add("heading", y, _("Biggest hand"))
    best = stats.win_values.biggest
    if best is None:
        card.add("line", y + 70, _("No win yet."), css="best")
    else:
        what = name_text(best.name)
        if best.roots:
            what = f"{what} + {roots_text(best.roots)}"
        how = _("self-drawn") if best.self_draw else ""
        when = best.day.isoformat()
        declared = "" if best.verified else _("declared")
        card.add("line", y + 70, what, str(best.amount), "best")
        card.add("line", y + 130, " · ".join(x for x in (how, when, declared) if x), css="note")
    return card


#: lines a hand card and a standings card show at most
PAYMENTS_SHOWN, STANDINGS_SHOWN = 6, 12


def hand_card(title: str, subtitle: str, wins: list[str], nets: list[tuple[str, int]],
              payments: list[str], declared: bool, url: str = "") -> Card:  # fmt: skip
    """One hand (一局): its wins in words, each seat's net, and the payments (cut to fit)."""
    card = Card(
        title=short(title, TITLE_CHARS), subtitle=short(subtitle, SUBTITLE_CHARS),
        kicker=_("declared (RULES §6)") if declared else _("tiles shown and checked"),
        footer=url,
    )  # fmt: skip
    card.label = f"{card.title} · {card.subtitle}"
    y = TOP
    card.add("heading", y, _("Wins"))
    y += 62
    for text in wins[:3] or [_("No win")]:
        card.add("line", y, short(text, 26), css="transfer")
        y += 52
    y += 40
    card.add("heading", y, _("Each seat's net"))
    y += 64
    for name, net in nets:
        card.add("line", y, short(name), signed(net), f"big {sign_class(net)}")
        y += 60
    y += 40
    card.add("heading", y, _("Payments"))
    y += 56
    shown = min(len(payments), PAYMENTS_SHOWN, max(0, (BOTTOM - y) // 46))
    for text in payments[:shown]:
        card.add("line", y, short(text, 34), css="more")
        y += 46
    if len(payments) > shown:
        card.add("line", y, _("and %(n)s more") % {"n": len(payments) - shown}, css="more")
    return card


def standings_card(name: str, subtitle: str, rows: list[tuple[int, str, str, bool]],
                   url: str = "") -> Card:  # fmt: skip
    """A tournament's standings: rank, name and placement points of the first lines ("and N
    more" for the rest); a finalist's line in bold."""
    card = Card(title=short(name, TITLE_CHARS), subtitle=short(subtitle, SUBTITLE_CHARS), kicker="",
                footer=url)  # fmt: skip
    card.label = f"{card.title} · {card.subtitle}"
    y = TOP
    card.add("heading", y, _("Rank · player · placement points"))
    y += 70
    for rank, who, points, finalist in rows[:STANDINGS_SHOWN]:
        card.add("line", y, f"{rank}. {short(who)}", points, "big best" if finalist else "big")
        y += 60
    if len(rows) > STANDINGS_SHOWN:
        card.add("line", y, _("and %(n)s more") % {"n": len(rows) - STANDINGS_SHOWN}, css="more")
    return card
