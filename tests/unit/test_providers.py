"""Real providers as they are (issue 28): a provider's explanation kept, a request the
server calls invalid not retried, and the structured form a server takes learnt once."""

from __future__ import annotations

import asyncio

import pytest

from pytest_llmbench.errors import ContextWindowError, ModelError
from pytest_llmbench.models.provider_errors import model_error
from pytest_llmbench.models.structured import FormChain, refuses_form, response_format
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
