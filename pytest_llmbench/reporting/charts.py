"""SVG charts of the report viewer, drawn in Python (no script, no network).

Every label goes through html.escape: model and category names come from user input.
The page inserts them unscaled in a scrolling box, so their text keeps its size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from ..schema.leaderboard import Leaderboard, Row
from ..schema.results import ItemResult

WIDTH = 640
ROW = 26
# Approximate advance of one character at the charts' 13px (labels) and 12px (small)
# font sizes: SVG text does not wrap, so room for labels is reserved from their length.
CHAR_PX = 7.6
SMALL_CHAR_PX = 7.0
# Colours of the series (models) in scatter plots, in order; more series reuse them.
PALETTE = ("#c1504a", "#4a7fc1", "#3a9a5b", "#c18a2a", "#8a58b0", "#2aa5b0", "#777777")


def _left(labels: Sequence[str]) -> int:
    """Room left of the plot for right-aligned row labels (model names)."""
    longest = max((len(label) for label in labels), default=0)
    return int(max(120, min(360, CHAR_PX * longest + 16)))


def _svg(height: int, body: list[str], label: str, width: int = WIDTH) -> str:
    return (
        f'<svg class="chart" role="img" aria-label="{escape(label)}" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        + "".join(body)
        + "</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", cls: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}">{escape(text)}</text>'
    )


def _fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None
    low: float | None = None
    high: float | None = None


def bar_chart(bars: Sequence[Bar], title: str) -> str:
    """Horizontal bars on a 0..1 axis with confidence whiskers."""
    left = _left([bar.label for bar in bars])
    span = WIDTH - 190 - 60
    width = left + span + 60
    body: list[str] = []
    top = 10
    for index, bar in enumerate(bars):
        y = top + index * ROW
        body.append(_text(left - 8, y + 16, bar.label, "end"))
        if bar.value is None:
            body.append(_text(left + 4, y + 16, "unscored", cls="muted"))
            continue
        body.append(
            f'<rect class="bar" x="{left}" y="{y + 4}" width="{max(span * bar.value, 1):.1f}" '
            f'height="{ROW - 8}"><title>{escape(bar.label)}: {bar.value:.3f}</title></rect>'
        )
        if bar.low is not None and bar.high is not None:
            x1, x2, mid = left + span * bar.low, left + span * bar.high, y + ROW / 2
            body.append(
                f'<path class="whisker" d="M{x1:.1f} {mid:.1f}H{x2:.1f}M{x1:.1f} {mid - 6:.1f}'
                f'V{mid + 6:.1f}M{x2:.1f} {mid - 6:.1f}V{mid + 6:.1f}"/>'
            )
        body.append(
            _text(left + span * max(bar.value, bar.high or 0) + 6, y + 17, _fmt(bar.value, 3))
        )
    height = top + len(bars) * ROW + 24
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + span * tick
        body.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 20}"/>')
        body.append(_text(x, height - 6, f"{tick:g}", "middle", "muted"))
    return _svg(height, body, title, width)


def _colour(value: float, floor: float = 0.0) -> str:
    # Red (the formula's floor, a do-nothing answer) through yellow to green (1) in HSL.
    share = (value - floor) / (1 - floor) if floor < 1 else value
    return f"hsl({120 * max(0.0, min(1.0, share)):.0f}, 65%, 72%)"


def heat_map(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: dict[tuple[str, str], float | None],
    title: str,
    floors: Mapping[tuple[str, str], float] | None = None,
) -> str:
    """Cells coloured on their formula's own scale: from its floor (`floors`, a
    do-nothing answer's score; 0 when not given) to 1."""
    left = _left(rows)
    # Each column is as wide as its longest label needs, so the labels never overlap.
    longest = max((len(column) for column in columns), default=0)
    cell_w = int(max(56, SMALL_CHAR_PX * longest + 12))
    width = left + cell_w * len(columns) + 10
    body = [
        _text(left + cell_w * (i + 0.5), 18, column, "middle", "small")
        for i, column in enumerate(columns)
    ]
    for r, row in enumerate(rows):
        y = 28 + r * ROW
        body.append(_text(left - 8, y + 17, row, "end"))
        for c, column in enumerate(columns):
            value = cells.get((row, column))
            x = left + c * cell_w
            low = (floors or {}).get((row, column), 0.0)
            fill = "#eee" if value is None else _colour(value, low)
            body.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell_w - 2}" height="{ROW - 2}" '
                f'fill="{fill}"><title>{escape(row)} x {escape(column)}: {_fmt(value, 3)} '
                f"(do-nothing floor {low:.2f})</title></rect>"
            )
            body.append(_text(x + cell_w / 2, y + 17, _fmt(value), "middle", "small"))
    return _svg(28 + len(rows) * ROW + 6, body, title, width)


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float
    series: str = ""  # the model: points of one series share a colour and a legend entry


def scatter(
    points: Sequence[Point],
    title: str,
    x_label: str,
    y_label: str,
    diagonal: bool = False,
    y_limit: float | None = None,
    labels: bool = True,
    series_order: Sequence[str] = (),
) -> str:
    """Points on axes scaled to the data (from 0); `diagonal` draws y = x.

    `y_limit` fixes the top of the y axis (1 for scores). Points at the same place are
    drawn once, with their labels joined, so no label hides another; such a point of
    several series is drawn in the neutral colour. With two or more series a legend
    under the plot names each series' colour. `labels` writes each point's label beside
    it (otherwise it is only the point's tooltip). Colours go to the series in
    `series_order` first (the leaderboard's model order, the same in every chart).
    """
    colours = _colours(points, series_order)
    merged: dict[tuple[float, float], list[Point]] = {}
    for point in points:
        merged.setdefault((point.x, point.y), []).append(point)
    height, left, bottom, right = 320, 60, 40, 20
    xs, ys = [x for x, _ in merged], [y for _, y in merged]
    # An axis with only zeros (offline models have no tokens) still spans 0..1.
    x_max = (max(xs + (ys if diagonal else []), default=0.0) or 1.0) * 1.1
    y_max = y_limit or (max(ys + (xs if diagonal else []), default=0.0) or 1.0) * 1.1
    plot_w, plot_h = WIDTH - left - right, height - bottom - 10

    def at(x: float, y: float) -> tuple[float, float]:
        return left + plot_w * x / x_max, 10 + plot_h * (1 - y / y_max)

    body = [
        f'<path class="axis" d="M{left} 10V{10 + plot_h}H{left + plot_w}"/>',
        _text(left + plot_w / 2, height - 6, x_label, "middle", "muted"),
        f'<text x="14" y="{10 + plot_h / 2:.1f}" text-anchor="middle" class="muted" '
        f'transform="rotate(-90 14 {10 + plot_h / 2:.1f})">{escape(y_label)}</text>',
        _text(left - 4, 14, f"{y_max:.3g}", "end", "small"),
        _text(left - 4, 10 + plot_h, "0", "end", "small"),
        _text(left + plot_w, 10 + plot_h + 14, f"{x_max:.3g}", "end", "small"),
    ]
    if diagonal:
        (x0, y0), (x1, y1) = at(0, 0), at(min(x_max, y_max), min(x_max, y_max))
        body.append(f'<line class="grid" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}"/>')
    for (px, py), group in merged.items():
        body += _point(*at(px, py), (px, py), group, colours, labels)
    if len(colours) > 1:
        for n, (name, fill) in enumerate(colours.items()):
            y = height + 6 + n * 18
            body.append(
                f'<circle class="legend" cx="{left + 6}" cy="{y:.1f}" r="5" style="fill: {fill}"/>'
            )
            body.append(_text(left + 16, y + 4, name, cls="small"))
        height += 8 + len(colours) * 18
    return _svg(height, body, title)


def _colours(points: Sequence[Point], series_order: Sequence[str]) -> dict[str, str]:
    """A colour per series: those in `series_order` first, then the others as they come."""
    present = {p.series for p in points}
    named = [name for name in series_order if name in present]
    return {
        name: PALETTE[n % len(PALETTE)]
        for n, name in enumerate(dict.fromkeys([*named, *(p.series for p in points)]))
    }


def _point(
    x: float,
    y: float,
    value: tuple[float, float],
    group: Sequence[Point],
    colours: Mapping[str, str],
    labels: bool,
) -> list[str]:
    """One drawn point at (x, y) for the points of `group` (all at `value`)."""
    label = ", ".join(p.label for p in group)
    series = {p.series for p in group}
    fill = colours[group[0].series] if len(series) == 1 else "#222"
    drawn = [
        f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="5" style="fill: {fill}">'
        f"<title>{escape(label)}: {value[0]:.4g}, {value[1]:.4g}</title></circle>"
    ]
    if labels:
        # A label that would run off the right edge goes to the left of its point.
        if x + 8 + SMALL_CHAR_PX * len(label) > WIDTH:
            drawn.append(_text(x - 8, y - 6, label, "end", "small"))
        else:
            drawn.append(_text(x + 8, y - 6, label, cls="small"))
    return drawn


def output_gci(item: ItemResult) -> float | None:
    """GCI of the best answer's code (results.CodeMetrics), when it has code."""
    return item.code.gci if item.code else None


def _cost_chart(models: Sequence[Row], order: Sequence[str]) -> dict[str, str | None]:
    """Score versus cost, else versus tokens; with neither, no chart but the reason
    (offline models cost $0 and count no tokens: every point would sit at 0)."""
    has_cost = any((r.candidate_cost_usd or 0.0) > 0 for r in models)
    if not has_cost and not any(r.candidate_tokens for r in models):
        return {
            "cost_label": "cost",
            "cost": None,
            "cost_note": "No cost and no token counts: every model here answered offline "
            "(such as llmbench/reference or llmbench/echo) or reported no usage, so every "
            "point would sit at 0. Models called through an API get a cost or token axis.",
        }
    label = "candidate cost (USD)" if has_cost else "candidate tokens (no prices known)"
    points = [
        Point(
            r.model,
            (r.candidate_cost_usd or 0.0) if has_cost else float(r.candidate_tokens),
            r.score,
            r.model,
        )
        for r in models
        if r.score is not None
    ]
    chart = scatter(points, "score versus cost", label, "score", y_limit=1.0, series_order=order)
    return {"cost_label": label, "cost": chart, "cost_note": None}


def _complexity_points(items: Sequence[ItemResult]) -> list[Point]:
    return [
        Point(
            f"{i.model} · {i.scenario} · {i.dataset or '-'}",
            float(gci),
            out,
            i.model,
        )
        for i in items
        if isinstance(gci := i.complexity.get("gci"), int | float)
        and (out := output_gci(i)) is not None
    ]


def report_charts(
    board: Leaderboard, items: Sequence[ItemResult], floors: Mapping[str, float]
) -> dict[str, str | None]:
    """The viewer's charts as SVG text: scores, heat map, cost and (with code) complexity."""
    models = board.models
    order = [r.model for r in models]
    bars = [Bar(r.model, r.score, *(r.score_ci or (None, None))) for r in models]
    categories = sorted({str(r.category) for r in board.categories})
    cells = {(r.model, str(r.category)): r.score for r in board.categories}
    # A category row has one formula (its category's or the chosen one).
    cell_floors = {(r.model, str(r.category)): floors.get(r.formula, 0.0) for r in board.categories}
    complexity = _complexity_points(items)
    return {
        "scores": bar_chart(bars, "score by model"),
        "heatmap": heat_map(order, categories, cells, "score heat map", cell_floors),
        **_cost_chart(models, order),
        "complexity": scatter(
            complexity,
            "complexity",
            "input GCI",
            "output GCI",
            diagonal=True,
            labels=False,
            series_order=order,
        )
        if complexity
        else None,
    }
