"""The progress package's words in the language in use: ``rummylab.i18n``'s, or, where the package is
loaded alone (a student's kernel sends her checks with it and nothing else of rummylab), English as
written."""

from __future__ import annotations

try:
    from ..i18n import NP_ as NP_
    from ..i18n import PSEUDO as PSEUDO
    from ..i18n import _ as _
    from ..i18n import html_lang as html_lang
    from ..i18n import language as language
    from ..i18n import ngettext as ngettext
    from ..i18n import pgettext as pgettext
except ImportError:  # the progress package alone: English, as written
    PSEUDO = "qps"

    def _(message: str) -> str:
        return message

    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(context: str, message: str) -> str:
        return message

    def NP_(context: str, message: str) -> str:
        return message

    def language() -> str:
        return "en"

    def html_lang() -> str:
        return "en"

__all__ = ["NP_", "PSEUDO", "_", "html_lang", "language", "ngettext", "pgettext"]
