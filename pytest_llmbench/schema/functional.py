"""What running an answer's code found: hidden acceptance tests, or the answer's own
tests against mutants of the dataset (schema of `AttemptResult.functional`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Status = Literal["passed", "failed", "skipped", "not run"]


class TestOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")
    __test__ = False  # not a pytest test class
    name: str
    passed: bool
    message: str = Field(default="", description="the failure's first lines (not the test code)")
    status: Status | None = Field(
        default=None,
        description="passed, failed, skipped (the test was disabled or skipped itself) or not "
        "run (the run ended before it); only `passed` counts as passed. None in results "
        "written before 0.2: `passed` says which",
    )
    seconds: float | None = Field(
        default=None,
        exclude=True,
        description="the test's own time as its runner timed it (for FunctionalResult.phases; "
        "not written to results)",
    )


class MutantOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    description: str = ""
    killed: bool = Field(description="at least one of the answer's tests failed on the mutant")
    ran: bool = Field(
        default=True,
        description="False: no test file ran code of the mutant's file in the clean run, so it "
        "survived without a run",
    )


class FunctionalResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    runner: str = Field(description="node, junit, vitest, jest, pytest, go, cargo or cmake")
    mode: Literal["acceptance", "mutation"]
    passed: int = Field(
        default=0, description="tests that passed (mutation: on the unchanged dataset)"
    )
    total: int = Field(default=0, description="tests that ran")
    tests: list[TestOutcome] = Field(default_factory=list)
    mutants: list[MutantOutcome] = Field(default_factory=list)
    rate: float = Field(
        default=0.0,
        description="the functional figure, 0-1: acceptance, tests passed / tests; mutation, "
        "mutants killed / mutants when every test of the answer passes on the dataset, else 0; "
        "always 0 for a tampered run",
    )
    error: str | None = Field(default=None, description="why the tests could not run or finish")
    seconds: float = Field(default=0.0, description="wall time of the test runs")
    phases: dict[str, float] = Field(
        default_factory=dict,
        description="seconds of the test runs by phase, summed over the attempt's runs: "
        "`build` (compiling), `tests` (the tests' own time, as the runner timed them), "
        "`start-up` (the rest of the runs: the runner's and the sandbox's start, test "
        "environments, loading), and `runs` (how many runs); empty where the runner does "
        "not time its tests",
    )
    feedback: bool = Field(
        default=False, description="this attempt had the previous one's failures"
    )
    unavailable: bool = Field(
        default=False,
        description="this machine lacks the runner's toolchain (checked before anything of the "
        "answer is written or run): nothing ran, and the attempt is left out of the item's "
        "functional figures; `error` says what to install",
    )
    tampered: bool = Field(
        default=False,
        description="the answer attacked the verdict: it wrote a reserved path (a test tool's "
        "or the harness's file), or a tripwire of the run fired (a must-fail canary test "
        "reported passed, a must-pass one failed or missing, an exit status or a count that "
        "does not add up, tests that tell an equivalent mutant from the original). The "
        "functional figure is then 0; `tamper_evidence` says what was found",
    )
    tamper_evidence: list[str] = Field(
        default_factory=list, description="one line per finding that marked the run tampered"
    )
    unmatched: list[str] = Field(
        default_factory=list,
        description="criteria's `tests:` patterns that matched no hidden test that ran, as "
        '"STEP: PATTERN" (a mistake in the scenario: the step gets no execution verdict)',
    )

    @model_validator(mode="after")
    def _no_credit_when_tampered(self) -> FunctionalResult:
        """A run whose verdict was attacked earns nothing, whatever its tests reported."""
        if self.tampered:
            self.rate = 0.0
        return self

    @property
    def all_passed(self) -> bool:
        """Acceptance: every hidden test passed. Mutation: the answer's tests all pass on
        the unchanged code and kill every mutant."""
        if self.tampered:
            return False
        clean = self.error is None and self.total > 0 and self.passed == self.total
        if self.mode == "mutation":
            return clean and bool(self.mutants) and all(m.killed for m in self.mutants)
        return clean


def acceptance_rate(passed: int, total: int, error: str | None) -> float:
    """Hidden tests passed / hidden tests (a suite that could not run rates 0)."""
    return passed / total if total and error is None else 0.0


def mutation_rate(tests_pass: bool, killed: int, mutants: int) -> float:
    """Mutants killed / mutants, only for a suite that passes on the unchanged code."""
    return killed / mutants if tests_pass and mutants else 0.0
