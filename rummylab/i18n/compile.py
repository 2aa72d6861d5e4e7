"""Each gettext catalog (.po) compiled to its .mo, with Babel: the build runs this (setup.py loads
it by path, before rummylab can be imported), and so does ``python -m rummylab.i18n.build``."""

from __future__ import annotations

from pathlib import Path


def compile_catalogs(locale_dir: Path) -> list[Path]:
    """Every LANG/LC_MESSAGES/DOMAIN.po under ``locale_dir`` written as its .mo (fuzzy entries left
    out); the .mo files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        out.append(mo)
    return out
