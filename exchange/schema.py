"""The export file's JSON Schema (``exchange/schema/club-export-v1.json``) and checking a
document against it: every violation as a problem with its path into the file."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from core.errors import ErrorItem, problem
from exchange.paths import path_of

SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "club-export-v1.json"
#: the longest message a schema problem keeps (jsonschema repeats the offending value in it)
MESSAGE_LENGTH = 200


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    Draft202012Validator.check_schema(schema())
    return Draft202012Validator(schema())


def _message(text: str) -> str:
    return text if len(text) <= MESSAGE_LENGTH else text[: MESSAGE_LENGTH - 1] + "…"


def _file_order(error) -> list[tuple[int, int, str]]:
    return [(0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in error.absolute_path]


def schema_problems(document: Any) -> list[ErrorItem]:
    """Where ``document`` breaks the schema, in file order: ``sessions[3].hands[2].number``,
    code ``schema_<keyword>`` (``schema_required``, ``schema_type`` …)."""
    errors = sorted(validator().iter_errors(document), key=_file_order)
    return [
        problem(path_of(e.absolute_path), f"schema_{e.validator}", _message(e.message))
        for e in errors
    ]
