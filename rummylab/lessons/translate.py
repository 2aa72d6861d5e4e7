"""Lessons in other languages, built from the English notebook and a catalog (the "lessons" domain,
each string's context the lesson's name): the text cells paragraph by paragraph at build time;
the exercises' words (``exercise``'s prompt, hint, explanation and mistakes, ``say``'s texts) in
the kernel, from the same catalog, so the code is stated once, in the English lesson.

    rummylab lessons catalog notebooks            # the lessons' strings into every language's catalog
    rummylab lessons translate notebooks --lang hi   # notebooks/hi/*.ipynb, built
"""

from __future__ import annotations

import ast
import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import catalogs, check_language, gettext, pgettext, using
from ..page_template import PAGE_WORDS

DOMAIN = "lessons"
CALLS = {"exercise": ("prompt", "hint", "explain", "mistakes"), "say": ("text",), "respond": ("button",),
         "words": ()}
"""The calls in a lesson's code whose literal texts are the lesson's words, and which arguments
(``exercise``'s prompt may be given second, ``say``'s text first, ``words`` takes every argument)."""
_POSITIONAL = {"exercise": {1: "prompt"}, "say": {0: "text"}}
_FENCE = re.compile(r"^```")


@dataclass(frozen=True)
class Message:
    """One string of a lesson to translate: its context (the lesson's name) and its English text."""

    lesson: str
    text: str
    where: str
    """Where it is: "cell 3" (a text cell) or "exercise can_knock, hint"."""


def paragraphs(markdown: str) -> list[str]:
    """A text cell's paragraphs (blank lines between them; a code fence stays whole)."""
    out: list[str] = []
    block: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if _FENCE.match(line.strip()):
            fenced = not fenced
        if not line.strip() and not fenced:
            if block:
                out.append("\n".join(block))
                block = []
            continue
        block.append(line)
    if block:
        out.append("\n".join(block))
    return out


def _literals(node: ast.AST) -> Iterator[str]:
    """The plain string literals of an argument: itself, a dict's values, a lambda's body."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        yield node.value
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from _literals(value)
    elif isinstance(node, ast.Lambda):
        yield from _literals(node.body)


SKILL = "skill"
"""The context of a skill's name (``exercise(skill=…)``): one name for every lesson that practises it;
the store keeps the English name, pages show it translated."""


def code_messages(source: str) -> Iterator[tuple[str, str]]:
    """(text, where) of each literal text a cell's code gives ``exercise``, ``say`` or ``respond``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics and the like: no lesson words there
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in CALLS:
            continue
        label = ast.literal_eval(node.args[0]) if name == "exercise" and node.args and isinstance(
            node.args[0], ast.Constant) else name
        for i, arg in enumerate(node.args):
            if (part := "text" if name == "words" else _POSITIONAL.get(name, {}).get(i)) is not None:
                for text in _literals(arg):
                    yield text, f"{name} {label}, {part}"
        for kw in node.keywords:
            if kw.arg in CALLS[name]:
                for text in _literals(kw.value):
                    yield text, f"{name} {label}, {kw.arg}"
            elif name == "exercise" and kw.arg == SKILL:
                for text in _literals(kw.value):
                    yield text, SKILL


def messages(notebook: Path) -> list[Message]:
    """Every string of a lesson to translate, in the order it shows, each once."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    lesson, seen, out = notebook.stem, set[tuple[str, str]](), []
    for i, cell in enumerate(nb["cells"], 1):
        source = "".join(cell["source"])
        found = ([(p, f"cell {i}") for p in paragraphs(source)] if cell["cell_type"] == "markdown"
                 else list(code_messages(source)) if cell["cell_type"] == "code" else [])
        for text, where in found:
            context = SKILL if where == SKILL else lesson
            if (context, text) not in seen:
                seen.add((context, text))
                out.append(Message(context, text, where))
    return out


def catalog_template(folder: Path) -> Any:
    """A Babel catalog of every lesson's strings in ``folder`` (context: the lesson's name)."""
    from babel.messages.catalog import Catalog

    out = Catalog(project="rummylab lessons", domain=DOMAIN, fuzzy=False)
    for nb in sorted(folder.glob("[0-9]*.ipynb")):
        for m in messages(nb):
            out.add(m.text, context=m.lesson, auto_comments=[m.where])
    return out


def lesson_languages() -> list[str]:
    """The languages (not English) with a catalog of the lessons: shipped, or in ``RUMMYLAB_LOCALES``."""
    from ..i18n import languages

    return [code for code in languages() if code != catalogs.SOURCE
            and any((base / code / "LC_MESSAGES" / f"{DOMAIN}.po").is_file() for base in catalogs.catalog_dirs())]


def catalog_root(folder: Path) -> Path:
    """Where a folder's lesson catalogs live: the package's for the shipped lessons, else the
    folder's own ``locale`` (``rummylab serve`` and ``lessons translate`` find it there)."""
    from .files import PACKAGE

    shipped = {(PACKAGE / "notebooks").resolve(), (PACKAGE.parent / "notebooks").resolve()}
    return catalogs.LOCALE_DIR if folder.resolve() in shipped else folder / "locale"


def update_catalogs(folder: Path) -> list[Path]:
    """The lessons' strings of ``folder`` into their template and every language's catalog; the files
    written (the catalogs are read again)."""
    from ..i18n.build import update

    written = update(catalog_template(folder), DOMAIN, catalog_root(folder))
    catalogs.reload()
    return written


def untranslated(notebook: Path, lang: str) -> list[Message]:
    """The lesson's strings ``lang``'s catalogs do not translate (shown in English there)."""
    lang = check_language(lang)
    if lang in (catalogs.SOURCE, catalogs.PSEUDO):
        return []
    return [m for m in messages(notebook) if not catalogs.translated(lang, m.lesson, m.text) and _words(m.text)]


def _words(text: str) -> bool:
    """Whether ``text`` has words to translate (not only cards, numbers, code or markup)."""
    return bool(re.search(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`|<[^>]*>|\$[^$]*\$|\bhttps?://\S+", "", text)))


def translate_notebook(notebook: Path, lang: str) -> dict[str, Any]:
    """The lesson in ``lang``: each text paragraph from the catalog (English where it has none), the
    code as it is after a first cell that sets the kernel's language (``language_cell``), the language
    in the notebook's metadata (``rummylab.lang``) with how many of its
    strings are still English (``rummylab.untranslated``)."""
    lang = check_language(lang)
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    out = copy.deepcopy(nb)
    lesson = notebook.stem
    with using(lang):
        for cell in out["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = "\n\n".join(pgettext(lesson, p) for p in paragraphs("".join(cell["source"])))
            lines = text.split("\n")
            cell["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
    out["cells"].insert(0, language_cell(lang))
    meta = out.setdefault("metadata", {}).setdefault("rummylab", {})
    meta["lang"] = lang
    meta["untranslated"] = len(untranslated(notebook, lang))
    with using(lang):  # the page's own words (its banners), which its template reads
        meta["page"] = {word: gettext(word) for word in PAGE_WORDS}
    return out


LANGUAGE_TAG = "rummylab-language"


def language_cell(lang: str) -> dict[str, Any]:
    """The one cell a built lesson adds before the English one's: its kernel speaks ``lang`` (opened
    in JupyterLab as well as served)."""
    return {"cell_type": "code", "execution_count": None, "id": "rummylab-language", "outputs": [],
            "metadata": {"tags": [LANGUAGE_TAG], "jupyter": {"source_hidden": True}},
            "source": [f"import rummylab.i18n\nrummylab.i18n.set_language({lang!r});  # this lesson's language"]}


def translate_folder(folder: Path, lang: str, out: Path | None = None) -> list[Path]:
    """Every lesson of ``folder`` built in ``lang`` into ``out`` (default: ``folder``/LANG); the files
    written (the English lessons are their source: edit those, never these)."""
    lang = check_language(lang)
    target = out if out is not None else folder / lang
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for nb in sorted(folder.glob("[0-9]*.ipynb")):
        path = target / nb.name
        text = json.dumps(translate_notebook(nb, lang), ensure_ascii=False, indent=1) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    for stale in set(target.glob("[0-9]*.ipynb")) - set(written):  # built here once, its English lesson gone
        if _built_in(stale) == lang:
            stale.unlink()
    return written


def _built_in(path: Path) -> str | None:
    """The language a lesson was built in (``translate_notebook``), None for any other notebook."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("rummylab", {})
    except (OSError, ValueError):
        return None
    return meta.get("lang") if isinstance(meta, dict) else None
