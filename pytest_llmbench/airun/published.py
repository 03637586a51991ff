"""Where a published result sits: its candidate and published set from its path, and the
nodeid of its item, which names the set so that each set gets a leaderboard of its own.

A published set is `<Output folder>/<lang folder>` (`Output/JS`, `Output_v1/JS`, ...): a
version of the benchmark, graded against its own criteria.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from ..schema.results import ItemResult

_NODE_PREFIX = "airun::"


def output_parts(results: Path, path: Path) -> tuple[str, str] | None:
    """(candidate, published set) of a file under `Output*/<candidate>/<lang>/` (the same
    model may be in Output and Output_v1)."""
    parts = path.relative_to(results).parts[:-1]
    if results.name.startswith("Output"):
        parts = (results.name, *parts)
    for i, part in enumerate(parts):
        if part.startswith("Output") and len(parts) > i + 2:
            return parts[i + 1], f"{part}/{parts[i + 2]}"
    return None


def node_id(published_set: str, experiment: str, stem: str, run: int, candidate: str) -> str:
    """An imported item's nodeid; `run` counts from 0."""
    return f"{_NODE_PREFIX}{published_set}::{experiment}::{stem}::{run + 1}::{candidate}"


def by_set(items: Iterable[ItemResult]) -> dict[str, list[ItemResult]]:
    """The imported items of each published set, in their order: one leaderboard each."""
    sets: dict[str, list[ItemResult]] = defaultdict(list)
    for item in items:
        sets[item.nodeid.removeprefix(_NODE_PREFIX).split("::", 1)[0]].append(item)
    return dict(sorted(sets.items()))
