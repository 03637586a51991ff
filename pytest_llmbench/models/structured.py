"""How a reply's JSON schema is sent, and the chain of forms a server's refusals walk down.

The forms, most exact first (schema/vocabulary.py StructuredForm): `schema` sends
response_format {"type": "json_schema", ...} (OpenAI's form); `json_object` sends
{"type": "json_object", "schema": ...} (llama-cpp-python's server takes only `text` and
`json_object`, and constrains the reply to the schema it carries); `text` sends no
response_format, and the reply is read leniently. A model learns its form once per run:
its first structured call goes alone (the others wait for it), and a refusal of the
request's response_format moves it to the next form at once; the first form answered is
kept for the rest of the run. So a server costs at most one refused call per form it
does not take, however many calls wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..errors import ContextWindowError, ModelError
from ..schema.vocabulary import STRUCTURED_FORMS, StructuredForm

T = TypeVar("T")

# Words of a refusal that name the response format (the request's field or its types).
_FORMAT_WORDS = ("response_format", "json_schema", "json_object")


def response_format(form: StructuredForm, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The response_format that asks for a reply following `schema` in `form`."""
    if form == "schema":
        return {"type": "json_schema", "json_schema": {"name": "report", "schema": schema}}
    if form == "json_object":
        return {"type": "json_object", "schema": schema}
    return None


def refuses_form(error: ModelError) -> bool:
    """Whether a call failed because the server does not take its response_format: a
    refusal another try would meet again, whose explanation names the format."""
    if error.retryable or isinstance(error, ContextWindowError) or error.status in (401, 403):
        return False
    text = str(error).lower()
    return any(word in text for word in _FORMAT_WORDS)


class FormChain:
    """The structured form one model takes, learnt on its first structured calls."""

    def __init__(self) -> None:
        self._forms: list[StructuredForm] = list(STRUCTURED_FORMS)
        self.settled = False
        self._learning = asyncio.Lock()  # bound to the run's loop on first use
        self.refusals: list[str] = []  # the refused calls' messages, one per form dropped

    @property
    def form(self) -> StructuredForm:
        return self._forms[0]

    async def call(self, send: Callable[[StructuredForm], Awaitable[T]]) -> T:
        """`send(form)` in the form this model takes, learning it on the first calls."""
        if not self.settled:
            async with self._learning:
                if not self.settled:
                    return await self._learn(send)
        return await send(self.form)

    async def _learn(self, send: Callable[[StructuredForm], Awaitable[T]]) -> T:
        while True:
            try:
                reply = await send(self.form)
            except ModelError as error:
                if self.form == "text" or not refuses_form(error):
                    raise  # not the format's fault: the next call tries this form again
                self.refusals.append(str(error))
                self._forms.pop(0)
                continue
            self.settled = True
            return reply
