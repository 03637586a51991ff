"""The data the report viewer (static/viewer.js) shows, split so a page opens fast.

A run becomes one summary (the leaderboard, the charts, one short row per item), chunks
of CHUNK items' full details, and a search index (viewsearch.py). Every string of
TEXT_MIN characters or more in a detail (prompts, answers, reference answers, reports)
is a reference into one table of texts (schema/texts.externalize): each distinct text is
stored once per page, whichever runs and items share it, in text chunks of its own that
are read only when an item shown or a search needs them. `report.html` embeds every
file gzip-compressed and base64-encoded; `llmbench view` serves the same files as gzip.
Both use `Bundle`.

Items are ordered as the leaderboard ranks their models, then by category, scenario and
dataset; an item's number `i` is its place in that order and names its chunk (i // CHUNK).
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from ..errors import LLMBenchError
from ..formats.dataset import DatasetIndex
from ..formats.scenario import NO_DATASET, load_scenario
from ..judging.formulas import FORMULAS, Terms
from ..schema.leaderboard import Leaderboard, LeaderboardDocument
from ..schema.results import ItemResult
from ..schema.texts import resolve
from . import charts, viewsearch, viewtexts
from .help import COLUMNS

CHUNK = 200
INDEX = "index.json.gz"  # the summaries of the runs and their comparisons
# One item's details as the page reads them (JSON of an ItemResult, plus its reference).
Detail = dict[str, Any]
# Attempt fields the viewer does not show: raw call records repeat the answer and reports.
_DROPPED_ATTEMPT_FIELDS = ("calls",)


def floor(formula: str) -> float:
    """The score of a do-nothing answer: the lowest grades (1), no rate, first attempt,
    no hidden test passed."""
    terms = Terms(accuracy=1.0, completeness=1.0, rate=0.0, attempt=1.0, functional=0.0)
    return FORMULAS[formula].compute(terms)


def _order(board: Leaderboard, items: Sequence[ItemResult]) -> list[int]:
    rank = {r.model: n for n, r in enumerate(board.models)}

    def key(n: int) -> tuple[int, str, str, str]:
        item = items[n]
        return (rank.get(item.model, 0), item.category, item.scenario, item.dataset or "")

    return sorted(range(len(items)), key=key)


def _row(i: int, item: ItemResult, score: float | None) -> dict[str, Any]:
    usage = item.candidate_usage
    return {
        "i": i,
        "model": item.model,
        "category": item.category,
        "scenario": item.scenario,
        "dataset": item.dataset,
        "status": item.status,
        "score": score,
        "accuracy": item.accuracy,
        "completeness": item.completeness,
        "best": item.best_attempt,
        "attempts": len(item.attempts),
        "tokens": usage.prompt_tokens + usage.completion_tokens,
        "cost": usage.cost_usd,
        "latency": item.latency_s,
        "reason": item.reason,
        "functional": item.functional_rate,
        "tampered": item.tampered,
    }


def _detail(item: ItemResult, reference: str | None) -> Detail:
    """The item as JSON for the page: the page's data file is this boundary."""
    detail: Detail = item.model_dump(mode="json", exclude={"attempts"})
    detail["attempts"] = [
        a.model_dump(mode="json", exclude=set(_DROPPED_ATTEMPT_FIELDS)) for a in item.attempts
    ]
    detail["reference"] = reference
    return detail


def scenario_file(item: ItemResult, rootdir: Path) -> Path | None:
    """The scenario file an item came from: its node id starts with the path under rootdir."""
    nodeid = item.nodeid
    if "::" not in nodeid:
        return None
    path = rootdir / nodeid.split("::", 1)[0]
    return path if path.is_file() else None


def references(items: Sequence[ItemResult], rootdirs: Sequence[Path]) -> dict[tuple[str, str], str]:
    """(scenario, dataset or NO_DATASET) -> the scenario's reference answer, for every
    scenario file still found under one of `rootdirs` (a moved or broken file gives none)."""
    found: dict[tuple[str, str], str] = {}
    seen: set[Path] = set()
    for item in items:
        path = next((p for r in rootdirs if (p := scenario_file(item, r))), None)
        if path is None or path in seen:
            continue
        seen.add(path)
        try:
            scenario = load_scenario(path, DatasetIndex(path.parent.parent.parent / "datasets"))
        except (LLMBenchError, OSError, ValueError):
            continue
        for dataset, text in scenario.references.items():
            found[(item.scenario, dataset)] = text
    return found


def checkers(items: Sequence[ItemResult]) -> dict[str, dict[str, int]]:
    """Per model: syntax checker -> files it checked in the best answers; files no
    checker could read are counted under "none (<language>)"."""
    out: dict[str, dict[str, int]] = {}
    for item in items:
        seen = out.setdefault(item.model, {})
        for check in item.code.syntax if item.code else []:
            name = check.checker or f"none ({check.language or '?'})"
            seen[name] = seen.get(name, 0) + 1
    return out


@dataclass
class RunData:
    """One run's summary, detail chunks (compact JSON, long strings as references into
    `texts`), its texts and the search index (word -> hex mask of chunks)."""

    summary: dict[str, Any]
    chunks: list[str] = field(default_factory=list)
    texts: viewtexts.RunTexts = field(default_factory=viewtexts.RunTexts)
    search: dict[str, str] = field(default_factory=dict)


def run_data(
    document: LeaderboardDocument,
    items: Sequence[ItemResult],
    scores: Sequence[float | None],
    refs: dict[tuple[str, str], str],
    name: str = "",
    history: dict[str, JsonValue] | None = None,
) -> RunData:
    """The run's summary and chunks; `history`: the trend of the registered runs
    (history.trend_data), shown on the leaderboard page when given."""
    board = document.leaderboard
    order = _order(board, items)
    rows = [_row(i, items[n], scores[n]) for i, n in enumerate(order)]
    details = [
        _detail(items[n], refs.get((items[n].scenario, items[n].dataset or NO_DATASET)))
        for n in order
    ]
    chunks, texts = viewtexts.split(details, CHUNK)
    floors = {name: floor(name) for name in FORMULAS}
    summary = {
        "name": name,
        "meta": {
            "created_utc": document.created_utc,
            "plugin_version": document.plugin_version,
            "git_commit": document.git_commit,
            "checkers": document.checkers,  # syntax checker -> present on the machine
            "items": len(items),
        },
        "board": board.model_dump(mode="json"),
        "floors": floors,
        "checkers": checkers(items),
        "columns": COLUMNS,
        "charts": charts.report_charts(board, [items[n] for n in order], floors),
        "rows": rows,
        "chunk": CHUNK,
        "chunks": len(chunks),
        "history": history,
    }
    return RunData(summary, chunks, texts, viewsearch.build(chunks, texts))


def pack(value: Any) -> bytes:
    """gzip of the compact JSON (mtime 0, so the same data gives the same bytes)."""
    return _gzip(viewtexts.dump(value))


def _gzip(text: str) -> bytes:
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


def unpack(data: bytes) -> Any:
    return json.loads(gzip.decompress(data))


@dataclass
class Bundle:
    """What a page shows: runs (the first is the base of a comparison) and the
    comparisons of each later run with the first, keyed by the later run's index."""

    runs: list[RunData]
    comparisons: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def files(self) -> dict[str, bytes]:
        """File name -> gzip bytes: `index.json.gz`; per run R `run<R>-chunk<K>.json.gz`
        ({"items": details, "texts": {text id: text chunk}} for the ids they refer to) and
        `run<R>-search.json.gz` ({"words": word -> hex mask}); `texts<T>.json.gz`
        ({text id: text}) for the texts of all runs, each once."""
        index = {"runs": [r.summary for r in self.runs], "comparisons": self.comparisons}
        out = {INDEX: pack(index)}
        tables, where = viewtexts.layout([run.texts for run in self.runs])
        for r, run in enumerate(self.runs):
            for k, (chunk, uses) in enumerate(zip(run.chunks, run.texts.uses, strict=True)):
                names = viewtexts.dump({t: where[t] for t in uses})
                out[chunk_name(r, k)] = _gzip(f'{{"items":{chunk},"texts":{names}}}')
            out[search_name(r)] = pack({"words": run.search})
        for t, table in enumerate(tables):
            out[text_name(t)] = pack(table)
        return out


def chunk_name(run: int, chunk: int) -> str:
    return f"run{run}-chunk{chunk}.json.gz"


def search_name(run: int) -> str:
    return f"run{run}-search.json.gz"


def text_name(chunk: int) -> str:
    return f"texts{chunk}.json.gz"


def resolved_details(files: dict[str, Any], run: int = 0) -> list[Detail]:
    """A run's item details with their texts, from the decoded files (for tests and tools)."""
    table = {
        k: v for name, part in files.items() if name.startswith("texts") for k, v in part.items()
    }
    out: list[Detail] = []
    k = 0
    while (name := chunk_name(run, k)) in files:
        out.extend(resolve(files[name]["items"], table))
        k += 1
    return out


def embedded(files: dict[str, bytes]) -> dict[str, str]:
    """The files as base64 text, to embed in report.html."""
    return {name: base64.b64encode(data).decode("ascii") for name, data in files.items()}
