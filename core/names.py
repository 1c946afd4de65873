"""Names of the codes a person sees: the translation of a domain word is data, not gettext."""

from __future__ import annotations

from typing import NamedTuple


class Name(NamedTuple):
    """A code's name in Chinese and in English (清一色 / Pure one suit)."""

    zh: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}
