"""The bridge between pytest and the engine: start this process's items when collection
finishes, hand each item's fixture its own result, and close everything at the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .collection import CASE_KEY
from .errors import ConfigError
from .reporting.item_report import attach, has_result, reason_of
from .settings import settings_of

if TYPE_CHECKING:  # the engine pulls in the whole pipeline: imported once items run
    from .execution.engine import Engine, Job
    from .models.base import Model
    from .schema.results import ItemResult

_ENGINE_KEY = pytest.StashKey["Engine"]()
RESUMED_KEY = pytest.StashKey["set[str]"]()
# Why this process may not start model calls (a missing API key), once known.
_STOPPED_KEY = pytest.StashKey[str]()
PIPELINE_SECONDS = pytest.StashKey[float]()  # the item's own pipeline time, for its report


def _workerinput(config: pytest.Config) -> dict[str, Any] | None:
    return getattr(config, "workerinput", None)


def engine_of(config: pytest.Config) -> Engine:
    if _ENGINE_KEY not in config.stash:
        from .execution.engine import Engine
        from .execution.partition import SLOTS_INPUT

        settings = settings_of(config)
        winput = _workerinput(config) or {}
        config.stash[_ENGINE_KEY] = Engine(
            settings,
            lambda name: _made(
                name, config.hook.pytest_llmbench_make_model(name=name, settings=settings)
            ),
            workers=int(winput.get("workercount", 1)),
            run_id=winput.get("testrunuid"),
            shared_slots=Path(winput[SLOTS_INPUT]) if SLOTS_INPUT in winput else None,
            window=config.option.maxfail or None,  # -x, --maxfail: items in pytest's order
            say=_say(config),
            quiet=config.get_verbosity() < 0,
        )
    return config.stash[_ENGINE_KEY]


def _made(name: str, model: object) -> Model:
    """The model a pytest_llmbench_make_model hook returned, or one line saying it is none."""
    from .models.base import Model

    if not isinstance(model, Model):
        raise ConfigError(
            f"pytest_llmbench_make_model returned {type(model).__name__} for {name!r}: a model "
            "must subclass pytest_llmbench.Model (name, complete; see its docstring)"
        )
    return model


def resumed(config: pytest.Config) -> set[str]:
    """Items an earlier run already finished (empty unless --llm-resume)."""
    if RESUMED_KEY not in config.stash:
        from .execution.partition import RESUMED_INPUT

        winput = _workerinput(config) or {}
        config.stash[RESUMED_KEY] = set(winput.get(RESUMED_INPUT, ()))
    return config.stash[RESUMED_KEY]


def _job(item: pytest.Item, position: int = 0) -> Job:
    from .execution.engine import Job

    case, model = item.stash[CASE_KEY]
    return Job(item.nodeid, case, model, position)


def start(session: pytest.Session) -> None:
    """Start every item this process will run, unless it is only collecting."""
    config = session.config
    if config.option.collectonly or not any(CASE_KEY in i.stash for i in session.items):
        return
    from .execution.partition import PARTITION_INPUT, is_mine

    winput = _workerinput(config)
    done = resumed(config)
    mine = [
        (index, item)
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
    if not _within_estimate(session, done):
        return
    engine = engine_of(config)
    settings = engine.settings
    # With -x or --maxfail pytest waits for its items in order and stops at a failure: their
    # calls are served in that order (the limiter's own order keeps the slots busier).
    in_order = engine.in_order
    jobs = [_job(item, index if in_order else 0) for index, item in mine]
    # Every model of the run, so each xdist worker stops before its first call too.
    models = [*settings.models, *settings.judges, *([settings.grader] if settings.grader else [])]
    try:
        engine.check_credentials([*(job.model for job in jobs), *(models if jobs else [])])
    except ConfigError as exc:  # a missing API key
        if winput is None:
            pytest.exit(f"llmbench: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
        # An xdist worker cannot exit on its own: it stops after its first item, which
        # fails with this line, and the controller stops the run.
        config.stash[_STOPPED_KEY] = session.shouldstop = f"llmbench: {exc}"
        return
    engine.start(jobs)


def _say(config: pytest.Config) -> Callable[[str], None]:
    """Where the engine's lines go (--llm-batch): the terminal of a process that has one.
    An xdist worker's would be lost in its output: there the lines that say calls ran
    directly are kept for the controller's summary (send_stop_note), the progress dropped."""
    if _workerinput(config) is not None:
        kept = config.stash.setdefault(_WORKER_LINES, [])
        return lambda line: kept.append(line) if "directly" in line else None
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return lambda line: None
    return lambda line: reporter.write_line(line)


def _within_estimate(session: pytest.Session, done: set[str]) -> bool:
    """--llm-estimate: print the run's estimate and exit. --llm-budget-usd: False (and the
    run stopped with one line) when the low estimate is over the budget. Every process
    estimates all items (an xdist worker collects them all)."""
    config = session.config
    settings = settings_of(config)
    if not settings.estimate and settings.budget_usd is None:
        return True
    from .execution.estimate import estimate_items, over_budget, render

    selected = [
        i.stash[CASE_KEY] for i in session.items if CASE_KEY in i.stash and i.nodeid not in done
    ]
    estimate = estimate_items(selected, settings)
    if settings.estimate:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        for line in render(estimate, len(selected)):
            reporter.write_line(line) if reporter is not None else print(line)
        pytest.exit("llmbench: estimate only (--llm-estimate): no model was called", returncode=0)
    refusal = over_budget(estimate, settings.budget_usd or 0.0)
    if refusal is None:
        return True
    if _workerinput(config) is None:
        pytest.exit(f"llmbench: {refusal}", returncode=pytest.ExitCode.USAGE_ERROR)
    config.stash[_STOPPED_KEY] = session.shouldstop = f"llmbench: {refusal}"
    return False


def run(item: pytest.Item) -> tuple[ItemResult, float]:
    """The item's result and the seconds its own pipeline took (not the wait for it)."""
    stopped = item.config.stash.get(_STOPPED_KEY, None)
    if stopped:
        pytest.fail(stopped, pytrace=False)
    return engine_of(item.config).result(_job(item))


def unrun_result(item: pytest.Item, reason: str, skipped: bool) -> ItemResult:
    """The result of an item pytest reported without the pipeline's result."""
    from .execution.engine import unrun

    return unrun(_job(item), reason, "skipped" if skipped else "error")


def amend_report(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """A scenario item's report as pytest's own tools expect it: its own pipeline time
    (--durations, JUnit), a reason the short summary shows, and always a result."""
    if call.when == "setup" and PIPELINE_SECONDS in item.stash:
        report.duration = item.stash[PIPELINE_SECONDS]
        del item.stash[PIPELINE_SECONDS]
    if report.failed and call.excinfo is not None and isinstance(report.longrepr, str):
        # pytest.fail(pytrace=False) leaves a bare string: keep it an exception repr (no
        # traceback either way) so that `FAILED ... - reason` names the reason.
        report.longrepr = call.excinfo.getrepr(style="value")
    settled = report.when == "call" or not report.passed
    if settled and not has_result(report) and item.nodeid not in resumed(item.config):
        # e.g. pytest-timeout, a skip marker: the item is recorded all the same, with the reason.
        result = unrun_result(item, reason_of(report), report.skipped)
        attach(item, result, report)


def stop(config: pytest.Config, reason: str) -> None:
    """pytest will run no more items (-x, --maxfail, Ctrl-C, end of session): start no new
    model call and cancel the pipelines still pending."""
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.stop(reason)


_NOTES_KEY = pytest.StashKey["list[str]"]()
_NOTE_OUTPUT = "llmbench_stop_note"
_WORKER_LINES = pytest.StashKey["list[str]"]()  # an xdist worker's --llm-batch notices
_LINES_OUTPUT = "llmbench_batch_lines"


def stop_notes(config: pytest.Config) -> list[str]:
    """What stopping cancelled, in this process and in the xdist workers that have ended,
    and the workers' --llm-batch notices (each once)."""
    engine = config.stash.get(_ENGINE_KEY, None)
    own = engine.stop_note() if engine is not None else None
    return [*config.stash.get(_NOTES_KEY, []), *([own] if own else [])]


def send_stop_note(config: pytest.Config) -> None:
    output = getattr(config, "workeroutput", None)
    engine = config.stash.get(_ENGINE_KEY, None)
    note = engine.stop_note() if engine is not None else None
    if output is not None and note:
        output[_NOTE_OUTPUT] = f"{config.workerinput['workerid']}: {note}"  # type: ignore[attr-defined]
    lines = config.stash.get(_WORKER_LINES, [])
    if output is not None and lines:
        output[_LINES_OUTPUT] = list(lines)


def receive_stop_note(node: Any) -> None:
    output = getattr(node, "workeroutput", {})
    notes = node.config.stash.setdefault(_NOTES_KEY, [])
    note = output.get(_NOTE_OUTPUT)
    if note:
        notes.append(note)
    for line in output.get(_LINES_OUTPUT, ()):
        said = str(line).removeprefix("llmbench ")  # the summary says "llmbench: " itself
        if said not in notes:
            notes.append(said)


def close(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.close()
        del config.stash[_ENGINE_KEY]
