"""Pinyin of names: how a player is found by 张三, zhangsan or zs, and a club's slug from its name.

``pypinyin`` is imported on first use, not with this module: its dictionaries take about a
second and 50 MB to load, which a Celery worker or an API process that never searches a name
should not pay.
"""

from __future__ import annotations

from functools import lru_cache

#: names whose pinyin is kept (a club's few hundred players, many clubs; bounded)
PINYIN_CACHE_SIZE = 4096
#: the readings of a name's first character (its surname) tried: 曾 is zeng or ceng
SURNAME_READINGS = 3


@lru_cache(maxsize=PINYIN_CACHE_SIZE)
def pinyin_keys(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A name's full pinyin without tones and its initials, lower case, without spaces:
    张三 → (("zhangsan",), ("zs",)). The first character's other readings count too (a
    surname is often read differently: 曾 → zeng and ceng). Letters and digits are kept as
    they are: "Tom 王" → (("tomwang",), ("tomw",)), so a Latin name matches by itself."""
    from pypinyin import Style, lazy_pinyin, pinyin

    squash = str.maketrans("", "", " \t-_.·")

    def join(parts) -> str:
        return "".join(parts).lower().translate(squash)

    full = lazy_pinyin(name, style=Style.NORMAL)
    first = lazy_pinyin(name, style=Style.FIRST_LETTER)
    if not name or not _is_han(name[0]):
        return (join(full),), (join(first),)
    readings = [full[0]]
    for reading in pinyin(name[0], style=Style.NORMAL, heteronym=True)[0]:
        if reading not in readings and len(readings) < SURNAME_READINGS:
            readings.append(reading)
    fulls = tuple(join([r, *full[1:]]) for r in readings)
    initials = tuple(dict.fromkeys(join([r[0], *first[1:]]) for r in readings))
    return fulls, initials


def _is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\U00020000" <= char <= "\U0003134f"


def pinyin_words(name: str) -> list[str]:
    """The name's pinyin without tones, a word per character (成都 → ["cheng", "du"]); what is
    not 汉字 is kept as it is."""
    from pypinyin import lazy_pinyin

    return lazy_pinyin(name)


#: surnames read otherwise than their character usually is (曾 is céng in 曾经, zēng as a
#: name): the reading a list of names sorts them by. Compound surnames the dictionary already
#: reads right (尉迟 yuchi, 万俟 moqi, 长孙 zhangsun) need no entry.
AS_SURNAME = {
    "曾": "zeng", "单": "shan", "解": "xie", "仇": "qiu", "朴": "piao", "区": "ou", "查": "zha",
    "盖": "ge", "乐": "yue", "缪": "miao", "覃": "qin", "翟": "zhai", "种": "chong",
    "召": "shao", "秘": "bi", "员": "yun", "折": "she", "重": "chong", "繁": "po",
}  # fmt: skip


@lru_cache(maxsize=PINYIN_CACHE_SIZE)
def name_sort_key(name: str) -> tuple[str, str]:
    """Where a name goes in a list ordered by pinyin ("where do I sit"): its full pinyin, the
    surname read as a surname (曾十 → zengshi, after 张三 zhangsan), lower case; then the
    name itself, so that names read alike keep one order. A Latin name sorts by its letters."""
    from pypinyin import lazy_pinyin

    words = lazy_pinyin(name)
    if name and words and name[0] in AS_SURNAME:
        words[0] = AS_SURNAME[name[0]]
    return "".join(words).lower().replace(" ", ""), name
