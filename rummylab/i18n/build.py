"""The library's catalogs kept with Babel: its strings extracted into rummylab/locale/rummylab.pot,
each language's .po brought up to date from it, what a language lacks, and the .mo compiled.

    python -m rummylab.i18n.build            # extract, update every .po, compile
    python -m rummylab.i18n.build --check    # exit 1 when the template or a catalog is behind
"""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .catalogs import LOCALE_DIR
from .compile import compile_catalogs

PACKAGE = LOCALE_DIR.parent
KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "NP_": ((1, "c"), 2)}
"""The calls whose strings are extracted (Babel's keyword specs: ``pgettext`` and ``NP_`` take a context)."""
TEMPLATE = LOCALE_DIR / "rummylab.pot"


def extract(domain: str = "rummylab") -> BabelCatalog:
    """Every string the library marks, from its Python source (no line numbers: a template that
    changes only when a string does)."""
    out = BabelCatalog(project="rummylab", domain=domain, fuzzy=False)
    for filename, _lineno, message, comments, context in extract_from_dir(
            PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        if "locale" in Path(filename).parts:
            continue
        out.add(message, locations=(), auto_comments=comments, context=context)
    return out


def _dump(catalog: BabelCatalog) -> bytes:
    """A catalog's file: the library's sorted, a lesson's strings in the order they show."""
    buf = io.BytesIO()
    write_po(buf, catalog, omit_header=False, sort_output=catalog.domain == "rummylab", no_location=True, width=100)
    return buf.getvalue()


def _same(a: bytes, b: bytes) -> bool:
    """Two catalogs' files alike but for their dates."""
    dated = re.compile(rb'^"(POT-Creation|PO-Revision)-Date: .*$', re.M)
    return dated.sub(b"", a) == dated.sub(b"", b)


def _keys(catalog: BabelCatalog) -> set[tuple[str, str | None]]:
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}


def languages(root: Path = LOCALE_DIR) -> list[str]:
    """The languages with a catalog under ``root`` (the shipped ones: those of the library)."""
    shipped = {d.name for d in LOCALE_DIR.iterdir() if (d / "LC_MESSAGES" / "rummylab.po").is_file()}
    if root == LOCALE_DIR:
        return sorted(shipped)
    return sorted(shipped | {d.name for d in root.glob("*") if (d / "LC_MESSAGES").is_dir()})


def read(path: Path) -> BabelCatalog:
    with path.open("rb") as f:
        return read_po(f, locale=path.parent.parent.name if path.suffix == ".po" else None)


def missing(lang: str, domain: str = "rummylab", template: BabelCatalog | None = None) -> list[str]:
    """The template's strings that ``lang``'s catalog does not translate (or marks fuzzy)."""
    template = template if template is not None else extract(domain)
    have = read(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")
    out = []
    for m in template:
        if not m.id:
            continue
        got = have.get(m.id, context=m.context)
        strings = got.string if got is not None else None
        done = got is not None and not got.fuzzy and (all(strings) if isinstance(strings, tuple) else bool(strings))
        if not done:
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def update(template: BabelCatalog, domain: str = "rummylab", root: Path = LOCALE_DIR) -> list[Path]:
    """Write the domain's template and merge it into each language's catalog under ``root`` (Babel's
    update: new strings come in untranslated, gone ones go); the files written."""
    written = []
    root.mkdir(parents=True, exist_ok=True)
    pot = root / f"{domain}.pot"
    if not pot.exists() or not _same(pot.read_bytes(), _dump(template)):
        pot.write_bytes(_dump(template))
        written.append(pot)
    for lang in languages(root):
        po = root / lang / "LC_MESSAGES" / f"{domain}.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            catalog = read(po)
        else:
            catalog = BabelCatalog(locale=lang, domain=domain, project=template.project, fuzzy=False)
        before = _dump(catalog) if po.exists() else b""
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        if not _same(_dump(catalog), before):
            po.write_bytes(_dump(catalog))
            written.append(po)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="change nothing: exit 1 when a catalog is behind")
    args = p.parse_args(argv)
    template = extract()
    if args.check:
        behind = [] if TEMPLATE.exists() and _keys(read(TEMPLATE)) == _keys(template) else [str(TEMPLATE)]
        for lang in languages():
            if gaps := missing(lang, template=template):
                behind.append(f"{lang}: {len(gaps)} untranslated, e.g. {gaps[0]!r}")
        print("\n".join(behind) or "every catalog is up to date")
        return 1 if behind else 0
    for path in update(template):
        print("wrote", path.relative_to(PACKAGE.parent))
    for lang in languages():
        if gaps := missing(lang, template=template):
            print(f"{lang}: {len(gaps)} to translate")
    compile_catalogs(LOCALE_DIR)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
