"""Offline charts: the JupyterChart bundle is made once and kept on disk for later kernels."""

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
    for _ in range(2):  # the first process bundles and writes, the second reads
        r = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=False)
        assert r.stdout.strip() == "ok", r.stderr[-2000:]
    (bundle,) = (tmp_path / "rummylab").glob("jupyterchart-*.js")
    assert bundle.stat().st_size > 100_000
