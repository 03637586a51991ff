"""Real providers as they are (issue 28): a provider's explanation kept, a request the
server calls invalid not retried, the structured form a server takes learnt once, and a
streamed reply's generation timed apart from its first token (with a fake clock)."""

from __future__ import annotations

import asyncio

import pytest

from pytest_llmbench.errors import ContextWindowError, ModelError
from pytest_llmbench.judging.scoring import MIN_STREAM_SPAN_S, first_token_time, generation_rate
from pytest_llmbench.models.provider_errors import model_error
from pytest_llmbench.models.streaming import TokenTimes, read_stream, refuses_streaming
from pytest_llmbench.models.structured import FormChain, refuses_form, response_format
from pytest_llmbench.schema.results import CallRecord
from pytest_llmbench.schema.vocabulary import StructuredForm
from tests.llm_server import pydantic_format_error


class _ServerError(Exception):
    def __init__(self, text: str, status: int = 500) -> None:
        super().__init__(text)
        self.status_code = status


InternalServerError = type("InternalServerError", (_ServerError,), {})
PYDANTIC = (
    "litellm.InternalServerError: InternalServerError: OpenAIException - "
    + pydantic_format_error("json_schema")
)


def test_a_500_whose_body_says_the_request_is_invalid_is_not_retried_and_keeps_its_reason() -> None:
    error = model_error("openai/judge", "evaluator", InternalServerError(PYDANTIC))
    assert error.retryable is False and error.status == 500
    assert str(error) == (
        "openai/judge (evaluator): invalid request (HTTP 500): 1 validation error for "
        "CreateChatCompletionRequest | response_format.type | Input should be 'text' or "
        "'json_object' [type=literal_error, input_value='json_schema', input_type=str]"
    )
    assert "\n" not in str(error) and "further information" not in str(error)


def test_a_plain_500_is_still_retried_and_long_explanations_are_bounded() -> None:
    assert model_error("m", "candidate", InternalServerError("upstream busy")).retryable
    long = model_error("m", "candidate", InternalServerError("x" * 2000 + "\nmore"))
    assert len(str(long)) < 450 and long.retryable


def test_response_formats_of_each_form() -> None:
    schema = {"type": "object"}
    assert response_format("schema", schema) == {
        "type": "json_schema",
        "json_schema": {"name": "report", "schema": schema},
    }
    assert response_format("json_object", schema) == {"type": "json_object", "schema": schema}
    assert response_format("text", schema) is None


@pytest.mark.parametrize(
    ("error", "refused"),
    [
        (ModelError("m: invalid request (HTTP 500): response_format.type | Input should be"), True),
        (ModelError("m: bad request: json_schema is not supported", status=400), True),
        (ModelError("m: server: response_format busy", retryable=True, status=503), False),
        (ModelError("m: bad request: max_tokens too large", status=400), False),
        (ContextWindowError("m: context window: response_format and all"), False),
        (ModelError("m: authentication: json_object key", status=401), False),
    ],
)
def test_only_a_refusal_that_names_the_format_moves_down_the_chain(
    error: ModelError, refused: bool
) -> None:
    assert refuses_form(error) is refused


def _server(takes: set[StructuredForm], sent: list[StructuredForm]):  # type: ignore[no-untyped-def]
    async def send(form: StructuredForm) -> str:
        sent.append(form)
        await asyncio.sleep(0.01)  # the calls overlap: all are waiting while one learns
        if form not in takes:
            raise ModelError(f"m: invalid request (HTTP 500): response_format {form} refused")
        return form

    return send


@pytest.mark.parametrize(
    ("takes", "learnt", "refused"),
    [
        ({"schema", "json_object"}, "schema", 0),
        ({"json_object"}, "json_object", 1),
        (set(), "text", 2),
    ],
)
def test_the_form_is_learnt_once_however_many_calls_wait(
    takes: set[StructuredForm], learnt: StructuredForm, refused: int
) -> None:
    chain, sent = FormChain(), []

    async def run() -> list[str]:
        send = _server(takes | {"text"}, sent)
        return await asyncio.gather(*(chain.call(send) for _ in range(8)))

    assert asyncio.run(run()) == [learnt] * 8
    assert chain.form == learnt and chain.settled and len(chain.refusals) == refused
    assert len(sent) == 8 + refused  # one refused call per form the server does not take


def test_a_failure_that_is_not_the_formats_leaves_the_chain_unlearnt() -> None:
    chain = FormChain()
    answers: list[BaseException | str] = [ModelError("m: server: busy", retryable=True), "ok"]

    async def send(form: StructuredForm) -> str:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return f"{form}:{answer}"

    async def run() -> str:
        with pytest.raises(ModelError, match="busy"):
            await chain.call(send)
        assert not chain.settled and chain.form == "schema"
        return await chain.call(send)

    assert asyncio.run(run()) == "schema:ok"
    assert chain.settled and chain.refusals == []


def test_text_is_the_last_form_its_refusal_is_the_callers_error() -> None:
    chain = FormChain()

    async def send(form: StructuredForm) -> str:
        raise ModelError(f"m: bad request: response_format {form} and plain text refused")

    with pytest.raises(ModelError, match="response_format text"):
        asyncio.run(chain.call(send))
    assert chain.form == "text" and not chain.settled


# -- streaming timing (point 4) ----------------------------------------------------------


class _Delta:
    def __init__(self, content: str | None) -> None:
        self.content = content


class _Choice:
    def __init__(self, content: str | None) -> None:
        self.delta = _Delta(content)


class _Chunk:
    def __init__(self, content: str | None, timings: dict[str, float] | None = None) -> None:
        self.choices = [_Choice(content)] if content is not None else []
        if timings is not None:
            self.timings = timings


class _FakeClock:
    """The time each chunk arrives: read when the stream hands it over."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _paced(clock: _FakeClock, first: float, rate: float, tokens: int):  # type: ignore[no-untyped-def]
    clock.now = 0.3
    yield _Chunk("")  # the role chunk: no token
    for k in range(tokens):
        clock.now = first + k / rate
        yield _Chunk(f" w{k}")
    clock.now += 0.4  # the usage chunk comes after a pause: not a token
    yield _Chunk(None, timings={"predicted_ms": 1.0})


def test_a_stream_times_its_first_and_last_token_and_not_the_chunks_around_them() -> None:
    clock = _FakeClock()

    async def run() -> tuple[list[object], TokenTimes]:
        return await read_stream(_paced(clock, 2.0, 25.0, 80), clock, 0.0)

    chunks, times = asyncio.run(run())
    assert len(chunks) == 82
    assert times.first == 2.0 and times.last == pytest.approx(2.0 + 79 / 25)
    assert times.timings == {"predicted_ms": 1.0}


def _call(tokens: int, latency: float, first: float | None, last: float | None) -> CallRecord:
    return CallRecord(
        role="candidate",
        model="m",
        completion_tokens=tokens,
        latency_s=latency,
        first_token_s=first,
        last_token_s=last,
    )


def test_the_stream_basis_counts_the_tokens_after_the_first_over_their_span() -> None:
    # 80 tokens at 25/s after a 2 s first-token delay: the call's rate would be 80 / 5.5.
    streamed = _call(80, 5.5, 2.0, 2.0 + 79 / 25)
    rate, basis = generation_rate([streamed])
    assert basis == "stream" and rate == pytest.approx(25.0)
    assert generation_rate([streamed, _call(41, 3.0, 1.0, 2.6)]) == (pytest.approx(25.0), "stream")
    assert first_token_time([streamed, _call(41, 3.0, 1.0, 2.6)]) == 1.5
    # Server timings win; a call that did not stream, or a reply that came in one burst,
    # leaves the whole call.
    timed = streamed.model_copy(update={"generation_s": 4.0})
    assert generation_rate([timed]) == (20.0, "generation")
    assert generation_rate([streamed, _call(50, 5.0, None, None)])[1] == "call"
    burst = _call(80, 5.5, 5.4, 5.4 + MIN_STREAM_SPAN_S / 2)
    assert generation_rate([burst]) == (pytest.approx(80 / 5.5), "call")
    assert generation_rate([_call(1, 2.0, 1.0, 1.5)])[1] == "call"  # one token: no span


@pytest.mark.parametrize(
    ("explanation", "refused"),
    [
        ("stream: streaming is not supported for this model", True),
        ("Unsupported parameter: 'stream' is not supported with this model.", True),
        ("The model `o1-stream` does not exist", False),
        ("max_tokens is too large", False),
    ],
)
def test_a_refusal_to_stream_is_told_from_other_refusals(explanation: str, refused: bool) -> None:
    assert refuses_streaming(explanation) is refused
