"""The lessons' charts drawn as SVG in Python, for a class's kernels (``RUMMYLAB_CHARTS=svg``).

Every chart of ``rummylab.charts`` and ``rummylab.questions`` is a Vega-Lite spec: JupyterLab
shows it as an interactive Altair chart, and a served lesson's kernel draws it here, from the
spec's data, with nothing imported. Why not a library: each one that draws SVG outside a browser
costs every kernel more than the memory this saves, and a class keeps one kernel per student.
Measured on this project's machine (RSS a kernel, 2026-11-27): vl-convert (Vega in a Deno
runtime) 80 MB and more, Altair with jsonschema and narwhals 28 MB, matplotlib 46 MB over numpy;
a lesson's warm kernel was to hold at most 100 MB, of which ipykernel and numpy take 70.

Only the part of Vega-Lite those charts use is drawn: marks bar, line, point, rule, text,
errorbar and area, layered or side by side (``hconcat``); x, y, x2, y2, color, text, tooltip and
yOffset encodings of quantitative, ordinal and nominal fields, with titles, ``%`` formats, log
or zero-less scales, a bin step, sort orders and colour scales. Anything else raises
``Unsupported``: a new chart that needs more is drawn here first, or fails its test, never
silently drawn wrong.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .scales import (  # the scales and labels: the module beside this one
    CHAR,
    Layer,
    Row,
    Unsupported,
    _Axis,
    _Band,
    _Continuous,
    _domain,
    _fmt,
    _key,
    _label,
    _number,
    _position,
)

PALETTE = ("#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d",
           "#bab0ac")
"""Vega's category colours (tableau10), in its order: the same colours as in JupyterLab."""
MARK_COLOUR = PALETTE[0]
INK, AXIS, GRID = "#222", "#888", "#e4e4e4"
FONT = 11
GAP = 24
"""Between charts side by side."""

TOP = {"$schema", "title", "width", "height", "data", "layer", "mark", "encoding"}
LAYER = {"data", "mark", "encoding"}
MARKS = {"bar", "line", "point", "rule", "text", "errorbar", "area"}
MARK_PROPS = {"type", "point", "filled", "size", "color", "strokeDash", "strokeWidth", "opacity", "dy", "fontSize"}
CHANNELS = {"x", "y", "x2", "y2", "color", "text", "tooltip", "yOffset"}
CHANNEL_PROPS = {"field", "type", "title", "axis", "scale", "bin", "sort", "legend", "value", "format"}
TYPES = {"quantitative", "ordinal", "nominal"}


def to_svg(spec: Mapping[str, Any]) -> str:
    """The chart of a Vega-Lite ``spec`` (the subset above) as an SVG document."""
    if "hconcat" in spec:
        extra = set(spec) - {"$schema", "hconcat"}
        if extra:
            raise Unsupported(f"hconcat with {sorted(extra)}")
        panels = [_panel(part) for part in spec["hconcat"]]
    else:
        panels = [_panel(spec)]
    width = sum(p.width for p in panels) + GAP * (len(panels) - 1)
    height = max(p.height for p in panels)
    label = " | ".join(p.title for p in panels if p.title) or "chart"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rl-chart-svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{_esc(label)}" '
           f'font-family="sans-serif" font-size="{FONT}">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
    x = 0.0
    for p in panels:
        out.append(f'<g transform="translate({x:.1f},0)">{p.body}</g>')
        x += p.width + GAP
    out.append("</svg>")
    return "".join(out)


@dataclass
class Panel:
    title: str
    width: float
    height: float
    body: str


def _panel(spec: Mapping[str, Any]) -> Panel:
    extra = set(spec) - TOP
    if extra:
        raise Unsupported(f"top-level {sorted(extra)}")
    layers = _layers(spec)
    title = spec.get("title") or ""
    if not isinstance(title, str):
        raise Unsupported("a title that is not text")
    pw, ph = float(spec.get("width", 300)), float(spec.get("height", 200))
    sx, sy = _position(layers, "x", pw), _position(layers, "y", ph)
    legend = _Legend.of(layers)
    left = 8 + (sy.label_width() + 8 if sy else 0) + (16 if sy and sy.title else 0)
    top = 28.0 if title else 10.0
    bottom = (22 + (16 if sx.title else 0)) if sx else 10
    right = max(legend.width if legend else 0, sx.overhang() if sx else 0, 10)
    body: list[str] = []
    plot = _Plot(left, top, pw, ph, sx, sy)
    body += plot.grid_and_axes()
    for layer in layers:
        body += plot.draw(layer, legend)
    if legend:
        body += legend.draw(left + pw + 16, top)
    if title:
        body.append(_text(left + pw / 2, 16, title, size=13, weight="bold"))
    height = top + ph + bottom
    if legend:
        height = max(height, top + legend.height)
    return Panel(title, left + pw + right, height, "".join(body))


def _layers(spec: Mapping[str, Any]) -> list[Layer]:
    data = _values(spec.get("data"))
    parts = spec.get("layer", [spec])
    if "layer" in spec and ("mark" in spec or "encoding" in spec):
        raise Unsupported("a layer spec with its own mark")
    out = []
    for part in parts:
        if part is not spec and set(part) - LAYER:
            raise Unsupported(f"layer keys {sorted(set(part) - LAYER)}")
        mark = part.get("mark")
        mark = dict(mark) if isinstance(mark, Mapping) else {"type": mark}
        if mark.get("type") not in MARKS or set(mark) - MARK_PROPS:
            raise Unsupported(f"mark {mark}")
        encoding = dict(part.get("encoding", {}))
        for channel, spec_ in encoding.items():
            defs = spec_ if channel == "tooltip" else [spec_]
            if channel not in CHANNELS or not isinstance(defs, list) or any(
                    not isinstance(d, Mapping) or set(d) - CHANNEL_PROPS or d.get("type", "nominal") not in TYPES
                    for d in defs):
                raise Unsupported(f"encoding {channel}: {spec_}")
        rows = _values(part["data"]) if "data" in part and part is not spec else data
        out.append(Layer(mark, encoding, rows))
    return out


def _values(data: Any) -> list[Row]:
    if data is None:
        return []
    if not isinstance(data, Mapping) or set(data) != {"values"}:
        raise Unsupported("data other than inline values")
    return list(data["values"])





def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _text(x: float, y: float, s: str, *, anchor: str = "middle", size: int | None = None, weight: str | None = None,
          rotate: bool = False, fill: str = INK) -> str:
    extra = (f' font-size="{size}"' if size else "") + (f' font-weight="{weight}"' if weight else "")
    if rotate:
        extra += f' transform="rotate(-90 {x:.1f} {y:.1f})"'
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{extra}>{_esc(s)}</text>'


# --- legend ---------------------------------------------------------------------------------------


class _Legend:
    """The colour scale of a nominal or ordinal field, and its legend at the right."""

    def __init__(self, title: str, values: list[Any], colours: list[str], shape: str, show: bool) -> None:
        self.title, self.values, self.shape, self.show = title, values, shape, show
        self.colour = {_key(v): colours[i % len(colours)] for i, v in enumerate(values)}
        labels = [_label(v) for v in values]
        self.width = (max([len(s) for s in labels] + [len(title)]) * CHAR + 34) if show else 0
        self.height = 20 + 16 * len(values) if show else 0

    @classmethod
    def of(cls, layers: list[Layer]) -> _Legend | None:
        defs = [(layer, d) for layer in layers if isinstance(d := layer.encoding.get("color"), dict) and "field" in d]
        if not defs:
            return None
        if any(d.get("type", "nominal") == "quantitative" for _, d in defs):
            raise Unsupported("a quantitative colour scale")
        main = [d for _, d in defs]
        scale = {k: v for d in main for k, v in (d.get("scale") or {}).items()}
        if set(scale) - {"domain", "range"}:
            raise Unsupported(f"colour scale {scale}")
        values = list(scale["domain"]) if "domain" in scale else _domain(layers, defs, main)
        legend: dict[str, Any] | None = next((d["legend"] for d in main if "legend" in d), {})
        if legend is not None and set(legend) - {"title"}:
            raise Unsupported(f"legend {legend}")
        title = (legend or {}).get("title") or next((d["title"] for d in main if d.get("title")), None) \
            or str(main[0]["field"])
        shape = "square" if any(layer.kind in ("bar", "area") for layer, _ in defs) else "circle"
        return cls(title, values, list(scale.get("range", PALETTE)), shape, legend is not None)

    def draw(self, x: float, y: float) -> list[str]:
        if not self.show:
            return []
        out = [_text(x, y + 8, self.title, anchor="start", weight="bold")]
        for i, v in enumerate(self.values):
            cy = y + 22 + 16 * i
            colour = self.colour[_key(v)]
            out.append(f'<rect x="{x:.1f}" y="{cy - 5:.1f}" width="10" height="10" fill="{colour}"/>'
                       if self.shape == "square" else
                       f'<circle cx="{x + 5:.1f}" cy="{cy:.1f}" r="5" fill="{colour}"/>')
            out.append(_text(x + 16, cy + 4, _label(v), anchor="start"))
        return out


# --- marks ----------------------------------------------------------------------------------------


class _Plot:
    def __init__(self, left: float, top: float, width: float, height: float, sx: _Axis | None,
                 sy: _Axis | None) -> None:
        self.left, self.top, self.width, self.height, self.sx, self.sy = left, top, width, height, sx, sy

    def grid_and_axes(self) -> list[str]:
        out = []
        L, T, W, H = self.left, self.top, self.width, self.height
        if isinstance(self.sx, _Continuous):
            out += [f'<line x1="{L + at:.1f}" y1="{T:.1f}" x2="{L + at:.1f}" y2="{T + H:.1f}" stroke="{GRID}"/>'
                    for at, _ in self.sx.labels]
        if isinstance(self.sy, _Continuous):
            out += [f'<line x1="{L:.1f}" y1="{T + at:.1f}" x2="{L + W:.1f}" y2="{T + at:.1f}" stroke="{GRID}"/>'
                    for at, _ in self.sy.labels]
        if self.sx:
            out.append(f'<line x1="{L:.1f}" y1="{T + H:.1f}" x2="{L + W:.1f}" y2="{T + H:.1f}" stroke="{AXIS}"/>')
            for at, s in self.sx.labels:
                out.append(f'<line x1="{L + at:.1f}" y1="{T + H:.1f}" x2="{L + at:.1f}" y2="{T + H + 5:.1f}" '
                           f'stroke="{AXIS}"/>')
                out.append(_text(L + at, T + H + 17, s))
            if self.sx.title:
                out.append(_text(L + W / 2, T + H + 34, self.sx.title, weight="bold"))
        if self.sy:
            out.append(f'<line x1="{L:.1f}" y1="{T:.1f}" x2="{L:.1f}" y2="{T + H:.1f}" stroke="{AXIS}"/>')
            for at, s in self.sy.labels:
                out.append(f'<line x1="{L - 5:.1f}" y1="{T + at:.1f}" x2="{L:.1f}" y2="{T + at:.1f}" stroke="{AXIS}"/>')
                out.append(_text(L - 8, T + at + 4, s, anchor="end"))
            if self.sy.title:
                x = L - self.sy.label_width() - 18
                out.append(_text(x, T + H / 2, self.sy.title, weight="bold", rotate=True))
        return out

    def _at(self, layer: Layer, channel: str, row: Row) -> float | None:
        """A row's position on ``channel`` in the page (None: it has none)."""
        axis = self.sx if channel.startswith("x") else self.sy
        field = layer.field(channel)
        if axis is None or field is None:
            return None
        at = axis(row.get(field))
        if at is None:
            return None
        offset = layer.field("yOffset")
        if channel == "y" and isinstance(axis, _Band) and offset:
            offsets = _domain([layer], [(layer, layer.encoding["yOffset"])], [layer.encoding["yOffset"]])
            sub = axis.bandwidth / max(len(offsets), 1)
            i = [_key(v) for v in offsets].index(_key(row.get(offset)))
            at += -axis.bandwidth / 2 + sub * (i + 0.5)
        return at + (self.left if channel.startswith("x") else self.top)

    def _colour(self, layer: Layer, row: Row | None, legend: _Legend | None) -> str:
        spec = layer.encoding.get("color")
        if isinstance(spec, dict) and "value" in spec:
            return str(spec["value"])
        if isinstance(spec, dict) and "field" in spec and legend is not None and row is not None:
            return legend.colour.get(_key(row.get(spec["field"])), AXIS)
        return str(layer.mark.get("color", MARK_COLOUR))

    def _groups(self, layer: Layer) -> dict[Any, list[Row]]:
        field = layer.field("color")
        groups: dict[Any, list[Row]] = {}
        for row in layer.rows:
            groups.setdefault(_key(row.get(field)) if field else None, []).append(row)
        return groups

    def draw(self, layer: Layer, legend: _Legend | None) -> list[str]:
        draw: dict[str, Callable[[Layer, _Legend | None], list[str]]] = {
            "bar": self._bars, "line": self._lines, "area": self._areas, "point": self._points,
            "rule": self._rules, "errorbar": self._rules, "text": self._texts}
        return draw[layer.kind](layer, legend)

    def _bars(self, layer: Layer, legend: _Legend | None) -> list[str]:
        out = []
        bin_step = (layer.encoding.get("x", {}).get("bin") or {}).get("step")
        for row in layer.rows:
            colour = self._colour(layer, row, legend)
            x, y = self._at(layer, "x", row), self._at(layer, "y", row)
            if x is None or y is None:
                continue
            if bin_step and isinstance(self.sx, _Continuous):
                x1 = self.sx((_number(row.get(layer.field("x") or "")) or 0) + bin_step)
                if x1 is None or not isinstance(self.sy, _Continuous):
                    continue
                base = self.top + self.sy.base()
                box = (x + 0.5, min(y, base), max(x1 + self.left - x - 1, 1), abs(base - y))
            elif isinstance(self.sx, _Band) and isinstance(self.sy, _Continuous):
                base = self.top + self.sy.base()
                box = (x - self.sx.bandwidth / 2, min(y, base), self.sx.bandwidth, abs(base - y))
            elif isinstance(self.sy, _Band) and isinstance(self.sx, _Continuous):
                base = self.left + self.sx.base()
                box = (min(x, base), y - self.sy.bandwidth / 2, abs(x - base), self.sy.bandwidth)
            else:
                raise Unsupported("bars need one band or binned axis and one continuous axis")
            out.append(f'<rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="{box[2]:.1f}" height="{box[3]:.1f}" '
                       f'fill="{colour}">{self._tooltip(layer, row)}</rect>')
        return out

    def _lines(self, layer: Layer, legend: _Legend | None) -> list[str]:
        out = []
        for rows in self._groups(layer).values():
            points = sorted(((x, y, row) for row in rows if (x := self._at(layer, "x", row)) is not None
                             and (y := self._at(layer, "y", row)) is not None), key=lambda p: p[0])
            if not points:
                continue
            colour = self._colour(layer, rows[0], legend)
            path = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y, _) in enumerate(points))
            out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
            if layer.mark.get("point"):
                out += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}">{self._tooltip(layer, row)}'
                        '</circle>' for x, y, row in points]
        return out

    def _areas(self, layer: Layer, legend: _Legend | None) -> list[str]:
        out = []
        for rows in self._groups(layer).values():
            points = sorted(((x, y, y2) for row in rows if (x := self._at(layer, "x", row)) is not None
                             and (y := self._at(layer, "y", row)) is not None
                             and (y2 := self._at(layer, "y2", row)) is not None), key=lambda p: p[0])
            if not points:
                continue
            path = " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y, _) in enumerate(points))
            path += " " + " ".join(f"L{x:.1f},{y2:.1f}" for x, _, y2 in reversed(points)) + " Z"
            out.append(f'<path d="{path}" fill="{self._colour(layer, rows[0], legend)}" '
                       f'fill-opacity="{layer.mark.get("opacity", 0.7)}" stroke="none"/>')
        return out

    def _points(self, layer: Layer, legend: _Legend | None) -> list[str]:
        out = []
        r = math.sqrt(float(layer.mark.get("size", 30)) / math.pi)
        for row in layer.rows:
            x, y = self._at(layer, "x", row), self._at(layer, "y", row)
            if x is None or y is None:
                continue
            colour = self._colour(layer, row, legend)
            paint = (f'fill="{colour}"' if layer.mark.get("filled")
                     else f'fill="none" stroke="{colour}" stroke-width="2"')
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}>{self._tooltip(layer, row)}</circle>')
        return out

    def _rules(self, layer: Layer, legend: _Legend | None) -> list[str]:
        """A rule across the plot at an x or a y, or from x to x2 (y to y2) at a row's y (x); an
        error bar is the latter."""
        out = []
        L, T, W, H = self.left, self.top, self.width, self.height
        has = {c for c in ("x", "x2", "y", "y2") if layer.field(c)}
        dash = layer.mark.get("strokeDash")
        style = (f' stroke-width="{layer.mark.get("strokeWidth", 1)}"'
                 + (f' stroke-dasharray="{" ".join(str(d) for d in dash)}"' if dash else ""))
        for row in layer.rows:
            found = {c: self._at(layer, c, row) for c in has}
            at = {c: v for c, v in found.items() if v is not None}
            if len(at) < len(found):
                continue
            if has == {"x"}:
                x1 = x2 = at["x"]
                y1, y2 = T, T + H
            elif has == {"y"}:
                y1 = y2 = at["y"]
                x1, x2 = L, L + W
            elif has == {"x", "x2", "y"}:
                x1, x2, y1, y2 = at["x"], at["x2"], at["y"], at["y"]
            elif has == {"y", "y2", "x"}:
                x1, x2, y1, y2 = at["x"], at["x"], at["y"], at["y2"]
            else:
                raise Unsupported(f"a rule on {sorted(has)}")
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                       f'stroke="{self._colour(layer, row, legend)}"{style}>{self._tooltip(layer, row)}</line>')
        return out

    def _texts(self, layer: Layer, legend: _Legend | None) -> list[str]:
        out = []
        spec = layer.encoding.get("text", {})
        dy, size = float(layer.mark.get("dy", 0)), layer.mark.get("fontSize")
        for row in layer.rows:
            x, y = self._at(layer, "x", row), self._at(layer, "y", row)
            if x is None or y is None or "field" not in spec:
                continue
            out.append(_text(x, y + dy, _fmt(row.get(spec["field"]), spec.get("format")), size=size))
        return out

    def _tooltip(self, layer: Layer, row: Row) -> str:
        defs = layer.encoding.get("tooltip") or []
        parts = [f"{d.get('title', d['field'])}: {_fmt(row.get(d['field']), d.get('format'))}" for d in defs]
        return f"<title>{_esc(', '.join(parts))}</title>" if parts else ""


def rows(data: Any, columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """A frame's rows as dictionaries (a polars frame, a list of rows, or a dict of columns),
    with only ``columns`` when given: a spec's inline data."""
    if hasattr(data, "to_dicts"):
        found = list(data.to_dicts())
    elif isinstance(data, Mapping):
        names = list(data)
        found = [dict(zip(names, values, strict=True)) for values in zip(*data.values(), strict=True)]
    else:
        found = [dict(r) for r in data]
    if columns is not None:
        keep: Sequence[str] = list(columns)
        found = [{c: r.get(c) for c in keep} for r in found]
    return found
