"""What checks, judges and graders said about one attempt: verdicts per criterion step,
grades, the metrics they make, and the evaluators' reports (part of the per-item result
schema, schema/results.py, which re-exports them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .vocabulary import GradeMethod, Metric, ReportForm, StructuredForm


class Schema(BaseModel):
    # A misspelt field is a bug in the code that fills it, not data to drop silently.
    model_config = ConfigDict(extra="forbid")


class Verdict(Schema):
    """Pass or fail of one step, by a deterministic check or by one judge."""

    passed: bool
    confidence: float | None = Field(default=None, description="0-100, as the judge stated it")
    reason: str = ""


class StepResult(Schema):
    """One criterion with every verdict given on it."""

    id: str = Field(description="A1.. for accuracy steps, C1.. for completeness steps")
    metric: Metric
    criterion: str
    weight: float
    check: Verdict | None = Field(
        default=None, description="the deterministic check; null if the step has none"
    )
    judges: dict[str, Verdict] = Field(
        default_factory=dict, description="judge model -> its verdict"
    )
    check_agrees: bool | None = Field(
        default=None,
        description="check verdict == majority of judge verdicts; null when either is missing",
    )
    tests_passed: bool | None = Field(
        default=None,
        description="a functional criterion: every hidden test it names passed (the "
        "execution verdict judges are calibrated against); null for other criteria",
    )

    @property
    def unscored(self) -> bool:
        return self.check is None and not self.judges


class Grade(Schema):
    """The grader's grade of one judge's report on one metric."""

    metric: Metric
    judge: str
    grader: str
    method: GradeMethod
    argmax: int | None = Field(
        default=None,
        description="the most probable grade 1-4 (AIRUN imports: 1-5, their `score` column); "
        "`score` before schema 3",
    )
    weighted: float | None = Field(
        default=None, description="sum of k * p_k over k = 1..4 (AIRUN imports: 1..5)"
    )
    published: float | None = Field(
        default=None, description="AIRUN imports: the published 0-4 figure, weighted - 1"
    )
    distribution: dict[str, float] = Field(
        default_factory=dict,
        description='"1".."4" -> probability (imported AIRUN grades keep a published "5")',
    )
    confident: bool = Field(default=False, description="max probability > 0.9")
    samples: int = Field(default=1, description="grader replies the distribution came from")
    error: str | None = None
    top_logprobs: list[tuple[str, float]] | None = Field(
        default=None,
        description="the first grader token's top alternatives as [token, logprob], as the "
        "provider gave them (null when it gave none), so a grade can be checked afterwards",
    )
    sampled_because: str | None = Field(
        default=None,
        description="method sampling: why the logprobs were not used (none given, no grade "
        "token among them, or grade tokens below the minimum share)",
    )


class MetricResult(Schema):
    """Accuracy or completeness of one attempt."""

    value: float | None = Field(
        default=None,
        description="1-4. From judges: mean over judges of the grader's weighted grade. "
        "From checks (no judge): 1 + 3 * weighted pass rate of the checked steps.",
    )
    source: Literal["judges", "checks"] | None = None
    pass_rate: float | None = Field(
        default=None, description="weighted share of passed steps (judge majority, else check), 0-1"
    )
    check_pass_rate: float | None = Field(
        default=None, description="weighted share of passed checks, 0-1"
    )
    grades: list[Grade] = Field(default_factory=list)
    unscored_reason: str | None = None


class JudgeReport(Schema):
    """What one evaluator wrote about one attempt."""

    judge: str
    text: str
    form: ReportForm | None = None
    error: str | None = Field(default=None, description="why the report could not be used")
    output: StructuredForm = Field(
        default="text",
        description="how the report was asked for: `schema` (response_format json_schema), "
        "`json_object` (response_format json_object carrying the schema, for servers that "
        "take no json_schema), or `text` (read leniently; also a judge whose server took "
        "neither structured form)",
    )
    input_cut: int = Field(
        default=0,
        description="characters of the task prompt (its input code) left out so the "
        "evaluator's request fits the judge's context window; 0: the whole task was shown",
    )
