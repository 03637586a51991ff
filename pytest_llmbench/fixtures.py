"""The plugin's fixtures. `llmbench_result` belongs to scenario items; `llm_complete` and
`llm_judge` are for a team's ordinary tests. Heavy modules are imported when a fixture is
used, never when the plugin loads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from . import runner
from .collection import CASE_KEY
from .redaction import redact
from .reporting.item_report import attach, attach_calls
from .settings import settings_of

if TYPE_CHECKING:
    from .models.base import ModelReply
    from .schema.results import CallRecord, ItemResult
    from .tasks.freeform import Judged


@pytest.fixture
def llmbench_result(request: pytest.FixtureRequest) -> ItemResult:
    """The item's scenario x dataset x model result (run on the background loop), recorded
    on the report. Scenario items only."""
    from .execution.resume import RESUME_REASON

    item = request.node
    if CASE_KEY not in item.stash:
        pytest.fail(
            "llmbench_result belongs to scenario items (YAML files under llm_scenarios); "
            "in an ordinary test use the llm_complete or llm_judge fixture",
            pytrace=False,
        )
    if item.nodeid in runner.resumed(request.config):
        pytest.skip(RESUME_REASON)  # its stored result is already in the report
    result, seconds = runner.run(item)
    item.stash[runner.PIPELINE_SECONDS] = seconds
    attach(item, result)
    if result.status == "error":
        pytest.fail(redact(result.reason or "error"), pytrace=False)  # in setup: an error
    if result.status == "skipped":
        pytest.skip(redact(result.reason or "skipped"))
    return result


_CALLS_KEY = pytest.StashKey["list[CallRecord]"]()


def _recorder(request: pytest.FixtureRequest) -> Callable[[Sequence[CallRecord]], None]:
    """Keep the test's calls (of every fixture) on its report, for the run's usage summary."""
    item = request.node
    calls = item.stash.setdefault(_CALLS_KEY, [])

    def record(new: Sequence[CallRecord]) -> None:
        calls.extend(new)
        attach_calls(item, calls)

    return record


def _wait(coro: Any) -> Any:
    from .errors import RunError
    from .execution.loop import submit

    try:
        return submit(coro).result()
    except RunError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def llm_complete(request: pytest.FixtureRequest) -> Callable[..., ModelReply]:
    """`llm_complete(prompt, *, model=None, system=None, temperature=None, max_tokens=None)`
    asks a model (default: the first --llm-model) through the run's engine: request cache,
    retries, concurrency limit, prices and --llm-budget-usd apply, and the call counts in
    the run's usage summary. Returns the reply (`.text`, `.prompt_tokens`, `.cost_usd`, ...)."""
    from .judging.judge import call_record
    from .tasks.freeform import complete_text

    settings = settings_of(request.config)
    engine = runner.engine_of(request.config)
    record = _recorder(request)

    def complete(
        prompt: str,
        *,
        model: str | None = None,
        system: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> ModelReply:
        managed = engine.model(model or settings.models[0])
        reply: ModelReply = _wait(
            complete_text(
                managed,
                prompt,
                system=system,
                temperature=temperature,
                max_tokens=max_tokens,
                timeout=settings.timeout,
            )
        )
        record([call_record("candidate", reply)])
        return reply

    return complete


@pytest.fixture
def llm_judge(request: pytest.FixtureRequest) -> Callable[..., Judged]:
    """`llm_judge(answer, *, accuracy=[...], completeness=[...], task="")` asks the run's
    judges (--llm-judge, graded by --llm-grader) whether `answer` meets each criterion and
    returns the verdicts and grades: `.accuracy` and `.completeness` (1-4), `.quality`
    ((Acc + Compl)/8), `.verdicts` (criterion -> majority verdict), `.steps`, `.reports`."""
    from .tasks.freeform import criterion_steps, judge_text

    settings = settings_of(request.config)
    if not settings.judges:
        pytest.fail(
            "llm_judge needs at least one judge model: give --llm-judge (or ini llm_judge)",
            pytrace=False,
        )
    engine = runner.engine_of(request.config)
    setup = engine.judge_setup()
    record = _recorder(request)

    def judge(
        answer: str,
        *,
        accuracy: Sequence[str] = (),
        completeness: Sequence[str] = (),
        task: str = "",
    ) -> Judged:
        steps = criterion_steps(accuracy, completeness)
        if not steps:
            pytest.fail("llm_judge: give at least one accuracy or completeness criterion")
        judged: Judged = _wait(judge_text(answer, task, steps, setup))
        record(judged.calls)
        return judged

    return judge
