"""One attempt at a dialog scenario: the model works turn by turn on a workspace.

The workspace is a temporary folder seeded with the dataset's files. Each turn's user
message is sent; the model answers with tool calls (tasks/tools.py), which are
executed and answered, until it calls finish_step. Every model call goes through the
same Model as a single-shot answer (so cache, limits, retries and cost apply).

Limits (the scenario's `limits:`), each ending the whole dialog with the reason:
  max_rounds       model round-trips in one turn (a model that never finishes);
  max_tokens       prompt + completion tokens over the dialog;
  max_seconds      the dialog's own time: wall time less its calls' waits for a
                   concurrency slot behind other items (a call still running then is
                   cancelled);
  max_tool_errors  refused (outside the workspace) and malformed calls over the dialog.
The model's context window ends it too ("context limit"): a request that does not fit,
counted before the call or refused by the provider.
The turns after the end are still scored, on the workspace as it was left.
The scenario's hidden tests (tasks/functional.py) run on the final workspace while the
turns are judged.

Protocol (--llm-tool-protocol): `native` offers the tools as function schemas; `text`
uses the JSON command protocol; `auto` (default) starts native and switches to text when
the provider rejects the first request with tools (a 4xx other than 401, 403, 429).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import AttemptFailed, ContextWindowError, DialogEnded, ModelError, RunError
from ..formats.render import fenced_files
from ..formats.scenario import DialogTurn
from ..judging.judge import call_record
from ..judging.scoring import unseen
from ..models.base import (
    QUEUE_CLOCK,
    Model,
    ModelReply,
    ModelRequest,
    QueueClock,
    StablePrefix,
    TaskContext,
    ToolCall,
)
from ..schema.results import CallRecord, DialogResult, ToolEvent
from .attempt import ItemRun, JudgedAttempt, measure
from .case import Case, Generation
from .functional import cancelling, criterion_patterns, finish_tests, start_tests
from .tools import (
    NATIVE_INSTRUCTIONS,
    NUDGE,
    TEXT_INSTRUCTIONS,
    TOOL_SCHEMAS,
    ToolResult,
    ToolWorkspace,
    text_commands,
    text_results,
)
from .turns import TurnRun, score_turns

_NOT_A_TOOL_REJECTION = (401, 403, 408, 409, 429)
# Native rounds without a single tool call after which the server is taken to ignore the
# tools it is offered (llama.cpp's chatml template does so silently).
TOOLS_IGNORED_ROUNDS = 3
_EVENT_TEXT = 200


class Dialog:
    """The conversation, the workspace and the counters of one dialog attempt."""

    def __init__(
        self, case: Case, model: Model, number: int, gen: Generation, workspace: ToolWorkspace
    ) -> None:
        self.case = case
        self.model = model
        self.number = number
        self.gen = gen
        self.workspace = workspace
        self.limits = case.scenario.limits
        self.native = gen.tool_protocol != "text"
        self.protocol_note: str | None = None
        self.messages: list[dict[str, Any]] = [self._system()]
        self.calls: list[CallRecord] = []
        self.events: list[ToolEvent] = []
        self.tokens = 0
        self.rounds = 0
        self.tool_errors = 0
        self.started = time.monotonic()
        # Waits for a concurrency slot (behind other items) are not the dialog's time.
        self.clock = QueueClock()
        self.unseen: str | None = None  # a reply's `degraded`: the model missed part of the task

    def seconds(self) -> float:
        """The dialog's own time so far: wall time less its calls' waits for a slot."""
        return time.monotonic() - self.started - self.clock.queued()

    def _system(self) -> dict[str, Any]:
        how = NATIVE_INSTRUCTIONS if self.native else TEXT_INSTRUCTIONS
        return {"role": "system", "content": f"{self.case.scenario.system}\n\n{how}"}

    def _remaining(self) -> float:
        left = self.limits.max_seconds - self.seconds()
        if left <= 0:
            raise DialogEnded("time limit", f"time limit of {self.limits.max_seconds:g} s reached")
        return left

    async def _ask(self) -> ModelReply:
        if self.tokens >= self.limits.max_tokens:
            raise DialogEnded("token limit", f"token limit of {self.limits.max_tokens} reached")
        left = self._remaining()
        request = ModelRequest(
            messages=tuple(self.messages),
            role="candidate",
            temperature=self.gen.temperature,
            max_tokens=self.gen.max_tokens,
            timeout=min(self.gen.timeout, left),
            task=TaskContext(self.case.scenario, self.case.dataset),
            attempt=self.number,
            tools=TOOL_SCHEMAS if self.native else None,
            # The conversation so far repeats in every later round of the dialog.
            stable_prefix=StablePrefix(messages=max(1, len(self.messages) - 1)),
        )
        try:
            return await self._timed_call(request)
        except ContextWindowError as exc:
            raise DialogEnded("context limit", str(exc)) from None
        except ModelError as exc:
            if not self._falls_back(exc):
                raise
            self.native = False
            self.protocol_note = f"native tool calls rejected ({exc}); text protocol used"
            self.messages[0] = self._system()
            return await self._ask()

    async def _timed_call(self, request: ModelRequest) -> ModelReply:
        """The reply, cancelled when the dialog's own time (not a wait for a slot) runs out."""
        QUEUE_CLOCK.set(self.clock)  # the call's task copies this context
        call = asyncio.ensure_future(self.model.complete(request))
        try:
            while not call.done():
                left = self.limits.max_seconds - self.seconds()
                if left <= 0:
                    raise DialogEnded(
                        "time limit",
                        f"time limit of {self.limits.max_seconds:g} s reached during a call",
                    )
                await asyncio.wait({call}, timeout=left)
        finally:
            call.cancel()  # no-op once it is done
        return call.result()

    def _falls_back(self, exc: ModelError) -> bool:
        """The provider refused the first request with tools: switch to the text protocol."""
        return (
            self.native
            and self.gen.tool_protocol == "auto"
            and not self.calls
            and exc.status is not None
            and 400 <= exc.status < 500
            and exc.status not in _NOT_A_TOOL_REJECTION
        )

    def _record(self, reply: ModelReply, turn: int, calls: list[ToolCall]) -> None:
        record = call_record("candidate", reply)
        record.turn = turn
        record.tool_calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in calls]
        self.calls.append(record)
        self.tokens += (reply.prompt_tokens or 0) + (reply.completion_tokens or 0)
        self.rounds += 1
        self.unseen = self.unseen or reply.degraded

    def degraded(self) -> str | None:
        """Why the model cannot have seen the task as sent, else None."""
        if self.unseen:
            return self.unseen
        if self.native and self.rounds >= TOOLS_IGNORED_ROUNDS and not self.events:
            return (
                f"{self.model.name} made no tool call in {self.rounds} rounds with tools "
                "offered: the server seems to ignore them (try --llm-tool-protocol=text)"
            )
        return None

    def _execute(self, calls: list[ToolCall], turn: int, round_: int) -> list[ToolResult]:
        results: list[ToolResult] = []
        for call in calls:
            if any(r.outcome == "finished" for r in results):
                result = ToolResult(call, "ignored", "ignored: the step was already finished")
            else:
                result = self.workspace.run(call)
            results.append(result)
            self.events.append(
                ToolEvent(
                    turn=turn,
                    round=round_,
                    tool=call.name,
                    path=result.path,
                    outcome=result.outcome,
                    message=result.text[:_EVENT_TEXT],
                )
            )
        self.tool_errors += sum(r.outcome in ("refused", "malformed") for r in results)
        return results

    def _answer(self, reply: ModelReply, results: list[ToolResult]) -> None:
        """The assistant message and the tool results, in the protocol's form."""
        if self.native:
            message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
            if reply.tool_calls:
                message["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments},
                    }
                    for c in reply.tool_calls
                ]
            self.messages.append(message)
            self.messages += [
                {"role": "tool", "tool_call_id": r.call.id, "content": r.text} for r in results
            ]
            if not results:
                self.messages.append({"role": "user", "content": NUDGE})
            return
        self.messages.append({"role": "assistant", "content": reply.text})
        self.messages.append({"role": "user", "content": text_results(results)})

    async def turn(self, turn: DialogTurn) -> tuple[bool, int, str | None]:
        """(finished, rounds, summary) of one turn; raises DialogEnded at a limit."""
        self.messages.append({"role": "user", "content": turn.prompt})
        for round_ in range(1, self.limits.max_rounds + 1):
            reply = await self._ask()
            calls = list(reply.tool_calls) if self.native else text_commands(reply.text)
            self._record(reply, turn.number, calls)
            results = self._execute(calls, turn.number, round_)
            self._answer(reply, results)
            if self.tool_errors > self.limits.max_tool_errors:
                raise DialogEnded(
                    "tool error limit",
                    f"more than {self.limits.max_tool_errors} refused or malformed tool calls",
                )
            done = next((r for r in results if r.outcome == "finished"), None)
            if done is not None:
                return True, round_, done.summary
        raise DialogEnded(
            "round limit",
            f"turn {turn.number} not finished in {self.limits.max_rounds} rounds (max_rounds)",
        )


def _seed(case: Case) -> dict[str, str]:
    return {f.path: f.text for f in case.dataset.files} if case.dataset else {}


async def _play(dialog: Dialog, turns: tuple[DialogTurn, ...]) -> tuple[list[TurnRun], str, str]:
    runs: list[TurnRun] = []
    ended, reason = "finished", "every turn finished"
    before = dialog.workspace.files()
    for turn in turns:
        finished, rounds, summary = False, 0, None
        if ended == "finished":
            start = dialog.rounds
            try:
                finished, rounds, summary = await dialog.turn(turn)
            except DialogEnded as stop:
                ended, reason = stop.kind, stop.reason
                rounds = dialog.rounds - start
        after = dialog.workspace.files()
        changed = {p: t for p, t in after.items() if before.get(p) != t}
        runs.append(TurnRun(turn, finished, rounds, summary, after, changed))
        before = after
    return runs, ended, reason


async def run_dialog_attempt(run: ItemRun, number: int) -> JudgedAttempt:
    case = run.case
    seed = _seed(case)
    with tempfile.TemporaryDirectory(prefix="llmbench-dialog-") as folder:
        workspace = ToolWorkspace(Path(folder))
        workspace.seed(seed)
        dialog = Dialog(case, run.model, number, run.gen, workspace)
        try:
            runs, ended, reason = await _play(dialog, case.scenario.turns_for(case.dataset))
        except RunError as exc:
            raise AttemptFailed(exc, dialog.calls) from exc
        final = workspace.files()
    testing = start_tests(case, run.gen, lambda: list(final.items()))
    seconds = dialog.seconds()
    answer = fenced_files({p: t for p, t in final.items() if seed.get(p) != t})
    measuring = asyncio.ensure_future(measure(run, answer))  # while the turns are judged
    degraded = dialog.degraded()  # then not judged; its turns keep their checks
    judging = replace(run.setup, judges=()) if degraded else run.setup
    scored = await cancelling(
        score_turns(runs, case.scenario.system, judging, case.cache_dir), testing, measuring
    )
    return JudgedAttempt(
        number=number,
        answer=answer,
        candidate_calls=dialog.calls,
        judge_calls=[c for o in scored.outcomes for c in o.calls],
        accuracy=unseen(degraded) or scored.accuracy,
        completeness=unseen(degraded) or scored.completeness,
        steps=scored.steps,
        reports=[o.report for o in scored.outcomes],
        degraded=degraded,
        measuring=measuring,
        finishing=asyncio.ensure_future(
            finish_tests(testing, scored.steps, criterion_patterns(case), False)
        ),
        dialog=DialogResult(
            protocol="native" if dialog.native else "text",
            protocol_note=dialog.protocol_note,
            ended=ended,
            end_reason=reason,
            turns=scored.turns,
            rounds=dialog.rounds,
            tokens=dialog.tokens,
            seconds=seconds,
            tool_errors=dialog.tool_errors,
            events=dialog.events,
            messages=dialog.messages,
            files=final,
        ),
    )
