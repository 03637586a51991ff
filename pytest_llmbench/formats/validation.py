"""Turning pydantic validation errors into the one-line messages users see."""

from __future__ import annotations

from pydantic import ValidationError


def describe_validation_error(exc: ValidationError) -> tuple[str, str]:
    """Return (dotted field path, problem) of the first error pydantic found."""
    errors = exc.errors()
    # A misspelt field also makes the real one "missing"; naming the misspelling helps more.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = ".".join(str(part) for part in first["loc"] if not str(part).startswith("function-"))
    kind = first["type"]
    if kind == "missing":
        return loc, "required field is missing"
    if kind == "extra_forbidden":
        return loc, "unknown field (see docs/formats.md for the accepted fields)"
    message = first["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return loc, message
