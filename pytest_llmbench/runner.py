"""The bridge between pytest and the engine: start this process's items when collection
finishes, hand each item's fixture its own result, and close everything at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .collection import CASE_KEY
from .errors import ConfigError
from .execution.engine import Engine, Job
from .execution.partition import PARTITION_INPUT, RESUMED_INPUT, SLOTS_INPUT, is_mine
from .schema.results import ItemResult
from .settings import settings_of

_ENGINE_KEY = pytest.StashKey[Engine]()
RESUMED_KEY = pytest.StashKey["set[str]"]()
# Why this process may not start model calls (a missing API key), once known.
_STOPPED_KEY = pytest.StashKey[str]()


def _workerinput(config: pytest.Config) -> dict[str, Any] | None:
    return getattr(config, "workerinput", None)


def engine_of(config: pytest.Config) -> Engine:
    if _ENGINE_KEY not in config.stash:
        settings = settings_of(config)
        winput = _workerinput(config) or {}
        config.stash[_ENGINE_KEY] = Engine(
            settings,
            lambda name: config.hook.pytest_llmbench_make_model(name=name, settings=settings),
            workers=int(winput.get("workercount", 1)),
            run_id=winput.get("testrunuid"),
            shared_slots=Path(winput[SLOTS_INPUT]) if SLOTS_INPUT in winput else None,
        )
    return config.stash[_ENGINE_KEY]


def resumed(config: pytest.Config) -> set[str]:
    """Items an earlier run already finished (empty unless --llm-resume)."""
    if RESUMED_KEY not in config.stash:
        winput = _workerinput(config) or {}
        config.stash[RESUMED_KEY] = set(winput.get(RESUMED_INPUT, ()))
    return config.stash[RESUMED_KEY]


def _job(item: pytest.Item) -> Job:
    case, model = item.stash[CASE_KEY]
    return Job(item.nodeid, case, model)


def start(session: pytest.Session) -> None:
    """Start every item this process will run, unless it is only collecting."""
    config = session.config
    if config.option.collectonly or not any(CASE_KEY in i.stash for i in session.items):
        return
    winput = _workerinput(config)
    done = resumed(config)
    mine = [
        item
        for index, item in enumerate(session.items)
        if CASE_KEY in item.stash
        and item.nodeid not in done
        and (
            winput is None
            or (
                winput.get(PARTITION_INPUT)
                and is_mine(index, winput["workerid"], int(winput["workercount"]))
            )
        )
    ]
    engine = engine_of(config)
    settings = engine.settings
    jobs = [_job(item) for item in mine]
    # Every model of the run, so each xdist worker stops before its first call too.
    models = [*settings.models, *settings.judges, *([settings.grader] if settings.grader else [])]
    try:
        engine.check_credentials([*(job.model for job in jobs), *(models if jobs else [])])
    except ConfigError as exc:
        if winput is None:
            pytest.exit(f"llmbench: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
        # An xdist worker cannot exit on its own: it stops after its first item, which
        # fails with this line, and the controller stops the run.
        config.stash[_STOPPED_KEY] = session.shouldstop = f"llmbench: {exc}"
        return
    engine.start(jobs)


def run(item: pytest.Item) -> ItemResult:
    stopped = item.config.stash.get(_STOPPED_KEY, None)
    if stopped:
        pytest.fail(stopped, pytrace=False)
    return engine_of(item.config).result(_job(item))


def close(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.close()
        del config.stash[_ENGINE_KEY]
