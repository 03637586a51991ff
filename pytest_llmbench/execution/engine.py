"""Runs the items of this process on the background loop, all at once, and hands each
pytest item its own result when its fixture asks.

Calls are bounded per model by the limiters, not by pytest: every item this process
will run is started when collection finishes, and the fixture only waits for its future.
An item that was not started up front (e.g. one xdist moved here from a crashed worker)
is started when its fixture asks.

With a `window` (pytest's -x or --maxfail N) at most that many items run at once, taken
in pytest's order, and their calls are served in that order (Job.position): pytest
reports them in that order and stops at the N-th failure, so a stopped run has paid for
little beyond it. The price is the overlap of items, which keeps the slots busy.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from ..cpu import WAITED, close_processes
from ..judging.judge import JudgeSetup
from ..models.base import Model
from ..schema.results import ItemResult
from ..schema.vocabulary import ItemStatus
from ..settings import Settings
from ..tasks.case import Case, Generation
from ..tasks.pipeline import run_item, summarise
from .batch_table import BatchTable
from .batches import Batcher
from .budget import Ledger
from .cache import RequestCache
from .limiter import SHARED_SLOTS_AVAILABLE
from .loop import submit
from .managed import CURRENT_ITEM, ItemState, ManagedModel, Services
from .retry import RetryPolicy

# The pipelines' own time (an item's setup duration); tests give it a fake clock.
clock: Callable[[], float] = time.perf_counter


@dataclass(frozen=True)
class Job:
    nodeid: str
    case: Case
    model: str
    position: int = 0  # its calls' place in the limiters' order (ItemState.position)


class Engine:
    def __init__(
        self,
        settings: Settings,
        make_model: Callable[[str], Model],
        *,
        workers: int = 1,
        run_id: str | None = None,
        shared_slots: Path | None = None,
        window: int | None = None,
        say: Callable[[str], None] = print,
        quiet: bool = False,
    ) -> None:
        self.settings = settings
        self._window = window
        self._running: asyncio.Semaphore | None = None  # made on the loop, with the window
        self._make_model = make_model
        shared = shared_slots if SHARED_SLOTS_AVAILABLE else None
        self.services = Services(
            # The limit is for the whole run: xdist workers share its slots (or, where
            # file locks are missing, split it).
            concurrency=settings.concurrency
            if shared
            else max(1, settings.concurrency // max(1, workers)),
            shared_slots=shared,
            retry=RetryPolicy(max_retries=settings.max_retries, base_s=settings.retry_backoff),
            cache_mode=settings.cache,
            cache=RequestCache(settings.cache_dir) if settings.cache != "off" else None,
            prices=dict(settings.prices),
            # --llm-batch: `say` shows the batches' progress (the terminal, or nothing);
            # `quiet` (pytest -q) leaves out the states before a batch's last.
            batches=Batcher(
                BatchTable(settings.cache_dir),
                say,
                configured=frozenset(settings.prices),
                quiet=quiet,
            )
            if settings.batch
            else None,
        )
        if settings.budget_usd is not None:
            self.services.ledger = Ledger(
                settings.report_dir, run_id or uuid.uuid4().hex, settings.budget_usd
            )
        self._models: dict[str, Model] = {}
        self._futures: dict[str, Future[tuple[ItemResult, float]]] = {}
        self._states: dict[str, ItemState] = {}
        self._given: set[str] = set()  # items whose result was handed out (a rerun asks again)
        self._stop_reason: str | None = None
        self._cancelled: list[str] = []  # items stopped before they finished
        self._schema_judges: dict[str, bool] = {}

    @property
    def in_order(self) -> bool:
        """Whether items run in pytest's order (a window is set)."""
        return self._window is not None

    def model(self, name: str) -> Model:
        if name not in self._models:
            self._models[name] = ManagedModel(self._make_model(name), self.services)
        return self._models[name]

    def check_credentials(self, names: Iterable[str]) -> None:
        """Before the first call: a ConfigError when a model cannot be called (e.g. a real
        model's API key is not set; Model.check_credentials)."""
        for name in dict.fromkeys(names):
            try:
                model = self.model(name)
            except Exception:
                continue  # made again by the item, where the failure is that item's error
            model.check_credentials()

    def start(self, jobs: Iterable[Job], *, eager: bool = True) -> None:
        """Start the pipelines of these items (in this order) on the background loop."""
        for job in jobs:
            if job.nodeid in self._futures or self.services.stopped:
                continue
            # Models are made here, on the main thread: the hook may run user code.
            try:
                model = self.model(job.model)
                setup = self.judge_setup()
            except Exception:
                if not eager:
                    raise
                continue  # raised again in the item's own fixture, where it is that item's error
            # A second request for an item in this process is a rerun (pytest-rerunfailures):
            # it asks the models again instead of reading the cache.
            state = ItemState(fresh=job.nodeid in self._given, position=job.position)
            self._states[job.nodeid] = state
            self._futures[job.nodeid] = submit(self._timed(job.case, model, setup, state))

    def result(self, job: Job) -> tuple[ItemResult, float]:
        """The item's result and its pipeline's own seconds; any failure is the item's error."""
        try:
            self.start([job], eager=False)
        except Exception as exc:  # e.g. pytest_llmbench_make_model raised
            return unrun(job, f"model {job.model}: {type(exc).__name__}: {exc}"), 0.0
        self._given.add(job.nodeid)
        future = self._futures.pop(job.nodeid, None)
        if future is None:  # the run was stopped before this item started
            return unrun(job, f"not run: {self._stop_reason}"), 0.0
        try:
            return future.result()
        except BaseException:  # pytest-timeout, Ctrl-C: the pipeline stops with the item
            future.cancel()
            raise

    def stop(self, reason: str) -> None:
        """No new call starts from now on; pipelines not handed out yet are cancelled."""
        if self.services.stopped is None:
            self.services.stopped = reason
            self._stop_reason = reason
        for nodeid, future in list(self._futures.items()):
            if future.cancel() or not future.done():
                self._cancelled.append(nodeid)
        self._futures.clear()

    def stop_note(self) -> str | None:
        """One line for the terminal summary when a stop cancelled pipelines."""
        if not self._cancelled:
            return None
        untouched = sum(1 for n in self._cancelled if not self._states[n].calls)
        return (
            f"run stopped ({self._stop_reason}): {len(self._cancelled)} pending item(s) "
            f"cancelled, {untouched} of them before any model call; at least "
            f"{untouched * self.settings.attempts} candidate call(s) not made"
        )

    def judge_setup(self) -> JudgeSetup:
        s = self.settings
        return JudgeSetup(
            judges=tuple(self.model(j) for j in s.judges),
            grader=self.model(s.grader) if s.grader else None,
            grader_samples=s.grader_samples,
            timeout=s.timeout,
            judge_max_tokens=s.judge_max_tokens,
            grader_max_tokens=s.grader_max_tokens,
            structured=frozenset(j for j in s.judges if self._structured(j)),
        )

    def _structured(self, judge: str) -> bool:
        """Whether this judge is asked for its report under a JSON schema."""
        if judge not in self._schema_judges:
            mode = self.settings.structured_output(judge)
            self._schema_judges[judge] = mode == "schema" or (
                mode == "auto" and self.model(judge).takes_response_schema()
            )
        return self._schema_judges[judge]

    async def _timed(
        self, case: Case, model: Model, setup: JudgeSetup, state: ItemState
    ) -> tuple[ItemResult, float]:
        if self._window is None:
            return await self._measured(case, model, setup, state)
        if self._running is None:
            self._running = asyncio.Semaphore(self._window)
        async with self._running:  # first come (pytest's order: start()), first served
            return await self._measured(case, model, setup, state)

    async def _measured(
        self, case: Case, model: Model, setup: JudgeSetup, state: ItemState
    ) -> tuple[ItemResult, float]:
        start, waits = clock(), WAITED.set([])
        try:
            result = await self._run(case, model, setup, state)
            return result, max(0.0, clock() - start - sum(WAITED.get() or ()))
        finally:
            WAITED.reset(waits)

    async def _run(
        self, case: Case, model: Model, setup: JudgeSetup, state: ItemState
    ) -> ItemResult:
        s = self.settings
        gen = generation(s, model.name)
        ledger = self.services.ledger
        if ledger is not None and ledger.exhausted():
            return _skipped(case, model, f"budget of {ledger.budget_usd:g} USD spent")
        CURRENT_ITEM.set(state)  # this coroutine runs as its own task: the value stays here
        result = await run_item(case, model, gen, setup)
        if result.status == "error" and state.budget_stopped:
            result.status = "skipped"
            result.reason = f"budget of {s.budget_usd:g} USD spent (--llm-budget-usd)"
        return result

    def close(self) -> None:
        self.stop(self._stop_reason or "end of the session")
        # Calls still running on the loop may touch these: close them from the loop itself.
        submit(_close(self.services))
        close_processes()


async def _close(services: Services) -> None:
    services.close()


def generation(s: Settings, model: str) -> Generation:
    """How the settings ask `model` for its answers."""
    return Generation(
        s.attempts,
        s.temperature,
        s.max_tokens,
        s.timeout,
        s.tool_protocol(model),
        functional=s.functional,
        feedback=s.feedback,
    )


def unrun(job: Job, reason: str, status: ItemStatus = "error") -> ItemResult:
    """The result of an item whose pipeline did not run or did not finish."""
    result = summarise(job.case, job.model, [])
    result.status = status
    result.reason = reason
    return result


def _skipped(case: Case, model: Model, reason: str) -> ItemResult:
    result = summarise(case, model.name, [])
    result.status = "skipped"
    result.reason = reason + " (--llm-budget-usd)"
    return result
