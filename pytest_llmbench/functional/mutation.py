"""Mutation mode: the answer's own tests, measured by the bugs they catch.

1. The workspace: the dataset's files, then of the answer's files only
   - its tests (`is_test_path`: `*.test.*`, `*.spec.*`, anything under `__tests__/`,
     `__mocks__/`, `__snapshots__/` or `__fixtures__/`, `src/test/`, Java's `*Test.java`,
     Python's `test_*.py` / `*_test.py`), which may replace the dataset's own tests, and
   - new modules (a code file the dataset does not have, not a tool's config file such as
     `vitest.config.ts`, and not shadowing a dataset module by another extension, as
     `src/util.js` would `src/util.ts`): setup files and test helpers.
   So the answer can change no production code: files it rewrites are dropped. Paths with
   a dot-folder part are dropped too, and files at reserved paths (reserved.py) are
   dropped and mark the run tampered. The hidden tests folder (the runner's options) goes
   to HIDDEN as in acceptance mode.
2. The suite on the unchanged dataset (a fresh copy). Unless every test passes, the rate
   is 0 and the tests are listed in the result.
3. An equivalent mutant (mutator.equivalent: every mutated file with new comments, blank
   lines and unused locals, made afresh for each run): a suite that does not pass on it
   as it did on the code as given (a test fails, or the run ends before its tests: it
   killed itself, it ran none) reads the source's text instead of testing its behaviour,
   and the run is marked tampered, its rate 0.
4. Each mutant in a fresh copy of the workspace; it is killed when a test fails or the
   run is stopped at its time limit (1.5 x the clean run + 10 s, so a slow suite is not
   rewarded); a run that errors before any test ran (nothing compiled, nothing collected)
   kills nothing. rate = killed / mutants (schema mutation_rate). The mutant runs
   together are bounded by BUDGET_S; mutants left when it runs out count as surviving.

Every run (clean, equivalent, mutants) adds canary tests of its own (tripwire.py), which
must all run whatever the answer's tests do. A mutant's run needs only one failing test,
so it runs the canary file first and stops at the first failure after the canaries' own
(Vitest's and Jest's bail, pytest's --maxfail; JUnit's launcher runs every class): the
canaries have run whenever a run stops early, and a must-pass canary not run is
evidence of tampering. A canary that fired marks the result tampered, rate 0.

The runs share a carry folder outside the workspace (carry.py): what the clean run built
that later runs may reuse (Jest's transform cache, JUnit's classes as javac left them),
each later run getting a copy of its own.

Runners: `SUITES[name](workspace, test_files, timeout_s) -> Run`, test_files being the
answer's test files to run (`runs_as_test`: not its mocks, snapshots or fixtures; all of
`src/test/`, where the JUnit runner compiles every class and runs the test classes;
workspace-relative); a runner runs those of them it can.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import MutantsError
from ..formats.dataset import Dataset
from ..formats.functional import Functional
from ..formats.mutants import Mutant, load_mutants
from ..schema.functional import FunctionalResult, MutantOutcome, mutation_rate
from . import reserved
from .coverage import COVERAGE, Coverage
from .jest import run as run_jest
from .jest import warm as warm_jest
from .junit import suite as run_junit_suite
from .junit_warm import warm as warm_junit
from .mutator import equivalent
from .outcome import Run, SuiteRun, add_phases
from .pytest_runner import suite as run_pytest_suite
from .pytest_runner import warm as warm_pytest
from .suite_files import answer_files_used, runs_as_test
from .tripwire import arm_suite
from .vitest import run as run_vitest
from .vitest import warm as warm_vitest
from .warm import Server, Warm
from .workspace import OUT, fresh_copy, materialise

# A suite runner: the answer's tests of one run (SuiteRun) in a workspace -> outcomes.
SuiteRunner = Callable[[Path, SuiteRun], Run]


SUITES: dict[str, SuiteRunner] = {
    "vitest": run_vitest,
    "jest": run_jest,
    "junit": run_junit_suite,
    "pytest": run_pytest_suite,
}
# The runners that serve an answer's runs from one process (warm.py).
WARM: dict[str, Warm] = {
    "jest": warm_jest,
    "junit": warm_junit,
    "pytest": warm_pytest,
    "vitest": warm_vitest,
}
# The runners whose clean run writes which files each test file ran (coverage.py).
COVERS = {"jest", "vitest"}
EQUIVALENT = (
    "the tests did not pass on an equivalent mutant (the mutated files with new comments, "
    "blank lines and unused locals) as they did on the code as given: they read the source's "
    "text instead of testing its behaviour"
)
EQUIVALENT_LATER = (
    "the tests did not pass on an equivalent mutant run among the mutants as they had on the "
    "code as given: their outcome follows the runs before, not the code under test"
)
CHECK_EVERY = 8  # mutants per equivalent run among them, besides the one after the last
_RANDOM = random.SystemRandom()
BUDGET_S = 900.0  # all the mutant runs of one attempt together


def killed(run: Run) -> bool:
    """A mutant's run killed it: a test failed, or the run was stopped at a limit. A run
    that errored before any test ran (nothing compiled, nothing collected) kills nothing."""
    return run.stopped is not None or (bool(run.tests) and run.passed < len(run.tests))


@dataclass
class Lab:
    """One answer's suite in its workspace (under `root`), run clean and on mutants. Every
    run has canaries of its own (tripwire.py); what they found gathers in `evidence`."""

    root: Path
    runner: str
    tests: list[str]
    suite: SuiteRunner
    timeout_s: float
    processes: int | None = None  # the scenario's process limit (None: the runner's)
    limit_s: float = 0.0  # a mutant run's time limit, set by the clean run
    evidence: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # of all its runs (schema)
    warm: Warm | None = None  # the runner's warm side, asked at the first run
    server: Server | None = None  # serving the runs once started (warm.py)
    covers: bool = False  # the runner writes the clean run's coverage (coverage.py)
    coverage: Coverage | None = None  # which files each test file ran, in the clean run

    @classmethod
    def build(
        cls, root: Path, functional: Functional, dataset: Dataset, used: list[tuple[str, str]]
    ) -> Lab:
        # the smaller test files first where no coverage orders them (Lab.reached): a
        # mutant's run stops at its first failure, which small unit tests reach sooner
        tests = [p for p, _ in sorted(used, key=lambda u: (len(u[1]), u[0])) if runs_as_test(p)]
        (root / "base").mkdir()
        materialise(root / "base", functional, dataset, used)
        suite = SUITES[functional.runner]
        return cls(
            root,
            functional.runner,
            tests,
            suite,
            functional.timeout_s,
            functional.processes,
            warm=WARM.get(functional.runner),
            covers=functional.runner in COVERS,
        )

    def _run(
        self,
        changes: Mapping[str, str] | None,
        timeout_s: float,
        *,
        kill: bool,
        tests: list[str] | None = None,
    ) -> Run:
        """One run of the suite (of `tests` only, when given) on a fresh copy with
        `changes`; `kill` (a mutant's run: one failing test is enough) runs the canary file
        first and stops at the first failure after its must-fail test, so every canary has
        run whenever the run stops early. The clean run (no changes, not `kill`) writes
        its coverage where the runner can."""
        keep = self.server.kept if self.server else ()
        work = fresh_copy(self.root, self.root / "base", changes, keep)
        tripwire, armed, canaries = arm_suite(self.runner, work, tests or self.tests)
        first = canaries if kill else None
        cover = self.covers and not kill and changes is None
        carry = self.root / "carry"
        suite = SuiteRun(
            tuple(armed), timeout_s, first, self.processes, carry=carry, coverage=cover
        )
        run = self._go(work, suite)
        if cover:
            self.coverage = Coverage.read(work / OUT / COVERAGE)
        run, found = tripwire.check(run)
        self.evidence.extend(line for line in found if line not in self.evidence)
        self.phases = add_phases(self.phases, run.phases)
        return run

    def _go(self, work: Path, suite: SuiteRun) -> Run:
        """The run served warm where the runner can (its first run starts the server),
        else a run of its own."""
        if self.server is None and self.warm is not None:
            spec, self.warm = self.warm(work, suite), None
            self.server = Server(spec, work, self.processes) if spec else None
        if self.server is not None:
            run = self.server.run(suite)
            if run is not None:
                return run
            self.server = None  # no server can start here
        return self.suite(work, suite)

    @property
    def served(self) -> bool:
        return self.server is not None and self.server.starts > 0

    def close(self) -> None:
        if self.server is not None:
            self.server.close()

    def clean(self) -> Run:
        started = time.monotonic()
        run = self._run(None, self.timeout_s, kill=False)
        self.limit_s = min(2 * self.timeout_s, 1.5 * (time.monotonic() - started) + 10)
        return run

    def reached(self, mutant: Mutant) -> list[str] | None:
        """The answer's test files that ran code of `mutant`'s file in the clean run
        (coverage.py; []: none, it survives without a run), or None: every one (no
        coverage)."""
        if self.coverage is None:
            return None
        return [t for t in self.coverage.tests_for(mutant) if t in self.tests]

    def mutant(self, mutant: Mutant) -> Run | None:
        """The run on `mutant` of the test files that can see it; None: none can."""
        tests = self.reached(mutant)
        if tests == []:
            return None
        changes = {mutant.file: mutant.apply(_text(self.root / "base" / mutant.file))}
        return self._run(changes, self.limit_s or self.timeout_s, kill=True, tests=tests)

    def equivalent(self, mutants: list[Mutant], like: Mutant | None = None) -> bool:
        """The suite, which passed on the code as given, does not pass on an equivalent
        mutant of every mutated file (mutator.equivalent): a test failed, or the run ended
        before its tests did (it killed itself, it ran none). Code that behaves the same
        gets another outcome only from tests that tell the text, not the behaviour. `like`:
        run as that mutant's run is, with the test files that can see it."""
        changes: dict[str, str] = {}
        for file in sorted({m.file for m in mutants}):
            rewritten = equivalent(file, _text(self.root / "base" / file))
            if rewritten is not None:
                changes[file] = rewritten
        limit = self.limit_s or self.timeout_s
        tests = self.reached(like) if like is not None else None
        run = self._run(changes, limit, kill=True, tests=tests or None)
        return bool(changes) and not run.all_passed


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _mutant_runs(lab: Lab, mutants: list[Mutant]) -> tuple[list[MutantOutcome], str | None]:
    outcomes: list[MutantOutcome] = []
    started = time.monotonic()
    checks = _checks(lab, len(mutants))
    for number, mutant in enumerate(mutants):
        if time.monotonic() - started > BUDGET_S:
            left = len(mutants) - number
            return outcomes, (
                f"the mutant runs stopped at their {BUDGET_S:.0f} s budget; the {left} "
                "mutants not run count as surviving"
            )
        run = lab.mutant(mutant)
        outcomes.append(
            MutantOutcome(
                id=mutant.id,
                description=mutant.description,
                killed=run is not None and killed(run),
                ran=run is not None,
            )
        )
        if number in checks and lab.equivalent(*_stand_in(lab, mutants)):
            lab.evidence.append(EQUIVALENT_LATER)
        if lab.evidence:  # a tripwire fired: the figure is 0 whatever the rest do
            return outcomes, None
    return outcomes, None


def _stand_in(lab: Lab, mutants: list[Mutant]) -> tuple[list[Mutant], Mutant]:
    """A random mutant with a run, for an equivalent mutant to be run as it is."""
    like = _RANDOM.choice([m for m in mutants if lab.reached(m) != []] or mutants)
    return [like], like


def _checks(lab: Lab, count: int) -> set[int]:
    """After which mutant runs (their numbers) an equivalent mutant runs too, standing in
    for a random mutant (its file alone rewritten, run with the test files that can see
    it): after the last and after random ones (one per CHECK_EVERY, at least one). Only
    in a served lab (warm.py: the answer's code shares a process across runs and may carry
    state from run to run) or one whose mutants' runs run part of the suite (coverage.py:
    a test file may fail without the others). A suite that fails later runs whatever they
    hold, or fails when run in part, fails one of these too, and no run's place tells it
    which ones they are. Whole runs of their own share nothing: none there."""
    if not (lab.served or lab.coverage is not None) or count == 0:
        return set()
    extra = _RANDOM.sample(range(count - 1), min(max(1, count // CHECK_EVERY), count - 1))
    return {count - 1, *extra}


def _result(functional: Functional, started: float, **fields: object) -> FunctionalResult:
    return FunctionalResult.model_validate(
        {
            "runner": functional.runner,
            "mode": "mutation",
            "seconds": round(time.monotonic() - started, 3),
            **fields,
        }
    )


def run_mutation(
    functional: Functional, dataset: Dataset | None, answer_files: Iterable[tuple[str, str]]
) -> FunctionalResult:
    """The answer's tests on the dataset, then on each mutant of it (blocking)."""
    started = time.monotonic()
    if functional.runner not in SUITES:
        return _result(functional, started, error=f"no mutation runner named {functional.runner!r}")
    if dataset is None or functional.base != "dataset":
        return _result(functional, started, error="mutation mode needs a dataset as its base")
    files = {f.path: f.text for f in dataset.files}
    try:
        source = functional.mutants_file or "the mutants file"
        mutants = load_mutants(functional.mutants_text or "", source, files)
    except MutantsError as exc:
        return _result(functional, started, error=str(exc))
    given = list(answer_files)
    refused = reserved.refused(given)
    used, tests = answer_files_used(given, set(files))
    if not tests:
        return _result(
            functional, started, error="the answer gives no test files", **_marks(refused)
        )
    with tempfile.TemporaryDirectory(prefix="llmbench-tests-") as folder:
        lab = Lab.build(Path(folder), functional, dataset, used)
        try:
            fields = _measure(lab, refused, mutants)
        finally:
            lab.close()
    fields["phases"] = lab.phases
    return _result(functional, started, **{**fields, **_marks(lab.evidence)})


def _measure(lab: Lab, refused: list[str], mutants: list[Mutant]) -> dict[str, object]:
    """The clean run, then the equivalent mutant and the mutants' runs when it passed."""
    lab.evidence.extend(refused)
    clean = lab.clean()
    fields: dict[str, object] = {
        "passed": clean.passed,
        "total": len(clean.tests),
        "tests": list(clean.tests),
        "error": clean.error,
    }
    if clean.all_passed and not lab.evidence:
        if lab.equivalent(mutants):
            lab.evidence.append(EQUIVALENT)
        else:
            outcomes, stopped = _mutant_runs(lab, mutants)
            done = sum(m.killed for m in outcomes)
            rate = mutation_rate(True, done, len(mutants))
            fields.update(mutants=outcomes, error=stopped, rate=rate)
    return fields


def _marks(evidence: list[str]) -> dict[str, object]:
    """A tampered result's fields (its figure 0), or none."""
    if not evidence:
        return {}
    return {"tampered": True, "tamper_evidence": list(evidence), "rate": 0.0}
