"""Melds (碰 pung, 杠 kong) and reading them (RULES §2, §5)."""

from __future__ import annotations

from scoring.engine import Meld
from scoring.engine.errors import Collector
from scoring.engine.melds import MeldGroup, parse_melds


def test_a_kong_holds_four_tiles_and_a_pung_three():
    """Meld.size counts the tiles laid down; the shape count still takes a kong as 3 (RULES §2)."""
    assert Meld("kong", 0).size == 4
    assert Meld("kong", 0, concealed=True).size == 4
    assert Meld("pung", 0).size == 3


def test_meld_group_key_counts_each_meld_by_its_size():
    """A kong of 1m and a pung of 2m: four 1m and three 2m in the group's hand key (3 bits per
    tile kind, 1m at bit 0, 2m at bit 3)."""
    group = MeldGroup.of((Meld("kong", 0), Meld("pung", 1)))
    assert group.key == 4 + (3 << 3)
    assert (group.kongs, group.pung_bits) == (1, 1 << 3)


def test_every_meld_problem_is_collected():
    """An unknown field, a wrong kind, a concealed pung and a bad tile: each is one problem
    with its path, all in one answer."""
    c = Collector()
    melds = parse_melds(
        c,
        [
            {"kind": "pung", "tile": "2m", "colour": "red"},
            {"kind": "chow", "tile": "3m"},
            {"kind": "pung", "tile": "4m", "concealed": True},
            {"kind": "pung", "tile": "0m"},
        ],
        "melds",
    )
    assert [(p.code, p.path) for p in c.problems] == [
        ("unknown_field", "melds[0].colour"),
        ("invalid_meld_kind", "melds[1].kind"),
        ("concealed_pung", "melds[2].concealed"),
        ("notation_rank", "melds[3].tile"),
    ]
    # the well-formed ones are still read (a concealed pung keeps its flag for the refusal)
    assert melds == (Meld("pung", 1), Meld("pung", 3, True))


def test_more_than_four_melds_are_refused_as_a_whole():
    """A hand lays down at most four melds (RULES §2: 14 tiles, a meld counts 3): a longer list
    is refused as a whole and not read, however long it is (issue 11: a 2.6 MB list of melds
    took 14 s to answer)."""
    c = Collector()
    melds = parse_melds(c, [{"kind": "chow", "tile": "0m"}] * 100_000, "melds")
    assert [(p.code, p.path) for p in c.problems] == [("too_many_melds", "melds")]
    assert melds == ()
