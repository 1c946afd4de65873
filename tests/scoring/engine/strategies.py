"""Hypothesis strategies for hands (shared by the engine's property tests)."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from scoring.engine import PRESETS

#: every preset: one added to ``PRESETS`` is tested at once
PRESET_NAMES = tuple(PRESETS)


@st.composite
def winning_hands(draw, max_melds: int = 4, all_triplets: bool = False):
    """A 14-tile hand built from four random sets and a pair in one or two suits (four
    triplets where ``all_triplets``; then the winning tile is the pair's half the time).

    Returns (concealed tiles incl. the winning tile, melds as (kind, tile), winning tile).
    """
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True))
    sets = []
    for _ in range(4):
        s = draw(st.sampled_from(suits))
        if not all_triplets and draw(st.booleans()):
            r = draw(st.integers(0, 6))
            sets.append(("run", s * 9 + r))
        else:
            sets.append(("triplet", s * 9 + draw(st.integers(0, 8))))
    pair = draw(st.sampled_from(suits)) * 9 + draw(st.integers(0, 8))
    n_melds = draw(st.integers(0, max_melds))
    melds = []
    concealed = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        if kind == "triplet" and i < n_melds:
            melds.append((draw(st.sampled_from(("pung", "kong"))), t))
        elif kind == "run":
            concealed += [t, t + 1, t + 2]
        else:
            concealed += [t, t, t]
    total = Counter(concealed)
    for kind, t in melds:
        total[t] += 4 if kind == "kong" else 3
    from hypothesis import assume

    assume(max(total.values()) <= 4)
    on_pair = all_triplets and draw(st.booleans())
    winning = pair if on_pair else draw(st.sampled_from(concealed))
    return concealed, melds, winning


@st.composite
def any_hands(draw):
    """Fourteen random tiles, mostly of two suits (so that some of them win)."""
    n_suits = draw(st.sampled_from((1, 2, 2, 2, 3)))
    suits = draw(st.lists(st.integers(0, 2), min_size=n_suits, max_size=n_suits, unique=True))
    pool = [s * 9 + r for s in suits for r in range(9) for _ in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=14, max_size=14, unique=True))
    return sorted(pool[i] for i in idx)


rulesets = st.one_of(
    st.sampled_from(PRESET_NAMES),
    st.builds(
        lambda preset, options: {"preset": preset, "options": options},
        st.sampled_from(PRESET_NAMES),
        st.fixed_dictionaries(
            {},
            optional={
                # (30: the highest cap on a fan curve, RULES §5)
                "cap": st.one_of(st.none(), st.integers(1, 30)),
                "self_draw_bonus": st.sampled_from(("none", "add_one", "add_fan")),
                "daiyaojiu": st.booleans(),
                "jiangdui": st.booleans(),
                "jingoudiao": st.booleans(),
                "haidi": st.booleans(),
                "juezhang": st.booleans(),
                "golden_wait": st.booleans(),
                "tianhu_dihu": st.booleans(),
                "chajiao_kongs": st.booleans(),
            },
        ),
    ),
)

situations = st.sampled_from(
    (
        frozenset(),
        frozenset({"kong_discard"}),
        frozenset({"robbing_kong"}),
        frozenset({"last_tile"}),
        frozenset({"last_copy"}),
        frozenset({"last_tile", "last_copy"}),
        frozenset({"earthly"}),
    )
)
