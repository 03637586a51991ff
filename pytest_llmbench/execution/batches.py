"""--llm-batch: calls gathered into provider batches, submitted once, polled until done.

A batchable call (models.base.BATCHABLE: single-shot items) of a model with a batch API
(Model.batch_api) joins the open gathering of its model and role; the gathering closes
once no call has joined for GATHER_QUIET_S (or GATHER_MAX_S after its first call), and
its calls go out as one batch. Items start together, so their candidate calls, and then
each judging stage's calls, arrive within a short spread: waiting a second more for
stragglers costs nothing beside a batch's own wait (minutes to hours) and saves a batch.

The batch is noted in the cache dir (execution/batch_table.py) under a tag of ours before
it is submitted (the tag goes into its metadata where the provider keeps one), and
under its id once created, so a run killed while it is pending (or being created) finds
it again by the same request key, and by the tag in the provider's list if need be, and
polls it instead of submitting it again. Polls back off from POLL_FIRST_S to POLL_MAX_S. A batch
that fails, expires, is cancelled or cannot be read is one line, and its calls run
directly (as do lines whose result is an error: the direct call has the retries and
the response-format fallback). A model without a batch API is one line per run, and
its calls run directly. Progress is a line per batch when its state changes, and at
most every PROGRESS_EVERY_S while it stays the same (with pytest -q: its final state only).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..errors import ModelError
from ..models.base import BatchAPI, BatchState, LineResult, Model, ModelReply, ModelRequest
from .batch_table import BatchTable

Say = Callable[[str], None]


GATHER_QUIET_S = 1.0
GATHER_MAX_S = 10.0
POLL_FIRST_S = 1.0
POLL_MAX_S = 60.0
PROGRESS_EVERY_S = 30.0


@dataclass(frozen=True)
class BatchTiming:
    """The module's constants, replaceable by tests."""

    gather_quiet_s: float = GATHER_QUIET_S
    gather_max_s: float = GATHER_MAX_S
    poll_first_s: float = POLL_FIRST_S
    poll_max_s: float = POLL_MAX_S
    progress_every_s: float = PROGRESS_EVERY_S
    # Transient failures to read a batch's state in a row before it counts as unreadable.
    poll_failures: int = 5


# What a batch gave back: its id, its lines' results (None: the batch gave none), and
# when this run started waiting for it.
Outcome = tuple[str, dict[str, LineResult] | None, float]


@dataclass
class _Gathering:
    model: str
    role: str
    api: BatchAPI
    first: float
    last: float
    # request key (each line's custom_id) -> request; an identical request shares its line
    calls: dict[str, ModelRequest] = field(default_factory=dict)
    done: asyncio.Future[Outcome] | None = None


class Batcher:
    def __init__(
        self,
        table: BatchTable,
        say: Say,
        timing: BatchTiming = BatchTiming(),
        clock: Callable[[], float] = time.monotonic,
        configured: frozenset[str] = frozenset(),
        quiet: bool = False,
    ) -> None:
        self.table = table
        self._say = say
        self._configured = configured  # models with a --llm-price: it wins over batch rates
        self._quiet = quiet  # pytest -q: a batch's progress is its final state only
        self.timing = timing
        self._clock = clock
        self._apis: dict[str, BatchAPI | None] = {}
        self._open: dict[tuple[str, str], _Gathering] = {}
        self._polls: dict[str, asyncio.Future[dict[str, LineResult] | None]] = {}
        self._refused: set[str] = set()  # models whose provider refused a batch this run
        self._dialogs: set[str] = set()  # models whose dialog calls were said to run directly
        self._submitting: dict[str, asyncio.Future[Outcome]] = {}  # tag -> its gathering
        self._adopting: dict[str, asyncio.Future[str | None]] = {}  # tag -> batch found

    def close(self) -> None:
        self.table.close()

    def api(self, model: Model) -> BatchAPI | None:
        """The model's batch API; None (said once per model and run) when it has none."""
        if model.name not in self._apis:
            try:
                api = model.batch_api()
            except Exception as exc:  # a plugin's model: no batch then
                api, why = None, f"{type(exc).__name__}: {exc}"
            else:
                why = (
                    "an offline model has no batch API"
                    if model.offline
                    else "its provider has no batch API that litellm can submit to"
                )
            self._apis[model.name] = api
            if api is None:
                self._say(f"llmbench batch: {model.name}: {why}; its calls run directly")
        return self._apis[model.name]

    def in_dialog(self, model: str) -> None:
        """A dialog's call: direct, said once per model and run."""
        if model not in self._dialogs:
            self._dialogs.add(model)
            self._say(
                f"llmbench batch: {model}: dialog items call directly (each turn answers the last)"
            )

    async def complete(
        self, model: Model, request: ModelRequest, key: Callable[[], str]
    ) -> ModelReply | None:
        """The reply through a batch; None when the call is to run directly instead."""
        api = self.api(model)
        if api is None or model.name in self._refused:
            return None
        api.admit(request)  # e.g. a prompt over the window: raised to the caller, as directly
        request_key = key()  # also each line's custom_id
        batch_id, results, started = await self._outcome(api, model.name, request, request_key)
        line = results.get(request_key) if results is not None else None
        if line is None or line.body is None:
            return None
        try:
            reply = api.reply(request, line.body, max(0.0, self._clock() - started))
        except ModelError as exc:  # a line that is no usable reply: as a line's error
            self._say(f"llmbench batch {model.name}: {batch_id}: {exc}; the call runs directly")
            return None
        return replace(reply, batch_id=batch_id)

    async def _outcome(self, api: BatchAPI, model: str, request: ModelRequest, key: str) -> Outcome:
        """The batch answering this request: one noted earlier (by this run, or by a run
        that was stopped), else the open gathering's."""
        found = self.table.pending(key, model)
        batch_id = found[0] if found is not None else None
        if found is not None and found[2] == "submitting":  # noted, perhaps never created
            own = self._submitting.get(found[0])
            if own is not None:
                return await asyncio.shield(own)
            batch_id = await asyncio.shield(self._adopt(api, model, found[0]))
        if batch_id is None:
            return await asyncio.shield(self._join(api, model, request, key))
        started = self._clock()
        return batch_id, await asyncio.shield(self._poll(api, model, batch_id)), started

    def _adopt(self, api: BatchAPI, model: str, tag: str) -> asyncio.Future[str | None]:
        if tag not in self._adopting:
            self._adopting[tag] = asyncio.ensure_future(self._found(api, model, tag))
        return self._adopting[tag]

    async def _found(self, api: BatchAPI, model: str, tag: str) -> str | None:
        """The provider's batch a stopped run noted under `tag` before it was created;
        None (said, and the note dropped) when the provider has none."""
        try:
            batch_id = await api.find(tag)
        except Exception as exc:  # cannot list: asked again, as if never created
            batch_id, why = None, _described(exc)
        else:
            why = "the provider has no batch with it"
        if batch_id is None:
            self.table.drop(tag)
            self._say(
                f"llmbench batch {model}: the batch a stopped run was creating ({tag}) is not "
                f"found ({why}); its calls are asked again"
            )
            return None
        self.table.created(tag, batch_id)
        self._say(f"llmbench batch {model}: {batch_id} found again (a run stopped creating it)")
        return batch_id

    def _join(
        self, api: BatchAPI, model: str, request: ModelRequest, key: str
    ) -> asyncio.Future[Outcome]:
        now = self._clock()
        gathering = self._open.get((model, request.role))
        if gathering is None:
            gathering = _Gathering(model, request.role, api, now, now)
            gathering.done = asyncio.ensure_future(self._gathered(gathering))
            self._open[(model, request.role)] = gathering
        gathering.last = now
        gathering.calls[key] = request
        assert gathering.done is not None
        return gathering.done

    async def _gathered(self, gathering: _Gathering) -> Outcome:
        t = self.timing
        while True:
            due = min(gathering.last + t.gather_quiet_s, gathering.first + t.gather_max_s)
            wait = due - self._clock()
            if wait <= 0:
                break
            await asyncio.sleep(wait)
        del self._open[(gathering.model, gathering.role)]
        return await self._submitted(gathering)

    async def _submitted(self, gathering: _Gathering) -> Outcome:
        model, api, calls = gathering.model, gathering.api, gathering.calls
        started = self._clock()
        # Noted before it is created, so a run killed meanwhile finds it by its tag.
        tag = f"llmbench-{uuid.uuid4().hex}"
        self.table.add(tag, model, ((key, key) for key in calls), "submitting")
        assert gathering.done is not None
        self._submitting[tag] = gathering.done
        try:
            # A line may take the provider library's whole request building (Anthropic's:
            # litellm's completion code, about 15 ms each): off the loop, so that no other
            # call's timing holds it.
            lines = await asyncio.to_thread(lambda: [api.line(k, r) for k, r in calls.items()])
            batch_id = await api.submit(lines, tag)
        except Exception as exc:  # a provider's refusal, or a plugin's batch API failing
            self.table.drop(tag)
            del self._submitting[tag]
            retryable = isinstance(exc, ModelError) and exc.retryable
            if not retryable:
                self._refused.add(model)
            self._say(
                f"llmbench batch {model}: submitting {len(calls)} {gathering.role} call(s) "
                f"failed ({_described(exc)}); they run directly"
                + ("" if retryable else ", and so do its later calls")
            )
            return "", None, started
        self.table.created(tag, batch_id)
        del self._submitting[tag]
        self._say(
            f"llmbench batch {model}: {batch_id} submitted ({len(calls)} {gathering.role} "
            f"call(s), priced {self._basis(model, api)}); waiting for the provider, which may "
            "take up to 24 h"
        )
        return batch_id, await self._poll(api, model, batch_id), started

    def _basis(self, model: str, api: BatchAPI) -> str:
        return "at its --llm-price" if model in self._configured else api.price_basis()

    def _poll(
        self, api: BatchAPI, model: str, batch_id: str
    ) -> asyncio.Future[dict[str, LineResult] | None]:
        if batch_id not in self._polls:
            self._polls[batch_id] = asyncio.ensure_future(self._polled(api, model, batch_id))
        return self._polls[batch_id]

    async def _polled(
        self, api: BatchAPI, model: str, batch_id: str
    ) -> dict[str, LineResult] | None:
        state = await self._finished(api, model, batch_id)
        if state is None:
            return None
        if state.status != "completed":
            self.table.note(batch_id, state.status)
            self._say(
                f"llmbench batch {model}: {batch_id} ended {state.status}; its calls run directly"
            )
            return None
        try:
            results = await api.results(state)
        except Exception as exc:  # the provider's files: whatever they hold, never a traceback
            self.table.note(batch_id, "unreadable")
            self._say(
                f"llmbench batch {model}: {batch_id}'s results cannot be read ({_described(exc)}); "
                "its calls run directly"
            )
            return None
        self.table.note(batch_id, state.status)
        failed = sum(1 for r in results.values() if r.body is None)
        if failed:
            self._say(
                f"llmbench batch {model}: {batch_id}: {failed} line(s) answered with an error; "
                "those calls run directly"
            )
        return results

    async def _finished(self, api: BatchAPI, model: str, batch_id: str) -> BatchState | None:
        """The batch's state once it is final; None (said) when it cannot be read."""
        t = self.timing
        delay, failures, shown, shown_at = t.poll_first_s, 0, ("", -1), self._clock()
        while True:
            try:
                state = await api.state(batch_id)
            except Exception as exc:  # the provider's answer: whatever it holds
                failures += 1
                if isinstance(exc, ModelError) and exc.retryable and failures < t.poll_failures:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, t.poll_max_s)
                    continue
                self.table.note(batch_id, "unreadable")
                self._say(
                    f"llmbench batch {model}: {batch_id} cannot be read ({_described(exc)}); "
                    "its calls run directly"
                )
                return None
            failures, now = 0, self._clock()
            changed = state.status != shown[0] or (
                state.done != shown[1] and now - shown_at >= t.progress_every_s
            )
            if changed and (state.finished or not self._quiet):
                self._say(
                    f"llmbench batch {model}: {batch_id} {state.done}/{state.total} {state.status}"
                )
                shown, shown_at = (state.status, state.done), now
            if state.finished:
                return state
            self.table.note(batch_id, state.status)
            await asyncio.sleep(delay)
            delay = min(delay * 2, t.poll_max_s)


def _described(exc: BaseException) -> str:
    """A failure in one line: a ModelError says itself, anything else is named."""
    text = str(exc) if isinstance(exc, ModelError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())[:400]
