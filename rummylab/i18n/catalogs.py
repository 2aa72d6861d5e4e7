"""The gettext catalogs: found in rummylab/locale (and the folders of ``LOCALES_ENV``), read from
their compiled .mo, or from the .po itself where it is newer (a catalog edited in a checkout is
used at once), with Babel; one ``Catalog`` per language merges every domain."""

from __future__ import annotations

import io
import os
import re
from functools import cache
from pathlib import Path
from typing import Protocol

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""The shipped catalogs: LOCALE_DIR/LANG/LC_MESSAGES/DOMAIN.po, and the template DOMAIN.pot."""
LOCALES_ENV = "RUMMYLAB_LOCALES"
"""More catalog folders (``os.pathsep`` between them), laid out as LOCALE_DIR: a teacher's own
language, or her own lessons' strings. Their entries win over the shipped ones."""
DOMAINS = ("rummylab", "lessons")
"""rummylab: what the library says (widgets, feedback, pages, commands); lessons: the lessons' text."""
SOURCE = "en"
"""The language the strings are written in."""
PSEUDO = "qps"
"""A made-up language (as Windows' qps-ploc) that writes every catalog string ⟦thus⟧: a page shown in
it has no bare English where a string comes from a catalog."""


class Catalog(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def pgettext(self, context: str, message: str) -> str: ...


def catalog_dirs() -> list[Path]:
    """Where catalogs are looked for, the strongest first."""
    extra = [Path(p) for p in os.environ.get(LOCALES_ENV, "").split(os.pathsep) if p.strip()]
    return [*extra, LOCALE_DIR]


@cache
def known_languages() -> tuple[str, ...]:
    """English, then every language with a catalog of the library (``rummylab.po``), sorted (read
    once a process: ``reload``)."""
    found = {d.name for base in catalog_dirs() if base.is_dir() for d in base.iterdir()
             if (d / "LC_MESSAGES" / "rummylab.po").is_file() or (d / "LC_MESSAGES" / "rummylab.mo").is_file()}
    return (SOURCE, *sorted(found - {SOURCE}))


def _read(po: Path) -> object:
    """The gettext translations of one catalog: its .mo when that is as new as the .po, else the .po
    compiled in memory (Babel)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    mo = po.with_suffix(".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, domain=po.stem)
    with po.open("rb") as f:
        messages = read_po(f, locale=po.parent.parent.name, domain=po.stem)
    buf = io.BytesIO()
    write_mo(buf, messages, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=po.stem)


_FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def fields(text: str) -> set[str]:
    """The ``{fields}`` a template fills (``{{`` and ``}}`` are braces, not fields)."""
    return set(_FIELD.findall(text.replace("{{", "").replace("}}", "")))


def _mistranslated(part: object, origin: Path) -> None:
    """Take out of a catalog (``part``'s messages) every translation whose ``{fields}`` are not its
    English text's: shown, it would raise in ``format`` (a teacher's catalog is checked as it is
    read; the shipped ones by tests/test_i18n.py). Each is said once on stderr, for the teacher."""
    import sys

    messages = part._catalog  # type: ignore[attr-defined]
    for key, text in list(messages.items()):
        if not isinstance(key, str) or not key or not isinstance(text, str):
            continue  # a plural's forms, or the header
        english = key.split("\x04", 1)[-1]
        if fields(text) != fields(english):
            del messages[key]
            print(f"rummylab: {origin}: the translation of {english!r} has fields {sorted(fields(text))}, not "
                  f"{sorted(fields(english))}: left out (another catalog's, or the English, is shown)",
                  file=sys.__stderr__, flush=True)


class _Merged:
    """Every domain's catalog for one language, the first that has a string giving it. It reads each
    catalog's messages (Babel's ``Translations._catalog``, gettext's own dict: the range pinned in
    pyproject.toml) to fall through to the next catalog, and to leave out a mistranslation, where
    gettext's fallback chain would answer with the English at the first catalog that lacks a string."""

    def __init__(self, lang: str) -> None:
        from babel.support import NullTranslations

        self.lang = lang
        self.parts: list[NullTranslations] = []
        for base in catalog_dirs():
            for domain in DOMAINS:
                po = base / lang / "LC_MESSAGES" / f"{domain}.po"
                if po.is_file() or po.with_suffix(".mo").is_file():
                    part = _read(po)
                    _mistranslated(part, po)
                    self.parts.append(part)  # type: ignore[arg-type]

    def _find(self, key: str) -> str | None:
        for part in self.parts:
            text = part._catalog.get(key)  # type: ignore[attr-defined]
            if text:
                return str(text)
        return None

    def gettext(self, message: str) -> str:
        return self._find(message) or message

    def pgettext(self, context: str, message: str) -> str:
        return self._find(f"{context}\x04{message}") or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        for part in self.parts:
            if (singular, 0) in part._catalog:  # type: ignore[attr-defined]
                text: str = part.ngettext(singular, plural, n)
                return text
        return singular if n == 1 else plural


class _Source:
    """English: the strings as written."""

    def gettext(self, message: str) -> str:
        return message

    def pgettext(self, context: str, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


_ACCENTS = str.maketrans("aceinorsuyACEINORSUY", "àçéîñöŕšüýÀÇÉÎÑÖŔŠÜÝ")
_KEEP = re.compile(r"(\{[^{}]*\}|%\(\w+\)[sd]|%[sd]|<[^>]*>|&\w+;|`[^`]*`|\]\([^)]*\)|https?://\S+)")
"""Placeholders, markup, `code and cards` and links, kept as they are in the pseudo-language."""


_MARKDOWN_LEAD = re.compile(r"^\s*(#+\s+|[-*]\s+|\d+\.\s+|\|\s*)")
"""A markdown heading's, list item's or table's first marks: kept before the pseudo-language's bracket."""


def pseudo(message: str) -> str:
    """``message`` in the pseudo-language: accented and bracketed, placeholders and tags kept."""
    lead = _MARKDOWN_LEAD.match(message)
    head, body = (message[:lead.end()], message[lead.end():]) if lead else ("", message)
    parts = _KEEP.split(body)
    return head + "⟦" + "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts)) + "⟧"


class _Pseudo:
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)


@cache
def catalog(lang: str) -> Catalog:
    """The merged catalog of ``lang`` (English and the pseudo-language need none), read once a
    process (``reload`` reads the catalogs again)."""
    if lang == SOURCE:
        return _Source()
    if lang == PSEUDO:
        return _Pseudo()
    return _Merged(lang)


def translated(lang: str, context: str | None, message: str) -> bool:
    """Whether ``lang``'s catalogs give ``message`` (in ``context``) a translation (one may read as
    the English does: "gin", a name)."""
    found = catalog(lang)
    if not isinstance(found, _Merged):
        return True  # English, and the pseudo-language, need none
    return found._find(message if context is None else f"{context}\x04{message}") is not None


def reload() -> None:
    """Read every catalog again (after one was edited or added)."""
    catalog.cache_clear()
    known_languages.cache_clear()
