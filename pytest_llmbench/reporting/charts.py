"""Inline SVG charts for report.html, drawn in Python (no script, no network).

Every label goes through html.escape: model and category names come from user input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 640
LEFT = 190
ROW = 26


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
    span = WIDTH - LEFT - 60
    body: list[str] = []
    top = 10
    for index, bar in enumerate(bars):
        y = top + index * ROW
        body.append(_text(LEFT - 8, y + 16, bar.label, "end"))
        if bar.value is None:
            body.append(_text(LEFT + 4, y + 16, "unscored", cls="muted"))
            continue
        body.append(
            f'<rect class="bar" x="{LEFT}" y="{y + 4}" width="{max(span * bar.value, 1):.1f}" '
            f'height="{ROW - 8}"><title>{escape(bar.label)}: {bar.value:.3f}</title></rect>'
        )
        if bar.low is not None and bar.high is not None:
            x1, x2, mid = LEFT + span * bar.low, LEFT + span * bar.high, y + ROW / 2
            body.append(
                f'<path class="whisker" d="M{x1:.1f} {mid:.1f}H{x2:.1f}M{x1:.1f} {mid - 6:.1f}'
                f'V{mid + 6:.1f}M{x2:.1f} {mid - 6:.1f}V{mid + 6:.1f}"/>'
            )
        body.append(
            _text(LEFT + span * max(bar.value, bar.high or 0) + 6, y + 17, _fmt(bar.value, 3))
        )
    height = top + len(bars) * ROW + 24
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = LEFT + span * tick
        body.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 20}"/>')
        body.append(_text(x, height - 6, f"{tick:g}", "middle", "muted"))
    return _svg(height, body, title)


def _colour(value: float) -> str:
    # Red (0) through yellow to green (1) in HSL.
    return f"hsl({120 * max(0.0, min(1.0, value)):.0f}, 65%, 72%)"


def heat_map(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: dict[tuple[str, str], float | None],
    title: str,
) -> str:
    cell_w = max(70, min(120, (WIDTH - LEFT) // max(len(columns), 1)))
    width = LEFT + cell_w * len(columns) + 10
    body = [
        _text(LEFT + cell_w * (i + 0.5), 18, column, "middle", "small")
        for i, column in enumerate(columns)
    ]
    for r, row in enumerate(rows):
        y = 28 + r * ROW
        body.append(_text(LEFT - 8, y + 17, row, "end"))
        for c, column in enumerate(columns):
            value = cells.get((row, column))
            x = LEFT + c * cell_w
            fill = "#eee" if value is None else _colour(value)
            body.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell_w - 2}" height="{ROW - 2}" '
                f'fill="{fill}"><title>{escape(row)} x {escape(column)}: {_fmt(value, 3)}</title></rect>'
            )
            body.append(_text(x + cell_w / 2, y + 17, _fmt(value), "middle", "small"))
    return _svg(28 + len(rows) * ROW + 6, body, title, width)


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float


def scatter(
    points: Sequence[Point],
    title: str,
    x_label: str,
    y_label: str,
    diagonal: bool = False,
    y_limit: float | None = None,
) -> str:
    """Points on axes scaled to the data (from 0); `diagonal` draws y = x.

    `y_limit` fixes the top of the y axis (1 for scores). Points at the same place are
    drawn once, with their labels joined, so no label hides another.
    """
    merged: dict[tuple[float, float], list[str]] = {}
    for point in points:
        merged.setdefault((point.x, point.y), []).append(point.label)
    points = [Point(", ".join(labels), x, y) for (x, y), labels in merged.items()]
    height, left, bottom, right = 320, 60, 40, 20
    xs, ys = [p.x for p in points], [p.y for p in points]
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
        _text(left + plot_w, 10 + plot_h + 14, f"{x_max:.4g}", "end", "small"),
    ]
    if diagonal:
        (x0, y0), (x1, y1) = at(0, 0), at(min(x_max, y_max), min(x_max, y_max))
        body.append(f'<line class="grid" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}"/>')
    for point in points:
        x, y = at(point.x, point.y)
        body.append(
            f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="5"><title>{escape(point.label)}: '
            f"{point.x:.4g}, {point.y:.4g}</title></circle>"
        )
        if not diagonal:
            body.append(_text(x + 8, y - 6, point.label, cls="small"))
    return _svg(height, body, title)
