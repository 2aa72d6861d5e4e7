"""Scales and labels for ``charts.svg``: a spec's layers, their continuous and banded axes (domains,
ticks, zero and log scales), and values and ticks as a chart labels them (Vega's ``d3-format``
subset the lessons use)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CHAR = 6.3
"""About the width of a character at 11 px sans-serif: enough to leave room for labels."""


class Unsupported(ValueError):
    """A spec asks for more of Vega-Lite than ``charts.svg`` draws."""


Row = Mapping[str, Any]


@dataclass
class Layer:
    """One layer of a spec: its mark, its encoding and the rows it draws."""

    mark: dict[str, Any]
    encoding: dict[str, Any]
    rows: list[Row]

    @property
    def kind(self) -> str:
        return str(self.mark["type"])

    def field(self, channel: str) -> str | None:
        spec = self.encoding.get(channel)
        return spec.get("field") if isinstance(spec, dict) else None


def _number(v: Any) -> float | None:
    """A value as a position on a continuous scale; None for none, NaN or a value not a number."""
    if isinstance(v, bool) or not isinstance(v, int | float) or v != v or math.isinf(v):
        return None
    return float(v)


# --- scales ---------------------------------------------------------------------------------------


class _Axis:
    """A position scale with its axis: x (left to right) or y (bottom to top, bands top down)."""

    channel: str
    size: float
    title: str
    labels: list[tuple[float, str]]

    def __call__(self, value: Any) -> float | None:
        raise NotImplementedError

    def label_width(self) -> float:
        return max((len(s) * CHAR for _, s in self.labels), default=0)

    def overhang(self) -> float:
        """How far the last x label reaches past the plot."""
        if not self.labels:
            return 0
        at, s = self.labels[-1]
        return max(0.0, at + len(s) * CHAR / 2 - self.size)


class _Continuous(_Axis):
    def __init__(self, channel: str, size: float, lo: float, hi: float, *, log: bool, fmt: str | None,
                 title: str) -> None:
        self.channel, self.size, self.log, self.title = channel, size, log, title
        count = max(2, round(size / 40))
        if log:
            lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
            hi = hi * 10 if hi <= lo else hi
            ticks = [10.0 ** k for k in range(round(math.log10(lo)), round(math.log10(hi)) + 1)]
            if len(ticks) <= 3:
                ticks = sorted({t * m for t in ticks for m in (1, 2, 5) if t * m <= hi})
            step = None
        else:
            if hi == lo:
                lo, hi = (lo - 1, hi + 1) if lo else (0.0, 1.0)
            step = _step(hi - lo, count)
            lo, hi = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
            ticks = [lo + i * step for i in range(round((hi - lo) / step) + 1)]
        self.lo, self.hi = lo, hi
        self.labels = [(self._px(t), _tick_label(t, step, fmt)) for t in ticks]

    def _px(self, v: float) -> float:
        if self.log:
            at = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            at = (v - self.lo) / (self.hi - self.lo)
        return at * self.size if self.channel == "x" else (1 - at) * self.size

    def __call__(self, value: Any) -> float | None:
        v = _number(value)
        if v is None or (self.log and v <= 0):
            return None
        return self._px(v)

    def base(self) -> float:
        """Where bars start: at zero, or the scale's end nearest to it."""
        return self._px(min(max(0.0, self.lo), self.hi)) if not self.log else self._px(self.lo)


class _Band(_Axis):
    def __init__(self, channel: str, size: float, values: list[Any], title: str) -> None:
        self.channel, self.size, self.values, self.title = channel, size, values, title
        self.step = size / max(len(values), 1)
        self.bandwidth = self.step * 0.9
        self.index = {_key(v): i for i, v in enumerate(values)}
        self.labels = [(self.step * (i + 0.5), _label(v)) for i, v in enumerate(values)]

    def __call__(self, value: Any) -> float | None:
        i = self.index.get(_key(value))
        return None if i is None else self.step * (i + 0.5)


def _step(span: float, count: int) -> float:
    """A round tick step for ``count`` ticks over ``span`` (1, 2 or 5 times a power of ten, as d3)."""
    raw = span / count
    step = 10 ** math.floor(math.log10(raw))
    error = raw / step
    if error >= math.sqrt(50):
        step *= 10
    elif error >= math.sqrt(10):
        step *= 5
    elif error >= math.sqrt(2):
        step *= 2
    return step


def _position(layers: list[Layer], channel: str, size: float) -> _Axis | None:
    """The scale of ``channel`` (x or y), shared by the layers, with its ``channel2``."""
    defs = [(layer, d, c) for layer in layers for c in (channel, channel + "2")
            if isinstance(d := layer.encoding.get(c), dict) and "field" in d]
    if not defs:
        return None
    main = [d for _, d, c in defs if c == channel]
    kinds = {d.get("type", "quantitative") for d in main}
    titled = [d["title"] for d in main if "title" in d]
    title = (titled[0] or "") if titled else ", ".join(dict.fromkeys(str(d["field"]) for d in main))
    if kinds <= {"quantitative"}:
        values: list[float] = []
        bins = False
        for layer, d, _ in defs:
            step = (d.get("bin") or {}).get("step") if d.get("bin") else None
            if d.get("bin") and not step:
                raise Unsupported("a bin without a step")
            for row in layer.rows:
                v = _number(row.get(d["field"]))
                if v is not None:
                    values += [v, v + step] if step else [v]
            bins = bins or bool(step)
        scale = {k: v for d in main for k, v in (d.get("scale") or {}).items()}
        if set(scale) - {"type", "zero"} or scale.get("type", "linear") not in ("linear", "log"):
            raise Unsupported(f"scale {scale}")
        log = scale.get("type") == "log"
        if log:
            values = [v for v in values if v > 0]
        if not values:
            values = [1.0] if log else [0.0]
        if not log and not bins and scale.get("zero", True):
            values.append(0.0)
        fmts = [(d.get("axis") or {}).get("format") for d in main if d.get("axis")]
        if any(set(d.get("axis") or {}) - {"format"} for d in main):
            raise Unsupported("axis options other than format")
        return _Continuous(channel, size, min(values), max(values), log=log, fmt=fmts[0] if fmts else None,
                           title=title)
    if kinds <= {"ordinal", "nominal"}:
        return _Band(channel, size, _domain(layers, [(layer, d) for layer, d, _ in defs], main), title)
    raise Unsupported(f"{channel} mixes {sorted(kinds)}")


def _domain(layers: list[Layer], defs: Sequence[tuple[Layer, Mapping[str, Any]]],
            main: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The distinct values of a discrete field: ascending (as Vega-Lite sorts), in the data's order
    (``sort: None``), or in a given order."""
    seen: dict[Any, Any] = {}
    for layer, d in defs:
        for row in layer.rows:
            v = row.get(d["field"])
            if v is not None:
                seen.setdefault(_key(v), v)
    sorts = [d["sort"] for d in main if "sort" in d]
    order = sorts[0] if sorts else "ascending"
    if order is None:
        return list(seen.values())
    if isinstance(order, list):
        given = [v for v in order if _key(v) in seen]
        return given + [v for k, v in seen.items() if k not in {_key(g) for g in given}]
    if order not in ("ascending", "descending"):
        raise Unsupported(f"sort {order}")
    values = sorted(seen.values(), key=lambda v: (0, v, "") if _number(v) is not None else (1, 0, str(v)))
    return values[::-1] if order == "descending" else values


def _key(v: Any) -> Any:
    """A value as a dictionary key: 3 and 3.0 alike, True apart from 1."""
    return ("bool", v) if isinstance(v, bool) else v


# --- labels ---------------------------------------------------------------------------------------


_FORMAT = re.compile(r"^(,)?(?:\.(\d+))?([%fd])?$")


def _fmt(value: Any, fmt: str | None) -> str:
    """A value in a d3 format of the kinds the charts use (``%``, ``.2%``, ``d``, ``.1f``, ``,``)."""
    v = _number(value)
    if v is None or not fmt:
        return _label(value)
    m = _FORMAT.match(fmt)
    if not m:
        raise Unsupported(f"format {fmt!r}")
    comma, digits, kind = m.groups()
    sep = "," if comma or kind in (None, "d") else ""
    if kind == "%":
        return f"{v * 100:{sep}.{int(digits or 0)}f}%"
    if kind == "d":
        return f"{round(v):,}"
    return f"{v:{sep}.{int(digits) if digits else 0}f}" if kind == "f" or digits else _label(v)


def _tick_label(t: float, step: float | None, fmt: str | None) -> str:
    """A tick's label, with as many decimals as the ticks' step needs."""
    if fmt and fmt != "%" and fmt != "d":
        return _fmt(t, fmt)
    if step is None:  # log ticks: whole numbers, or as a number reads
        return _label(t)
    if fmt == "%":
        digits = max(0, -math.floor(math.log10(step * 100) + 1e-9))
        return f"{t * 100:.{digits}f}%"
    if fmt == "d":
        return f"{round(t):,}"
    digits = max(0, -math.floor(math.log10(step) + 1e-9))
    return f"{t:,.{digits}f}" if digits else f"{round(t):,}"


def _label(v: Any) -> str:
    """A value as a label: true/false as Vega writes them, whole numbers with commas, others in
    at most four significant digits."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float) and v == v and not math.isinf(v):
        if v == int(v) and abs(v) < 1e15:
            return f"{int(v):,}"
        return f"{v:,.4g}" if abs(v) < 1e4 else f"{v:,.0f}"
    return str(v)
