"""--llm-batch's call layer (execution/batches.py) with a fake batch API: calls gathered per
model and role, one submission each, a pending batch found again by a later run (the
resume table) instead of submitted again, and what a failed batch or a model without a
batch API becomes (one line, direct calls)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pytest_llmbench.errors import ContextWindowError, ModelError
from pytest_llmbench.execution.batch_table import BatchTable
from pytest_llmbench.execution.batches import Batcher, BatchTiming
from pytest_llmbench.execution.managed import ManagedModel, Services
from pytest_llmbench.execution.retry import RetryPolicy
from pytest_llmbench.models.base import (
    BATCHABLE,
    BatchAPI,
    BatchState,
    LineResult,
    Model,
    ModelReply,
    ModelRequest,
)

FAST = BatchTiming(gather_quiet_s=0.05, gather_max_s=1.0, poll_first_s=0.01, poll_max_s=0.02)


class FakeBatches(BatchAPI):
    """Batches that stay in progress for `polls` reads, then end in `end`; each line's
    reply names its request's last message."""

    provider = "fake"

    def __init__(self, polls: int = 1, end: str = "completed") -> None:
        self.polls, self.end = polls, end
        self.submitted: list[list[dict[str, Any]]] = []
        self.tags: list[str] = []  # each batch's tag, as the provider keeps it
        self.reads: dict[str, int] = {}

    def line(self, custom_id: str, request: ModelRequest) -> dict[str, Any]:
        return {"custom_id": custom_id, "text": request.messages[-1]["content"]}

    async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
        self.submitted.append(lines)
        self.tags.append(tag)
        return f"b{len(self.submitted)}"

    async def find(self, tag: str) -> str | None:
        return f"b{self.tags.index(tag) + 1}" if tag in self.tags else None

    async def state(self, batch_id: str) -> BatchState:
        self.reads[batch_id] = self.reads.get(batch_id, 0) + 1
        status = self.end if self.reads[batch_id] > self.polls else "in_progress"
        return BatchState(batch_id, status, output_file="out" if status == "completed" else None)

    async def results(self, state: BatchState) -> dict[str, LineResult]:
        lines = self.submitted[int(state.id[1:]) - 1]
        return {x["custom_id"]: LineResult(body={"text": "re: " + x["text"]}) for x in lines}

    def reply(self, request: ModelRequest, body: dict[str, Any], waited_s: float) -> ModelReply:
        return ModelReply("fake", str(body["text"]), waited_s, 1, 1, batch_priced=True)


class FakeModel(Model):
    def __init__(self, api: BatchAPI | None, name: str = "fake") -> None:
        self.name, self.api = name, api

    async def complete(self, request: ModelRequest) -> ModelReply:
        raise AssertionError("a batched call never calls the model directly")

    def batch_api(self) -> BatchAPI | None:
        return self.api


def _request(text: str, role: str = "candidate") -> ModelRequest:
    return ModelRequest(messages=({"role": "user", "content": text},), role=role)  # type: ignore[arg-type]


def _batcher(folder: Path, said: list[str]) -> Batcher:
    return Batcher(BatchTable(folder), said.append, FAST)


async def _ask(batcher: Batcher, model: Model, texts: list[str], role: str = "candidate") -> list:
    return list(
        await asyncio.gather(
            *(batcher.complete(model, _request(t, role), lambda t=t: f"key-{t}") for t in texts)
        )
    )


def test_calls_of_one_model_and_role_go_out_as_one_batch(tmp_path: Path) -> None:
    api, said = FakeBatches(), []
    batcher = _batcher(tmp_path, said)
    model = FakeModel(api)

    async def run() -> tuple[list, list]:
        return await asyncio.gather(
            _ask(batcher, model, ["a", "b", "c"]), _ask(batcher, model, ["x"], "evaluator")
        )

    candidates, evaluators = asyncio.run(run())
    batcher.close()
    assert sorted(len(lines) for lines in api.submitted) == [1, 3]
    assert [r.text for r in candidates] == ["re: a", "re: b", "re: c"]
    assert evaluators[0].text == "re: x"
    assert {r.batch_id for r in candidates} | {evaluators[0].batch_id} == {"b1", "b2"}
    assert all(r.batch_priced for r in candidates)
    assert any(
        "submitted (3 candidate call(s), priced as the model reports it)" in line for line in said
    )
    assert any(line.endswith("in_progress") for line in said)
    assert any(line.endswith("completed") for line in said)


def test_a_pending_batch_is_found_again_and_polled_not_submitted_again(tmp_path: Path) -> None:
    # The first run is stopped while its batch is pending (never settled in the table).
    first = FakeBatches(polls=10**6)
    batcher = _batcher(tmp_path, [])

    async def stopped() -> None:
        asking = asyncio.ensure_future(_ask(batcher, FakeModel(first), ["a", "b"]))
        while not first.reads:
            await asyncio.sleep(0.01)
        asking.cancel()

    asyncio.run(stopped())
    batcher.close()
    assert len(first.submitted) == 1

    # The next run with the same cache dir: the same requests wait for that batch.
    again, said = FakeBatches(polls=1), []
    again.submitted, again.tags = list(first.submitted), list(first.tags)  # the provider's b1
    later = _batcher(tmp_path, said)
    replies = asyncio.run(_ask(later, FakeModel(again), ["a", "b"]))
    assert len(again.submitted) == 1  # nothing new submitted
    assert [r.text for r in replies] == ["re: a", "re: b"]
    assert {r.batch_id for r in replies} == {"b1"}
    assert later.table.state("b1") == "completed"
    # Settled: its calls no longer point at it, so a new request is gathered anew.
    assert later.table.pending("key-a", "fake") is None
    later.close()


def test_a_failed_batch_is_one_line_and_its_calls_run_directly(tmp_path: Path) -> None:
    api, said = FakeBatches(end="expired"), []
    batcher = _batcher(tmp_path, said)
    replies = asyncio.run(_ask(batcher, FakeModel(api), ["a", "b"]))
    batcher.close()
    assert replies == [None, None]  # None: the caller calls the model directly
    ended = [line for line in said if "ended expired" in line]
    assert ended == ["llmbench batch fake: b1 ended expired; its calls run directly"]
    assert BatchTable(tmp_path).pending("key-a", "fake") is None


def test_a_model_without_a_batch_api_is_said_once_and_called_directly(tmp_path: Path) -> None:
    said: list[str] = []
    batcher = _batcher(tmp_path, said)
    replies = asyncio.run(_ask(batcher, FakeModel(None, "llmbench/echo"), ["a", "b", "c"]))
    batcher.close()
    assert replies == [None, None, None]
    assert len(said) == 1 and said[0].startswith("llmbench batch: llmbench/echo: ")
    assert said[0].endswith("its calls run directly")


def test_a_line_that_is_no_reply_runs_directly_and_the_others_are_kept(tmp_path: Path) -> None:
    class Hostile(FakeBatches):
        def reply(self, request: ModelRequest, body: dict[str, Any], waited_s: float) -> ModelReply:
            if "evil" in body["text"]:
                raise ModelError("fake (candidate): batch line is not a chat completion")
            return super().reply(request, body, waited_s)

    said: list[str] = []
    batcher = _batcher(tmp_path, said)
    replies = asyncio.run(_ask(batcher, FakeModel(Hostile()), ["good", "evil"]))
    batcher.close()
    assert replies[0] is not None and replies[0].text == "re: good" and replies[1] is None
    assert said[-1] == (
        "llmbench batch fake: b1: fake (candidate): batch line is not a chat completion; "
        "the call runs directly"
    )


def test_a_refused_submission_is_one_line_and_the_model_calls_directly_from_then_on(
    tmp_path: Path,
) -> None:
    class Refused(FakeBatches):
        async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
            self.submitted.append(lines)
            raise ModelError("fake (batch): not found: no such endpoint /v1/files")

    api, said = Refused(), []
    batcher = _batcher(tmp_path, said)
    model = FakeModel(api)
    first = asyncio.run(_ask(batcher, model, ["a", "b"]))
    later = asyncio.run(_ask(batcher, model, ["c"], "evaluator"))
    batcher.close()
    assert first == [None, None] and later == [None]
    assert len(api.submitted) == 1  # not asked again in this run
    assert said == [
        "llmbench batch fake: submitting 2 candidate call(s) failed (fake (batch): not found: "
        "no such endpoint /v1/files); they run directly, and so do its later calls"
    ]


def test_dialog_calls_run_directly_said_once_per_model(tmp_path: Path) -> None:
    class Direct(FakeModel):
        async def complete(self, request: ModelRequest) -> ModelReply:
            return ModelReply(self.name, "direct", 0.1)

    said: list[str] = []
    services = Services(concurrency=2, retry=RetryPolicy(max_retries=0, base_s=0.01))
    services.batches = _batcher(tmp_path, said)
    model = ManagedModel(Direct(FakeBatches(), "m"), services)

    async def dialog() -> list[str]:
        BATCHABLE.set(False)
        return [(await model.complete(_request(t))).text for t in ("a", "b")]

    assert asyncio.run(dialog()) == ["direct", "direct"]
    services.close()
    assert said == ["llmbench batch: m: dialog items call directly (each turn answers the last)"]


def test_quiet_progress_shows_a_batch_submitted_and_finished_only(tmp_path: Path) -> None:
    said: list[str] = []
    batcher = Batcher(BatchTable(tmp_path), said.append, FAST, quiet=True)
    asyncio.run(_ask(batcher, FakeModel(FakeBatches(polls=3)), ["a"]))
    batcher.close()
    assert [line.split(": ", 1)[1] for line in said] == [
        "b1 submitted (1 candidate call(s), priced as the model reports it); waiting for the "
        "provider, which may take up to 24 h",
        "b1 0/0 completed",
    ]


def test_a_request_the_model_would_refuse_is_raised_before_any_batch(tmp_path: Path) -> None:
    class Small(FakeBatches):
        def admit(self, request: ModelRequest) -> None:
            if "long" in request.messages[-1]["content"]:
                raise ContextWindowError("fake (candidate): context window: prompt too long")

    api = Small()
    batcher = _batcher(tmp_path, [])

    async def run() -> list[Any]:
        return await asyncio.gather(
            batcher.complete(FakeModel(api), _request("long"), lambda: "key-long"),
            batcher.complete(FakeModel(api), _request("short"), lambda: "key-short"),
            return_exceptions=True,
        )

    refused, kept = asyncio.run(run())
    batcher.close()
    assert isinstance(refused, ContextWindowError) and kept.text == "re: short"
    assert [[line["custom_id"] for line in lines] for lines in api.submitted] == [["key-short"]]


def test_a_batch_state_that_cannot_be_read_is_one_line_and_direct_calls(tmp_path: Path) -> None:
    class Garbled(FakeBatches):
        async def state(self, batch_id: str) -> BatchState:
            raise ValueError("invalid literal for int() with base 10: 'lots'")

    said: list[str] = []
    batcher = _batcher(tmp_path, said)
    assert asyncio.run(_ask(batcher, FakeModel(Garbled()), ["a"])) == [None]
    assert said[-1] == (
        "llmbench batch fake: b1 cannot be read (ValueError: invalid literal for int() with "
        "base 10: 'lots'); its calls run directly"
    )
    assert batcher.table.state("b1") == "unreadable"
    batcher.close()


def test_a_batch_created_by_a_run_killed_before_it_noted_the_id_is_found_by_its_tag(
    tmp_path: Path,
) -> None:
    class Dying(FakeBatches):
        """The provider creates the batch; the run dies before the id reaches it."""

        async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
            await super().submit(lines, tag)
            await asyncio.Event().wait()  # killed here
            raise AssertionError("never")

    first = Dying()
    batcher = _batcher(tmp_path, [])

    async def killed() -> None:
        asking = asyncio.ensure_future(_ask(batcher, FakeModel(first), ["a", "b"]))
        while not first.tags:
            await asyncio.sleep(0.01)
        asking.cancel()

    asyncio.run(killed())
    batcher.close()
    assert BatchTable(tmp_path).pending("key-a", "fake") == (first.tags[0], "key-a", "submitting")

    again, said = FakeBatches(), []
    again.submitted, again.tags = list(first.submitted), list(first.tags)
    later = _batcher(tmp_path, said)
    replies = asyncio.run(_ask(later, FakeModel(again), ["a", "b"]))
    assert len(again.submitted) == 1  # found by its tag, not submitted again
    assert [r.text for r in replies] == ["re: a", "re: b"] and replies[0].batch_id == "b1"
    assert said[0] == "llmbench batch fake: b1 found again (a run stopped creating it)"
    assert later.table.state("b1") == "completed"
    later.close()


def test_a_batch_noted_but_never_created_is_dropped_and_submitted_anew(tmp_path: Path) -> None:
    table = BatchTable(tmp_path)
    table.add("llmbench-lost", "fake", [("key-a", "key-a")], "submitting")
    table.close()
    api, said = FakeBatches(), []
    batcher = _batcher(tmp_path, said)
    (reply,) = asyncio.run(_ask(batcher, FakeModel(api), ["a"]))
    batcher.close()
    assert reply is not None and reply.text == "re: a" and len(api.submitted) == 1
    assert said[0] == (
        "llmbench batch fake: the batch a stopped run was creating (llmbench-lost) is not "
        "found (the provider has no batch with it); its calls are asked again"
    )
