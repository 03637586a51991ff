"""The per-item result schema, versioned. Every field is documented where it is defined.

An item's result travels from the worker to the controller as JSON text in the test
report's user_properties (key "llmbench"); the controller appends it to `results.jsonl`
(its long texts once per report dir in texts.jsonl: reporting/textstore.py), hands
report.json and JUnit XML the same stored form, and aggregates the leaderboard.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .code import CodeMetrics
from .functional import FunctionalResult
from .verdicts import Grade as Grade
from .verdicts import JudgeReport as JudgeReport
from .verdicts import MetricResult as MetricResult
from .verdicts import Schema as Schema
from .verdicts import StepResult as StepResult
from .verdicts import Verdict as Verdict
from .vocabulary import (
    DialogEnd,
    ItemStatus,
    Outcome,
    RateBasis,
    Role,
    ToolOutcome,
)

# 2: dialog results (AttemptResult.dialog) and tool calls on CallRecord.
# 3: hidden tests' status, a run's tampered mark and evidence (FunctionalResult), the
#    item's tampered mark; a grade's argmax grade is `argmax` (was `score`) and
#    leaderboard.json's pass_quality is named pass_threshold: "score" is the formula's.
# 4: the prompt cache's input tokens (cache_read_tokens, cache_write_tokens) on CallRecord
#    and Usage; 0 in older lines, which did not record them.
# 5: the line is in the stored form (schema/stored.py: fields at
#    their default left out, criteria once per item, every string of stored.TEXT_MIN
#    characters or more a reference {"$text": ID} to the report dir's texts.jsonl and
#    dict keys starting with "$" escaped: schema/texts.py, reporting/textstore.py);
#    a call's batch (batch_id, batch_priced), whose defaults say what older lines meant:
#    a direct call.
SCHEMA_VERSION = 5


class CallRecord(Schema):
    """One model call."""

    role: Role
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = Field(description="wall-clock seconds of the call")
    cost_usd: float | None = Field(
        default=None,
        description="null when litellm does not know the price; cached input tokens are "
        "priced at the model's cache read/write rates where litellm's table has them",
    )
    cache_read_tokens: int = Field(
        default=0, description="of prompt_tokens: read from the provider's prompt cache"
    )
    cache_write_tokens: int = Field(
        default=0, description="of prompt_tokens: written to the provider's prompt cache"
    )
    response: str = Field(default="", description="the reply text")
    thoughts: str | None = Field(
        default=None,
        description="reasoning published apart from the answer (llmbench/replay's "
        "'### Thoughts:'); recorded, not scored",
    )
    cached: bool = Field(default=False, description="the reply came from the request cache")
    retries: int = Field(default=0, description="failed tries before this reply (429, 5xx, ...)")
    truncated_chars: int = Field(
        default=0,
        description="characters cut off a reply over the maximum reply size (models/base.py)",
    )
    generation_s: float | None = Field(
        default=None,
        description="seconds the server spent generating, when it says (llama.cpp timings)",
    )
    first_token_s: float | None = Field(
        default=None,
        description="streamed calls: seconds from the request to the first generated token "
        "(time to first token: queueing and prompt reading)",
    )
    last_token_s: float | None = Field(
        default=None, description="streamed calls: seconds from the request to the last token"
    )
    finish_reason: str | None = Field(
        default=None,
        description='why the reply ended, as the provider said: "stop", "length" (cut at its '
        'token limit), "tool_calls", ...; null when not given',
    )
    tool_calls: list[dict[str, str]] = Field(
        default_factory=list,
        description="dialogs: the function calls of the reply, {id, name, arguments} as written",
    )
    turn: int | None = Field(default=None, description="dialogs: the turn (from 1) of the call")
    batch_id: str | None = Field(
        default=None,
        description="--llm-batch: the provider batch the call went through (latency_s is then "
        "the wait for the batch, and no generation rate is measured); null: a direct call",
    )
    batch_priced: bool = Field(
        default=False,
        description="cost_usd is at litellm's batch rates (input/output_cost_per_token_batches); "
        "false on a batched call: the table has no batch rate for the model (or --llm-price "
        "set one price), so it is at the normal rate",
    )


class ToolEvent(Schema):
    """One tool call of a dialog as it was executed."""

    turn: int
    round: int = Field(description="the model round-trip of the turn (from 1) that made it")
    tool: str = Field(description="the tool named; '' for a text command that was not one")
    path: str | None = None
    outcome: ToolOutcome = Field(
        description="refused: path outside the workspace or too large; malformed: bad JSON, "
        "unknown tool or missing argument; ignored: after finish_step in the same reply"
    )
    message: str = Field(default="", description="the start of the result the model got back")


class TurnResult(Schema):
    """One turn (step) of a dialog. Its criteria are the attempt's steps `T<number>.*`."""

    number: int
    title: str
    prompt: str
    finished: bool = Field(description="the model called finish_step in this turn")
    rounds: int = Field(description="model round-trips spent in this turn")
    changed: list[str] = Field(
        default_factory=list, description="paths written with new content in this turn"
    )
    summary: str | None = Field(default=None, description="finish_step's summary")
    accuracy: MetricResult
    completeness: MetricResult
    reports: list[JudgeReport] = Field(default_factory=list)


class DialogResult(Schema):
    """How a dialog went: protocol, turns, limits, every message and tool call."""

    protocol: Literal["native", "text"] = Field(
        description="native function calling, or the JSON text command protocol"
    )
    protocol_note: str | None = Field(
        default=None, description="why the text protocol was used after native was tried"
    )
    ended: DialogEnd
    end_reason: str = Field(default="", description="what ended the dialog, in words")
    turns: list[TurnResult]
    rounds: int = Field(default=0, description="model round-trips over the dialog")
    tokens: int = Field(default=0, description="prompt + completion tokens over the dialog")
    seconds: float = Field(default=0.0, description="wall time of the dialog")
    tool_errors: int = Field(default=0, description="refused and malformed calls")
    events: list[ToolEvent] = Field(default_factory=list)
    messages: list[dict[str, Any]] = Field(
        default_factory=list, description="the whole conversation in the OpenAI chat format"
    )
    files: dict[str, str] = Field(
        default_factory=dict,
        description="the final workspace (path -> text); saved to <report dir>/workspaces/",
    )


class AttemptResult(Schema):
    attempt: int
    answer: str
    answer_latency_s: float
    generation_rate: float | None = Field(
        default=None,
        description="completion tokens per second of the candidate call; null without token "
        "counts (offline models); llmbench/replay: the published run's recorded figures",
    )
    generation_rate_basis: RateBasis | None = Field(
        default=None,
        description="what generation_rate divides by: the server's generation time "
        "(generation); the time from the first streamed token to the last, over the tokens "
        "after the first (stream); or the whole call, queueing and prompt reading included "
        "(call)",
    )
    first_token_s: float | None = Field(
        default=None,
        description="mean time to first token of the attempt's streamed candidate calls",
    )
    accuracy: MetricResult
    completeness: MetricResult
    quality: float | None = Field(
        default=None, description="(accuracy + completeness) / 8; picks the best attempt"
    )
    steps: list[StepResult]
    reports: list[JudgeReport] = Field(default_factory=list)
    calls: list[CallRecord] = Field(default_factory=list)
    code: CodeMetrics | None = Field(default=None, description="code metrics of the answer")
    degraded: str | None = Field(
        default=None,
        description="the model did not see the task as sent (the server dropped its images, "
        "or ignored the tools offered): why. The attempt is then not scored",
    )
    dialog: DialogResult | None = Field(
        default=None,
        description="dialog scenarios: the answer is the files written (as fenced blocks), "
        "the metrics the weighted mean of the turns' (see tasks/dialog.py)",
    )

    functional: FunctionalResult | None = Field(
        default=None,
        description="the answer's code run: hidden tests, or its tests against mutants",
    )

    def metrics(self) -> tuple[MetricResult, MetricResult]:
        """Accuracy and completeness, in METRICS order."""
        return self.accuracy, self.completeness


class Usage(Schema):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = Field(default=0, description="of prompt_tokens: prompt cache reads")
    cache_write_tokens: int = Field(default=0, description="of prompt_tokens: prompt cache writes")
    cost_usd: float | None = None
    calls: int = 0


class ImageRecord(Schema):
    """An image the scenario sent with the prompt (its bytes are not kept in results)."""

    file: str = Field(description="the path as written in the scenario's images:")
    media_type: str = Field(description="image/png or image/jpeg")
    size: int = Field(description="bytes")
    sha256: str = Field(description="of the file's bytes, as sent in the data URL")


class ItemResult(Schema):
    schema_version: int = SCHEMA_VERSION
    nodeid: str = ""
    scenario: str
    category: str
    dataset: str | None
    model: str
    complexity: dict[str, float | str | int | None] = Field(default_factory=dict)
    status: ItemStatus
    outcome: Outcome | None = Field(
        default=None, description="pytest's outcome of the item (after any rerun)"
    )
    reason: str | None = Field(
        default=None, description="why the item is unscored, errored or skipped"
    )
    attempts: list[AttemptResult] = Field(default_factory=list)
    failed_calls: list[CallRecord] = Field(
        default_factory=list,
        description="calls of the attempt an error stopped: paid, so in the usage and cost, "
        "never scored",
    )
    best_attempt: int | None = Field(
        default=None, description="first attempt that reaches the best quality"
    )
    accuracy: float | None = None
    completeness: float | None = None
    pass_rate: float | None = None
    generation_rate: float | None = None
    judge_agreement: float | None = Field(
        default=None, description="share of judge pairs x metrics whose argmax grades agree"
    )
    candidate_usage: Usage = Field(default_factory=Usage)
    judge_usage: Usage = Field(
        default_factory=Usage, description="evaluator and grader calls together"
    )
    latency_s: float | None = Field(
        default=None, description="candidate latency of the best attempt"
    )
    prompt: str = Field(
        default="",
        description="the last user message sent to the candidate, as text; each attached "
        "image is named by a note `[image FILE (TYPE, N bytes, sha256 PREFIX)]`",
    )
    images: list[ImageRecord] = Field(
        default_factory=list, description="images sent with the prompt, in order"
    )
    finished_utc: str | None = Field(
        default=None,
        description="when the controller received the result (ISO 8601, UTC); the newest "
        "copy of an item wins in `llmbench merge`",
    )
    code: CodeMetrics | None = Field(
        default=None, description="code metrics of the best attempt's answer"
    )
    functional_rate: float | None = Field(
        default=None,
        description="mean functional rate over the attempts (hidden tests passed / tests, "
        "or mutants killed / mutants); null when the scenario has no hidden tests for the "
        "dataset",
    )
    pass_at_1: bool | None = Field(
        default=None, description="the first attempt passed every hidden test"
    )
    pass_after_feedback: bool | None = Field(
        default=None,
        description="--llm-feedback: some attempt passed every hidden test, the attempts "
        "after a failure having been told the failing tests' names and messages",
    )
    tampered: bool = Field(
        default=False,
        description="some attempt's hidden-test run was marked tampered (the answer attacked "
        "the verdict; why: that attempt's `functional.tamper_evidence`): its functional "
        "rate counts 0 and it passes nothing",
    )
