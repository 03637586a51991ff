"""A provider's failure, as litellm raises it, turned into one ModelError: its kind named
once, the provider's own explanation kept (its first lines, on one line), and whether
another try may succeed (execution/retry.py retries only those)."""

from __future__ import annotations

import re

from ..errors import ContextWindowError, ModelError

# The kind of a provider failure, named once: litellm's class, else the HTTP status.
_KINDS = {
    "ContextWindowExceededError": "context window",
    "AuthenticationError": "authentication",
    "PermissionDeniedError": "authentication",
    "RateLimitError": "rate limit",
    "BadRequestError": "bad request",
    "UnprocessableEntityError": "bad request",
    "NotFoundError": "not found",
    "Timeout": "timeout",
    "TimeoutError": "timeout",
    "ConnectionError": "connection",
    "APIConnectionError": "connection",
    "InternalServerError": "server",
    "ServiceUnavailableError": "server",
}
_STATUS_KINDS = {400: "bad request", 401: "authentication", 403: "authentication", 404: "not found"}
# litellm stacks the class names of every layer before the provider's message:
# "litellm.ContextWindowExceededError: litellm.BadRequestError: ... OpenAIException - ..."
_PREFIXES = re.compile(r"^(?:\s*(?:litellm\.)?\w*(?:Error|Exception)\b\s*[:-]\s*)+")
# How many lines of the provider's explanation a message keeps, and how many characters.
# A validation error names what was wrong on its second and third lines (pydantic:
# "1 validation error for X" / "field" / "Input should be ..."); later lines are links.
MESSAGE_LINES = 3
MESSAGE_CHARS = 400


def _kind(exc: BaseException, status: int | None) -> str:
    kind = _KINDS.get(type(exc).__name__)
    if kind is None and status is not None:
        kind = _STATUS_KINDS.get(status) or ("rate limit" if status == 429 else None)
        kind = kind or ("server" if status >= 500 else None)
    return kind or type(exc).__name__


def provider_message(exc: BaseException) -> str:
    """The provider's own explanation: its first MESSAGE_LINES lines joined with " | ",
    without litellm's stacked prefixes."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if lines:
        lines[0] = _PREFIXES.sub("", lines[0]).strip()
    text = " | ".join(line for line in lines[:MESSAGE_LINES] if line)
    return text[:MESSAGE_CHARS] or "no message"


# litellm exception classes worth retrying even when they carry no HTTP status.
_TRANSIENT = {"Timeout", "APIConnectionError", "ServiceUnavailableError", "InternalServerError"}
# Failures another try cannot mend, whatever status they carry: a missing or wrong key, a
# request the provider refuses. (litellm reports a missing OpenAI key as a 500
# InternalServerError "Missing credentials", so the text is checked too.)
_PERMANENT = {
    "AuthenticationError",
    "PermissionDeniedError",
    "BadRequestError",
    "NotFoundError",
    "UnprocessableEntityError",
    "ContextWindowExceededError",
    "ContentPolicyViolationError",
    "UnsupportedParamsError",
}
_PERMANENT_TEXT = ("missing credentials", "api key", "api_key")
# A body that says the request itself is invalid, whatever the status: some servers answer
# a request their schema rejects with a 500 (llama-cpp-python: pydantic's "1 validation
# error for ... Input should be ..."). The same request would be refused again.
_INVALID_TEXT = ("validation error", "input should be", "invalid_request_error")


def invalid_request(exc: BaseException) -> bool:
    """Whether the provider's explanation says the request itself is invalid."""
    text = str(exc).lower()
    return any(marker in text for marker in _INVALID_TEXT)


def _permanent(exc: BaseException, status: int | None) -> bool:
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & _PERMANENT:
        return True
    if status in (408, 429):
        return False  # a rate limit's text may name the key too ("... for this API key")
    text = str(exc).lower()
    return invalid_request(exc) or any(marker in text for marker in _PERMANENT_TEXT)


def _retry_after(exc: BaseException) -> float | None:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date: rare enough to treat as "no hint"
        return None


def model_error(name: str, role: str, exc: BaseException) -> ModelError:
    """A provider failure as a ModelError that says whether another try may succeed."""
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    transient = type(exc).__name__ in _TRANSIENT or isinstance(exc, TimeoutError | ConnectionError)
    retryable = not _permanent(exc, status) and (
        transient or status in (408, 409, 429) or (status is not None and status >= 500)
    )
    kind = _kind(exc, status)
    if kind == "server" and invalid_request(exc):
        kind = f"invalid request (HTTP {status})" if status else "invalid request"
    error = ContextWindowError if type(exc).__name__ == "ContextWindowExceededError" else ModelError
    return error(
        f"{name} ({role}): {kind}: {provider_message(exc)}",
        retryable=retryable,
        status=status,
        retry_after=_retry_after(exc),
    )
