"""The rules pages: /rules/ (every preset, what it is for, the options side by side) and
/rules/<preset>/ (one preset in full), in English and in Chinese; and the words of the options
the competition presets add (``pages.clubs.rulesets``).

The pages are written over the engine's descriptions, so two kinds of test: those that walk
whatever ``PRESETS`` holds (every row of every table is on its page, in the visitor's
language), and hand-worked ones, whose expected figures are RULES.md §3's tables, worked out
below (the presets of §3.6–§3.7 are checked once the engine has them).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext

from core.names import Name
from pages.clubs.rulesets import option_label, option_value, option_words, ruleset_words
from pages.rules import book
from pages.words import unit_amount
from scoring.engine import PRESETS, option_schema, resolve_ruleset
from scoring.services import ruleset_snapshot_get_or_create
from tests.clubs.factories import ClubFactory
from tests.helpers import login
from tests.pages.html_read import tables, text_of

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hans")
#: the presets of RULES §3.1–§3.4, in the engine's order
FIRST_FOUR = ("qq", "chengdu", "additive", "xuezhan9")


def get(client, url: str, lang: str):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang)


def page(client, url: str, lang: str) -> str:
    response = get(client, url, lang)
    assert response.status_code == 200
    return response.content.decode()


def in_language(name: dict[str, str], lang: str) -> str:
    return name["zh"] if lang.startswith("zh") else name["en"]


def rows_by_code(html: str) -> list[dict[str, list[str]]]:
    """The preset page's two tables (patterns, then extras): each row by its ``data-code``, as
    ``[on/off, name, worth, option]``: the name with its Chinese beside it for an English
    reader, the key of the option that switches the row (and "off here" where it is off)."""
    out = []
    for table in re.findall(r'<table class="rules-table">(.*?)</table>', html, re.S):
        rows = {}
        for state, code, row in re.findall(
            r'<tr class="(on|off)" data-code="([^"]+)">(.*?)</tr>', table, re.S
        ):
            [name_cell, worth] = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            name = re.sub(r'<span class="(note|switch)">.*', "", name_cell, flags=re.S)
            switch = re.search(r"<code>(\w+)</code>", name_cell)
            option = switch.group(1) if switch else ""
            if 'class="badge"' in name_cell:
                option += " off here"
            rows[code] = [state, text_of(name), text_of(worth), option]
        out.append(rows)
    return out


# --- /rules/ --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_list_shows_every_preset_in_the_visitors_language(client, lang):
    html = page(client, "/rules/", lang)
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        assert f'href="/rules/{name}/"' in html
        assert in_language(d["title"], lang) in html
        assert d["source"] in text_of(html)
    # what each preset is for, in one line (qq is the default, RULES §3.1)
    with translation.override(lang):
        assert str(book.PURPOSES["qq"]) in text_of(html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_comparison_has_a_row_per_option_and_a_column_per_preset(client, lang):
    html = page(client, "/rules/", lang)
    [table] = tables(html, "compare-table")
    assert [c["text"] for c in table["head"][0]][1:] == list(PRESETS)
    assert [c["href"] for c in table["head"][0]][1:] == [f"/rules/{n}/" for n in PRESETS]
    with translation.override(lang):
        labels = [option_label(o["key"]) for o in option_schema()]
        assert [row[0]["text"] for row in table["rows"]] == labels
        for option, row in zip(option_schema(), table["rows"], strict=True):
            for name, cell in zip(PRESETS, row[1:], strict=True):
                d = resolve_ruleset(name).as_dict()
                expected = option_value(option["key"], option["defaults"][name], d)
                assert cell["text"] == expected


def comparison_cells(html: str, key: str) -> dict[str, str]:
    [table] = tables(html, "compare-table")
    presets = [c["text"] for c in table["head"][0]][1:]
    keys = [o["key"] for o in option_schema()]
    row = table["rows"][keys.index(key)]
    return dict(zip(presets, [c["text"] for c in row[1:]], strict=True))


def test_the_comparison_says_each_presets_defaults_in_words(client):
    """RULES §3.5: cap qq none, chengdu 8 (multiples), additive none, xuezhan9 9 fan; 花猪 16,
    the cap, 16, 查叫 + 1 fan; 查叫 赔小 only in additive; 直杠 1, 2, 1, 2 from the discarder."""
    html = page(client, "/rules/", "en")
    cells = comparison_cells(html, "cap")
    assert [cells[n] for n in FIRST_FOUR] == ["No cap", "×8", "No cap", "9 fan"]
    cells = comparison_cells(html, "huazhu")
    assert [cells[n] for n in FIRST_FOUR] == [
        "16 to each", "the cap (满格)", "16 to each", "ready check + 1 fan",
    ]  # fmt: skip
    cells = comparison_cells(html, "chajiao")
    assert cells["additive"] == "smallest wait (赔小叫)" and cells["qq"] == "best wait (赔大叫)"
    cells = comparison_cells(html, "kong_direct")
    assert [cells[n] for n in FIRST_FOUR] == [
        "1 from the discarder", "2 from the discarder", "1 from the discarder",
        "2 from the discarder",
    ]  # fmt: skip
    # in Chinese, the words the catalogue already has: 不封顶, 8倍, 9番
    cells = comparison_cells(page(client, "/rules/", "zh-hans"), "cap")
    assert [cells[n] for n in FIRST_FOUR] == ["不封顶", "8倍", "不封顶", "9番"]


# --- /rules/<preset>/ ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_page_shows_its_tables_and_every_option(client, name, lang):
    html = page(client, f"/rules/{name}/", lang)
    text = text_of(html)
    d = resolve_ruleset(name).as_dict()
    assert f"<h1>{in_language(d['title'], lang)}</h1>" in html
    assert d["source"] in text and f"{d['version']}" in text
    patterns, extras = rows_by_code(html)
    unit = d["unit"]
    with translation.override(lang):
        for p in d["patterns"]:  # every row its preset scores, its name and value
            state, cell, worth, _ = patterns[p["code"]]
            assert state == "on"
            assert cell.startswith(in_language(p, lang))
            if lang == "en":  # an English reader sees the Chinese name beside it
                assert p["zh"] in cell
            if p["value"] == "cap":  # a row worth the cap itself (满格)
                assert worth == gettext("the cap (满格)")
            else:
                assert worth == unit_amount(p["value"], unit)
        for e in d["extras"]:
            state, cell, adds, _ = extras[e["code"]]
            assert state == "on" and cell.startswith(in_language(e, lang))
        for o in option_words(d):  # every option: its name, its value here, what it means
            assert f'id="option-{o.key}"' in html
            for words in (o.label, o.value, o.meaning):
                assert words in text
        for line in ruleset_words(d):
            assert line in text


PAGES = {
    # qq (RULES §3.1): value 2^(fan − 1), no cap; 清一色 3, 清龙七对 6 counting one root fewer;
    # 带幺九 and 将对 are switched by their options (on in qq); 海底, 绝张 and 金钩钓 have no
    # value here, so switched on each is one more fan (§3.5)
    "qq": {
        "patterns": {"qingyise": ["on", "3 fan", ""], "qinglongqidui": ["on", "6 fan", ""],
                     "daiyaojiu": ["on", "3 fan", "daiyaojiu"],
                     "jiangdui": ["on", "4 fan", "jiangdui"]},
        "extras": {"gen": ["on", "+1 fan", ""], "haidi": ["off", "+1 fan", "haidi off here"],
                   "jingoudiao": ["off", "+1 fan", "jingoudiao off here"]},
        "lines": ["2^(fan − 1)", "1 fan → 1 · 2 fan → 2 · 3 fan → 4 · 4 fan → 8", "No cap",
                  "roots already counted in it: 1"],
    },
    # (天胡/地胡 rows are switched by tianhu_dihu in every preset, RULES §3.8)
    # chengdu (§3.2): multiples, cap 8; 清大对 ×8, 清七对 ×16, 天胡 the cap = ×8; the optional
    # 带幺 4 / 清带幺 16 / 将对 16 / 金钩钓 4 rows are off by default; each extra ×2
    "chengdu": {
        "patterns": {"qingdui": ["on", "×8", ""], "qingqidui": ["on", "×16", ""],
                     "tianhu": ["on", "×8", "tianhu_dihu"],
                     "daiyaojiu": ["off", "×4", "daiyaojiu off here"],
                     "qingyaojiu": ["off", "×16", "daiyaojiu off here"],
                     "jiangdui": ["off", "×16", "jiangdui off here"],
                     "jingoudiao": ["off", "×4", "jingoudiao off here"]},
        "extras": {"gen": ["on", "×2", ""], "qiangganghu": ["on", "×2", ""],
                   "haidi": ["off", "×2", "haidi off here"]},
        "lines": ["Capped at ×8: a win is worth at most 8 to each payer at base 1",
                  "Next dealer: the first winner"],
    },
    # additive (§3.3): points; 杠上花 +2, 抢杠 +1; 天胡 8; no cap
    "additive": {
        "patterns": {"tianhu": ["on", "8 points", "tianhu_dihu"],
                     "qingdui": ["on", "4 points", ""]},
        "extras": {"gangshanghua": ["on", "+2 points", ""], "qiangganghu": ["on", "+1 point", ""]},
        "lines": ["No cap"],
    },
    # xuezhan9 (§3.4): value 2^fan, cap 9 fan = 2^9 = 512; 七对 4, 清七对 7, 天胡 9; 海底 and
    # 金钩钓 +1 fan each, switched by their options (on here); 黄庄/连庄 doubling
    "xuezhan9": {
        "patterns": {"qidui": ["on", "4 fan", ""], "qingqidui": ["on", "7 fan", ""],
                     "tianhu": ["on", "9 fan", "tianhu_dihu"]},
        "extras": {"haidi": ["on", "+1 fan", "haidi"], "jingoudiao": ["on", "+1 fan", "jingoudiao"],
                   "juezhang": ["off", "+1 fan", "juezhang off here"]},
        "lines": ["2^fan × the base", "0 fan → 1 · 1 fan → 2 · 2 fan → 4 · 3 fan → 8",
                  "Capped at 9 fan: a win is worth at most 512 to each payer at base 1",
                  "杠钱归胡家", "黄庄加倍"],
    },
    # tfmj2024 (§3.6): 2^fan, 平胡 0, 对对胡 1, 清一色 2 (not added), 七对 2; cap 3 fan = 2^3
    # = 8 a payer; every kong chain's income split between the winners; 花猪 is not ready
    "tfmj2024": {
        "patterns": {"pinghu": ["on", "0 fan", ""], "duiduihu": ["on", "1 fan", ""],
                     "qingyise": ["on", "2 fan", ""], "qidui": ["on", "2 fan", ""],
                     # 天胡/地胡 (§3.8 tianhu_dihu, off): a club that switches it on gets the cap
                     "tianhu": ["off", "3 fan", "tianhu_dihu off here"]},
        "extras": {"gen": ["on", "+1 fan", ""], "gangshangpao": ["on", "+1 fan", ""]},
        "lines": ["Capped at 3 fan: a win is worth at most 8 to each payer at base 1",
                  "the income of the whole chain of kongs (杠上杠) goes to the winners",
                  "A flower pig (花猪) pays as a player who is not ready"],
    },
    # sbr (§3.7): 2^fan, 对对胡 1, 清一色 and 七对 2, 清对 3, 清七对 4; cap 3 fan = 8; 杠上炮
    # refunds the kong; 查叫 without kong roots; a false win 8 to each
    "sbr": {
        "patterns": {"duiduihu": ["on", "1 fan", ""], "qingdui": ["on", "3 fan", ""],
                     "qingqidui": ["on", "4 fan", ""], "tianhu": ["on", "3 fan", "tianhu_dihu"]},
        "extras": {"gen": ["on", "+1 fan", ""]},
        "lines": ["Capped at 3 fan: a win is worth at most 8 to each payer at base 1",
                  "the discarder returns his last kong’s income to those who paid it",
                  "a ready hand is valued without its kongs as roots",
                  "A false win (诈胡) costs 8 to each other player still in"],
    },
}  # fmt: skip


@pytest.mark.parametrize("name", list(PAGES))
def test_a_preset_page_shows_the_figures_of_the_rule_book(client, name):
    if name not in PRESETS:
        pytest.skip(f"the engine has no preset {name!r} yet")
    html = page(client, f"/rules/{name}/", "en")
    patterns, extras = rows_by_code(html)
    expected = PAGES[name]
    for code, (state, worth, option) in expected["patterns"].items():
        assert [patterns[code][0], *patterns[code][2:]] == [state, worth, option], code
    for code, (state, adds, option) in expected["extras"].items():
        assert [extras[code][0], *extras[code][2:]] == [state, adds, option], code
    text = text_of(html)
    for line in expected["lines"]:
        assert line in text


def test_a_preset_page_in_chinese_names_everything_in_chinese(client):
    """xuezhan9 in Chinese: its title, the patterns' and extras' Chinese names alone (no
    English beside them), the cap line and its words from the catalogue (封顶 9番)."""
    html = page(client, "/rules/xuezhan9/", "zh-hans")
    patterns, extras = rows_by_code(html)
    assert "<h1>血战到底 9番封顶</h1>" in html
    assert patterns["qingqidui"][1:3] == ["清七对", "7番"]
    assert patterns["duiduihu"][1:3] == ["大对子", "2番"]
    assert extras["haidi"][1:3] == ["海底", "+1番"]
    text = text_of(html)
    assert "封顶 9番" in text and "血战到底：一局打到三家胡牌为止" in text
    assert "Pure seven pairs" not in text


def test_an_unknown_preset_is_not_found(client):
    for url in ("/rules/nope/", "/rules/QQ/", "/rules/qq-2/"):
        response = get(client, url, "en")
        assert response.status_code == 404
        assert "text/html" in response["Content-Type"]
        assert "<h1>Not found</h1>" in response.content.decode()


def test_the_pages_read_no_database(client, django_assert_num_queries):
    """The rules are the engine's: an anonymous visitor's pages need no query at all, and a
    signed-in one's only his session and login, the same on every page."""
    urls = ["/rules/", *[f"/rules/{name}/" for name in PRESETS]]
    for url in urls:
        with django_assert_num_queries(0):
            assert get(client, url, "en").status_code == 200
    client.force_login(login())
    counts = set()
    for url in urls:
        with CaptureQueriesContext(connection) as ctx:
            assert get(client, url, "zh-hans").status_code == 200
        counts.add(len(ctx.captured_queries))
    assert len(counts) == 1 and counts.pop() <= 2


def test_a_preset_the_engine_adds_is_listed_and_described_by_itself(client, monkeypatch):
    """Nothing names a preset: one more in ``PRESETS`` (here chengdu's table under another
    name, with 带幺 scored) is on the list, has a column of the comparison and its own page,
    its optional rows switched on where its options say so."""
    chengdu = PRESETS["chengdu"]
    house = replace(
        chengdu,
        name="house",
        title=Name("茶馆家规", "Teahouse house rules"),
        defaults=replace(chengdu.defaults, daiyaojiu=True),
    )
    monkeypatch.setitem(PRESETS, "house", house)
    html = page(client, "/rules/", "en")
    assert "Teahouse house rules" in html and 'href="/rules/house/"' in html
    assert comparison_cells(html, "daiyaojiu")["house"] == "yes"
    patterns, _ = rows_by_code(page(client, "/rules/house/", "en"))
    assert patterns["daiyaojiu"][0] == "on" and patterns["daiyaojiu"][3] == "daiyaojiu"
    assert patterns["jiangdui"][0] == "off"


# --- links to the rules ---------------------------------------------------------------------


def test_the_home_page_the_club_page_and_the_calculator_link_to_the_rules(client):
    assert 'href="/rules/"' in page(client, "/", "en")
    assert 'href="/rules/"' in page(client, "/tiles/", "zh-hans")
    club = ClubFactory(ruleset=ruleset_snapshot_get_or_create(spec="chengdu"))
    assert 'href="/rules/chengdu/"' in page(client, f"/clubs/{club.slug}/", "en")


# --- the words of the options the competition presets add (RULES §3.8) ----------------------


def words(options: dict) -> list[str]:
    with translation.override("en"):
        return ruleset_words({"options": options})


def test_an_option_the_description_lacks_says_nothing():
    assert words({}) == []


def test_the_kong_transfer_in_words():
    assert words({"kong_transfer": "copy"}) == [
        "Kong transfer (呼叫转移): the kong’s income goes to the winner of the discard after "
        "it; each of several winners gets a full copy"
    ]
    assert words({"kong_transfer": "chain_split"}) == [
        "Kong transfer (呼叫转移): the income of the whole chain of kongs (杠上杠) goes to the "
        "winners, split between several"
    ]
    assert words({"kong_transfer": "refund"}) == [
        "Win on the discard after a kong (杠上炮): no transfer; the discarder returns his last "
        "kong’s income to those who paid it"
    ]


def test_the_competition_options_in_words():
    assert words({"huazhu": "not_ready"}) == [
        "A flower pig (花猪) pays as a player who is not ready"
    ]
    # 查叫 with its kongs as roots is the usual rule: only its absence is said
    assert words({"chajiao_kongs": True}) == []
    assert words({"chajiao_kongs": False}) == [
        "Ready check (查叫): a ready hand is valued without its kongs as roots"
    ]
    assert words({"golden_wait": False}) == []
    assert words({"golden_wait": True}) == [
        "Golden Wait (单钓): +1 step for an all-triplets hand won on its pair tile"
    ]
    assert words({"haidi_over_kong_discard": True}) == [
        "A discard win off the last tile: the last tile (海底) replaces the win after a kong "
        "(杠上炮), and the kong’s income stays"
    ]
    assert words({"tianhu_dihu": True}) == [
        "Heavenly and earthly hands (天胡, 地胡) are scored as patterns"
    ]
    assert words({"tianhu_dihu": False}) == [
        "Heavenly and earthly hands (天胡, 地胡) are not scored: the hand counts as it is"
    ]


def test_a_false_win_in_words():
    assert words({"false_win": 8}) == ["A false win (诈胡) costs 8 to each other player still in"]
    assert words({"false_win": "huazhu"}) == [
        "A false win (诈胡) costs what a flower pig (花猪) pays, to each other player still in"
    ]
    assert words({"false_win": "cap"}) == [
        "A false win (诈胡) costs the cap (满格) to each other player still in"
    ]
    assert words({"false_win": True}) == []  # not a number of base units


def test_every_option_has_a_name_and_a_value_in_words():
    """The rules page's words of an option, whatever the engine holds: the new options by
    their own words, one these words do not know by its key and value."""
    d = {"unit": "fan", "curve": "fan"}
    with translation.override("en"):
        assert option_label("kong_transfer") == "Kong transfer (呼叫转移)"
        assert option_value("kong_transfer", "chain_split", d) == "the whole chain, split"
        assert option_value("false_win", 8, d) == "8 to each"
        assert option_value("huazhu", "not_ready", d) == "counts as not ready"
        assert option_value("cap", 3, d) == "3 fan"
        assert option_value("golden_wait", True, d) == "yes"
        assert option_label("daiyaojiu") == "Terminals in every set (带幺九)"
        assert (option_label("someday"), option_value("someday", "x", d)) == ("someday", "x")
    with translation.override("zh-hans"):
        assert option_label("daiyaojiu") == "带幺九"
        assert option_value("cap", None, d) == "不封顶"
