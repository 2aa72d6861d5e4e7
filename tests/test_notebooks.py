"""Every lesson executes top to bottom (nbclient), and its key outputs are right."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))

KEY_OUTPUTS = {
    ("00-start-here", "key-deadwood"): "10",
    ("02-melds-and-deadwood", "key-deadwood"): "10",
    ("03-knocking-and-layoffs", "key-points"): "51",
    ("04-gin-big-gin-and-undercut", "key-big-gin"): "True",
    ("05-three-handed-gin-in-the-box", "key-roles"): "Roles(box='P2', captain='P3', sitting_out='P1', dealer='P2')",
}
KEY_OUTPUTS[("07-three-thirteen", "key-penalty")] = "12"
KEY_OUTPUTS[("08-pure-sequence", "key-pure")] = "('pure', 'impure')"
KEY_OUTPUTS[("08-pure-sequence", "key-exact")] = "0.3659927369240069"
KEY_OUTPUTS[("09-indian-rummy-scoring", "key-cap")] = "80"
KEY_CONTAINS = {
    ("10-hand-odds", "key-summary"): "'gin_hands': 136694",
}


def test_there_are_lessons() -> None:
    assert len(NOTEBOOKS) >= 9


def text_of(cell: nbformat.NotebookNode) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out["text"])
        elif "data" in out and "text/plain" in out["data"]:
            parts.append(out["data"]["text/plain"])
    return "".join(parts).strip()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_runs_and_key_outputs_are_right(path: Path, tmp_path: Path) -> None:
    work = tmp_path / path.name
    shutil.copy(path, work)  # never write into the repo
    nb = nbformat.read(work, as_version=4)
    env = {"RUMMYLAB_N": os.environ.get("RUMMYLAB_N", "2000"), "RUMMYLAB_SEED": "2026"}
    os.environ.update(env)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, errors[0]["evalue"] if errors else ""
    tags = {t: c for c in nb.cells for t in c.get("metadata", {}).get("tags", [])}
    for (stem, tag), expected in KEY_OUTPUTS.items():
        if stem == path.stem:
            assert text_of(tags[tag]) == expected
    for (stem, tag), expected in KEY_CONTAINS.items():
        if stem == path.stem:
            assert expected in text_of(tags[tag])
    for cell in nb.cells:
        if "exercise" in cell.get("metadata", {}).get("tags", []):
            assert "Right" in text_of(cell), text_of(cell)
    widgets = [c for c in nb.cells if "widget" in c.get("metadata", {}).get("tags", [])]
    assert widgets, "every lesson has a live widget"
    for cell in widgets:
        assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in cell.outputs)
