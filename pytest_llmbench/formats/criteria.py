"""Evaluation criteria: the steps of each metric and their deterministic checks.

A scenario's `criteria` (and `dataset_criteria`, and a dialog turn's `criteria`) list
steps per metric; `numbered` gives each its stable id for results and judge prompts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..schema.vocabulary import Metric
from .languages import LANGUAGES
from .paths import safe_path

CHECK_KINDS = ("contains", "not_contains", "regex", "parses", "file")
# `parses:` takes any checkable language, or any (whatever each file is)
PARSE_LANGUAGES = ("any", *sorted(LANGUAGES))


class Check(BaseModel):
    """A deterministic check of an answer; exactly one kind is set."""

    model_config = ConfigDict(extra="forbid")
    contains: str | list[str] | None = None
    not_contains: str | list[str] | None = None
    regex: str | None = None
    parses: bool | str | None = None
    file: str | list[str] | None = None
    ignore_case: bool = False
    # Dialog turns only: the workspace file that contains/not_contains/regex/parses look at.
    path: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Check:
        kinds = [k for k in CHECK_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                "a check needs exactly one of contains, not_contains, regex, parses, file "
                f"(got {', '.join(kinds) or 'none'})"
            )
        if self.regex is not None:
            try:
                regex.compile(self.regex)  # the engine judging/checks.py matches with
            except regex.error as exc:
                raise ValueError(f"regex does not compile: {exc}") from None
        if isinstance(self.parses, str) and self.parses not in PARSE_LANGUAGES:
            raise ValueError(f"parses takes true or one of {', '.join(PARSE_LANGUAGES)}")
        if self.parses is False:
            raise ValueError("parses takes true or a language name, not false")
        if self.path is not None:
            if self.file is not None:
                raise ValueError("path goes with contains, not_contains, regex or parses, not file")
            relative, why = safe_path(self.path)
            if relative is None:
                raise ValueError(
                    f"path {self.path!r} must be relative, inside the workspace ({why})"
                )
            self.path = relative  # normalised, as the workspace names its files
        return self


class Step(BaseModel):
    """One evaluation criterion. Written as a plain string or as a mapping."""

    model_config = ConfigDict(extra="forbid")
    criterion: str = Field(min_length=1)
    weight: float = Field(default=1.0, gt=0, allow_inf_nan=False)
    check: Check | None = None
    # A functional criterion: the hidden tests (fnmatch patterns of their names) whose
    # passing is this criterion's execution verdict, set beside the judges' (agreement).
    tests: list[str] = []

    @model_validator(mode="before")
    @classmethod
    def _accept_public_forms(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"criterion": value}
        if isinstance(value, dict) and "criteria" in value:
            if "criterion" in value:
                raise ValueError("give the text as criterion or criteria, not both")
            value = dict(value)
            value["criterion"] = value.pop("criteria")
        return value


class Criteria(BaseModel):
    """Steps of both metrics. In `criteria` (shared by every dataset) and in
    `dataset_criteria` (one dataset's own steps) either list may be empty; each item
    must end up with at least one step per metric."""

    model_config = ConfigDict(extra="forbid")
    accuracy: list[Step] = []
    completeness: list[Step] = []


@dataclass(frozen=True)
class CriterionStep:
    """A criterion with its stable id (A1.. for accuracy, C1.. for completeness)."""

    id: str
    metric: Metric
    text: str
    weight: float
    check: Check | None
    tests: tuple[str, ...] = ()  # hidden-test name patterns (a functional criterion)


def numbered(metric: Metric, written: list[Step]) -> list[CriterionStep]:
    """Steps as written, with their ids: A1.. for accuracy, C1.. for completeness."""
    return [
        CriterionStep(
            f"{metric[0].upper()}{i}",
            metric,
            s.criterion.strip(),
            s.weight,
            s.check,
            tuple(s.tests),
        )
        for i, s in enumerate(written, start=1)
    ]
