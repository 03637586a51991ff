"""Parsers of option values: each turns the text of a command-line, environment or ini
value into what Settings holds, or raises argparse.ArgumentTypeError saying what is
accepted (settings.py names the option in front of it)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from .schema.vocabulary import FORMULA_NAMES


def int_at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number >= {low}, got {text!r}"
            ) from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {low}, got {value}")
        return value

    return parse


def float_between(
    low: float, high: float | None, *, open_low: bool = False
) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value):  # nan and inf compare false with every bound
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        too_low = value <= low if open_low else value < low
        if too_low or (high is not None and value > high):
            bound = f"> {low}" if open_low else f">= {low}"
            raise argparse.ArgumentTypeError(
                f"expected a number {bound}{f' and <= {high}' if high is not None else ''}, got {value}"
            )
        return value

    return parse


def model_name(text: str) -> str:
    from .models.registry import name_problem

    name = str(text).strip()
    problem = name_problem(name)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return name


def choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = str(text).strip().lower()
        if value not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {'|'.join(choices)}, got {text!r}")
        return value

    return parse


def boolean(text: str) -> bool:
    value = str(text).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def price(text: str) -> tuple[str, float, float]:
    """MODEL=IN/OUT in USD per million input/output tokens."""
    model, sep, rates = str(text).strip().rpartition("=")
    parts = rates.split("/")
    try:
        per_in, per_out = (float(p) for p in parts) if sep and len(parts) == 2 else ("", "")
        if not model or not 0 <= per_in + per_out < math.inf or min(per_in, per_out) < 0:  # type: ignore[operator]
            raise ValueError
    except (ValueError, TypeError):
        raise argparse.ArgumentTypeError(
            f"expected MODEL=IN/OUT in USD per million input/output tokens "
            f"(e.g. openai/my-model=0.15/0.60), got {text!r}"
        ) from None
    return model, float(per_in), float(per_out)


def context_window(text: str) -> tuple[str, int]:
    """MODEL=N: the model's context window in tokens."""
    model, sep, size = str(text).strip().rpartition("=")
    try:
        if not sep or not model.strip() or int(size) < 1:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected MODEL=N with N the context window in tokens "
            f"(e.g. openai/my-model=8192), got {text!r}"
        ) from None
    return model.strip(), int(size)


STRUCTURED_OUTPUTS = ("auto", "schema", "text")


def structured_output(text: str) -> tuple[str, str]:
    """MODE or MODEL=MODE; ("", MODE) is the default for every judge."""
    model, _, mode = str(text).strip().rpartition("=")
    mode = mode.strip().lower()
    if mode not in STRUCTURED_OUTPUTS:
        accepted = "|".join(STRUCTURED_OUTPUTS)
        raise argparse.ArgumentTypeError(f"expected {accepted} or MODEL={accepted}, got {text!r}")
    return model.strip(), mode


TOOL_PROTOCOLS = ("auto", "native", "text")


def tool_protocol(text: str) -> tuple[str, str]:
    """MODE or MODEL=MODE; ("", MODE) is the default for every model."""
    model, _, mode = str(text).strip().rpartition("=")
    mode = mode.strip().lower()
    if mode not in TOOL_PROTOCOLS:
        raise argparse.ArgumentTypeError(
            f"expected {'|'.join(TOOL_PROTOCOLS)} or MODEL={'|'.join(TOOL_PROTOCOLS)}, got {text!r}"
        )
    return model.strip(), mode


def text(text: str) -> str:
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError("expected a non-empty value")
    return value


def formula_name(text: str) -> str:
    name = str(text).strip()
    if name not in FORMULA_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown score formula {name!r}; accepted: {', '.join(FORMULA_NAMES)}"
        )
    return name
