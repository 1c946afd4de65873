"""The hand form of the table page, and its conversion to and from a hand record.

The form is flat (one POST, usable without JavaScript): the dealer; up to three winners in the
order they won, each declared (pattern, roots, extras; the winning tile if known, RULES §6) or
shown (his tiles without the winning tile, and the winning tile; typed as the whole hand, the
last tile is the winning one, as the tile picker reads it); kongs as taps placed
after the winner they followed (a later one may be 杠上杠, on the replacement tile of the
kong before it); false wins (诈胡) placed the same way; the players still in at a draw (流局);
the 叫马 tiles (tapped as a rank and a suit, or typed). Field names (``w1_seat``, ``k2_kind``,
``f1_seat``, ``d3_state`` …) are stable: a tile picker fills the ``…_tiles`` inputs by name.

:func:`read_hand_form` builds the hand record the services take (RULES §4–§6), says what the
form itself cannot read, and where each part of the record came from (so the engine's refusal
of ``events[2].on_replacement`` is shown beside kong 2's 杠上杠 box: :func:`field_of`); the
engine checks the rest. :func:`record_from_form` is the record and the problems alone;
:func:`form_from_record` is its inverse, to correct a stored hand in the same form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from django.utils.translation import gettext_lazy as _

from pages.base import whole_number

WINNERS = 3  # 血战: at most three winners a hand
KONGS = 4  # kong taps the form offers (the JSON API takes more)
FALSE_WINS = 2  # false-win (诈胡) rows: a rare event, twice in a hand at most on the form
SEATS = range(4)
ROOTS = range(5)
KONG_KINDS = ("concealed", "direct", "added")
DRAW_STATES = ("huazhu", "not_ready", "ready")
SELF = "self"  # the ``from`` of a self-drawn win (自摸)
RANKS = tuple("123456789")
SUITS = ("m", "p", "s")

_LAST_TILE = re.compile(r"^(.*?)(\d)\s*([mps万筒条饼铜索])\s*$")
_COMPACT_SUIT = {"万": "m", "筒": "p", "饼": "p", "铜": "p", "条": "s", "索": "s"}


class FormProblem(NamedTuple):
    """What the form could not read: the field and a message in words."""

    field: str
    message: str


class HandForm(NamedTuple):
    """A filled-in hand form read: the record, what the form could not read, and ``places``:
    each part of the record (``events[2]``, ``events[1].winners[0]``, ``draw.hands.3``,
    ``bettors[0]``) with the prefix of the form row it came from (``k2_``, ``w1_`` …)."""

    record: dict[str, Any]
    problems: list[FormProblem]
    places: dict[str, str]


#: the part of a record path that names a field of a row (``events[2].on_replacement`` →
#: ``k2_on_replacement``); any other part is the row as a whole
_PATH_FIELDS = {
    "seat": "seat", "kind": "kind", "tile": "tile", "from": "from", "situation": "situation",
    "on_replacement": "on_replacement", "concealed": "tiles", "melds": "pungs",
    "declared": "pattern", "wait": "pattern",
}  # fmt: skip
_PATH_PART = re.compile(r"^[.]?([a-z_]+)")


def field_of(places: dict[str, str], path: str) -> str | None:
    """The form field a record path names (``events[2].on_replacement`` → ``k2_on_replacement``,
    ``events[3].winners[1].concealed`` → ``w2_tiles``), the row's prefix when the path names
    no field of it, or None when no row of the form holds it."""
    best = ""
    for key in places:
        if len(key) > len(best) and (path == key or path.startswith((key + ".", key + "["))):
            best = key
    if not best:
        return None
    prefix = places[best]
    part = _PATH_PART.match(path[len(best) :])
    return prefix + _PATH_FIELDS.get(part.group(1), "") if part else prefix


def _one(data: Mapping, key: str) -> str:
    value = data.get(key, "")
    if isinstance(value, list):  # a plain dict of lists (tests) as well as a QueryDict
        value = value[-1] if value else ""
    return (value or "").strip()


def _many(data: Mapping, key: str) -> list[str]:
    if hasattr(data, "getlist"):
        values = data.getlist(key)
    else:
        values = data.get(key, [])
        values = values if isinstance(values, list) else [values]
    return [v.strip() for v in values if v and v.strip()]


def _seat(value: str) -> int | None:
    return int(value) if value in {"0", "1", "2", "3"} else None


def _int(value: str, allowed: range) -> int | None:
    number = whole_number(value)
    return number if number in allowed else None


def _count(tiles: str) -> int:
    """How many tiles a text names (one digit a tile, in either notation)."""
    return sum(c in "123456789" for c in tiles)


def split_winning_tile(tiles: str) -> tuple[str, str]:
    """A shown winner's tiles typed with the winning tile last (``123m…23p4p`` or ``…234p``):
    the hand before the win and the winning tile. Unchanged (and no tile) when not readable."""
    match = _LAST_TILE.match(tiles)
    if not match:
        return tiles, ""
    head, rank, suit = match.groups()
    suit = _COMPACT_SUIT.get(suit, suit)
    head = head.rstrip()
    if head and head[-1].isdigit():  # ``…234p``: the rank run before the suit keeps its suit
        head = f"{head}{match.group(3)}"
    return head, f"{rank}{suit}"


def _chip_tile(data: Mapping, prefix: str) -> str:
    """A tile tapped as a rank and a suit (``w1_rank`` 5 + ``w1_suit`` m = ``5m``), or ""."""
    rank, suit = _one(data, prefix + "rank"), _one(data, prefix + "suit")
    if rank in RANKS and suit in SUITS:
        return f"{rank}{suit}"
    return ""


def tile_chips(tile: str) -> tuple[str, str]:
    """A compact tile (``5m``) as its rank and suit chips; ("", "") when it is not one."""
    tile = (tile or "").strip()
    if len(tile) == 2 and tile[0] in RANKS and tile[1] in SUITS:
        return tile[0], tile[1]
    return "", ""


def _pungs(text: str) -> list[dict[str, Any]]:
    """Exposed pungs typed as tiles, one per pung: ``5p7s`` or ``555p 777s``."""
    out, seen = [], []
    for digits, suit in re.findall(r"(\d+)\s*([mps万筒条饼铜索])", text):
        suit = _COMPACT_SUIT.get(suit, suit)
        for rank in dict.fromkeys(digits):  # ``555p``: one pung of 5p
            if (rank, suit) not in seen:
                seen.append((rank, suit))
                out.append({"kind": "pung", "tile": f"{rank}{suit}"})
    return out


def _kong_melds(kongs: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """A shown hand's kongs: the kong taps of that seat, as melds."""
    return [
        {"kind": "kong", "tile": k["tile"], "concealed": k["kind"] == "concealed"}
        for k in kongs
        if k["seat"] == seat and k.get("tile")
    ]


def _due(pending: list[tuple[int, int, dict]], until: int) -> list[tuple[int, int, dict]]:
    """The rows of ``pending`` (sorted by their "after") that come before the win which has
    ``until`` winners before it, taken off ``pending``."""
    out = []
    while pending and pending[0][0] <= until:
        out.append(pending.pop(0))
    return out


#: a win that needs the kong right before it: 杠上花 (the winner's), 杠上炮 (the discarder's),
#: 抢杠 (the robbed kong is cancelled only when it is the event just before, RULES §4.5)
_AFTER_A_KONG = frozenset(("kong_flower", "kong_discard", "robbing_kong"))


def _in_order(kongs: list, fouls: list, win: dict[str, Any] | None) -> list:
    """The kongs and false wins entered with the same "When", in the order they go into the
    record: the kongs first, so a player's false win comes after his kongs there and returns
    their money (RULES §4.9) — except the kongs a 杠上花, 杠上炮 or 抢杠 win was made on, with
    their 杠上杠 chain, which stay right before that win: nothing is declared between a kong
    and what is done with its replacement tile."""
    if not fouls or not kongs or win is None or not _AFTER_A_KONG & set(win["situation"]):
        return kongs + fouls
    tail = 1
    while tail < len(kongs) and kongs[-tail][1].get("on_replacement"):
        tail += 1
    return kongs[:-tail] + fouls + kongs[-tail:]


def read_hand_form(data: Mapping, *, bettors: list[str] = ()) -> HandForm:
    """:func:`record_from_form`'s record and problems, with where each part of the record came
    from on the form (:class:`HandForm`)."""
    record, problems, places = _read(data, bettors)
    return HandForm(record, problems, places)


def record_from_form(
    data: Mapping, *, bettors: list[str] = ()
) -> tuple[dict[str, Any], list[FormProblem]]:
    """The hand record a filled-in form says, and what the form could not read.

    ``data``: the POST (a QueryDict, or a dict of strings / lists in tests); ``bettors``: the
    session's 叫马 bettors' names, in the order their tile fields are numbered (``b0_tile`` …).
    The record has ``number`` when the form carried one, and ``dealer`` when one was chosen
    (otherwise the service takes the previous hand's next dealer, or asks)."""
    record, problems, _places = _read(data, bettors)
    return record, problems


def _read(
    data: Mapping, bettors: list[str]
) -> tuple[dict[str, Any], list[FormProblem], dict[str, str]]:
    """The record, the problems and the places (:class:`HandForm`) of a filled-in form."""
    problems: list[FormProblem] = []
    record: dict[str, Any] = {}
    number = whole_number(_one(data, "number"))
    if number is not None:
        record["number"] = number
    dealer = _seat(_one(data, "dealer"))
    if dealer is not None:
        record["dealer"] = dealer

    # (winners before it, tap, event): a kong tap says after which winner it came
    kongs: list[tuple[int, int, dict[str, Any]]] = []
    for j in range(1, KONGS + 1):
        seat = _seat(_one(data, f"k{j}_seat"))
        kind = _one(data, f"k{j}_kind")
        tile = _one(data, f"k{j}_tile") or _chip_tile(data, f"k{j}_")
        discarder = _seat(_one(data, f"k{j}_from"))
        if seat is None:
            if kind or tile or discarder is not None:
                problems.append(FormProblem(f"k{j}_seat", str(_("Say who made this kong."))))
            continue
        if kind not in KONG_KINDS:
            problems.append(FormProblem(f"k{j}_kind", str(_("Say which kind of kong it was."))))
            continue
        event: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind, "tile": tile}
        if kind == "direct":
            event["from"] = discarder
            if discarder is None:
                message = _("Say whose discard was konged.")
                problems.append(FormProblem(f"k{j}_from", str(message)))
        if _one(data, f"k{j}_on_replacement"):  # 杠上杠 (RULES §4.4): the engine checks it
            event["on_replacement"] = True
        after = _int(_one(data, f"k{j}_after"), range(WINNERS + 1)) or 0
        kongs.append((after, j, event))
    kongs.sort(key=lambda k: (k[0], k[1]))
    kong_events = [k[2] for k in kongs]

    # (winners before it, row, event): a false win (诈胡, RULES §4.9) placed like a kong
    false_wins: list[tuple[int, int, dict[str, Any]]] = []
    for n in range(1, FALSE_WINS + 1):
        seat = _seat(_one(data, f"f{n}_seat"))
        after = _int(_one(data, f"f{n}_after"), range(WINNERS + 1)) or 0
        if seat is None:
            if after:
                message = _("Say who declared the false win.")
                problems.append(FormProblem(f"f{n}_seat", str(message)))
            continue
        false_wins.append((after, n, {"type": "false_win", "seat": seat}))

    winners: list[tuple[int, dict[str, Any]]] = []  # (row, winner)
    wins: list[dict[str, Any]] = []  # win events in order
    for i in range(1, WINNERS + 1):
        seat = _seat(_one(data, f"w{i}_seat"))
        if seat is None:
            continue
        came = _one(data, f"w{i}_from")
        discarder = None if came == SELF else _seat(came)
        if came != SELF and discarder is None:
            message = _("Say from whom the winning tile came, or that it was self-drawn.")
            problems.append(FormProblem(f"w{i}_from", str(message)))
            continue
        tiles = _one(data, f"w{i}_tiles")
        tile = _one(data, f"w{i}_tile") or _chip_tile(data, f"w{i}_")
        winner: dict[str, Any] = {"seat": seat}
        if tiles:
            melds = _pungs(_one(data, f"w{i}_pungs")) + _kong_melds(kong_events, seat)
            if not tile and _count(tiles) == 14 - 3 * len(melds):
                tiles, tile = split_winning_tile(tiles)  # the whole hand typed: the last won
            winner["concealed"] = tiles
            if melds:
                winner["melds"] = melds
        else:
            pattern = _one(data, f"w{i}_pattern")
            if not pattern:
                message = _("Choose the pattern, or enter the tiles.")
                problems.append(FormProblem(f"w{i}_pattern", str(message)))
                continue
            declared: dict[str, Any] = {
                "pattern": pattern,
                "roots": _int(_one(data, f"w{i}_roots"), ROOTS) or 0,
                "extras": _many(data, f"w{i}_extras"),
            }
            winner["declared"] = declared
        situation = _many(data, f"w{i}_situation")
        joins = (
            wins
            and _one(data, f"w{i}_with")
            and discarder is not None
            and wins[-1]["from"] == discarder
        )
        if joins:  # 一炮多响: the same discard as the winner before
            wins[-1]["winners"].append(winner)
            wins[-1]["situation"] = list(dict.fromkeys(wins[-1]["situation"] + situation))
            wins[-1]["tile"] = wins[-1]["tile"] or tile
        else:
            wins.append({"type": "win", "from": discarder, "tile": tile, "situation": situation,
                         "winners": [winner]})  # fmt: skip
        winners.append((i, winner))
    for win in wins:
        if not win["tile"]:
            del win["tile"]  # a declared win: the winning tile was not written down

    # kongs and false wins go after the win event holding the winner row they follow
    events: list[dict[str, Any]] = []
    places: dict[str, str] = {}

    def add(event: dict[str, Any], prefix: str) -> None:
        places[f"events[{len(events)}]"] = prefix
        events.append(event)

    pending_kongs, pending_fouls = list(kongs), sorted(false_wins)
    ordinal = 0  # winners before this win event
    rows = iter(winners)
    for win in [*wins, None]:  # None: what came after the last win
        until = WINNERS if win is None else ordinal
        slot = [(f"k{j}_", e) for _, j, e in _due(pending_kongs, until)]
        fouls = [(f"f{n}_", e) for _, n, e in _due(pending_fouls, until)]
        for prefix, event in _in_order(slot, fouls, win):
            add(event, prefix)
        if win is None:
            break
        index = len(events)
        for j, _winner in enumerate(win["winners"]):
            row = next(rows)[0]
            places.setdefault(f"events[{index}]", f"w{row}_")
            places[f"events[{index}].winners[{j}]"] = f"w{row}_"
        events.append(win)
        ordinal += len(win["winners"])
    record["events"] = events

    won = {w["seat"] for _, w in winners}
    hands: dict[str, Any] = {}
    for s in SEATS:
        state = _one(data, f"d{s}_state")
        tiles = _one(data, f"d{s}_tiles")
        if not state and not tiles:
            continue
        if s in won:
            problems.append(FormProblem(f"d{s}_state", str(_("A winner is not in the draw."))))
            continue
        if tiles:
            hand: dict[str, Any] = {"concealed": tiles}
            melds = _pungs(_one(data, f"d{s}_pungs")) + _kong_melds(kong_events, s)
            if melds:
                hand["melds"] = melds
        elif state == "ready":
            pattern = _one(data, f"d{s}_pattern")
            if not pattern:
                message = _("Choose the pattern of the wait, or enter the tiles.")
                problems.append(FormProblem(f"d{s}_pattern", str(message)))
                continue
            roots = _int(_one(data, f"d{s}_roots"), ROOTS) or 0
            hand = {"declared": "ready", "wait": {"pattern": pattern, "roots": roots}}
        elif state in DRAW_STATES:
            hand = {"declared": state}
        else:
            problems.append(FormProblem(f"d{s}_state", str(_("This value is not valid."))))
            continue
        hands[str(s)] = hand
    record["draw"] = {"hands": hands} if hands else None
    for s in SEATS:  # a seat the engine misses at the draw is named too (draw_hand_missing)
        places[f"draw.hands.{s}"] = f"d{s}_"

    horses = []
    for n, name in enumerate(bettors):
        tile = _one(data, f"b{n}_tile") or _chip_tile(data, f"b{n}_")  # typed, or tapped
        if tile:
            places[f"bettors[{len(horses)}]"] = f"b{n}_"
            horses.append({"name": name, "tile": tile})
    if horses:
        record["bettors"] = horses
    if not winners and not hands and not problems:
        message = _("Enter a winner, or the players still in at a draw.")
        problems.append(FormProblem("w1_seat", str(message)))
    return record, problems, places


def _melds_text(melds: list[dict[str, Any]]) -> str:
    return "".join(m["tile"] for m in melds or () if m.get("kind") == "pung")


def form_from_record(record: Mapping[str, Any], *, bettors: list[str] = ()) -> dict[str, Any]:
    """The form's initial values for a stored hand record: what :func:`record_from_form`
    turns back into the same record (lists for the multiple-choice fields)."""
    out: dict[str, Any] = {}
    if record.get("dealer") is not None:
        out["dealer"] = str(record["dealer"])
    row = 0
    k = f = 0
    for event in record.get("events") or ():
        if event.get("type") == "kong" and k < KONGS:
            k += 1
            out[f"k{k}_seat"] = str(event.get("seat", ""))
            out[f"k{k}_kind"] = event.get("kind", "")
            out[f"k{k}_rank"], out[f"k{k}_suit"] = tile_chips(event.get("tile", ""))
            if not out[f"k{k}_rank"]:
                out[f"k{k}_tile"] = event.get("tile", "")
            if event.get("from") is not None:
                out[f"k{k}_from"] = str(event["from"])
            if event.get("on_replacement"):
                out[f"k{k}_on_replacement"] = "1"
            out[f"k{k}_after"] = str(row)
        elif event.get("type") == "false_win" and f < FALSE_WINS:
            f += 1
            out[f"f{f}_seat"] = str(event.get("seat", ""))
            out[f"f{f}_after"] = str(row)
        elif event.get("type") == "win":
            for j, winner in enumerate(event.get("winners") or ()):
                if row >= WINNERS:
                    break
                row += 1
                w = f"w{row}_"
                out[w + "seat"] = str(winner.get("seat", ""))
                came = event.get("from")
                out[w + "from"] = SELF if came is None else str(came)
                if j:
                    out[w + "with"] = "1"
                if j == 0:
                    out[w + "situation"] = list(event.get("situation") or ())
                if "declared" not in winner:  # a shown winner's tiles need it
                    out[w + "tile"] = event.get("tile", "")
                elif j == 0:
                    out[w + "rank"], out[w + "suit"] = tile_chips(event.get("tile", ""))
                if "declared" in winner:
                    d = winner["declared"]
                    out[w + "pattern"] = d.get("pattern", "")
                    out[w + "roots"] = str(d.get("roots", 0))
                    out[w + "extras"] = list(d.get("extras") or ())
                else:
                    out[w + "tiles"] = winner.get("concealed", "")
                    out[w + "pungs"] = _melds_text(winner.get("melds"))
    for key, hand in ((record.get("draw") or {}).get("hands") or {}).items():
        d = f"d{key}_"
        if "declared" in hand:
            out[d + "state"] = hand["declared"]
            wait = hand.get("wait") or {}
            if wait:
                out[d + "pattern"] = wait.get("pattern", "")
                out[d + "roots"] = str(wait.get("roots", 0))
        else:
            out[d + "tiles"] = hand.get("concealed", "")
            out[d + "pungs"] = _melds_text(hand.get("melds"))
    by_name = {b.get("name"): b.get("tile", "") for b in record.get("bettors") or ()}
    for n, name in enumerate(bettors):
        tile = by_name.get(name)
        if tile:
            out[f"b{n}_rank"], out[f"b{n}_suit"] = tile_chips(tile)
            if not out[f"b{n}_rank"]:  # not a tile the chips can say: kept as typed
                out[f"b{n}_tile"] = tile
    return out
