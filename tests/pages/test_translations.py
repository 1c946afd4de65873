"""Every string a person reads exists in zh-Hans and English.

English is the source language of the catalogue; zh-Hans must translate every message that
``makemessages`` finds in the code and the templates, and the compiled ``.mo`` must be the
catalogue as it stands (a stale ``.mo`` would show English on a Chinese phone).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.helpers import ROOT

CATALOGUE = ROOT / "pages" / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
SOURCES = ("config", "core", "scoring", "clubs", "tournaments", "ratings", "pages", "templates")


def entries() -> list[polib.POEntry]:
    return [e for e in polib.pofile(str(CATALOGUE)) if not e.obsolete]


def translated(e: polib.POEntry) -> bool:
    if e.msgid_plural:
        return bool(e.msgstr_plural) and all(e.msgstr_plural.values())
    return bool(e.msgstr)


def test_every_message_is_translated():
    missing = [e.msgid for e in entries() if not translated(e) or "fuzzy" in e.flags]
    assert missing == []


def test_placeholders_survive_translation():
    for e in entries():
        if e.msgid_plural:
            for text in e.msgstr_plural.values():
                assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(e.msgid_plural))
            continue
        assert sorted(PLACEHOLDER.findall(e.msgstr)) == sorted(PLACEHOLDER.findall(e.msgid)), (
            e.msgid
        )


def test_the_compiled_catalogue_is_the_catalogue():
    plural = {e.msgid for e in entries() if e.msgid_plural}
    compiled = {
        (e.msgctxt, e.msgid): e.msgstr for e in polib.mofile(str(CATALOGUE.with_suffix(".mo")))
    }
    written = {
        (e.msgctxt, e.msgid): e.msgstr for e in entries() if e.msgid and e.msgid not in plural
    }
    assert {k: v for k, v in compiled.items() if k[1] and k[1] not in plural} == written


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is not installed")
def test_the_catalogue_holds_every_string_of_the_code(tmp_path: Path):
    """``makemessages`` over a copy of the sources finds nothing the catalogue lacks."""
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "--no-obsolete", "-v", "0"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    found = {e.msgid for e in polib.pofile(str(tmp_path / CATALOGUE.relative_to(ROOT)))}
    assert "Sign in" in found
    assert found - {e.msgid for e in entries()} == set()


def test_no_string_for_people_hides_inside_an_f_string():
    """``makemessages`` (xgettext) does not look inside an f-string: a ``_("tied")`` there is
    never collected, and a Chinese page showed "tied" in English. Every gettext call stands
    outside them."""
    import io
    import tokenize

    found = []
    for app in SOURCES[:-1]:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
            for tok in tokens:
                prefix = tok.string[:2].lower()
                if (
                    tok.type == tokenize.STRING
                    and ("f" in prefix)
                    and re.search(r"\{[^}]*\b_\(", tok.string)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}")
    assert found == []
