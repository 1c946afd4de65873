"""``manage.py mahjong``: the rules engine at the table, for a club organiser.

python manage.py mahjong evaluate "1122334455667m" --winning 7m --ruleset chengdu
python manage.py mahjong evaluate 123567234s --winning 7s --meld kong:8s --self-draw
python manage.py mahjong waits 1112345678999m --ruleset qq
python manage.py mahjong settle record.json      # shown or declared hands (RULES §6)
python manage.py mahjong declarations --ruleset xuezhan9   # what a scorer may declare
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import (
    SITUATIONS,
    DeclarationMenu,
    EngineError,
    Evaluation,
    Readiness,
    declaration_menu,
    evaluate,
    parse_waiting_hand,
    parse_winning_hand,
    readiness,
    resolve_ruleset,
    tile_name,
)
from scoring.engine.settle import Settlement, settle

UNIT_ZH = {"fan": "番", "multiple": "倍", "points": "分"}


def ruleset_spec(name: str, options: list[str]) -> Any:
    """``--ruleset chengdu --option cap=16`` or ``--ruleset '{"preset": …}'``."""
    spec: Any = json.loads(name) if name.lstrip().startswith("{") else name
    if options:
        if isinstance(spec, str):
            spec = {"preset": spec, "options": {}}
        for item in options:
            key, _, raw = item.partition("=")
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                value = raw  # a bare word such as add_one
            spec.setdefault("options", {})[key] = value
    return spec


def meld_json(text: str) -> dict[str, Any]:
    """``kong:8s`` (exposed), ``ckong:9m`` (concealed kong), ``pung:5p``."""
    kind, _, tile = text.partition(":")
    concealed = kind == "ckong"
    return {"kind": "kong" if concealed else kind, "tile": tile, "concealed": concealed}


def explain(result: Evaluation) -> list[str]:
    r = result.ruleset
    if not result.win:
        return [f"Not a win: {result.reason}"]
    v = result.valuation
    unit = UNIT_ZH[r.unit]
    out = []
    for i, line in enumerate(v.lines):
        if line.op == "bonus":
            amount = f"+{line.amount} to the value"
        elif line.op == "cap":
            amount = f"cap {line.amount} {unit}"
        elif i == 0:
            amount = f"{line.amount} {unit}"
        elif r.curve == "multiple":
            amount = f"×{line.amount}"
        else:
            amount = f"+{line.amount} {unit}"
        out.append(f"  {line.zh:<10}{line.en:<44}{amount}")
    total = f"{v.total} {unit}" + (" (capped)" if v.capped else "")
    return [
        f"Win: {v.pattern}  roots (根): {v.roots}",
        *out,
        f"Total: {total}   Value per payer at base 1: {v.value}",
        f"Also qualifies: {', '.join(v.patterns[1:]) or '—'}",
    ]


def explain_waits(result: Readiness) -> list[str]:
    if result.huazhu:
        return ["花猪 (three suits or the declared void suit): not ready"]
    if not result.waits:
        return ["Not ready (未下叫)"]
    unit = UNIT_ZH[result.ruleset.unit]
    lines = ["Waits (下叫):"]
    for w in result.waits:
        v = w.valuation
        dead = "  死叫" if w.dead else ""
        lines.append(
            f"  {w.as_dict(result.ruleset)['tile']:<4}{v.pattern:<14}{v.total:>3} {unit}"
            f"  discard {v.value:>4}  self-draw {w.self_draw_value:>4}{dead}"
        )
    lines.append(f"查叫 value ({result.ruleset.options.chajiao}): {result.chajiao_value}")
    return lines


def explain_settlement(s: Settlement) -> list[str]:
    out = []
    for w in s.wins:
        how = "self-draw" if w.from_ is None else f"on S{w.from_}'s discard"
        declared = "" if w.verified else " [declared]"
        # a declared win may have no tile
        tile = "" if w.tile is None else f" ({tile_name(w.tile)})"
        out.append(
            f"Win  S{w.seat} {w.valuation.pattern} {how}{tile}: {w.amount} from each payer"
            + declared
        )
    for d in s.draw or ():
        state = "花猪" if d.huazhu else ("ready" if d.ready else "not ready")
        waits = " ".join(f"{tile_name(x.tile)}={x.value}" for x in d.waits)
        if not d.verified:
            waits = f"{waits} 查叫 {d.chajiao_value} [declared]".lstrip()
        out.append(f"Draw S{d.seat} {state} {waits}".rstrip())
    out.append("Payments:")
    for p in s.payments:
        stage = "draw" if p.event is None else f"event {p.event}"
        out.append(f"  {p.payer:>3} -> {p.payee:<3} {p.amount:>5}  {p.reason:<15}{stage}")
    out.append("Totals: " + "  ".join(f"S{i} {t:+d}" for i, t in enumerate(s.seat_totals)))
    for b, total in zip(s.record.bettors, s.bettor_totals, strict=True):
        out.append(f"  bettor {b.name} (on S{b.seat}): {total:+d}")
    nd = s.next_dealer
    out.append(f"Next dealer: {'dice decide' if nd is None else f'S{nd}'}")
    out.append(
        "Verified: every hand shown by its tiles"
        if s.verified
        else "Not verified: declared hands (RULES §6)"
    )
    return out


def explain_menu(m: DeclarationMenu) -> list[str]:
    unit = UNIT_ZH[m.unit]
    out = [f"Patterns (value at the fewest roots; each further root: +{m.root_steps} step):"]
    for p in m.patterns:
        needs = f"  needs {p.situation}" if p.situation else ""
        needs += "  needs four melds" if p.melds else ""
        out.append(
            f"  {p.code:<14}{p.name.zh:<6}{p.value:>4} {unit}  pays {p.paid:>4}"
            f"  roots {p.min_roots}–{p.max_roots}{needs}"
        )
    out.append("Extras: " + (", ".join(f"{e.code} {e.name.zh}" for e in m.extras) or "—"))
    out.append("Situations: " + ", ".join(f"{x.code} {x.name.zh}" for x in m.situations))
    out.append("Draw: " + ", ".join(f"{d.code} {d.name.zh}" for d in m.draw))
    return out


class Command(BaseCommand):
    help = "Evaluate a winning hand or list the waits of a waiting hand with the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        p = sub.add_parser("settle")
        p.add_argument("record", help="a hand record as a JSON file, or - for standard input")
        p.add_argument("--json", action="store_true", help="print the API's JSON instead")
        p = sub.add_parser("declarations")
        p.add_argument("--ruleset", default="qq", help="preset name or JSON spec")
        p.add_argument("--option", action="append", default=[], help="KEY=VALUE override")
        p.add_argument("--json", action="store_true", help="print the API's JSON instead")
        for name in ("evaluate", "waits"):
            p = sub.add_parser(name)
            p.add_argument("tiles", help="concealed tiles, e.g. 1122334455667m or 123万456筒")
            p.add_argument("--ruleset", default="qq", help="preset name or JSON spec")
            p.add_argument("--option", action="append", default=[], help="KEY=VALUE override")
            p.add_argument("--meld", action="append", default=[], help="kong:8s, ckong:9m, pung:5p")
            p.add_argument("--void", default=None, help="declared void suit (定缺): m, p or s")
            p.add_argument("--json", action="store_true", help="print the API's JSON instead")
            if name == "evaluate":
                p.add_argument("--winning", required=True, help="the winning tile, e.g. 7m")
                p.add_argument("--self-draw", action="store_true", help="自摸")
                p.add_argument("--situation", action="append", default=[], choices=list(SITUATIONS))
            else:
                p.add_argument("--visible", default="", help="tiles seen elsewhere (死叫/绝张)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["action"] == "settle":
            self.settle(opts["record"], opts["json"])
            return
        try:
            ruleset = resolve_ruleset(ruleset_spec(opts["ruleset"], opts["option"]))
            data = {
                "concealed": opts.get("tiles"),
                "melds": [meld_json(m) for m in opts.get("meld", [])],
                "declared_void": opts.get("void"),
            }
            if opts["action"] == "declarations":
                result = declaration_menu(ruleset)
                text = explain_menu(result)
            elif opts["action"] == "evaluate":
                data |= {
                    "winning_tile": opts["winning"],
                    "self_draw": opts["self_draw"],
                    "situation": opts["situation"],
                }
                result = evaluate(parse_winning_hand(data), ruleset)
                text = explain(result)
            else:
                data["visible"] = opts["visible"]
                concealed, melds, void, visible = parse_waiting_hand(data)
                result = readiness(concealed, ruleset, melds, void, visible)
                text = explain_waits(result)
        except EngineError as e:
            raise CommandError(
                "; ".join(f"{p.path or 'input'}: {p.message} [{p.code}]" for p in e.problems)
            ) from e
        except json.JSONDecodeError as e:
            raise CommandError(f"--ruleset is not valid JSON: {e}") from e
        if opts["json"]:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"Ruleset: {ruleset.preset}  ({ruleset.fingerprint[:12]})")
        self.stdout.write("\n".join(text))

    def settle(self, source: str, as_json: bool) -> None:
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text()
            result = settle(json.loads(text))
        except OSError as e:
            raise CommandError(f"cannot read {source}: {e}") from e
        except json.JSONDecodeError as e:
            raise CommandError(f"{source} is not valid JSON: {e}") from e
        except EngineError as e:
            raise CommandError(
                "; ".join(f"{p.path or 'record'}: {p.message} [{p.code}]" for p in e.problems)
            ) from e
        if as_json:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        else:
            self.stdout.write("\n".join(explain_settlement(result)))
