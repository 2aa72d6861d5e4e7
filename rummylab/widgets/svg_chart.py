"""A chart widget drawn as SVG in the kernel: the browser shows it with no charting JavaScript."""

from __future__ import annotations

from typing import Any

import ipywidgets as w


def to_svg(chart: Any) -> str:
    """The chart drawn as an SVG document, offline: a ``charts.Figure`` draws itself in Python;
    an Altair chart is drawn by vl-convert."""
    if hasattr(chart, "to_svg"):
        return str(chart.to_svg())
    import altair as alt
    import vl_convert as vlc

    version = "_".join(alt.SCHEMA_VERSION.split(".")[:2])  # e.g. v5_20
    return str(vlc.vegalite_to_svg(chart.to_dict(), vl_version=version))


class SvgChart(w.HTML):  # type: ignore[misc]
    """A chart (``charts.figure``, or Altair's) as an SVG picture; set ``.chart`` to redraw."""

    def __init__(self, chart: Any) -> None:
        super().__init__()
        self.add_class("rl-svg-chart")
        self.chart = chart

    @property
    def chart(self) -> Any:
        return self._chart

    @chart.setter
    def chart(self, chart: Any) -> None:
        self._chart = chart
        self.value = to_svg(chart)
