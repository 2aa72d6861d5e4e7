"""``rummylab lessons new``: a short lesson to start from (a text, a live widget, one exercise)."""

from __future__ import annotations

import re
from pathlib import Path

SETUP = """import rummylab as rl
from rummylab import gin, lessons, widgets
from rummylab.lessons import check, exercise
SEED, N = lessons.seed(), lessons.sample_size(20_000)"""

DEFINE = '''HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
exercise(
    "{name}_deadwood",
    f"What is the deadwood of {{HAND}}?",
    answer=lambda: gin.deadwood(HAND),  # computed by rummylab: never a typo in the key
    hint="Find the melds first; only the cards left over count.",
    mistakes={{13: "A king counts 10, not 13: J, Q and K are worth 10 each."}},
    explain="A-2-3 of spades, three sevens and 9-10-J of clubs meld; only KD is left, worth 10.",
)'''

CHECK = '''answer = ...  # your answer here
check("{name}_deadwood", answer)'''


def new_lesson(path: Path | str, title: str | None = None) -> Path:
    """Write a lesson to start from at ``path`` (a new ``.ipynb``); ValueError if it exists."""
    import nbformat

    path = Path(path)
    if path.suffix != ".ipynb":
        raise ValueError(f"{path}: a lesson is a notebook, its name ends in .ipynb")
    if path.exists():
        raise ValueError(f"{path} exists already: choose another name")
    if not path.parent.is_dir():
        raise ValueError(f"{path.parent}: no such folder")
    words = re.sub(r"^\d+[-_ ]*", "", path.stem)  # "12-my-lesson" -> "my-lesson"
    name = re.sub(r"\W+", "_", words).strip("_").lower() or "my"
    title = title or words.replace("-", " ").replace("_", " ").capitalize() or "My lesson"
    v4 = nbformat.v4
    cells = [
        v4.new_markdown_cell(f"# {title}\n\nA short text for your class: what today's lesson is about. Students "
                             "see this text, the widgets and the results; in a served class they never see code."),
        v4.new_code_cell(SETUP),
        v4.new_code_cell("lessons.name_box()  # your name, once: your checked answers then count for your teacher",
                         metadata={"tags": ["name"]}),
        v4.new_markdown_cell("**Try it.** Click cards to change the hand: melds light up, deadwood is counted."),
        v4.new_code_cell('analyzer = rl.widgets.HandAnalyzer("AS 2S 3S 7H 7D 7C 9C TC JC KD", seed=SEED)\nanalyzer',
                         metadata={"tags": ["widget"]}),
        v4.new_code_cell(DEFINE.format(name=name),
                         metadata={"tags": ["exercise-definition"], "jupyter": {"source_hidden": True}}),
        v4.new_code_cell(CHECK.format(name=name), metadata={"tags": ["exercise"]}),
    ]
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}})
    nbformat.write(nb, path)
    return path
