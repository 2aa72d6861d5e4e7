"""Languages: every word a student or teacher reads comes from a gettext catalog (English is the
source), chosen per kernel (``RUMMYLAB_LANG``), per server request (``using``) or in code
(``set_language``).

    >>> from rummylab import i18n
    >>> with i18n.using("ro"):
    ...     i18n.gettext("Check")
    'Verifică'

The catalogs are rummylab/locale/LANG/LC_MESSAGES/DOMAIN.po (Babel extracts and checks them;
the build compiles each to a .mo). ``PSEUDO`` is a made-up language that marks every translated
string, so a test can find the text that does not come from a catalog.
"""

from __future__ import annotations

import contextvars
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from .catalogs import DOMAINS, LOCALE_DIR, PSEUDO, SOURCE, Catalog, catalog, known_languages

__all__ = ["DOMAINS", "LANG_ENV", "LOCALE_DIR", "PSEUDO", "SOURCE", "Catalog", "catalog", "gettext",
           "html_lang", "language", "languages", "local_digits", "ngettext", "pgettext", "set_language",
           "typed_forms", "using", "N_", "NP_", "_"]

LANG_ENV = "RUMMYLAB_LANG"
"""The language of a kernel or a command (``en``, ``hi``, ``ro``…): set by ``rummylab serve --lang``."""

_CURRENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("rummylab_language", default=None)


def languages() -> tuple[str, ...]:
    """The languages there are catalogs for, English first (the pseudo-language is not listed)."""
    return known_languages()


def check_language(lang: object) -> str:
    """``lang`` as a language code there is a catalog for; ValueError names it and those there are."""
    code = str(lang).strip().replace("_", "-") if isinstance(lang, str) else lang
    if isinstance(code, str):
        code = code.split("-")[0].lower() if code.lower() != PSEUDO else PSEUDO
    if not isinstance(code, str) or (code not in languages() and code != PSEUDO):
        raise ValueError(f"language {lang!r}: there are catalogs for {', '.join(languages())}")
    return code


def language() -> str:
    """The language in use here: ``using``'s, else ``set_language``'s, else ``RUMMYLAB_LANG``'s, else English.
    An unknown ``RUMMYLAB_LANG`` falls back to English (a kernel must start)."""
    chosen = _CURRENT.get()
    if chosen is not None:
        return chosen
    return _from_environment(os.environ.get(LANG_ENV) or SOURCE)


@lru_cache(maxsize=16)
def _from_environment(value: str) -> str:
    """``RUMMYLAB_LANG``'s value as a language, English when there is no catalog for it (every string
    shown asks: checked once a value)."""
    try:
        return check_language(value)
    except ValueError:
        return SOURCE


def set_language(lang: str) -> str:
    """Use ``lang`` from now on in this kernel or process (its ``RUMMYLAB_LANG``: a notebook's next
    cell may run in a context of its own); returns its code."""
    code = check_language(lang)
    os.environ[LANG_ENV] = code
    _CURRENT.set(code)
    return code


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Use ``lang`` (None: the language in use) inside the block: a server answers each request in
    its own language."""
    code = check_language(lang) if lang is not None else language()
    token = _CURRENT.set(code)
    try:
        yield code
    finally:
        _CURRENT.reset(token)


def gettext(message: str) -> str:
    """``message`` in the language in use."""
    return catalog(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` things in the language in use (its plural rule)."""
    return catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context`` ("card rank", "lesson 08"…), in the language in use."""
    return catalog(language()).pgettext(context, message)


_ = gettext


def html_lang() -> str:
    """The language in use as a page's ``lang`` attribute (the pseudo-language's pages are English)."""
    code = language()
    return SOURCE if code == PSEUDO else code


def typed_forms(context: str, key: str) -> list[str]:
    """The forms a student may type for ``key`` in the language in use: the catalog's "|" list
    (contexts "typed rank", "typed suit", "typed word"), the first the one shown."""
    return [f.strip() for f in pgettext(context, key).split("|") if f.strip()]


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is defined; it is translated where it is shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` in ``context`` for the catalog; it is translated (``pgettext``) where shown."""
    return message


_NUMBER = re.compile(r"^[-+−]?[\d,]*\.?\d+\s*%?$")


def local_digits(text: str) -> str:
    """A number written the English way ("15,820,024.5", "36.6%") as the language in use writes its
    separators (Romanian "15.820.024,5", "36,6%"); any other text as it is."""
    lang = language()
    if lang in (SOURCE, PSEUDO) or not _NUMBER.match(text.strip()):
        return text
    from babel import UnknownLocaleError
    from babel.numbers import get_decimal_symbol, get_group_symbol

    try:
        swap = {",": get_group_symbol(lang), ".": get_decimal_symbol(lang)}
    except (ValueError, LookupError, UnknownLocaleError):  # a language Babel does not know: as English
        return text
    return "".join(swap.get(ch, ch) for ch in text)
