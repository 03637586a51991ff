"""The words every layer shares: metrics, roles, statuses and modes, each spelled once."""

from __future__ import annotations

from typing import Literal, get_args

Metric = Literal["accuracy", "completeness"]
METRICS: tuple[Metric, Metric] = ("accuracy", "completeness")

# Who a model call works for.
Role = Literal["candidate", "evaluator", "grader"]

# An item's outcome: scored (a metric has a value), unscored (nothing could score it),
# error (the item could not run), skipped (resumed, or the budget ran out).
ItemStatus = Literal["scored", "unscored", "error", "skipped"]
# pytest's own outcome of the item, as its reports settled it (an error is a failed setup).
Outcome = Literal["passed", "failed", "error", "skipped"]

# The user property (test report) that carries an item's result, as JSON text.
PROPERTY_KEY = "llmbench"

# How a grade distribution was obtained.
GradeMethod = Literal["logprobs", "sampling"]

# The form an evaluator report was written in.
ReportForm = Literal["json", "markdown"]

# How a reply was asked for when it must follow a JSON schema (models/structured.py):
# `schema` (response_format json_schema), `json_object` (response_format json_object
# carrying the schema), `text` (no response_format; the reply is read leniently).
StructuredForm = Literal["schema", "json_object", "text"]
STRUCTURED_FORMS: tuple[StructuredForm, ...] = get_args(StructuredForm)

# What a generation rate divides by (judging/scoring.py generation_rate).
RateBasis = Literal["generation", "stream", "call"]

# A syntax or structure check of one file.
CheckStatus = Literal["pass", "fail", "not checked"]

# What became of one tool call in a dialog.
ToolOutcome = Literal["ok", "refused", "malformed", "finished", "ignored"]

# Why a dialog ended.
DialogEnd = Literal[
    "finished", "round limit", "token limit", "time limit", "tool error limit", "context limit"
]

# The score formulas, by the name --llm-score-formula takes: judging/formulas.py defines each
# (tests/unit/test_settings.py keeps the two lists the same).
FormulaName = Literal["weighted", "sum8", "unit", "multimodal", "functional"]
FORMULA_NAMES: tuple[FormulaName, ...] = get_args(FormulaName)

# The request cache: on (read and write), off, refresh (write only), replay (read only).
CacheMode = Literal["on", "off", "refresh", "replay"]
CACHE_MODES: tuple[CacheMode, ...] = ("on", "off", "refresh", "replay")
