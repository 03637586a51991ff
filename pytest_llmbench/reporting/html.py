"""report.html: one self-contained page (inline CSS, inline SVG, a few lines of inline JS).

The page is rendered by jinja2 with autoescaping on, so every model answer, judge report
and name is shown as text and never runs as HTML; the charts are built in `charts.py`,
which escapes its labels, and are the only markup passed through unescaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import JsonValue

from ..schema.leaderboard import Leaderboard, LeaderboardDocument
from ..schema.results import AttemptResult, ItemResult, Verdict
from . import charts

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _fmt(value: object, digits: int = 2) -> str:
    return f"{value:.{digits}f}" if isinstance(value, int | float) else "–"


def _ci(interval: Sequence[float] | None) -> str:
    return "–" if not interval else f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _cost(value: object) -> str:
    return f"${value:.4f}" if isinstance(value, int | float) else "–"


def _verdict(verdict: Verdict | None) -> Markup:
    if verdict is None:
        return Markup("–")
    word = "Pass" if verdict.passed else "Fail"
    confidence = f" ({verdict.confidence:.0f}%)" if verdict.confidence is not None else ""
    return Markup('<span class="{}" title="{}">{}{}</span>').format(
        word.lower(), verdict.reason, word, confidence
    )


def _judges_of(attempt: AttemptResult) -> list[str]:
    return sorted({j for step in attempt.steps for j in step.judges})


# Attempt fields the template shows in their own places; the rest are listed as figures.
_SHOWN = {
    "attempt",
    "answer",
    "answer_latency_s",
    "accuracy",
    "completeness",
    "quality",
    "steps",
    "reports",
    "calls",
    "generation_rate",
    "dialog",
}


def _other_fields(attempt: AttemptResult) -> dict[str, JsonValue]:
    return attempt.model_dump(mode="json", exclude=_SHOWN)


def output_gci(item: ItemResult) -> float | None:
    """GCI of the best answer's code (results.CodeMetrics), when it has code."""
    return item.code.gci if item.code else None


def _charts(board: Leaderboard, items: Sequence[ItemResult]) -> dict[str, Any]:
    models = board.models
    order = [r.model for r in models]
    bars = [charts.Bar(r.model, r.score, *(r.score_ci or (None, None))) for r in models]
    categories = sorted({str(r.category) for r in board.categories})
    cells = {(r.model, str(r.category)): r.score for r in board.categories}
    has_cost = any(r.candidate_cost_usd is not None for r in models)
    cost_label = "candidate cost (USD)" if has_cost else "candidate tokens (no prices known)"
    points = [
        charts.Point(
            r.model,
            (r.candidate_cost_usd or 0.0) if has_cost else float(r.candidate_tokens),
            r.score,
            r.model,
        )
        for r in models
        if r.score is not None
    ]
    complexity = [
        charts.Point(f"{i.model} · {i.scenario} · {i.dataset or '-'}", float(gci), out, i.model)
        for i in items
        if isinstance(gci := i.complexity.get("gci"), int | float)
        and (out := output_gci(i)) is not None
    ]
    return {
        "scores": Markup(charts.bar_chart(bars, "score by model")),
        "heatmap": Markup(
            charts.heat_map([r.model for r in models], categories, cells, "score heat map")
        ),
        "cost_label": cost_label,
        "cost": Markup(
            charts.scatter(
                points, "score versus cost", cost_label, "score", y_limit=1.0, series_order=order
            )
        ),
        "complexity": Markup(
            charts.scatter(
                complexity,
                "complexity",
                "input GCI",
                "output GCI",
                diagonal=True,
                labels=False,
                series_order=order,
            )
        )
        if complexity
        else None,
    }


def render(
    document: LeaderboardDocument, items: Sequence[ItemResult], scores: Sequence[float | None]
) -> str:
    board = document.leaderboard
    order = {r.model: n for n, r in enumerate(board.models)}

    def position(pair: tuple[ItemResult, float | None]) -> tuple[int, str, str, str]:
        item = pair[0]
        return (order.get(item.model, 0), item.category, item.scenario, item.dataset or "")

    pairs = sorted(zip(items, scores, strict=True), key=position)
    rows = [{"item": item, "score": score} for item, score in pairs]
    return _ENV.get_template("report.html.j2").render(
        doc=document,
        board=board,
        items=items,
        rows=rows,
        charts=_charts(board, items),
        fmt=_fmt,
        ci=_ci,
        pct=_pct,
        cost=_cost,
        verdict=_verdict,
        judges_of=_judges_of,
        other_fields=_other_fields,
    )
