"""Altair charts from polars frames, rendered offline (no CDN: classrooms often have no internet)."""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .cards import Card, SeedLike, random_hands

if TYPE_CHECKING:
    import polars as pl

_OFFLINE = ""
"""The renderer enabled (``svg`` or ``jupyter``); empty before the first call."""

CHARTS_ENV = "RUMMYLAB_CHARTS"
"""Set to ``svg`` (the class server does) to draw every chart as SVG in the kernel: the students'
browsers then load no charting JavaScript (Vega, 1.5 MB, which a crowded laptop feels)."""


def svg_charts() -> bool:
    """Whether charts are drawn as SVG in the kernel (``RUMMYLAB_CHARTS=svg``)."""
    return os.environ.get(CHARTS_ENV, "").strip().lower() == "svg"


def enable_offline() -> None:
    """Render every Altair chart offline: from JavaScript bundled with vl-convert, or as SVG
    drawn by vl-convert when ``RUMMYLAB_CHARTS=svg``; a later call follows a changed setting.
    Before Altair is imported this costs nothing: it takes effect when a lesson first imports it
    (Altair and polars are 50 MB a kernel, and a lesson without charts needs neither)."""
    if "altair" in sys.modules:
        _enable(sys.modules["altair"])
    elif not any(isinstance(f, _EnableOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _EnableOnImport())


class _EnableOnImport(importlib.abc.MetaPathFinder):
    """Turns the offline renderer on right after Altair is first imported. (Looking Altair up is
    not importing it: polars looks for it at import, so the finder stays until the module runs.)"""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if name != "altair":
            return None
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target) if finder is not self and hasattr(finder, "find_spec") \
                else None
            if spec is not None:
                break
        loader = spec.loader if spec is not None else None
        if loader is not None and hasattr(loader, "exec_module"):
            run = loader.exec_module

            def exec_then_enable(module: ModuleType) -> None:
                run(module)
                if self in sys.meta_path:
                    sys.meta_path.remove(self)
                _enable(module)

            loader.exec_module = exec_then_enable  # type: ignore[method-assign]
        return spec


def _enable(alt: Any) -> None:
    global _OFFLINE
    mode = "svg" if svg_charts() else "jupyter"
    if mode == _OFFLINE:
        return
    if mode == "svg":
        alt.renderers.enable("svg")  # vl-convert starts with the first chart (80 MB more per kernel)
    else:
        _offline_bundle(alt)
        alt.renderers.enable("jupyter", offline=True)
    _OFFLINE = mode


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rummylab"


def _offline_bundle(alt: Any) -> None:
    """JupyterChart's offline JavaScript: bundling it takes vl-convert about 2 s, so the bundle
    is kept on disk (per Altair and vl-convert version) and every later kernel loads it at once,
    which counts when a class starts 30 kernels."""
    import vl_convert as vlc

    chart = alt.JupyterChart
    path = _cache_dir() / f"jupyterchart-{alt.__version__}-{getattr(vlc, '__version__', '0')}.js"
    if getattr(chart, "_is_offline", False):
        return
    try:
        if path.is_file() and hasattr(chart, "_esm"):
            chart._esm = path.read_text(encoding="utf-8")
            chart._is_offline = True
            return
    except OSError:
        pass
    chart.enable_offline()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(str(chart._esm), encoding="utf-8")
        tmp.replace(path)  # atomic: a kernel never reads half a bundle
    except (OSError, AttributeError):
        pass  # no cache (a read-only home, say): every kernel bundles again


def live(chart: Any) -> Any:
    """An updatable chart widget (set ``.chart`` to redraw), rendered offline."""
    import altair as alt

    enable_offline()
    if svg_charts():
        from .widgets.svg_chart import SvgChart

        return SvgChart(chart)
    return alt.JupyterChart(chart)


def dealt_deadwood(n: int, seed: SeedLike, size: int = 10) -> pl.DataFrame:
    """Seeded Monte Carlo of dealt gin deadwood: (deadwood, hands, share)."""
    import numpy as np
    import polars as pl

    from .gin import deadwood_batch

    dw = deadwood_batch(random_hands(n, size, seed))
    counts = np.bincount(dw, minlength=1)
    df = pl.DataFrame({"deadwood": np.arange(counts.size), "hands": counts})
    return df.filter(pl.col("hands") > 0).with_columns(share=pl.col("hands") / n)


def deadwood_histogram(df: pl.DataFrame, *, title: str = "Deadwood of a dealt hand") -> Any:
    """Bars of hands by deadwood, with the knock limit marked."""
    import altair as alt
    import polars as pl

    bars = alt.Chart(df).mark_bar().encode(
        x=alt.X("deadwood:Q", title="deadwood", bin=alt.Bin(step=1)),
        y=alt.Y("share:Q", title="share of hands", axis=alt.Axis(format="%")),
        tooltip=["deadwood", "hands", alt.Tooltip("share:Q", format=".2%")],
    )
    rule = alt.Chart(pl.DataFrame({"limit": [10.5]})).mark_rule(color="firebrick", strokeDash=[4, 3]).encode(
        x="limit:Q")
    return (bars + rule).properties(title=title, width=420, height=220)


def discard_frame(after_discard: Iterable[tuple[Card, int]]) -> pl.DataFrame:
    """(card, deadwood) after each possible discard."""
    import polars as pl

    pairs = list(after_discard)
    return pl.DataFrame({"card": [str(c) for c, _ in pairs], "deadwood": [dw for _, dw in pairs]},
                        schema={"card": pl.Utf8, "deadwood": pl.Int64})


def discard_chart(df: pl.DataFrame) -> Any:
    """Deadwood after each possible discard; the best discards highlighted."""
    import altair as alt
    import polars as pl

    best = int(df["deadwood"].min() or 0) if df.height else 0  # type: ignore[arg-type]
    base = alt.Chart(df.with_columns(best=pl.col("deadwood") == best)).encode(
        x=alt.X("card:N", sort=None, title="discard"),
        y=alt.Y("deadwood:Q", title="deadwood after the discard"),
        tooltip=["card:N", "deadwood:Q"],
    )
    bars = base.mark_bar().encode(
        color=alt.Color("best:N", scale=alt.Scale(domain=[True, False], range=["#2e7d32", "#9e9e9e"]),
                        legend=alt.Legend(title="best discard")))
    labels = base.mark_text(dy=-6, fontSize=11).encode(text="deadwood:Q")
    return (bars + labels).properties(title="Deadwood after each discard", width=380, height=200)


def score_progress(df: pl.DataFrame) -> Any:
    """Running scores by hand: a frame with columns hand, player, score."""
    import altair as alt

    return alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("hand:O", title="hand"), y=alt.Y("score:Q", title="score"), color="player:N",
    ).properties(title="Score progress", width=380, height=200)


def convergence(sizes: Iterable[int], seed: int, *, statistic: str = "P(knock possible)") -> pl.DataFrame:
    """Monte Carlo estimates of a dealt-gin statistic at growing sample sizes, with 2-SE bands."""
    import polars as pl

    from .odds import gin_dealt

    rows = []
    for n in sizes:
        est = gin_dealt(int(n), seed, chunks=4).filter(pl.col("statistic") == statistic)
        value, se = float(est["estimate"][0]), float(est["se"][0])
        rows.append({"hands": int(n), "estimate": value, "low": value - 2 * se, "high": value + 2 * se})
    return pl.DataFrame(rows)


def convergence_chart(df: pl.DataFrame, exact: float, *,
                      title: str = "Monte Carlo converges to the exact value") -> Any:
    """Estimates with ±2 SE bars against the sample size (log scale), the exact value as a line."""
    import altair as alt
    import polars as pl

    x = alt.X("hands:Q", scale=alt.Scale(type="log"), title="hands sampled")
    band = alt.Chart(df).mark_errorbar().encode(x=x, y=alt.Y("low:Q", title="estimate"), y2="high:Q")
    points = alt.Chart(df).mark_point(filled=True).encode(x=x, y="estimate:Q", tooltip=["hands", "estimate"])
    line = alt.Chart(pl.DataFrame({"exact": [exact]})).mark_rule(color="firebrick").encode(y="exact:Q")
    return (band + points + line).properties(title=title, width=420, height=220)
