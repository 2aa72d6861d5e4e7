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
from rummylab.widgets import HandAnalyzer
charts.enable_offline()
assert alt.renderers.active == "svg"
rummy = HandAnalyzer("AS 2S 3S 7H 7D 7C 9C TC JC KD QH")
first = rummy.chart.value
assert rummy.chart.__class__.__name__ == "SvgChart" and first.startswith("<svg") and ">QH<" in first, first[:200]
rummy.toggle("QH"); rummy.toggle("KC")
assert ">KC<" in rummy.chart.value and ">QH<" not in rummy.chart.value
bundle = charts.deadwood_histogram(charts.dealt_deadwood(200, 1))._repr_mimebundle_()
assert "image/svg+xml" in (bundle[0] if isinstance(bundle, tuple) else bundle)
print("ok")
"""


def test_a_class_server_draws_charts_as_svg_in_the_kernel() -> None:
    """Under RUMMYLAB_CHARTS=svg (set by `rummylab serve`) the analyzer's chart and every chart
    output are SVG: the lesson page loads no Vega."""
    env = {**os.environ, "RUMMYLAB_CHARTS": "svg"}
    r = subprocess.run([sys.executable, "-c", SVG], env=env, capture_output=True, text=True, check=False)
    assert r.stdout.strip() == "ok", r.stderr[-2000:]
