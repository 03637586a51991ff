"""Reading YAML files into pydantic models, with the one-line errors users see."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from ..errors import FormatError

M = TypeVar("M", bound=BaseModel)
# libyaml's safe loader when PyYAML was built with it: the same documents, parsed several
# times faster (scenario files are read on every collection).
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(path: Path) -> str:
    """A UTF-8 text file; a FormatError naming it when it is not UTF-8 or cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(
            path,
            "",
            f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
            "save it as UTF-8",
        ) from None
    except OSError as exc:
        raise FormatError(path, "", f"cannot be read ({exc.strerror or exc})") from None


def read_yaml(path: Path) -> object:
    text = read_text(path)
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "YAML"
        problem = getattr(exc, "problem", None) or exc
        raise FormatError(path, where, f"not valid YAML ({problem})") from None
    except RecursionError:  # thousands of nested [ or {
        raise FormatError(path, "", "not valid YAML (nested too deeply)") from None


def load_model(path: Path, model: type[M], expected: str) -> M:
    """Read a YAML mapping and validate it; any problem is a FormatError naming the field."""
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise FormatError(path, "", f"must be a YAML mapping with {expected} (see docs/formats.md)")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        field_name, problem = describe_validation_error(exc)
        raise FormatError(path, field_name, problem) from None


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
