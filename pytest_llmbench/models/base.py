"""The interface every model implements, and the request and reply it exchanges.

Messages use the OpenAI chat format (a list of {"role", "content"} mappings, where
content is a string or a list of content parts), so a multi-turn dialog or an image
part needs no change here. A dialog offers tools (OpenAI function schemas) in
`ModelRequest.tools`; the calls the model makes come back in `ModelReply.tool_calls`.
"""

from __future__ import annotations

import contextvars
import re
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..schema.vocabulary import Role, StructuredForm

if TYPE_CHECKING:
    from ..formats.dataset import Dataset
    from ..formats.scenario import Scenario


@dataclass(frozen=True)
class TaskContext:
    """What the item is about; offline models answer from it instead of from the prompt."""

    scenario: Scenario
    dataset: Dataset | None


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for. `arguments` is the JSON text as the model
    wrote it (it may be malformed: the dialog runner decides what to do with it)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class StablePrefix:
    """The part of a request that repeats across calls (a system prompt, an inlined
    dataset, a judge's rubric), which a provider can cache: the first `messages` messages
    whole, then the first `chars` characters of the next message's text (its string
    content, or its first text part). Stated where the prompt is rendered; the model
    decides whether its provider needs it marked (models/prompt_cache.py)."""

    messages: int
    chars: int = 0


@dataclass(frozen=True)
class ModelRequest:
    messages: tuple[dict[str, Any], ...]
    role: Role
    temperature: float | None = None
    max_tokens: int | None = None
    timeout: float = 600.0
    # Ask for the top log-probabilities of each output token (the grader does).
    top_logprobs: int | None = None
    task: TaskContext | None = None
    attempt: int = 1
    # Which of several identical requests this is (grader samples); part of the cache key.
    sample: int = 0
    # OpenAI function-calling tool schemas offered to the model (dialogs); part of the cache key.
    tools: tuple[dict[str, Any], ...] | None = None
    # A JSON schema the reply must follow (structured output, sent as response_format);
    # part of the cache key.
    response_schema: dict[str, Any] | None = None
    # What repeats across calls (not part of the cache key: it changes no byte the model reads).
    stable_prefix: StablePrefix | None = None


@dataclass(frozen=True)
class ModelReply:
    model: str
    text: str
    latency_s: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None  # None when the price of the model is not known
    # Of prompt_tokens: those read from the provider's prompt cache, and those written to it.
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    # Top alternatives of the first output token as (token, logprob), when the provider gives them.
    first_token_logprobs: list[tuple[str, float]] | None = None
    finish_reason: str | None = None
    # Seconds the server spent generating the reply, when it says (llama.cpp's
    # timings.predicted_ms); the call's latency also holds queueing and prompt reading.
    generation_s: float | None = None
    # A streamed reply (models/streaming.py): seconds from sending the request to its
    # first and to its last generated token. Between them only generation happens, so the
    # rate over those tokens leaves queueing and prompt reading out.
    first_token_s: float | None = None
    last_token_s: float | None = None
    # Reasoning the model published apart from its answer (recorded, never scored).
    thoughts: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    # Characters cut off because the reply was over MAX_REPLY_CHARS (see bounded()).
    truncated_chars: int = 0
    # Set when the model cannot have seen the request as sent (e.g. the server dropped its
    # images): why, in one line. The pipeline then does not score the answer.
    degraded: str | None = None
    # The form a request with a response_schema was sent in (models/structured.py); None
    # when the model does not say (the schema was then sent as it is, or not asked for).
    structured: StructuredForm | None = None
    # --llm-batch: the provider batch the reply came through (its latency_s is then the
    # wait for the batch, not a measure of generation), and whether cost_usd is at the
    # batch rate (False: the model has no batch price known, so its normal price).
    batch_id: str | None = None
    batch_priced: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


# The most characters kept of a reply's text (and of each tool call's arguments): about
# 250k tokens, more than any model writes in one reply; a reply past it is cut, never dropped.
MAX_REPLY_CHARS = 1_000_000
# A surrogate code point: a str holds one only from an escaped half of a pair (JSON
# decoding joins whole pairs into one character).
_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> str:
    """`text` with every lone surrogate (an escaped half of a pair: valid JSON, never
    UTF-8) replaced by U+FFFD, so that any file or database can hold it."""
    return _SURROGATE.sub("\ufffd", text)


def bounded(reply: ModelReply) -> ModelReply:
    """`reply` cut to MAX_REPLY_CHARS per text, with the characters cut in truncated_chars,
    and its texts made encodable (a lone surrogate becomes U+FFFD)."""
    cut = max(0, len(reply.text) - MAX_REPLY_CHARS)
    calls = []
    for call in reply.tool_calls:
        over = max(0, len(call.arguments) - MAX_REPLY_CHARS)
        cut += over
        arguments = encodable(call.arguments[:MAX_REPLY_CHARS])
        calls.append(replace(call, name=encodable(call.name), arguments=arguments))
    return replace(
        reply,
        text=encodable(reply.text[:MAX_REPLY_CHARS]),
        thoughts=None if reply.thoughts is None else encodable(reply.thoughts),
        tool_calls=tuple(calls),
        truncated_chars=reply.truncated_chars + cut,
    )


@dataclass
class QueueClock:
    """The time a task's calls spent waiting for a concurrency slot (kept by the call layer,
    execution/managed.py), so a dialog's time and time limit count only its own calls."""

    queued_s: float = 0.0
    waiting_since: float | None = None

    def queued(self) -> float:
        """Seconds waited so far, counting a wait still going on."""
        now = time.monotonic()
        return self.queued_s + (now - self.waiting_since if self.waiting_since else 0.0)


QUEUE_CLOCK: contextvars.ContextVar[QueueClock | None] = contextvars.ContextVar(
    "llmbench_queue_clock", default=None
)

# How many calls the item making this call will still make one after another once it
# returns: its remaining chain (set by the pipeline for each stage). The call layer serves
# the waiting call with the longest chain first, so the items that would finish last
# start sooner (execution/limiter.py).
CALLS_AFTER: contextvars.ContextVar[int] = contextvars.ContextVar("llmbench_calls_after", default=0)

# Whether the task's calls may wait in a provider batch (--llm-batch): set by the pipeline,
# True for single-shot items, whose calls do not depend on one another within a stage;
# False for a dialog (each turn answers the last); None (a team's ordinary tests): direct.
BATCHABLE: contextvars.ContextVar[bool | None] = contextvars.ContextVar(
    "llmbench_batchable", default=None
)


# -- provider batch APIs (--llm-batch; execution/batches.py) ------------------------------
# A model that has one returns a BatchAPI from `Model.batch_api()`: it writes a request as
# one line of a batch file, submits lines as one batch, reads the batch's state and, once
# it is done, each line's result; it turns a line's result into the ModelReply a direct
# call would have given (priced at the batch rate where known). Everything a batch returns
# is the provider's (or an attacker's) text: a line whose result cannot be read is an
# error of that line only, never of the batch or the run.

# The states after which a batch changes no more (OpenAI's words); only "completed" has
# results to read. "cancelling" still ends as "cancelled".
FINAL_STATES = frozenset({"completed", "failed", "expired", "cancelled"})


@dataclass(frozen=True)
class BatchState:
    """One batch as the provider reports it."""

    id: str
    status: str  # validating, in_progress, finalizing, completed, failed, expired, ...
    done: int = 0  # lines answered so far (completed + failed)
    total: int = 0
    output_file: str | None = None
    error_file: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in FINAL_STATES


@dataclass(frozen=True)
class LineResult:
    """One line's outcome: the response body a direct call would have had, or why there
    is none (the line's error)."""

    body: dict[str, Any] | None = None
    error: str | None = None


class BatchAPI(ABC):
    """One model's access to its provider's batch API."""

    # Names the provider in messages ("openai").
    provider: str = ""

    @abstractmethod
    def line(self, custom_id: str, request: ModelRequest) -> dict[str, Any]:
        """`request` as one line of a batch file, under `custom_id`."""

    def admit(self, request: ModelRequest) -> None:
        """Raise what a direct call would raise before sending `request` (e.g. a
        ContextWindowError), so that its caller learns it before the batch is written."""
        return None

    @abstractmethod
    async def submit(self, lines: list[dict[str, Any]], tag: str) -> str:
        """Submit `lines` as one batch carrying `tag` (in its metadata, where the provider
        keeps one); the batch's id."""

    async def find(self, tag: str) -> str | None:
        """The id of a recent batch submitted with `tag`; None when there is none (or the
        provider cannot list its batches); a ModelError saying why when the provider's
        batches cannot be found by a tag at all."""
        return None

    @abstractmethod
    async def state(self, batch_id: str) -> BatchState:
        """The batch's current state (a ModelError when it cannot be read)."""

    @abstractmethod
    async def results(self, state: BatchState) -> dict[str, LineResult]:
        """custom_id -> the line's result, read from a finished batch's output and error
        files; a line missing from both is missing here."""

    def price_basis(self) -> str:
        """How its replies are priced, in words ("at litellm's batch rates", ...)."""
        return "as the model reports it"

    @abstractmethod
    def reply(self, request: ModelRequest, body: dict[str, Any], waited_s: float) -> ModelReply:
        """A line's response body as the reply to `request`; `waited_s`: seconds from the
        batch's submission (or from this run's first poll of it) to its results. Raises
        ModelError when the body is not a usable reply."""


class Model(ABC):
    """The interface every model implements (a plugin's too: return one from the
    `pytest_llmbench_make_model` hook). Subclass it, set `name`, and write `complete`; the
    other capabilities have defaults that fit a model with nothing to check or store, so
    callers never ask whether a model has them."""

    name: str
    # Offline models answer from the task itself (or a recording): no network, no request
    # cache, and they cannot judge. They have a generation rate only when their replies
    # carry token counts (llmbench/replay does, from the published run).
    offline: bool = False
    # The server the model is called at (--llm-api-base), part of the request cache's key;
    # None: the provider's own.
    api_base: str | None = None

    @abstractmethod
    async def complete(self, request: ModelRequest) -> ModelReply:
        """The model's reply to `request`; a ModelError (errors.py) when there is none."""

    def check_credentials(self) -> None:
        """Raise ConfigError (errors.py) when the model cannot be called at all, e.g. its API
        key is not set. Called once before the first call, on the main thread."""
        return None  # by default there is nothing to check

    def takes_response_schema(self) -> bool:
        """Whether `complete` can send ModelRequest.response_schema as the reply's format
        (judges are asked for a structured report when it can). A model that may fall back
        to another form says which in ModelReply.structured."""
        return False

    def batch_api(self) -> BatchAPI | None:
        """The provider's batch API for this model (BatchAPI above), used with
        --llm-batch; None: the model is called directly."""
        return None

    def forget(self, request: ModelRequest) -> None:
        """Drop any stored reply to `request` (the judge could not use it), so the next
        run asks the model again instead of reading it back."""
        return None  # by default nothing is stored
