"""The split of a functional check's time (FunctionalResult.phases): each runner's test
times read from its report, and a run's seconds cut into build, tests and start-up."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_llmbench.functional import jsreport, junit, node
from pytest_llmbench.functional.outcome import Run, add_phases, report_seconds
from pytest_llmbench.schema.functional import FunctionalResult, TestOutcome
from pytest_llmbench.toolchain.sandbox import Outcome


def test_a_report_time_is_read_only_as_a_plain_non_negative_number() -> None:
    assert report_seconds("0.25") == 0.25 and report_seconds(1500, 0.001) == 1.5
    for bad in (None, "soon", -1, float("nan"), True, [1], {"ms": 1}):
        assert report_seconds(bad) is None, bad
    assert report_seconds(1e12) == 3600.0  # a forged time cannot swamp the figures


def _run(seconds: float, tests: list[float | None], build: float = 0.0) -> Run:
    outcomes = tuple(TestOutcome(name=f"t{n}", passed=True, seconds=s) for n, s in enumerate(tests))
    return Run(outcomes, seconds=seconds, build_s=build)


def test_a_run_is_cut_into_build_tests_and_start_up() -> None:
    assert _run(3.0, [0.5, 0.25], build=1.0).phases == {
        "runs": 1.0,
        "build": 1.0,
        "tests": 0.75,
        "start-up": 1.25,
    }
    assert _run(3.0, [None, None]).phases == {}  # the runner did not time its tests
    # tests that claim more than the run took are cut to it: start-up is never negative
    assert _run(2.0, [5.0], build=0.5).phases["start-up"] == 0.0
    both = add_phases(_run(2.0, [1.0]).phases, _run(4.0, [1.0]).phases)
    assert both == {"runs": 2.0, "build": 0.0, "tests": 2.0, "start-up": 4.0}


def test_the_test_times_are_not_written_to_results() -> None:
    result = FunctionalResult(
        runner="node", mode="acceptance", tests=[TestOutcome(name="a", passed=True, seconds=2.0)]
    )
    assert "seconds" not in json.loads(result.model_dump_json())["tests"][0]
    assert (
        Run.of([TestOutcome(name="a", passed=True)], Outcome(0, "", "", seconds=1.5)).seconds == 1.5
    )


def test_each_report_format_gives_the_test_times(tmp_path: Path) -> None:
    (tmp_path / "TEST-a.xml").write_text(
        '<testsuite><testcase classname="demo.ATest" name="adds()" time="0.125"/></testsuite>'
    )
    assert [t.seconds for t in junit.read_reports(tmp_path)] == [0.125]
    entry = {
        "name": "a.test.js",
        "assertionResults": [{"title": "t", "status": "passed", "duration": 40}],
    }
    (tmp_path / "report.json").write_text(json.dumps({"testResults": [entry]}))
    assert [t.seconds for t in jsreport.read_report(tmp_path / "report.json", tmp_path)] == [0.04]
    row = {"name": "t", "passed": True, "duration_ms": 250}
    (tmp_path / "results.jsonl").write_text(json.dumps(row) + "\n")
    assert [t.seconds for t in node.read_results(tmp_path / "results.jsonl")[0]] == [0.25]
