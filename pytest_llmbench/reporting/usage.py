"""Per-model call figures for the terminal summary: calls, tokens (prompt-cache reads
and writes among them), cost, cache hits, retries. The one place calls are counted: the
Inspect export sums its usage here too."""

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
    cache_write_tokens: int = 0  # of prompt_tokens: written to it
    cost_usd: float = 0.0
    priced: bool = False
    batched: int = 0  # paid calls that went through a provider batch (--llm-batch)
    batch_priced: int = 0  # of them: priced at litellm's batch rates

    def count(self, call: CallRecord) -> None:
        """Add `call` (a reply from our request cache costs nothing)."""
        self.calls += 1
        self.cached += call.cached
        self.retries += call.retries
        self.prompt_tokens += call.prompt_tokens or 0
        self.completion_tokens += call.completion_tokens or 0
        self.cache_read_tokens += call.cache_read_tokens
        self.cache_write_tokens += call.cache_write_tokens
        if call.cost_usd is not None and not call.cached:
            self.cost_usd += call.cost_usd
            self.priced = True
        if call.batch_id is not None and not call.cached:
            self.batched += 1
            self.batch_priced += call.batch_priced


def item_calls(item: ItemResult) -> Iterator[CallRecord]:
    """Every call of the item's attempts, and of an attempt an error stopped (paid all the
    same)."""
    for attempt in item.attempts:
        yield from attempt.calls
    yield from item.failed_calls


def by_model(calls: Iterable[CallRecord]) -> dict[str, ModelUsage]:
    """The calls' figures per model that answered (candidate or judge), in first-call order."""
    table: dict[str, ModelUsage] = {}
    for call in calls:
        table.setdefault(call.model, ModelUsage()).count(call)
    return table


def usage_by_model(
    items: Iterable[ItemResult], ordinary: Iterable[CallRecord] = ()
) -> dict[str, ModelUsage]:
    """Every call of every item, and the calls of ordinary tests (llm_complete,
    llm_judge), by the model that answered it."""
    paid = itertools.chain.from_iterable(item_calls(i) for i in items)
    return by_model(itertools.chain(paid, ordinary))


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
    return lines + batch_notes(table) + note


def batch_notes(table: dict[str, ModelUsage]) -> list[str]:
    """What basis the batched calls of each model were priced on (--llm-batch)."""
    return [
        f"{name}: {u.batched} call(s) through provider batches, {u.batch_priced} at litellm's "
        f"batch rates, {u.batched - u.batch_priced} at the normal rate (no batch rate known, "
        "or --llm-price)"
        for name, u in sorted(table.items())
        if u.batched
    ]
