"""Self-preference: a judge of the candidate's own family may favour its answers.

A model's family comes from its litellm name: the provider is the part before the first
"/", the family the leading letters of the model's own name (after the last "/", and
after a vendor prefix such as bedrock's "anthropic."): `openai/gpt-4o` and
`openai/gpt-4o-mini` are both (openai, gpt), `anthropic/claude-3-5-haiku-latest` is
(anthropic, claude). A judge is of the candidate's family when the families are equal,
whatever the provider serving them (`azure/gpt-4o` judging `openai/gpt-4o-mini` is).

A row whose items were judged by its own family is marked; when other judges graded them
too, the row also gets the score from those other judges alone (`without_judges`), when
its items' metrics are the mean of their judges' weighted grades (`rescorable`: not so
for imported grades, whose figures were made otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from math import isclose

from ..judging.formulas import quality
from ..schema.results import AttemptResult, ItemResult, MetricResult

_LETTERS = re.compile(r"[a-z]+")


def family(model: str) -> tuple[str, str]:
    """(provider, family) of a litellm model name; provider "" without one."""
    provider, _, name = model.lower().rpartition("/")
    vendor, dot, rest = name.partition(".")
    if dot and vendor.isalpha() and rest[:1].isalpha():
        name = rest
    found = _LETTERS.match(name)
    return provider.split("/")[0], found.group(0) if found else name


def judges_of(items: Iterable[ItemResult]) -> list[str]:
    """Every judge that graded an attempt of these items, sorted."""
    return sorted(
        {g.judge for i in items for a in i.attempts for m in a.metrics() for g in m.grades}
    )


def own_family(model: str, judges: Iterable[str]) -> list[str]:
    mine = family(model)[1]
    return [j for j in judges if family(j)[1] == mine]


def _metric(metric: MetricResult, dropped: set[str]) -> float | None:
    kept = [g.weighted for g in metric.grades if g.judge not in dropped and g.weighted is not None]
    return sum(kept) / len(kept) if kept else None


def rescorable(item: ItemResult) -> bool:
    """Whether the item's judged metrics are the mean of their judges' weighted grades (as
    the pipeline makes them), so that dropping a judge can be redone here; imported grades
    (AIRUN's published figures) are made otherwise and are not."""
    for attempt in item.attempts:
        for metric in attempt.metrics():
            if metric.source != "judges" or metric.value is None:
                continue
            again = _metric(metric, set())
            if again is None or not isclose(again, metric.value, abs_tol=1e-9):
                return False
    return True


def _attempt_quality(attempt: AttemptResult, dropped: set[str]) -> tuple[float, float] | None:
    acc, compl = _metric(attempt.accuracy, dropped), _metric(attempt.completeness, dropped)
    return None if acc is None or compl is None else (acc, compl)


def without_judges(item: ItemResult, dropped: set[str]) -> ItemResult | None:
    """The item as the other judges alone graded it (best attempt chosen again, the first
    with the highest quality); None when they graded no attempt of it."""
    best: tuple[float, int, float, float] | None = None
    for attempt in item.attempts:
        metrics = _attempt_quality(attempt, dropped)
        if metrics is None:
            continue
        value = quality(*metrics)
        if best is None or value > best[0]:
            best = (value, attempt.attempt, *metrics)
    if best is None:
        return None
    _, number, acc, compl = best
    return item.model_copy(update={"accuracy": acc, "completeness": compl, "best_attempt": number})
