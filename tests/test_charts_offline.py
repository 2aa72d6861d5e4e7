"""Offline charts: the JupyterChart bundle is made once and kept on disk for later kernels; a class
server's kernels draw charts as SVG instead."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.once

CODE = ("from rummylab import charts; charts.enable_offline(); import altair as alt; "
        "assert alt.JupyterChart._is_offline and len(alt.JupyterChart._esm) > 100_000; print('ok')")


def test_the_offline_bundle_is_cached_for_the_next_kernel(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("RUMMYLAB_CHARTS", None)
    for _ in range(2):  # the first process bundles and writes, the second reads
        r = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=False)
        assert r.stdout.strip() == "ok", r.stderr[-2000:]
    (bundle,) = (tmp_path / "rummylab").glob("jupyterchart-*.js")
    assert bundle.stat().st_size > 100_000


SVG = """
import sys
from rummylab import charts, gin
charts.enable_offline()
b = gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH")
chart = charts.live(charts.discard_chart(charts.discard_frame(b.after_discard)))
first = chart.value
assert chart.__class__.__name__ == "SvgChart" and first.startswith("<svg") and ">QH<" in first, first[:200]
b = gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD KC")
chart.chart = charts.discard_chart(charts.discard_frame(b.after_discard))
assert ">KC<" in chart.value and ">QH<" not in chart.value
bundle = charts.deadwood_histogram(charts.dealt_deadwood(200, 1))._repr_mimebundle_()
assert "image/svg+xml" in (bundle[0] if isinstance(bundle, tuple) else bundle)
assert not {"altair", "vl_convert"} & set(sys.modules), "drawn in Python, with no chart engine"
import altair as alt  # a chart a teacher writes in Altair: SVG too, drawn by vl-convert
assert alt.renderers.active == "svg"
print("ok")
"""


def test_a_class_server_draws_charts_as_svg_in_the_kernel() -> None:
    """Under RUMMYLAB_CHARTS=svg (set by `rummylab serve`) every chart output and live chart is
    SVG: the lesson page loads no Vega, and rummylab's charts load no chart engine in the kernel;
    an Altair chart of the lesson's own is SVG as well."""
    env = {**os.environ, "RUMMYLAB_CHARTS": "svg"}
    r = subprocess.run([sys.executable, "-c", SVG], env=env, capture_output=True, text=True, check=False)
    assert r.stdout.strip() == "ok", r.stderr[-2000:]


def test_the_analyzers_discard_chart_is_svg_bars_with_the_best_discards_in_green() -> None:
    from rummylab import gin
    from rummylab.widgets import HandAnalyzer
    from rummylab.widgets.discard_bars import BEST, OTHER

    rummy = HandAnalyzer("AS 2S 3S 7H 7D 7C 9C TC JC KD QH")
    svg = rummy.discard_chart
    after = dict(gin.best_discards(rummy.cards).after_discard)
    assert svg.startswith("<svg") and svg.count("<rect") == 1 + len(after)  # the legend and a bar a card
    for card, deadwood in after.items():
        colour = BEST if deadwood == min(after.values()) else OTHER
        assert f'fill="{colour}"><title>discard {card}: deadwood {deadwood}</title>' in svg
    rummy.toggle("QH")  # ten cards: no discard chart
    assert rummy.discard_chart == "" and "rl-draws" in rummy.extras.value


LIGHT = """
import sys
import rummylab as rl
from rummylab import charts, gin, lessons, widgets
charts.enable_offline()
rummy = widgets.HandAnalyzer("AS 2S 3S 7H 7D 7C 9C TC JC KD", seed=1)
rummy.deal(11)
lessons.exercise("deck", "How many cards?", answer=52)
print(sorted(m for m in ("polars", "altair", "dask", "vl_convert") if m in sys.modules))
import polars  # polars looks Altair up (without importing it) when it is imported
import altair as alt  # a chart, later: enable_offline took effect on Altair's first import
print(alt.renderers.active)
"""


def test_a_lesson_without_charts_loads_neither_polars_nor_altair() -> None:
    """A class kernel holds only what its lesson uses: lesson 00's analyzer, odds and exercise need
    no polars or Altair (50 MB a kernel); charts.enable_offline() still applies once Altair comes."""
    env = {**os.environ, "RUMMYLAB_CHARTS": "svg"}
    r = subprocess.run([sys.executable, "-c", LIGHT], env=env, capture_output=True, text=True, check=False)
    assert r.stdout.split("\n")[:2] == ["[]", "svg"], (r.stdout, r.stderr[-2000:])


LESSONS = """
import json, sys
import nbformat
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
charted = {}
for path in sys.argv[1:]:
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        run = shell.run_cell(cell.source)
        if not run.success:
            raise SystemExit(f"{path}: {cell.source[:80]!r}: {run.error_before_exec or run.error_in_exec!r}")
        if run.result is not None:
            shown, _ = shell.display_formatter.format(run.result)
            charted[path[:2]] = charted.get(path[:2], 0) + ("image/svg+xml" in shown)
print(json.dumps({"charts": charted, "engines": sorted(m for m in ("altair", "vl_convert") if m in sys.modules)}))
"""
CHART_LESSONS = {"02": 1, "06": 1, "07": 1, "08": 1, "09": 2, "10": 2, "11": 6}


def test_every_lessons_charts_are_drawn_in_a_class_kernel_without_a_chart_engine(tmp_path: Path) -> None:
    """Every packaged lesson, run as a class's kernel runs it (RUMMYLAB_CHARTS=svg, app mode;
    a small sample), shows its charts as SVG and never imports Altair or vl-convert: a warm
    kernel with them held 220-330 MB, without them at most 190 (benchmarks/kernel_memory.py)."""
    notebooks = Path(__file__).resolve().parent.parent / "notebooks"
    env = {**os.environ, "RUMMYLAB_CHARTS": "svg", "RUMMYLAB_APP": "1", "RUMMYLAB_N": "60", "RUMMYLAB_SEED": "3",
           "RUMMYLAB_DB": str(tmp_path / "progress.sqlite")}
    lessons = sorted(p.name for p in notebooks.glob("*.ipynb"))
    r = subprocess.run([sys.executable, "-c", LESSONS, *lessons], env=env, cwd=notebooks, capture_output=True,
                       text=True, check=False)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    found = json.loads(r.stdout.strip().splitlines()[-1])
    assert found["engines"] == []
    assert {k: v for k, v in found["charts"].items() if v} == CHART_LESSONS


def test_a_chart_drawn_in_python_reads_like_the_altair_one() -> None:
    """The SVG drawn in Python has the chart's title, axis titles, tick labels in the axis's format
    and a legend; what it cannot draw it refuses rather than draws wrong."""
    from rummylab.charts import Figure, channel, svg

    spec = {"title": "Deadwood of a dealt hand", "width": 300, "height": 200,
            "data": {"values": [{"deadwood": 5, "share": 0.25, "who": "a"}, {"deadwood": 9, "share": 0.5, "who": "b"}]},
            "layer": [{"mark": "bar", "encoding": {"x": channel("deadwood", title="deadwood", bin={"step": 1}),
                                                  "y": channel("share", title="share of hands", axis={"format": "%"}),
                                                  "color": channel("who", "N", title="player")}}]}
    drawn = Figure(spec)._repr_mimebundle_()["image/svg+xml"]
    texts = re.findall(r"<text\b[^>]*>(.*?)</text>", drawn)
    assert {"Deadwood of a dealt hand", "deadwood", "share of hands", "player", "a", "b", "0%", "50%"} <= set(texts)
    assert drawn.count("<rect") == 1 + 2 + 2  # the background, two bars, two legend swatches
    with pytest.raises(svg.Unsupported):
        svg.to_svg({**spec, "layer": [{"mark": "boxplot", "encoding": {}}]})
    with pytest.raises(svg.Unsupported):
        svg.to_svg({**spec, "transform": [{"filter": "datum.share > 0"}]})
