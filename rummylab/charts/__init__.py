"""The lessons' charts, rendered offline (no CDN: classrooms often have no internet).

Each chart is a Vega-Lite spec with its data inline (``figure``): in JupyterLab an interactive
Altair chart; in a class's kernels (``RUMMYLAB_CHARTS=svg``, set by ``rummylab serve``) a
``Figure`` drawn as SVG by ``charts.svg`` in Python, so those kernels import neither Altair nor
vl-convert (100 MB and more a kernel). Altair charts a lesson makes itself still render offline
(``enable_offline``): as SVG drawn by vl-convert in a class's kernels."""

from __future__ import annotations

import copy
import importlib.abc
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..cards import Card, SeedLike, random_hands
from ..i18n import _

if TYPE_CHECKING:
    import polars as pl

_OFFLINE = ""
"""The renderer enabled (``svg`` or ``jupyter``); empty before the first call."""

CHARTS_ENV = "RUMMYLAB_CHARTS"
"""Set to ``svg`` (the class server does) to draw every chart as SVG in the kernel: the students'
browsers then load no charting JavaScript (Vega, 1.5 MB, which a crowded laptop feels), and the
kernels no chart engine (the charts here are drawn in Python, ``charts.svg``)."""


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


ALTAIR_TESTED = ("5", "6")
"""The Altair major versions whose private ``JupyterChart._esm`` and ``_is_offline`` ``_offline_bundle``
reads and sets (pyproject pins ``altair>=5.4,<7``: a test holds the two together)."""


def _offline_bundle(alt: Any) -> None:
    """JupyterChart's offline JavaScript: bundling it takes vl-convert about 2 s, so the bundle
    is kept on disk (per Altair and vl-convert version) and every later kernel loads it at once,
    which counts when a class starts 30 kernels."""
    import vl_convert as vlc

    chart = alt.JupyterChart
    if str(alt.__version__).split(".")[0] not in ALTAIR_TESTED or not hasattr(chart, "_esm"):
        chart.enable_offline()  # an Altair not tested: its public call alone, no cache of its private bundle
        return
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


class Figure:
    """A chart drawn as SVG in the kernel from its Vega-Lite spec (a class's kernels): what
    ``figure`` gives under ``RUMMYLAB_CHARTS=svg``. ``a | b`` puts two side by side."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    def to_dict(self) -> dict[str, Any]:
        """The Vega-Lite spec (a copy)."""
        return copy.deepcopy(self.spec)

    def to_svg(self) -> str:
        """The chart as an SVG document (``charts.svg``)."""
        from .svg import to_svg

        return to_svg(self.spec)

    def __or__(self, other: Any) -> Figure:
        return Figure({"hconcat": [*_panels(self.spec), *_panels(other.to_dict())]})

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.to_svg()}


def _panels(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec["hconcat"]) if "hconcat" in spec else [spec]


def figure(spec: dict[str, Any]) -> Any:
    """The chart of a Vega-Lite ``spec`` (its data inline): an Altair chart, interactive in
    JupyterLab, or a ``Figure`` drawn in Python in a class's kernels (``RUMMYLAB_CHARTS=svg``),
    which then import no Altair."""
    if svg_charts():
        return Figure(spec)
    import altair as alt

    kind = alt.HConcatChart if "hconcat" in spec else alt.LayerChart if "layer" in spec else alt.Chart
    return kind.from_dict(spec)


TYPES = {"Q": "quantitative", "O": "ordinal", "N": "nominal"}


def channel(field: str, kind: str = "Q", **props: Any) -> dict[str, Any]:
    """A Vega-Lite field channel: ``channel("share", "Q", title="share of hands")``; ``kind`` is
    Q (quantitative), O (ordinal) or N (nominal)."""
    return {"field": field, "type": TYPES[kind], **props}


def _title(field: str, title: str | None) -> str:
    return title if title is not None else field.replace("_", " ")


def live(chart: Any) -> Any:
    """An updatable chart widget (set ``.chart`` to redraw), rendered offline."""
    enable_offline()
    if svg_charts():
        from ..widgets.svg_chart import SvgChart

        return SvgChart(chart)
    import altair as alt

    return alt.JupyterChart(chart)


def line_chart(data: Any, x: str, y: str, *, color: str | None = None, title: str,
               x_title: str | None = None, y_title: str | None = None, color_title: str | None = None,
               width: int = 420, height: int = 220) -> Any:
    """A line with points of ``y`` by ``x`` (in order: rounds, hands, deals), one line per value
    of ``color``; axis titles default to the column's name in words."""
    from .svg import rows

    columns = [x, y] + ([color] if color else [])
    encoding = {"x": channel(x, "O", title=_title(x, x_title)), "y": channel(y, "Q", title=_title(y, y_title))}
    if color:
        encoding["color"] = channel(color, "N", title=_title(color, color_title))
    return figure({"title": title, "width": width, "height": height, "data": {"values": rows(data, columns)},
                   "mark": {"type": "line", "point": True}, "encoding": encoding})


def count_chart(data: Any, x: str, *, title: str, x_title: str | None = None, y_title: str | None = None,
                width: int = 420, height: int = 220) -> Any:
    """Bars of how many rows have each value of ``x`` (ascending)."""
    from collections import Counter

    from .svg import rows

    y_title = _("count") if y_title is None else y_title

    counts = Counter(r[x] for r in rows(data, [x]))
    values = [{x: v, "count": n} for v, n in sorted(counts.items())]
    return figure({"title": title, "width": width, "height": height, "data": {"values": values},
                   "mark": "bar", "encoding": {"x": channel(x, "O", title=_title(x, x_title)),
                                               "y": channel("count", "Q", title=y_title)}})


def dealt_deadwood(n: int, seed: SeedLike, size: int = 10) -> pl.DataFrame:
    """Seeded Monte Carlo of dealt gin deadwood: (deadwood, hands, share)."""
    import numpy as np
    import polars as pl

    from ..gin import deadwood_batch

    dw = deadwood_batch(random_hands(n, size, seed))
    counts = np.bincount(dw, minlength=1)
    df = pl.DataFrame({"deadwood": np.arange(counts.size), "hands": counts})
    return df.filter(pl.col("hands") > 0).with_columns(share=pl.col("hands") / n)


def deadwood_histogram(df: Any, *, title: str | None = None) -> Any:
    """Bars of hands by deadwood (columns deadwood, hands, share), with the knock limit marked."""
    from .svg import rows

    title = _("Deadwood of a dealt hand") if title is None else title
    deadwood, share = _("deadwood"), _("share of hands")
    bars = {"mark": "bar", "encoding": {
        "x": channel("deadwood", title=deadwood, bin={"step": 1}),
        "y": channel("share", title=share, axis={"format": "%"}),
        "tooltip": [channel("deadwood", title=deadwood), channel("hands", title=_("hands")),
                    channel("share", title=share, format=".2%")]}}
    rule = {"data": {"values": [{"limit": 10.5}]}, "mark": {"type": "rule", "color": "firebrick", "strokeDash": [4, 3]},
            "encoding": {"x": channel("limit")}}
    return figure({"title": title, "width": 420, "height": 220,
                   "data": {"values": rows(df, ["deadwood", "hands", "share"])}, "layer": [bars, rule]})


def discard_frame(after_discard: Iterable[tuple[Card, int]]) -> pl.DataFrame:
    """(card, deadwood) after each possible discard."""
    import polars as pl

    pairs = list(after_discard)
    return pl.DataFrame({"card": [str(c) for c, _dw in pairs], "deadwood": [dw for _c, dw in pairs]},
                        schema={"card": pl.Utf8, "deadwood": pl.Int64})


def discard_chart(df: Any) -> Any:
    """Deadwood after each possible discard (columns card, deadwood); the best discards highlighted."""
    from .svg import rows

    values = rows(df, ["card", "deadwood"])
    best = min((r["deadwood"] for r in values), default=0)
    for r in values:
        r["best"] = r["deadwood"] == best
    x = channel("card", "N", sort=None, title=_("discard"))
    y = channel("deadwood", title=_("deadwood after the discard"))
    bars = {"mark": "bar", "encoding": {
        "x": x, "y": y, "tooltip": [channel("card", "N", title=_("discard")), channel("deadwood", title=_("deadwood"))],
        "color": channel("best", "N", scale={"domain": [True, False], "range": ["#2e7d32", "#9e9e9e"]},
                         legend={"title": _("best discard")})}}
    labels = {"mark": {"type": "text", "dy": -6, "fontSize": 11},
              "encoding": {"x": x, "y": y, "text": channel("deadwood")}}
    return figure({"title": _("Deadwood after each discard"), "width": 380, "height": 200, "data": {"values": values},
                   "layer": [bars, labels]})


def score_progress(df: Any) -> Any:
    """Running scores by hand: a frame with columns hand, player, score."""
    return line_chart(df, "hand", "score", color="player", title=_("Score progress"), width=380, height=200,
                      x_title=_("hand"), y_title=_("score"), color_title=_("player"))


def running_scores(hands: Any, names: Sequence[str], game: int = 0) -> Any:
    """Each player's score after every hand of one game of a simulation's hands (``simulate``'s
    frame): columns hand (from 1), player, score; a hand a player did not win keeps the score."""
    import polars as pl

    one = hands.filter(pl.col("game") == game).sort("hand")
    return pl.concat([one.select(hand=pl.col("hand") + 1, player=pl.lit(name),
                                 score=pl.when(pl.col("winner") == seat).then(pl.col("points")).otherwise(0).cum_sum())
                      for seat, name in enumerate(names)])


def convergence(sizes: Iterable[int], seed: int, *, statistic: str = "P(knock possible)") -> pl.DataFrame:
    """Monte Carlo estimates of a dealt-gin statistic at growing sample sizes, with 2-SE bands."""
    import polars as pl

    from ..odds import gin_dealt

    rows = []
    for n in sizes:
        est = gin_dealt(int(n), seed, chunks=4).filter(pl.col("statistic") == statistic)
        value, se = float(est["estimate"][0]), float(est["se"][0])
        rows.append({"hands": int(n), "estimate": value, "low": value - 2 * se, "high": value + 2 * se})
    return pl.DataFrame(rows)


def convergence_chart(df: Any, exact: float, *, title: str | None = None, x_title: str | None = None,
                      y_title: str | None = None, log: bool = True, zero: bool = True,
                      exact_color: str = "firebrick") -> Any:
    """Estimates (columns hands, estimate, low, high) with their bars against the sample size (a
    log scale, or each size in its place when not ``log``), the exact value as a line; ``zero``:
    the estimate's axis starts at 0."""
    from .svg import rows

    title = _("Monte Carlo converges to the exact value") if title is None else title
    x_title = _("hands sampled") if x_title is None else x_title
    y_title = _("estimate") if y_title is None else y_title

    x = channel("hands", title=x_title, scale={"type": "log"}) if log else channel("hands", "O", title=x_title)
    y_scale: dict[str, Any] = {} if zero else {"scale": {"zero": False}}
    band = {"mark": "errorbar", "encoding": {"x": x, "y": channel("low", title=y_title, **y_scale),
                                             "y2": {"field": "high"}}}
    points = {"mark": {"type": "point", "filled": True}, "encoding": {
        "x": x, "y": channel("estimate", title=y_title, **y_scale),
        "tooltip": [channel("hands", title=x_title), channel("estimate", title=y_title, format=".3%")]}}
    line = {"data": {"values": [{"exact": float(exact)}]}, "mark": {"type": "rule", "color": exact_color},
            "encoding": {"y": channel("exact", title=y_title, **y_scale)}}
    return figure({"title": title, "width": 420, "height": 220,
                   "data": {"values": rows(df, ["hands", "estimate", "low", "high"])}, "layer": [band, points, line]})
