"""Per-model call figures for the terminal summary: calls, tokens, cost, cache hits, retries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass
class ModelUsage:
    calls: int = 0
    cached: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    priced: bool = False


def usage_by_model(items: Iterable[dict[str, Any]]) -> dict[str, ModelUsage]:
    """Every call of every attempt, and of an attempt an error stopped, by the model that
    answered it (candidate or judge)."""
    table: dict[str, ModelUsage] = {}
    for item in items:
        failed = [{"calls": item.get("failed_calls", [])}]
        for attempt in item.get("attempts", []) + failed:
            for call in attempt.get("calls", []):
                row = table.setdefault(call["model"], ModelUsage())
                row.calls += 1
                row.cached += bool(call.get("cached"))
                row.retries += int(call.get("retries", 0))
                row.prompt_tokens += call.get("prompt_tokens") or 0
                row.completion_tokens += call.get("completion_tokens") or 0
                if call.get("cost_usd") is not None and not call.get("cached"):
                    row.cost_usd += call["cost_usd"]
                    row.priced = True
    return table


def usage_lines(items: Iterable[dict[str, Any]]) -> list[str]:
    table = usage_by_model(items)
    if not table:
        return ["no model calls"]
    lines = [
        f"{'model':32s} {'calls':>6s} {'cached':>6s} {'retries':>7s} "
        f"{'in tokens':>10s} {'out tokens':>10s} {'cost USD':>9s}"
    ]
    for name, u in sorted(table.items()):
        cost = f"{u.cost_usd:9.4f}" if u.priced else f"{'?':>9s}"
        lines.append(
            f"{name:32s} {u.calls:6d} {u.cached:6d} {u.retries:7d} "
            f"{u.prompt_tokens:10d} {u.completion_tokens:10d} {cost}"
        )
    lines.append("cost counts calls made in this run; cached replies cost nothing")
    return lines
