"""Aggregate item results into per-model and per-model-x-category rows with the score.

Score (method.md section 4):
    0.4*Acc/4 + 0.4*Compl/4 + 0.1*Rate/MaxRate + 0.1*(A - Attempt)/(A - 1)
with A the attempts allowed (A = 3 gives the method's (3 - Attempt)/2; A = 1 gives 1) and
MaxRate the highest mean generation rate over the models of this leaderboard, so one
model's score depends on the others. A model with no generation rate (offline models)
gets 0 for that term, and its row says so in `notes`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from statistics import mean
from typing import Any

FORMULA = "0.4*Acc/4 + 0.4*Compl/4 + 0.1*Rate/MaxRate + 0.1*(A-Attempt)/(A-1)"


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def _sum_cost(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


# Per-answer code metrics (results.CodeMetrics) averaged in each row, with their counts.
CODE_METRICS = (
    "ci",
    "loc",
    "gci",
    "gci_change",
    "similarity",
    "similarity_normalised",
    "executability",
)


def _code(items: Sequence[dict[str, Any]]) -> dict[str, dict[str, float | int | None]]:
    """Mean of each code metric over the items that have it (best attempts), and n."""
    out: dict[str, dict[str, float | int | None]] = {}
    for name in CODE_METRICS:
        values = [i["code"][name] for i in items if i.get("code") and i["code"][name] is not None]
        out[name] = {"mean": mean(values) if values else None, "n": len(values)}
    return out


def _row(items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    scored = [i for i in items if i["status"] == "scored"]
    methods: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    check_agrees: list[bool] = []
    for item in scored:
        best = next(a for a in item["attempts"] if a["attempt"] == item["best_attempt"])
        for metric in ("accuracy", "completeness"):
            sources[best[metric]["source"]] += 1
            methods.update(g["method"] for g in best[metric]["grades"])
        check_agrees += [
            s["check_agrees"] for s in best.get("steps", []) if s["check_agrees"] is not None
        ]
    agreements = [i["judge_agreement"] for i in scored]
    return {
        "items": len(items),
        "scored": len(scored),
        "unscored": sum(i["status"] == "unscored" for i in items),
        "errors": sum(i["status"] == "error" for i in items),
        "skipped": sum(i["status"] == "skipped" for i in items),
        "accuracy": _mean(i["accuracy"] for i in scored),
        "completeness": _mean(i["completeness"] for i in scored),
        "pass_rate": _mean(i["pass_rate"] for i in scored),
        "generation_rate": _mean(i["generation_rate"] for i in scored),
        "attempt": _mean(i["best_attempt"] for i in scored),
        "judge_agreement": _mean(agreements),
        # Share of checked steps where the check's verdict equals the judges' majority.
        "check_judge_agreement": sum(check_agrees) / len(check_agrees) if check_agrees else None,
        "metric_sources": dict(sources),
        "grade_methods": dict(methods),
        "candidate_tokens": sum(
            i["candidate_usage"]["prompt_tokens"] + i["candidate_usage"]["completion_tokens"]
            for i in items
        ),
        "candidate_cost_usd": _sum_cost(i["candidate_usage"]["cost_usd"] for i in items),
        "judge_tokens": sum(
            i["judge_usage"]["prompt_tokens"] + i["judge_usage"]["completion_tokens"] for i in items
        ),
        "judge_cost_usd": _sum_cost(i["judge_usage"]["cost_usd"] for i in items),
        "code": _code(items),
    }


def score(
    row: dict[str, Any], max_rate: float | None, attempts: int
) -> tuple[float | None, list[str]]:
    """The method's score of one row, and notes on any term that could not be computed."""
    if row["accuracy"] is None or row["completeness"] is None:
        return None, ["no scored items"]
    notes = []
    rate_term = 0.0
    if row["generation_rate"] is None or not max_rate:
        notes.append("rate term 0: no generation rate (offline model or no token counts)")
    else:
        rate_term = row["generation_rate"] / max_rate
    attempt_term = 1.0 if attempts <= 1 else (attempts - row["attempt"]) / (attempts - 1)
    value = (
        0.4 * row["accuracy"] / 4
        + 0.4 * row["completeness"] / 4
        + 0.1 * rate_term
        + 0.1 * attempt_term
    )
    return value, notes


def build(items: Sequence[dict[str, Any]], attempts: int) -> dict[str, Any]:
    """Rows per model (sorted by score) and per model x category."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_category: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        by_model[item["model"]].append(item)
        by_category[(item["model"], item["category"])].append(item)
    models = {name: _row(group) for name, group in by_model.items()}
    rates = [r["generation_rate"] for r in models.values() if r["generation_rate"] is not None]
    max_rate = max(rates) if rates else None
    model_rows = []
    for name, row in models.items():
        row["score"], row["notes"] = score(row, max_rate, attempts)
        model_rows.append({"model": name, **row})
    model_rows.sort(key=lambda r: (r["score"] is None, -(r["score"] or 0.0), r["model"]))
    category_rows = []
    for (name, category), group in sorted(by_category.items()):
        row = _row(group)
        row["score"], row["notes"] = score(row, max_rate, attempts)
        category_rows.append({"model": name, "category": category, **row})
    return {
        "formula": FORMULA,
        "attempts": attempts,
        "max_rate": max_rate,
        "models": model_rows,
        "categories": category_rows,
    }
