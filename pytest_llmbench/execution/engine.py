"""Runs the items of this process on the background loop, all at once, and hands each
pytest item its own result when its fixture asks.

Calls are bounded per model by the limiters, not by pytest: every item this process
will run is started when collection finishes, and the fixture only waits for its future.
An item that was not started up front (e.g. one xdist moved here from a crashed worker)
is started when its fixture asks.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass

from ..judging.judge import JudgeSetup
from ..models.base import Model
from ..models.litellm_model import supports_response_schema
from ..schema.results import ItemResult
from ..settings import Settings
from ..tasks.case import Case, Generation
from ..tasks.pipeline import run_item, summarise
from .budget import Ledger
from .cache import RequestCache
from .loop import submit
from .managed import CURRENT_ITEM, ItemState, ManagedModel, Services
from .retry import RetryPolicy


@dataclass(frozen=True)
class Job:
    nodeid: str
    case: Case
    model: str


class Engine:
    def __init__(
        self,
        settings: Settings,
        make_model: Callable[[str], Model],
        *,
        workers: int = 1,
        run_id: str | None = None,
    ) -> None:
        self.settings = settings
        self._make_model = make_model
        self.services = Services(
            # The limit is for the whole run: xdist workers share it out.
            concurrency=max(1, settings.concurrency // max(1, workers)),
            retry=RetryPolicy(max_retries=settings.max_retries, base_s=settings.retry_backoff),
            cache_mode=settings.cache,
            cache=RequestCache(settings.cache_dir) if settings.cache != "off" else None,
            prices=dict(settings.prices),
        )
        if settings.budget_usd is not None:
            self.services.ledger = Ledger(
                settings.report_dir, run_id or uuid.uuid4().hex, settings.budget_usd
            )
        self._models: dict[str, Model] = {}
        self._futures: dict[str, Future[ItemResult]] = {}
        self._schema_judges: dict[str, bool] = {}

    def model(self, name: str) -> Model:
        if name not in self._models:
            self._models[name] = ManagedModel(self._make_model(name), self.services)
        return self._models[name]

    def start(self, jobs: Iterable[Job], *, eager: bool = True) -> None:
        """Start the pipelines of these items (in this order) on the background loop."""
        for job in jobs:
            if job.nodeid in self._futures:
                continue
            # Models are made here, on the main thread: the hook may run user code.
            try:
                model = self.model(job.model)
                setup = self._judge_setup()
            except Exception:
                if not eager:
                    raise
                continue  # raised again in the item's own fixture, where it is that item's error
            self._futures[job.nodeid] = submit(self._run(job.case, model, setup))

    def result(self, job: Job) -> ItemResult:
        self.start([job], eager=False)
        return self._futures.pop(job.nodeid).result()

    def _judge_setup(self) -> JudgeSetup:
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
                mode == "auto" and supports_response_schema(judge)
            )
        return self._schema_judges[judge]

    async def _run(self, case: Case, model: Model, setup: JudgeSetup) -> ItemResult:
        s = self.settings
        gen = Generation(
            s.attempts, s.temperature, s.max_tokens, s.timeout, s.tool_protocol(model.name)
        )
        ledger = self.services.ledger
        if ledger is not None and ledger.exhausted():
            return _skipped(case, model, f"budget of {ledger.budget_usd:g} USD spent")
        state = ItemState()
        CURRENT_ITEM.set(state)  # this coroutine runs as its own task: the value stays here
        result = await run_item(case, model, gen, setup)
        if result.status == "error" and state.budget_stopped:
            result.status = "skipped"
            result.reason = f"budget of {s.budget_usd:g} USD spent (--llm-budget-usd)"
        return result

    def close(self) -> None:
        for future in self._futures.values():
            future.cancel()
        self._futures.clear()
        # Calls still running on the loop may touch these: close them from the loop itself.
        for resource in (self.services.cache, self.services.ledger):
            if resource is not None:
                submit(_close(resource))


async def _close(resource: RequestCache | Ledger) -> None:
    resource.close()


def _skipped(case: Case, model: Model, reason: str) -> ItemResult:
    result = summarise(case, model, [])
    result.status = "skipped"
    result.reason = reason + " (--llm-budget-usd)"
    return result
