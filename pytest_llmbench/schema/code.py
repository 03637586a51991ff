"""What the code metrics found in an answer's code (schema of `AttemptResult.code`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .vocabulary import CheckStatus


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FileCheck(Schema):
    """The syntax check of one file extracted from an answer."""

    path: str = Field(description="the path the answer gives, else 'block N (language)'")
    language: str
    checker: str | None = Field(
        default=None, description="python | node | esbuild | javac | structure; null if none ran"
    )
    status: CheckStatus
    reason: str = Field(default="", description="the error with its line, or why not checked")


class CodeMetrics(Schema):
    """Code metrics of one answer (method.md sections 3 and 7), from its extracted files."""

    files: int = Field(description="code blocks in the answer (a path given twice counts once)")
    paths: list[str] = Field(default_factory=list, description="safe file paths the answer names")
    rejected_paths: list[str] = Field(
        default_factory=list, description="'path: why' for absolute paths and '..' escapes"
    )
    ci: int | None = Field(default=None, description="CI of the answer's code (ESLint count)")
    loc: int | None = Field(default=None, description="physical lines of the answer's code")
    gci: float | None = Field(default=None, description="CI / LoC of the answer's code")
    input_gci: float | None = Field(default=None, description="GCI of the input dataset")
    gci_change: float | None = Field(
        default=None, description="gci - input_gci: negative = simpler than the input"
    )
    similarity: float | None = Field(
        default=None,
        description="SequenceMatcher(None, reference, answer, autojunk=False).ratio() over "
        "the extracted code (whole texts when the reference has no code block)",
    )
    similarity_baseline: float | None = Field(
        default=None,
        description="the same ratio for the do-nothing answer (the unchanged input code; "
        "empty without dataset)",
    )
    similarity_normalised: float | None = Field(
        default=None,
        description="(s - s_base) / (1 - s_base): 1 identical, 0 no better than doing nothing",
    )
    similarity_reason: str | None = Field(
        default=None, description="why similarity is unscored (no reference answer)"
    )
    syntax: list[FileCheck] = Field(default_factory=list)
    executability: float | None = Field(
        default=None, description="share of checked files that pass; null when none was checked"
    )
    executability_reason: str | None = None
