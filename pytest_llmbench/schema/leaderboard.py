"""The leaderboard (leaderboard.json's `leaderboard`) and the envelope around it, typed.

`reporting/leaderboard.py` builds these from item results; leaderboard.json, leaderboard.md,
report.html, the terminal summary and the `pytest_llmbench_leaderboard` hook read them.
Field order is the key order of leaderboard.json. Every field is documented where it is
defined; the statistics behind a row are described in `reporting/leaderboard.py`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from .results import Schema


class Spread(Schema):
    """Median and 95th percentile over a row's items (null when no item has the figure)."""

    median: float | None = None
    p95: float | None = None


class CodeFigure(Schema):
    """One code metric of a row: its mean over the best attempts that have it."""

    mean: float | None = Field(default=None, description="null when no item has the metric")
    n: int = Field(default=0, description="items the mean is over")


class CodeFigures(Schema):
    """The per-answer code metrics (results.CodeMetrics) averaged over a row's items."""

    ci: CodeFigure = Field(description="ESLint-count CI of the answer's code")
    loc: CodeFigure = Field(description="physical lines of the answer's code")
    gci: CodeFigure = Field(description="CI / LoC of the answer's code")
    gci_change: CodeFigure = Field(description="gci - input_gci (negative: simpler)")
    similarity: CodeFigure = Field(description="similarity to the reference answer, 0-1")
    similarity_normalised: CodeFigure = Field(
        description="similarity over the do-nothing baseline: 1 identical, 0 no better"
    )
    executability: CodeFigure = Field(description="share of checked files that pass")

    def by_name(self) -> dict[str, CodeFigure]:
        """Each metric's figure, in field order."""
        return {name: getattr(self, name) for name in type(self).model_fields}


class Row(Schema):
    """One leaderboard row: a model over all its items, or a model x category."""

    model: str = Field(description="the candidate model")
    category: str | None = Field(
        default=None, description="category rows only; absent from model rows' JSON"
    )
    formula: str = Field(description="the formula(s) that scored the items, comma-separated")
    items: int = Field(description="items of the row, in every status")
    scored: int = Field(description="items with a metric value")
    unscored: int = Field(description="items nothing could score")
    errors: int = Field(description="items that could not run")
    skipped: int = Field(description="items skipped (e.g. the budget ran out)")
    score: float | None = Field(description="mean item score over scored items, 0-1")
    score_ci: list[float] | None = Field(description="95% bootstrap interval of `score`")
    accuracy: float | None = Field(description="mean accuracy (1-4) over scored items")
    accuracy_ci: list[float] | None = Field(description="95% bootstrap interval of `accuracy`")
    completeness: float | None = Field(description="mean completeness (1-4) over scored items")
    completeness_ci: list[float] | None = Field(
        description="95% bootstrap interval of `completeness`"
    )
    pass_rate: float | None = Field(description="mean weighted share of passed steps")
    pass_at_1: float | None = Field(description="unbiased pass@1 over the attempts run")
    pass_at_k: float | None = Field(description="unbiased pass@k, k = attempts allowed")
    functional_items: int = Field(
        default=0, description="items of the row with hidden tests (a functional rate)"
    )
    functional_rate: float | None = Field(
        default=None,
        description="mean of the items' functional rates (hidden tests passed / tests, or "
        "mutants killed / mutants), 0-1, over the functional items; null when the row has "
        "none",
    )
    functional_rate_ci: list[float] | None = Field(
        default=None, description="95% bootstrap interval of `functional_rate`"
    )
    functional_pass_at_1: float | None = Field(
        default=None,
        description="share of the functional items whose first attempt passed every hidden "
        "test; null when the row has none",
    )
    functional_pass_after_feedback: float | None = Field(
        default=None,
        description="--llm-feedback: share of the functional items run with feedback where "
        "some attempt passed every hidden test; null when no item of the row was",
    )
    tampered: int = Field(
        default=0,
        description="items of the row with an attempt marked tampered (the answer attacked "
        "the hidden tests' verdict: ItemResult.tampered); their runs count as rate 0",
    )
    generation_rate: float | None = Field(description="mean candidate tokens per second")
    attempt: float | None = Field(description="mean best attempt number")
    judge_agreement: float | None = Field(description="mean of the items' judge_agreement")
    judge_exact_agreement: float | None = Field(
        description="share of judge pairs giving the same argmax grade"
    )
    judge_alpha: float | None = Field(description="Krippendorff's alpha (ordinal) of judges")
    check_judge_agreement: float | None = Field(
        description="share of steps whose check verdict equals the judges' majority"
    )
    metric_sources: dict[str, int] = Field(description="'judges' | 'checks' -> metric count")
    grade_methods: dict[str, int] = Field(description="'logprobs' | 'sampling' -> grade count")
    candidate_tokens: int = Field(description="candidate prompt + completion tokens, summed")
    candidate_cost_usd: float | None = Field(description="summed; null when no price is known")
    judge_tokens: int = Field(description="evaluator and grader tokens, summed")
    judge_cost_usd: float | None = Field(description="summed; null when no price is known")
    candidate_cached_tokens: int = Field(
        default=0,
        description="of the candidate's prompt tokens: those the provider read from its "
        "prompt cache (priced at the cache read rate), summed",
    )
    judge_cached_tokens: int = Field(
        default=0, description="of the evaluators' and graders' prompt tokens: cache reads, summed"
    )
    tokens: Spread = Field(description="candidate tokens per item")
    cost_usd: Spread = Field(description="candidate cost per item")
    latency_s: Spread = Field(description="the best attempt's candidate latency per item")
    notes: list[str] = Field(description="why a figure is missing or zero")
    marks: list[str] = Field(
        default_factory=list,
        description="why this model row does not compare like for like with the others "
        "(scored on other items, or without a syntax checker another run had)",
    )
    code: CodeFigures = Field(description="code metrics averaged over the best attempts")
    rank: str | None = Field(
        default=None,
        description="the ranks the model may hold, '1' or a range '1-2' shared with the "
        "models whose score it does not differ from significantly (see the leaderboard's "
        "`ranking`): among the model rows over all items, or among a category's rows over "
        "its items (Holm over that category's pairs); null without a score",
    )
    own_family_judges: list[str] = Field(
        default_factory=list,
        description="judges of the candidate's own family (provider and model family from "
        "the names: openai/gpt-4o judging openai/gpt-4o-mini), which may favour its answers",
    )
    score_other_judges: float | None = Field(
        default=None,
        description="with own-family judges and at least one other: the score from the "
        "judges of other families alone; null otherwise",
    )

    @model_serializer(mode="wrap")
    def _without_empty_category(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self.category is None:
            del data["category"]
        return data


class Calibration(Schema):
    """How one judge's (or the deterministic checks') verdicts on functional criteria
    match the hidden tests those criteria name, over every attempt's steps."""

    verifier: str = Field(description="the judge model, or `checks` for deterministic checks")
    kind: Literal["judge", "check"]
    n: int = Field(description="steps with both a verdict of this verifier and a test verdict")
    agreement: float | None = Field(
        description="share of those steps where the verdict equals the tests' (all passed)"
    )
    kappa: float | None = Field(
        description="Cohen's kappa of the two verdicts (chance-corrected agreement: 0 for "
        "a verifier that always says the same); null when both sides said the same throughout"
    )
    both_pass: int = Field(description="Pass, and the tests passed")
    both_fail: int = Field(description="Fail, and some test failed")
    pass_tests_fail: int = Field(description="Pass while some test failed (over-trust)")
    fail_tests_pass: int = Field(description="Fail while every test passed")


class McNemar(Schema):
    """Paired pass/fail verdicts of a pair of models on the items both have one for."""

    items: int = Field(description="items with a verdict for both models")
    a_only: int = Field(description="passed by a, failed by b")
    b_only: int = Field(description="passed by b, failed by a")
    p: float | None = Field(description="exact two-sided McNemar p-value; null without items")
    p_holm: float | None = Field(description="`p` Holm-adjusted over every pair of the board")


class Pair(Schema):
    """Two models compared on the items both scored (same scenario and dataset)."""

    a: str = Field(description="the model ranked higher by score")
    b: str = Field(description="the other model")
    items: int = Field(description="items scored for both")
    scenarios: int = Field(description="scenarios of those items: the clusters resampled")
    a_score: float | None = Field(description="a's mean score over those items")
    b_score: float | None = Field(description="b's mean score over those items")
    difference: float | None = Field(description="a_score - b_score")
    difference_ci: list[float] | None = Field(
        description="95% percentile bootstrap interval of `difference`, scenarios resampled "
        "whole (paired: each resample keeps both models' scores of an item together)"
    )
    p: float | None = Field(
        description="two-sided paired permutation p-value of `difference` (each scenario's "
        "differences keep or flip their sign together)"
    )
    p_holm: float | None = Field(description="`p` Holm-adjusted over every pair of the board")
    significant: bool = Field(description="p_holm below 1 - the ranking's level")
    detectable: float | None = Field(
        description="the smallest score difference this many items detect with 80% power at "
        "the ranking's level, from the observed clustered variance of the differences; null "
        "when the scenarios are too few for the test to reach the level (5 or fewer at 95%)"
    )
    pass_at_1: McNemar = Field(description="attempt 1 passing the pass threshold (judged)")
    tests_pass_at_1: McNemar = Field(description="attempt 1 passing every hidden test")


class Ranking(Schema):
    """How the pairs were tested and the ranks made."""

    test: str = Field(description="the test deciding whether two models' scores differ")
    level: float = Field(description="confidence level: a pair differs when p_holm < 1 - level")
    adjustment: str = Field(description="multiple-comparison adjustment over the pairs")
    permutations: int = Field(description="random sign patterns when not enumerated exactly")
    stop_hits: int = Field(
        description="random patterns stop once this many reach the observed difference "
        "(sequential p-value: hits / patterns drawn)"
    )
    exact_up_to: int = Field(
        description="every sign pattern is used when at most this many scenarios have a "
        "nonzero difference"
    )
    power: float = Field(description="power of the detectable differences")


class Confidence(Schema):
    """How the bootstrap intervals were made."""

    level: float = Field(description="confidence level of the intervals (0.95)")
    resamples: int = Field(description="bootstrap resamples per interval")
    seed: int = Field(description="of the resampling, so intervals repeat")


class Leaderboard(BaseModel):
    """The leaderboard. The `pytest_llmbench_leaderboard` hook may change it and may add
    keys of its own (`leaderboard.team = "platform"`), written after these."""

    model_config = ConfigDict(extra="allow")

    formula: str = Field(description="every formula used, comma-separated")
    formulas: dict[str, str] = Field(description="formula name -> its text")
    attempts: int = Field(description="attempts allowed per item (A)")
    max_rate: float | None = Field(description="MaxRate: highest mean generation rate")
    pass_threshold: float = Field(
        description="the pass threshold: the quality (Acc + Compl)/8 an attempt passes at "
        "(pass@k); `pass_quality` in leaderboards before schema 3"
    )
    confidence: Confidence
    models: list[Row] = Field(description="one row per model, best score first")
    categories: list[Row] = Field(description="one row per model x category")
    calibration: list[Calibration] = Field(
        default_factory=list,
        description="judges (then the checks) against the hidden tests, on functional "
        "criteria; empty when no step has a test verdict",
    )
    ranking: Ranking | None = Field(
        default=None, description="the test and level behind `pairs` and the rows' `rank`"
    )
    pairs: list[Pair] = Field(
        default_factory=list,
        description="every pair of models with a score, in the model rows' order",
    )

    @model_validator(mode="before")
    @classmethod
    def _former_names(cls, data: Any) -> Any:
        """A leaderboard.json written before schema 3 named the pass threshold pass_quality."""
        if isinstance(data, dict) and "pass_quality" in data and "pass_threshold" not in data:
            data = {**data, "pass_threshold": data["pass_quality"]}
            del data["pass_quality"]
        return data


class Machine(Schema):
    """Where the leaderboard was made."""

    python: str = Field(description="Python version")
    platform: str = Field(description="platform.platform()")
    node: str = Field(description="host name")


class LeaderboardDocument(Schema):
    """leaderboard.json: the leaderboard with what made it."""

    schema_version: int = Field(description="results.SCHEMA_VERSION of the writer")
    plugin_version: str = Field(description="pytest-llmbench's version")
    git_commit: str | None = Field(description="HEAD of the rootdir; null outside git")
    created_utc: str = Field(description="ISO 8601, seconds")
    machine: Machine
    settings: dict[str, JsonValue] = Field(
        description="the run's resolved settings, or what `llmbench merge` merged"
    )
    checkers: dict[str, bool] | None = Field(
        default=None,
        description="syntax checker -> present on the machine (python, node, esbuild, javac); "
        "a missing one leaves its languages unchecked",
    )
    leaderboard: Leaderboard = Field(description="the rows and how they were scored")


class _BoardHead(BaseModel):
    attempts: int = Field(description="attempts allowed per item (A)")


class DocumentHead(BaseModel):
    """What `llmbench merge` and `compare` read back from a leaderboard.json: lenient on
    purpose, so an envelope written before some row field existed still gives these."""

    created_utc: str | None = None
    plugin_version: str | None = None
    git_commit: str | None = None
    settings: dict[str, JsonValue] = {}
    checkers: dict[str, bool] | None = None
    leaderboard: _BoardHead
