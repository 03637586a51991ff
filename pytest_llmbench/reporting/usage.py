"""Per-model call figures for the terminal summary: calls, tokens (prompt-cache reads
among them), cost, cache hits, retries."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..schema.results import CallRecord, ItemResult


@dataclass
class ModelUsage:
    calls: int = 0
    cached: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0  # of prompt_tokens: read from the provider's prompt cache
    cost_usd: float = 0.0
    priced: bool = False


def _calls(items: Iterable[ItemResult]) -> Iterator[CallRecord]:
    """Every call of every attempt, and of an attempt an error stopped (paid all the same)."""
    for item in items:
        for attempt in item.attempts:
            yield from attempt.calls
        yield from item.failed_calls


def usage_by_model(
    items: Iterable[ItemResult], ordinary: Iterable[CallRecord] = ()
) -> dict[str, ModelUsage]:
    """Every call of every attempt, and the calls of ordinary tests (llm_complete,
    llm_judge), by the model that answered it (candidate or judge)."""
    table: dict[str, ModelUsage] = {}
    for call in itertools.chain(_calls(items), ordinary):
        row = table.setdefault(call.model, ModelUsage())
        row.calls += 1
        row.cached += call.cached
        row.retries += call.retries
        row.prompt_tokens += call.prompt_tokens or 0
        row.completion_tokens += call.completion_tokens or 0
        row.cache_read_tokens += call.cache_read_tokens
        if call.cost_usd is not None and not call.cached:
            row.cost_usd += call.cost_usd
            row.priced = True
    return table


def usage_lines(
    items: Iterable[ItemResult],
    earlier: Iterable[ItemResult] = (),
    ordinary: Iterable[CallRecord] = (),
) -> list[str]:
    """The calls made in this run by model, with those of ordinary tests (`ordinary`);
    `earlier` (--llm-resume: items an earlier run finished) are summed apart in one line."""
    table = usage_by_model(items, ordinary)
    before = usage_by_model(earlier)
    note = []
    if before:
        calls = sum(u.calls for u in before.values())
        spent = sum(u.cost_usd for u in before.values())
        note = [f"earlier runs (--llm-resume): {calls} calls, {spent:.4f} USD, not counted above"]
    if not table:
        return ["no model calls in this run", *note]
    lines = [
        f"{'model':32s} {'calls':>6s} {'cached':>6s} {'retries':>7s} "
        f"{'in tokens':>10s} {'cached in':>10s} {'out tokens':>10s} {'cost USD':>9s}"
    ]
    for name, u in sorted(table.items()):
        cost = f"{u.cost_usd:9.4f}" if u.priced else f"{'?':>9s}"
        lines.append(
            f"{name:32s} {u.calls:6d} {u.cached:6d} {u.retries:7d} "
            f"{u.prompt_tokens:10d} {u.cache_read_tokens:10d} {u.completion_tokens:10d} {cost}"
        )
    lines.append(
        "calls made in this run; cached replies cost nothing; cached in: input tokens read "
        "from the provider's prompt cache (in tokens include them), at its cache read rate"
    )
    return lines + note
