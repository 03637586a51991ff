"""report.html of a run with hidden tests, in headless Chromium: the functional columns
and the judges-against-tests table, and per item each test's outcome and message, the
mutants and the error line, all as text (test names and messages come from runs of
model-written code); a run's items tampered with: counted, named at the end of the run
and shown with their evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.reporting import writer
from pytest_llmbench.schema.functional import FunctionalResult, MutantOutcome, TestOutcome
from pytest_llmbench.schema.results import ItemResult, StepResult, Verdict
from pytest_llmbench.tasks import functional as functional_step
from tests.conftest import read_leaderboard, read_results
from tests.e2e.test_report_html import HOSTILE, Opened, _rows, chromium
from tests.functional_project import TEST_NAME, write_functional_project
from tests.unit.test_leaderboard import _item


def _functional_items() -> list[ItemResult]:
    accepted = _item("m/tested", "migration", 3, 3, None, 1)
    attempt = accepted.attempts[0]
    attempt.answer, attempt.reports = "answer", []
    attempt.functional = FunctionalResult(
        runner="node",
        mode="acceptance",
        passed=1,
        total=2,
        rate=0.5,
        tests=[
            TestOutcome(name="adds a todo", passed=True),
            TestOutcome(name=f"removes {HOSTILE}", passed=False, message=f"expected {HOSTILE}"),
        ],
        error="one test file did not load",
    )
    attempt.steps = [
        StepResult(
            id="A1",
            metric="accuracy",
            criterion="Removing works",
            weight=1.0,
            judges={"judge/one": Verdict(passed=True, reason="looks right")},
            tests_passed=False,
        )
    ]
    accepted.scenario, accepted.dataset, accepted.nodeid = "UpdateReact", "Todo", "a.yaml::t"
    accepted.functional_rate, accepted.pass_at_1 = 0.5, False
    mutated = _item("m/tested", "testing", 3, 3, None, 1)
    mutated.attempts[0].answer, mutated.attempts[0].steps = "tests", []
    mutated.attempts[0].reports = []
    mutated.attempts[0].functional = FunctionalResult(
        runner="node",
        mode="mutation",
        passed=3,
        total=3,
        rate=0.5,
        mutants=[
            MutantOutcome(id="m1", description="off by one", killed=True),
            MutantOutcome(id="m2", description=HOSTILE, killed=False),
        ],
    )
    mutated.scenario, mutated.dataset, mutated.nodeid = "WriteTests", None, "b.yaml::t"
    mutated.functional_rate, mutated.pass_at_1 = 0.5, False
    plain = _item("m/plain", "migration", 4, 4, None, 1)
    plain.attempts[0].answer, plain.attempts[0].steps, plain.attempts[0].reports = "x", [], []
    plain.scenario, plain.dataset, plain.nodeid = "Other", None, "c.yaml::t"
    return [accepted, mutated, plain]


def test_functional_figures_and_outcomes_are_shown_as_text(tmp_path: Path) -> None:
    items = _functional_items()
    writer.publish(tmp_path, items, 3, None, {}, tmp_path)
    with chromium() as browser:
        opened = Opened(browser, (tmp_path / writer.REPORT_HTML).as_uri())
        page = opened.page
        title = page.locator("#leaderboard th[data-key=functional_rate]").get_attribute("title")
        assert title and "hidden tests passed / tests" in title
        # No item was run with feedback: that column is not shown.
        assert page.locator("#leaderboard th[data-key=functional_pass_after_feedback]").count() == 0
        rows = {r.split("\t")[1]: r for r in _rows(page, "#leaderboard")}
        assert "0.50 (2)" in rows["m/tested"] and "0%" in rows["m/tested"]
        assert "0.50" not in rows["m/plain"].split("\t")[-3:]
        calibration = _rows(page, "#calibration")
        assert len(calibration) == 1 and calibration[0].startswith("judge/one\t1\t0%")
        page.set_viewport_size({"width": 800, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= 800
        # Items in rank order: m/plain (better judged) first, its cell a dash, not 0.
        opened.show("#/items")
        cells = page.locator("#items tbody tr td.functional").all_inner_texts()
        assert cells == ["–", "0.50", "0.50"]
        opened.show("#/item?i=1")
        table = page.locator("table.functional-tests")
        assert table.locator("tr.failed").count() == 1
        failed = table.locator("tr.failed").inner_text()
        assert "<script>window.__pwned = 1</script>" in failed and "fail" in failed
        assert "one test file did not load" in page.locator(".functional-error").inner_text()
        assert "Fail" in page.locator("table.steps td.tests").inner_text()
        opened.show("#/item?i=2")
        mutants = page.locator("table.functional-mutants")
        assert mutants.locator("tr.survived").count() == 1
        assert "<svg onload=" in mutants.locator("tr.survived").inner_text()
        assert "mutants killed 1/2" in page.locator("details.functional").inner_text()
        opened.clean()


EVIDENCE = f"wrote the reserved path node_modules/{HOSTILE}"


def test_a_tampered_item_is_counted_named_and_shown_with_its_evidence(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_functional_project(pytester.path)
    # The runner's verdict as a caught attack leaves it: every test "passed" (forged), the
    # run marked tampered. verify is replaced in this in-process run, for both models.
    forged = FunctionalResult(
        runner="node",
        mode="acceptance",
        passed=1,
        total=1,
        rate=1.0,
        tests=[TestOutcome(name=TEST_NAME, passed=True, status="passed")],
    )

    async def verify(functional: object, dataset: object, files: object) -> FunctionalResult:
        return forged.model_copy(update={"tampered": True, "tamper_evidence": [EVIDENCE]})

    monkeypatch.setattr(functional_step, "verify", verify)
    result = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*| Tests pass@1 | Tampered |*",
            "| 1-2 | llmbench/reference |*| 0.00 (1) | 0% | 1 |*",
            "llmbench: 2 items tampered with their verdict (functional figure 0; evidence in "
            "results.jsonl and report.html): llmbench/echo: GreetTested[[]Mini[]]; "
            "llmbench/reference: GreetTested[[]Mini[]]",
        ]
    )
    items = read_results(pytester.path)
    for item in items:
        (attempt,) = item["attempts"]
        assert attempt["functional"]["tampered"] is True
        assert attempt["functional"]["tamper_evidence"] == [EVIDENCE]
        assert attempt["functional"]["rate"] == 0.0
        assert (item["tampered"], item["functional_rate"], item["pass_at_1"]) == (True, 0.0, False)
        assert [s["tests_passed"] for s in attempt["steps"]] == [None, None]
    board = read_leaderboard(pytester.path)
    assert [(r["model"], r["tampered"]) for r in board["leaderboard"]["models"]] == [
        ("llmbench/reference", 1),
        ("llmbench/echo", 1),
    ]
    markdown = (pytester.path / "reports" / "leaderboard.md").read_text()
    assert "| Tests pass@1 | Tampered |" in markdown and "| 0.00 (1) | 0% | 1 |" in markdown
    with chromium() as browser:
        opened = Opened(browser, (pytester.path / "reports" / writer.REPORT_HTML).as_uri())
        page = opened.page
        header = page.locator("#leaderboard th[data-key=tampered]")
        assert "attacked the hidden tests' verdict" in (header.get_attribute("title") or "")
        cells = page.locator("#leaderboard td.tampered").all_inner_texts()
        assert cells == ["1", "1"]
        opened.show("#/items")
        assert "scored · tampered" in page.locator("#items tbody tr td.status").all_inner_texts()
        opened.show("#/item?i=0")
        assert page.locator(".badge.tampered").inner_text() == "tampered"
        evidence = page.locator("ul.tamper-evidence li").all_inner_texts()
        assert evidence == [EVIDENCE]  # the answer's text, shown as text
        status = page.locator("table.functional-tests tr").nth(1).inner_text()
        assert TEST_NAME in status and "passed" in status
        opened.clean()
