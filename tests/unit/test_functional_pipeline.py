"""The functional step of the pipeline: the feedback message, criteria's tests_passed, the
item's figures, the feedback chain's rules, and hidden-test runs that never hold up the
event loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.cpu import WAITED
from pytest_llmbench.execution.cache import request_key
from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.scenario import load_scenario
from pytest_llmbench.functional import verify
from pytest_llmbench.functional.outcome import Run
from pytest_llmbench.functional.tripwire import Tripwire
from pytest_llmbench.judging.judge import JudgeSetup
from pytest_llmbench.models.base import Model, ModelRequest, TaskContext
from pytest_llmbench.models.offline import OfflineModel
from pytest_llmbench.schema.code import CodeMetrics
from pytest_llmbench.schema.functional import FunctionalResult, TestOutcome
from pytest_llmbench.schema.results import AttemptResult, MetricResult, StepResult
from pytest_llmbench.tasks import pipeline
from pytest_llmbench.tasks.attempt import ItemRun, measure
from pytest_llmbench.tasks.case import Case, Generation
from pytest_llmbench.tasks.feedback import (
    feedback_message,
    last_attempt,
    next_conversation,
)
from pytest_llmbench.tasks.functional import finish_tests, functional_figures, mark_tests
from pytest_llmbench.tasks.pipeline import run_attempt
from tests.functional_project import TEST_NAME, write_functional_project

HIDDEN = """\
test('lists the todos', async () => {
  const app = await openApp();
  assert.ok(app.queryByText('Buy milk'));
  assert.equal(app.mounts.createRoot, 1, 'mounted with createRoot');
});
"""


def outcome(name: str, passed: bool, message: str = "") -> TestOutcome:
    return TestOutcome(name=name, passed=passed, message=message)


def run_of(*tests: TestOutcome, error: str | None = None) -> FunctionalResult:
    passed = sum(t.passed for t in tests)
    rate = passed / len(tests) if tests and error is None else 0.0
    return FunctionalResult(
        runner="node",
        mode="acceptance",
        passed=passed,
        total=len(tests),
        tests=list(tests),
        rate=rate,
        error=error,
    )


def test_the_feedback_names_failing_tests_and_messages_but_never_test_code() -> None:
    result = run_of(
        outcome("adds a todo", True),
        outcome(
            "lists the todos",
            False,
            "The expression evaluated to a falsy value:\n\n  assert.ok(app.queryByText('Buy milk'))\n",
        ),
        outcome("mounts once", False, "mounted with createRoot\n\n0 !== 1\n"),
    )
    note = feedback_message(result, [HIDDEN])
    assert note is not None
    assert "2 of 3 failed" in note
    assert "1. lists the todos\n   The expression evaluated to a falsy value:" in note
    assert "2. mounts once\n   mounted with createRoot\n   0 !== 1" in note
    assert "adds a todo" not in note  # a passing test is not mentioned
    assert "queryByText" not in note  # node quoted the test's code: left out
    assert "complete corrected answer" in note
    # An answer whose code reads the hidden file and throws it as its error gets no line of it.
    leak = feedback_message(run_of(outcome("leaks", False, HIDDEN)), [HIDDEN]) or ""
    assert [line for line in HIDDEN.splitlines() if line.strip() in leak] == []
    assert "1. leaks\n   (no message)" in leak


def test_the_feedback_says_why_a_run_stopped_and_is_none_when_nothing_to_tell() -> None:
    stopped = run_of(outcome("a", True), error="the test run was stopped at the time limit")
    assert "did not finish: the test run was stopped at the time limit" in (
        feedback_message(stopped, []) or ""
    )
    assert feedback_message(run_of(outcome("a", True)), []) is None
    assert feedback_message(run_of(error="node's test packages are missing"), []) is None


def step(step_id: str) -> StepResult:
    return StepResult(id=step_id, metric="accuracy", criterion="c", weight=1.0)


def test_tests_passed_is_every_matching_test_and_unmatched_patterns_are_recorded() -> None:
    result = run_of(
        outcome("adds a todo", True),
        outcome("adds a todo with Enter", True),
        outcome("deletes a todo", False, "still there"),
    )
    steps = [step("A1"), step("A2"), step("A3"), step("C1")]
    patterns = {"A1": ("adds *",), "A2": ("adds a todo", "deletes*"), "A3": ("renames *",)}
    assert mark_tests(steps, patterns, result) == ["A3: renames *"]
    assert [s.tests_passed for s in steps] == [True, False, None, None]
    # A run with an error: no execution verdict, and no pattern can be said to be unused.
    broken = run_of(outcome("adds a todo", True), error="stopped at the time limit")
    steps = [step("A1"), step("A3")]
    assert mark_tests(steps, patterns, broken) == []
    assert [s.tests_passed for s in steps] == [None, None]


def attempt(number: int, functional: FunctionalResult | None, quality: float) -> AttemptResult:
    metric = MetricResult(value=1 + 3 * quality)
    return AttemptResult(
        attempt=number,
        answer=f"answer {number}",
        answer_latency_s=0.1,
        accuracy=metric,
        completeness=metric,
        quality=quality,
        steps=[],
        functional=functional,
    )


def test_item_figures() -> None:
    failed, half = run_of(outcome("a", False)), run_of(outcome("a", True), outcome("b", False))
    passed = run_of(outcome("a", True))
    attempts = [attempt(1, failed, 0.5), attempt(2, half, 0.5), attempt(3, passed, 0.5)]
    assert functional_figures(attempts, feedback=True) == (pytest.approx(0.5), False, True, False)
    assert functional_figures(attempts, feedback=False) == (pytest.approx(0.5), False, None, False)
    assert functional_figures([attempt(1, passed, 1.0)], False) == (1.0, True, None, False)
    assert functional_figures([attempt(1, None, 1.0)], True) == (None, None, None, False)


def tampered(run: FunctionalResult, evidence: str) -> FunctionalResult:
    """`run` as a runner hands it over once a tripwire fired: its tests' report kept."""
    return run.model_copy(update={"tampered": True, "tamper_evidence": [evidence]})


def test_a_tampered_run_rates_0_passes_nothing_and_marks_the_item() -> None:
    forged = tampered(run_of(outcome("a", True), outcome("b", True)), "canary must-fail passed")
    assert forged.rate == 1.0  # as handed over: the runner's copy kept the forged rate
    # Built or read, the schema gives a tampered run no credit.
    assert FunctionalResult.model_validate(forged.model_dump()).rate == 0.0
    finished = asyncio.run(finish(forged))
    assert (finished.rate, finished.all_passed) == (0.0, False)
    assert finished.tamper_evidence == ["canary must-fail passed"]
    honest = run_of(outcome("a", True))
    first = [attempt(1, finished, 1.0), attempt(2, honest, 1.0)]
    # Attempt 1 tampered: rate 0 in the mean, not pass@1; attempt 2 still counts.
    assert functional_figures(first, feedback=True) == (0.5, False, True, True)
    assert functional_figures([attempt(1, honest, 1.0)], True).tampered is False


async def finish(result: FunctionalResult) -> FunctionalResult:
    running: asyncio.Future[FunctionalResult] = asyncio.get_running_loop().create_future()
    running.set_result(result)
    steps = [step("A1")]
    done = await finish_tests(running, steps, {"A1": ("a",)}, feedback=False)
    assert done is not None
    assert steps[0].tests_passed is None  # forged outcomes give no execution verdict
    assert done.unmatched == []
    return done


def test_a_tampered_run_gives_the_model_no_feedback(case: Case) -> None:
    # A run with a failing test would be fed back; marked tampered it is not, and the
    # next attempt starts afresh: neither the evidence nor any test name reaches the model.
    canary = "llmbench_canary_3f9a_must_fail"
    run = run_of(outcome("adds a todo", False, "expected 1"), outcome(canary, True))
    assert "adds a todo" in (feedback_message(run, []) or "")
    marked = tampered(run, f"must-fail canary {canary} passed")
    assert feedback_message(marked, []) is None
    gen = Generation(3, None, None, 10.0, feedback=True)
    asked = tuple(case.messages())
    assert next_conversation(case, gen, asked, attempt(1, run, 0.5))[1] is True
    messages, fed = next_conversation(case, gen, asked, attempt(1, marked, 0.5))
    assert (messages, fed) == (asked, False)
    assert canary not in repr(messages) and "tamper" not in repr(messages)


@pytest.fixture
def case(tmp_path: Path) -> Case:
    root = write_functional_project(tmp_path)
    scenario = load_scenario(
        root / "scenarios" / "generation" / "GreetTested.yaml", DatasetIndex(root / "datasets")
    )
    return Case(scenario, scenario.datasets[0])


async def _attempt(run: ItemRun) -> AttemptResult:
    """Attempt 1 of `run`, whole (its code metrics and hidden tests ended)."""
    return await (await run_attempt(run, 1)).result()


def test_the_feedback_chain_continues_the_conversation_and_ends_at_a_pass(case: Case) -> None:
    chained = Generation(3, None, None, 10.0, feedback=True)
    plain = Generation(3, None, None, 10.0)
    asked = tuple(case.messages())
    failing = attempt(1, run_of(outcome(TEST_NAME, False, "no greet")), quality=1.0)
    messages, fed = next_conversation(case, chained, asked, failing)
    assert fed and messages[: len(asked)] == asked
    assert messages[len(asked)] == {"role": "assistant", "content": "answer 1"}
    assert TEST_NAME in messages[-1]["content"] and "no greet" in messages[-1]["content"]
    assert next_conversation(case, plain, asked, failing) == (asked, False)
    # With feedback the item ends at the first run passing every test, whatever its
    # quality; without, at the best quality as before.
    passing = attempt(2, run_of(outcome(TEST_NAME, True)), quality=0.5)

    def last(gen: Generation, done: AttemptResult) -> bool:
        return last_attempt(case, gen, done.quality, done.functional)

    assert not last(chained, failing) and last(chained, passing)
    assert last(plain, failing) and not last(plain, passing)


def test_the_request_cache_keys_a_feedback_request_on_its_whole_conversation(
    case: Case,
) -> None:
    def request(note: str) -> ModelRequest:
        messages = (
            *case.messages(),
            {"role": "assistant", "content": "answer"},
            {"role": "user", "content": note},
        )
        return ModelRequest(messages=messages, role="candidate", attempt=2)

    keys = {request_key("openai/m", None, request(n)) for n in ("1. a\n   x", "1. a\n   y")}
    plain = ModelRequest(messages=tuple(case.messages()), role="candidate", attempt=2)
    assert len(keys | {request_key("openai/m", None, plain)}) == 3


def test_hidden_tests_run_off_the_loop_while_other_calls_go_on(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner blocks until another item's model call has been answered: were it run
    on the event loop, that call could never be made (the runner gives up after 30 s)."""
    seen: dict[str, bool] = {}

    async def scenario() -> AttemptResult:
        loop = asyncio.get_running_loop()
        started, answered = asyncio.Event(), threading.Event()

        def runner(
            workspace: Path, hidden: Path, timeout: float, *, processes: int | None = None
        ) -> Run:
            seen["app"] = (workspace / "src" / "app.js").read_text().count("greet") > 0
            loop.call_soon_threadsafe(started.set)
            seen["other call answered"] = answered.wait(timeout=30)
            return Run((outcome(TEST_NAME, True),))

        monkeypatch.setitem(verify.RUNNERS, "node", runner)
        monkeypatch.setattr(verify, "arm_hidden", lambda runner, hidden: Tripwire())  # no canary
        setup = JudgeSetup(judges=(), grader=None, grader_samples=1, timeout=10.0)
        gen = Generation(1, None, None, 10.0)
        reference = OfflineModel("llmbench/reference")
        running = asyncio.ensure_future(_attempt(ItemRun(case, reference, gen, setup)))
        # a check that never starts (it failed first) fails the test, not hangs it
        await asyncio.wait_for(started.wait(), timeout=60)
        other = ModelRequest(
            messages=(), role="candidate", task=TaskContext(case.scenario, case.dataset)
        )
        await OfflineModel("llmbench/echo").complete(other)
        answered.set()
        return await running

    result = asyncio.run(scenario())
    assert seen == {"app": True, "other call answered": True}
    assert result.functional is not None and result.functional.rate == 1.0
    assert [s.tests_passed for s in result.steps] == [True, None]


def test_checks_run_off_the_loop_while_other_calls_go_on(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check blocks until another item's model call has been answered: were checks run
    on the event loop, that call could never be made (the check gives up after 30 s)."""
    seen: dict[str, bool] = {}

    async def scenario() -> AttemptResult:
        loop = asyncio.get_running_loop()
        started, answered = asyncio.Event(), threading.Event()
        real = pipeline.run_check

        def check(step_check: Any, answer: str, cache_dir: Any = None) -> Any:
            loop.call_soon_threadsafe(started.set)
            seen.setdefault("other call answered", answered.wait(timeout=30))
            return real(step_check, answer, cache_dir)

        monkeypatch.setattr(pipeline, "run_check", check)
        monkeypatch.setitem(
            verify.RUNNERS, "node", lambda *a, **k: Run((outcome(TEST_NAME, True),))
        )
        monkeypatch.setattr(verify, "arm_hidden", lambda runner, hidden: Tripwire())  # no canary
        setup = JudgeSetup(judges=(), grader=None, grader_samples=1, timeout=10.0)
        running = asyncio.ensure_future(
            _attempt(
                ItemRun(
                    case, OfflineModel("llmbench/reference"), Generation(1, None, None, 10.0), setup
                )
            )
        )
        # a check that never starts (it failed first) fails the test, not hangs it
        await asyncio.wait_for(started.wait(), timeout=60)
        other = ModelRequest(
            messages=(), role="candidate", task=TaskContext(case.scenario, case.dataset)
        )
        await OfflineModel("llmbench/echo").complete(other)
        answered.set()
        return await running

    result = asyncio.run(scenario())
    assert seen == {"other call answered": True}
    assert result.quality == 1.0  # the checks' verdicts, as without the wait


def test_a_runner_that_cannot_start_is_one_error_line(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    def runner(
        workspace: Path, hidden: Path, timeout: float, *, processes: int | None = None
    ) -> Run:
        raise FileNotFoundError(2, "No such file or directory", "node")

    monkeypatch.setitem(verify.RUNNERS, "node", runner)
    setup = JudgeSetup(judges=(), grader=None, grader_samples=1, timeout=10.0)
    gen = Generation(1, None, None, 10.0)
    run = ItemRun(case, OfflineModel("llmbench/reference"), gen, setup)
    result = asyncio.run(_attempt(run))
    assert result.functional is not None
    assert result.functional.error == (
        "the hidden tests could not run: No such file or directory (node)"
    )
    assert result.quality == 1.0  # judged (here: checked) all the same


def test_identical_answers_share_one_hidden_test_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another attempt with the same files (or the echo model's unchanged dataset) does not
    run the same code again; a different answer does."""
    import asyncio

    from pytest_llmbench.formats.functional import Functional, HiddenFile
    from pytest_llmbench.functional import verify as verify_module
    from pytest_llmbench.schema.functional import FunctionalResult

    runs: list[list[tuple[str, str]]] = []

    def fake_run(
        functional: object, dataset: object, files: list[tuple[str, str]]
    ) -> FunctionalResult:
        runs.append(files)
        return FunctionalResult(runner="node", mode="acceptance", passed=1, total=1, rate=1.0)

    monkeypatch.setattr(verify_module, "run_functional", fake_run)
    functional = Functional("node", "acceptance", "dataset", 60.0, (HiddenFile("a.test.mjs", "x"),))

    async def three() -> list[FunctionalResult]:
        same = [("src/app.js", "one")]
        return await asyncio.gather(
            verify_module.verify(functional, None, same),
            verify_module.verify(functional, None, list(same)),
            verify_module.verify(functional, None, [("src/app.js", "two")]),
        )

    first, second, third = asyncio.run(three())
    assert runs == [[("src/app.js", "one")], [("src/app.js", "two")]]
    assert first == second == third and first is not second  # each caller its own copy


def test_the_pools_share_the_cores_among_xdist_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pytest_llmbench.cpu import cores_per_worker

    monkeypatch.setattr("os.cpu_count", lambda: 4)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    assert cores_per_worker() == 4
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    assert cores_per_worker() == 2
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "8")
    assert cores_per_worker() == 1
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "two")
    assert cores_per_worker() == 4


def test_mutation_feedback_names_own_failures_then_the_bugs_left_uncaught() -> None:
    from pytest_llmbench.schema.functional import FunctionalResult, MutantOutcome, TestOutcome
    from pytest_llmbench.tasks.feedback import feedback_message

    failing = FunctionalResult(
        runner="vitest", mode="mutation", passed=1, total=2,
        tests=[TestOutcome(name="adds", passed=True),
               TestOutcome(name="wraps around", passed=False, message="expected 0, got 3")],
    )  # fmt: skip
    note = feedback_message(failing, [])
    assert note is not None and "code as given" in note and "1 of 2 failed" in note
    assert "wraps around" in note and "expected 0, got 3" in note and "hidden" not in note
    survivors = FunctionalResult(
        runner="vitest", mode="mutation", passed=2, total=2, rate=0.5,
        tests=[TestOutcome(name="adds", passed=True), TestOutcome(name="wraps", passed=True)],
        mutants=[MutantOutcome(id="M1", description="off by one in wrap", killed=False),
                 MutantOutcome(id="M2", description="flipped filter", killed=True)],
    )  # fmt: skip
    note = feedback_message(survivors, [])
    assert note is not None and "1 of 2 small bugs" in note
    assert "off by one in wrap" in note and "flipped filter" not in note
    assert not survivors.all_passed
    every = survivors.model_copy(update={"mutants": [survivors.mutants[1]], "rate": 1.0})
    assert every.all_passed and feedback_message(every, []) is None


def test_each_call_carries_its_items_remaining_chain(case: Case) -> None:
    """Attempt n of 3 (candidate -> evaluator -> graders): 2 + 3(3 - n), then one less
    per stage; the limiter serves the waiting call with the longest chain first."""
    from pytest_llmbench.models.base import CALLS_AFTER, ModelReply
    from pytest_llmbench.tasks.pipeline import run_item
    from tests.llm_server import FakeLLMServer

    server = FakeLLMServer()  # its answers, without HTTP
    server.policy.verdict = lambda sid, text, answer: False  # no attempt is the best one
    seen: list[tuple[str, int]] = []

    class Recording(Model):
        name = "recording"
        offline = False

        async def complete(self, request: ModelRequest) -> ModelReply:
            seen.append((request.role, CALLS_AFTER.get()))
            body = {"messages": list(request.messages), "model": self.name}
            text = server.reply(body)["choices"][0]["message"]["content"]
            return ModelReply(model=self.name, text=text, latency_s=0.0)

    model = Recording()
    setup = JudgeSetup(judges=(model,), grader=None, grader_samples=1, timeout=10.0)
    result = asyncio.run(run_item(case, model, Generation(3, None, None, 10.0, False), setup))
    assert len(result.attempts) == 3
    expected = {
        (role, 3 * (3 - n) + later)
        for n in (1, 2, 3)
        for role, later in (("candidate", 2), ("evaluator", 1), ("grader", 0))
    }
    assert set(seen) == expected


def test_without_bubblewrap_the_hidden_tests_are_not_run_and_say_so(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_llmbench.toolchain import confine

    ran: list[Path] = []
    monkeypatch.setattr(confine, "bubblewrap", lambda: None)
    monkeypatch.setitem(verify.RUNNERS, "node", lambda work, hidden, timeout: ran.append(work))
    functional = case.scenario.functional_for(case.dataset)
    assert functional is not None
    result = verify.run_functional(functional, case.dataset, [("src/app.js", "export {}")])
    assert result.unavailable and result.total == 0 and ran == []
    assert result.error is not None and "bubblewrap" in result.error
    assert len(result.error.splitlines()) == 1


def test_every_attempt_kind_measures_against_the_items_one_baseline(case: Case) -> None:
    """tasks.attempt.measure (single-shot answers and dialogs alike) uses the baseline the
    item computed once, instead of reading the dataset again."""
    setup = JudgeSetup(judges=(), grader=None, grader_samples=1, timeout=10.0)
    gen = Generation(1, None, None, 10.0)
    answer = "### src/app.js\n```javascript\nexport function greet(n) { return n; }\n```\n"

    async def measured(baseline: float | None) -> CodeMetrics:
        future: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
        future.set_result(baseline)
        return await measure(
            ItemRun(case, OfflineModel("llmbench/echo"), gen, setup, future), answer
        )

    given = asyncio.run(measured(0.25))
    assert case.scenario.reference_for(case.dataset) is not None
    assert given.similarity_baseline == 0.25 and given.similarity is not None
    assert given.similarity_normalised == round((given.similarity - 0.25) / 0.75, 4)
    assert asyncio.run(measured(None)).similarity_baseline != 0.25  # computed from the dataset


class _Clock:
    """A fake monotonic clock for verify: it moves only when the test's run says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


def test_the_wait_for_the_test_pool_is_counted_as_waiting_not_as_the_items_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--durations` gives an item's own time: what verify spent waiting for a slot of the
    test pool (here 5 s on the fake clock, beside a 2 s run) goes to the item's waits."""
    clock = _Clock()
    monkeypatch.setattr(verify, "time", clock)

    def run_functional(functional: object, dataset: object, files: object) -> FunctionalResult:
        clock.now += 7.0  # 5 s in the pool's queue, then the run's own 2 s
        return FunctionalResult(runner="node", mode="acceptance", seconds=2.0)

    monkeypatch.setattr(verify, "run_functional", run_functional)
    functional = load_scenario(
        Path(__file__).parents[2] / "scenarios/migration/UpdateReact.yaml",
        DatasetIndex(Path(__file__).parents[2] / "datasets"),
    ).functional["ToDoApp_ReactJS"]

    async def item() -> list[float]:
        waits: list[float] = []
        WAITED.set(waits)
        await verify.verify(functional, None, [("src/waits.js", "export {}")])
        return waits

    assert asyncio.run(item()) == [5.0]
    assert WAITED.get() is None  # outside an item nothing is counted


def test_a_toolchain_gone_since_an_earlier_run_of_the_same_answer_is_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """verify shares a run among identical inputs, but never hands out one made while the
    runner's toolchain was there once it is gone: the check is unavailable, not passed."""
    functional = load_scenario(
        Path(__file__).parents[2] / "scenarios/migration/UpdateReact.yaml",
        DatasetIndex(Path(__file__).parents[2] / "datasets"),
    ).functional["ToDoApp_ReactJS"]
    ran = FunctionalResult(runner="node", mode="acceptance", passed=1, total=1, rate=1.0)
    monkeypatch.setattr(verify, "run_functional", lambda *args: ran)
    monkeypatch.setitem(verify.MISSING, "node", lambda: None)
    files = [("src/gone.js", "export {}")]

    async def twice() -> tuple[FunctionalResult, FunctionalResult]:
        first = await verify.verify(functional, None, files)
        monkeypatch.setitem(verify.MISSING, "node", lambda: "node is not installed")
        return first, await verify.verify(functional, None, files)

    first, second = asyncio.run(twice())
    assert first.rate == 1.0 and not first.unavailable
    assert second.unavailable and second.error == "node is not installed"
