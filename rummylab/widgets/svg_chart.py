"""A chart widget drawn as SVG in the kernel: the browser shows it with no charting JavaScript."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..charts import to_svg


class SvgChart(w.HTML):  # type: ignore[misc]
    """An Altair chart as an SVG picture; set ``.chart`` to redraw."""

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
