"""Offline charts: the JupyterChart bundle is made once and kept on disk for later kernels; a class
server's kernels draw charts as SVG instead."""

from __future__ import annotations

import os
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
import altair as alt
from rummylab import charts, gin
charts.enable_offline()
assert alt.renderers.active == "svg"
b = gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH")
chart = charts.live(charts.discard_chart(charts.discard_frame(b.after_discard)))
first = chart.value
assert chart.__class__.__name__ == "SvgChart" and first.startswith("<svg") and ">QH<" in first, first[:200]
b = gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD KC")
chart.chart = charts.discard_chart(charts.discard_frame(b.after_discard))
assert ">KC<" in chart.value and ">QH<" not in chart.value
bundle = charts.deadwood_histogram(charts.dealt_deadwood(200, 1))._repr_mimebundle_()
assert "image/svg+xml" in (bundle[0] if isinstance(bundle, tuple) else bundle)
print("ok")
"""


def test_a_class_server_draws_charts_as_svg_in_the_kernel() -> None:
    """Under RUMMYLAB_CHARTS=svg (set by `rummylab serve`) every chart output and live chart is
    SVG: the lesson page loads no Vega."""
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
