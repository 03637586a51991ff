"""A report dir as Inspect's JSON logs: one log per candidate model of the run, so that
`inspect view --log-dir OUT` lists our runs beside Inspect's own (`llmbench export`).

The JSON follows the field names of inspect_ai's log models (`EvalLog`, version 2); the
package writes it by hand and never imports inspect_ai. Per log:
- `eval`: task `llmbench/<report dir name>`, the model, created = leaderboard.json's
  created_utc (else the results file's time), the dataset (the scenario roots, or the
  report dirs a merge read, and the sample ids), and in `metadata` our plugin version,
  results schema version, settings digest (as the history of runs has it), score formula
  and attempts allowed; judges and grader are `model_roles` and the `scorers`.
- `plan`: the candidate's attempts (attempts allowed, feedback, temperature, token limit),
  then our judging (judges, grader, score formula), also the log's scorer.
- `results`: per score name of the samples (`inspect_sample.py`) its `mean`, equal to the
  leaderboard row's figure (`accuracy`, `completeness`, `score`, `functional_rate`, with
  the row's 95% interval as the metric's `ci`); `quality` has no leaderboard column,
  so its mean is taken over the scored items here, with pass@1 and pass@k (k = attempts
  allowed) beside it. The row's counts, rank and notes are the results' metadata.
- `stats`: started_at and completed_at are the first and last time a result of the model
  arrived (finished_utc: results.jsonl records no start time); model usage is the sum of
  the samples' (every call: candidate, evaluators, graders).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..folders import own_folder
from ..models.base import encodable
from ..schema.leaderboard import Leaderboard, Row
from ..schema.results import SCHEMA_VERSION, ItemResult
from . import leaderboard
from .history import settings_digest
from .inspect_sample import JsonDict, chosen_attempt, model_usage, sample
from .runs import Run, common_attempts
from .usage import item_calls
from .writer import RESULTS

INSPECT_LOG_VERSION = 2  # EvalLog.version of the JSON format written here
SCORER = "llmbench"


def _id(*parts: str) -> str:
    """A stable 22-character id (as long as Inspect's own) from the given parts."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:22]


def _slug(text: str) -> str:
    """A file-name part: Inspect's log names split on `_`, its ids on `-`."""
    return re.sub(r"[^A-Za-z0-9.-]+", "-", text).strip("-") or "run"


def _stamp(created: str) -> str:
    """The created time as Inspect's log names start: 2026-11-27T05-42-16+00-00."""
    moment = datetime.fromisoformat(created).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H-%M-%S+00-00")


def _sample_ids(items: Sequence[ItemResult]) -> list[str]:
    """Scenario-Dataset per item; a repeat (items of two scenario roots) gets #2, #3..."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for item in items:
        base = f"{item.scenario}-{item.dataset}" if item.dataset else item.scenario
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return ids


def _metric(name: str, value: float | None, interval: list[float] | None = None) -> JsonDict:
    metadata = {"ci": interval} if interval else None  # as leaderboard.json's `*_ci`
    return {"name": name, "value": value, "params": {}, "metadata": metadata}


def _quality_mean(items: Sequence[ItemResult]) -> float | None:
    """The mean quality of the scored items' chosen attempts (the samples' `quality`)."""
    attempts = [chosen_attempt(i) for i in items if i.status == "scored"]
    known = [a.quality for a in attempts if a is not None and a.quality is not None]
    return sum(known) / len(known) if known else None


def _eval_scores(row: Row, items: Sequence[ItemResult]) -> list[JsonDict]:
    """Per score name of the samples, its metrics: the leaderboard row's figures."""
    metrics: dict[str, list[JsonDict]] = {
        "accuracy": [_metric("mean", row.accuracy, row.accuracy_ci)],
        "completeness": [_metric("mean", row.completeness, row.completeness_ci)],
        "quality": [
            _metric("mean", _quality_mean(items)),
            _metric("pass_at_1", row.pass_at_1),
            _metric("pass_at_k", row.pass_at_k),
        ],
        "score": [_metric("mean", row.score, row.score_ci)],
        "functional_rate": [
            _metric("mean", row.functional_rate, row.functional_rate_ci),
            _metric("pass_at_1", row.functional_pass_at_1),
        ],
    }
    found = []
    for name, listed in metrics.items():
        known = {m["name"]: m for m in listed if m["value"] is not None}
        if known:
            found.append(
                {
                    "name": name,
                    "scorer": name,  # each figure is its own scorer, as the samples key it
                    "reducer": None,
                    "params": {},
                    "metrics": known,
                    "metadata": None,
                }
            )
    return found


def _results(row: Row, items: Sequence[ItemResult], board: Leaderboard) -> JsonDict:
    counts = ("items", "scored", "unscored", "errors", "skipped")
    return {
        "total_samples": row.items,
        "completed_samples": row.items - row.errors - row.skipped,
        "scores": _eval_scores(row, items),
        "metadata": {
            **{name: getattr(row, name) for name in counts},
            "confidence_level": board.confidence.level,
            "formula": row.formula,
            "rank": row.rank,
            "attempts": board.attempts,
            "pass_threshold": board.pass_threshold,
            "generation_rate": row.generation_rate,
            "notes": row.notes,
            "marks": row.marks,
        },
    }


def _setting(run: Run, key: str) -> Any:
    return run.settings.get(key)


def _dataset(run: Run, ids: list[str]) -> JsonDict:
    roots = _setting(run, "scenario_roots") or _setting(run, "merged_from") or []
    names = [str(r) for r in roots] if isinstance(roots, list) else [str(roots)]
    return {
        "name": ", ".join(Path(n).name for n in names) or run.folder.name,
        "location": ", ".join(names) or str(run.folder),
        "samples": len(ids),
        "sample_ids": ids,
        "shuffled": False,
    }


def _judging(run: Run) -> tuple[JsonDict, JsonDict]:
    """The judges and grader as Inspect's model roles, and our judging as its scorer."""
    listed = _setting(run, "judges")
    judges = [str(j) for j in listed] if isinstance(listed, list) else []
    grader = _setting(run, "grader") or (judges[0] if judges else None)
    roles: JsonDict = {f"judge{n}": {"model": j} for n, j in enumerate(judges, start=1)}
    if grader:
        roles["grader"] = {"model": grader}
    options = {
        "judges": judges,
        "grader": grader,
        "grader_samples": _setting(run, "grader_samples"),
        "structured_outputs": _setting(run, "structured_outputs"),
        "score_formula": run.formula,
        "what": "deterministic checks of the criteria; each evaluator's verdicts, graded "
        "1-4 by the grader for accuracy and completeness; hidden tests where the scenario "
        "has them",
    }
    return roles, {"name": f"{SCORER}/judging", "options": options, "metadata": None}


def _spec(run: Run, model: str, ids: list[str], attempts: int) -> JsonDict:
    created = run.created_utc
    run_id = _id(str(run.folder.resolve()), created)
    roles, scorer = _judging(run)
    commit = run.git_commit
    return {
        "run_id": run_id,
        "created": created,
        "task": f"{SCORER}/{run.folder.resolve().name}",
        "task_id": _id(run_id, model),
        "task_version": 0,
        "task_attribs": {},
        "task_args": {},
        "dataset": _dataset(run, ids),
        "model": model,
        "model_args": {},
        "model_roles": roles or None,
        "config": {"epochs": 1, "fail_on_error": False, "log_samples": True},
        "revision": {"type": "git", "origin": "", "commit": commit} if commit else None,
        "packages": {"pytest-llmbench": run.plugin_version} if run.plugin_version else {},
        "metadata": {
            "plugin_version": run.plugin_version,
            "results_schema_version": SCHEMA_VERSION,
            "settings_digest": settings_digest(run.settings) if run.settings else None,
            "score_formula": run.formula,
            "attempts": attempts,
            "report_dir": str(run.folder.resolve()),
        },
        "scorers": [scorer],
    }


def _plan(run: Run, attempts: int) -> JsonDict:
    generate = {
        key: _setting(run, key)
        for key in ("temperature", "max_tokens")
        if isinstance(_setting(run, key), int | float)
    }
    params = {"attempts": attempts, "feedback": bool(_setting(run, "feedback")), **generate}
    _, scorer = _judging(run)
    steps = [
        {"solver": f"{SCORER}/attempts", "params": params},
        {"solver": scorer["name"], "params": scorer["options"]},
    ]
    return {"name": "plan", "steps": steps, "finish": None, "config": generate}


def _stats(items: Sequence[ItemResult], created: str) -> JsonDict:
    times = sorted(i.finished_utc for i in items if i.finished_utc)
    usage = model_usage(c for i in items for c in item_calls(i))
    return {
        "started_at": times[0] if times else created,
        "completed_at": times[-1] if times else created,
        "model_usage": usage,
    }


def eval_logs(run: Run) -> dict[str, JsonDict]:
    """One Inspect log per candidate model of `run`, in the leaderboard's order."""
    attempts = common_attempts([run])
    board = leaderboard.build(run.items, attempts, run.formula)
    item_scores = leaderboard.scores(run.items, attempts, run.formula)
    logs: dict[str, JsonDict] = {}
    for row in board.models:
        chosen = [
            (i, s) for i, s in zip(run.items, item_scores, strict=True) if i.model == row.model
        ]
        items = [i for i, _ in chosen]
        ids = _sample_ids(items)
        logs[row.model] = {
            "version": INSPECT_LOG_VERSION,
            "status": "success",
            "eval": _spec(run, row.model, ids, attempts),
            "plan": _plan(run, attempts),
            "results": _results(row, items, board),
            "stats": _stats(items, run.created_utc),
            "error": None,
            "samples": [sample(i, n, s) for (i, s), n in zip(chosen, ids, strict=True)],
        }
    return logs


def _text(log: JsonDict) -> str:
    """The log as JSON text. A model's answer is hostile: a lone surrogate (a valid JSON
    escape, but no UTF-8) would make Inspect's reader refuse the whole log, so it becomes
    U+FFFD; every other character is kept."""
    return encodable(json.dumps(log, ensure_ascii=False) + "\n")


def write_logs(run: Run, out: Path) -> list[Path]:
    """Write `run`'s logs into the folder `out` (made if missing), one file per model, named
    as Inspect names its logs ({created}_{task}_{model}_{id}.json); returns their paths."""
    if out.exists() and not out.is_dir():
        raise FormatError(out, "", "is a file; -o takes a folder for the Inspect logs")
    if not run.items:
        raise FormatError(run.folder / RESULTS, "", "holds no item result to export")
    logs = eval_logs(run)
    written = []
    try:
        own_folder(out)
        for model, log in logs.items():
            spec = log["eval"]
            stamp, task = _stamp(spec["created"]), _slug(spec["task"])
            path = out / f"{stamp}_{task}_{_slug(model)}_{spec['task_id']}.json"
            path.write_text(_text(log), encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise FormatError(out, "", f"cannot be written ({exc.strerror or exc})") from None
    return written
