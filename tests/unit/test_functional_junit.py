"""The JUnit runner: its jar lookup, its reading of the launcher's XML reports, and one
small project compiled and run for real (skipped where there is no JDK or no jars)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional import javac_carry, junit
from pytest_llmbench.functional.outcome import Run, SuiteRun
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.schema.functional import FunctionalResult

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="JUnit Jupiter" tests="6" skipped="1" failures="1" errors="1">
<testcase name="adds()" classname="demo.CalcTest" time="0.01"/>
<testcase name="wrong()" classname="demo.CalcTest" time="0.01">
<failure message="expected: &lt;4&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">\
org.opentest4j.AssertionFailedError: expected: &lt;4&gt; but was: &lt;3&gt;
\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
\tat demo.CalcTest.wrong(CalcTest.java:9)
</failure>
</testcase>
<testcase name="npe()" classname="demo.CalcTest"><error type="java.lang.NullPointerException"/></testcase>
<testcase name="off()" classname="demo.CalcTest"><skipped/></testcase>
<testcase name="inner()" classname="demo.CalcTest$Inner"/>
<testcase name="param(int)[2]" classname="demo.CalcTest"><failure message="no"/></testcase>
</testsuite>
"""


def test_reports_give_one_outcome_per_test_named_class_dot_method(tmp_path: Path) -> None:
    (tmp_path / "TEST-junit-jupiter.xml").write_text(REPORT, encoding="utf-8")
    (tmp_path / "TEST-junit-vintage.xml").write_text("<testsuite", encoding="utf-8")  # cut off
    outcomes = {o.name: o for o in junit.read_reports(tmp_path)}
    assert set(outcomes) == {
        "CalcTest.adds",
        "CalcTest.wrong",
        "CalcTest.npe",
        "CalcTest$Inner.inner",
        "CalcTest.param(int)[2]",
        "CalcTest.off",
    }  # the broken report ignored
    assert outcomes["CalcTest.adds"].passed and outcomes["CalcTest$Inner.inner"].passed
    skipped = outcomes["CalcTest.off"]  # counts as not passed
    assert (skipped.passed, skipped.status) == (False, "skipped")
    assert (outcomes["CalcTest.adds"].status, outcomes["CalcTest.wrong"].status) == (
        "passed",
        "failed",
    )
    wrong = outcomes["CalcTest.wrong"]
    assert not wrong.passed
    assert wrong.message == "org.opentest4j.AssertionFailedError: expected: <4> but was: <3>"
    assert not outcomes["CalcTest.npe"].passed and outcomes["CalcTest.npe"].message == (
        "java.lang.NullPointerException"
    )
    assert outcomes["CalcTest.param(int)[2]"].message == "no"


PYTEST_REPORT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="test_shelf" name="test_heaviest" time="0.001">\
<failure message="NotImplementedError">def test_heaviest():
&gt;       assert heaviest([3, 9, 4]) == 9

shelf.py:6: NotImplementedError</failure></testcase></testsuite></testsuites>
"""


def test_a_pytest_failure_names_its_cause_before_the_source_lines(tmp_path: Path) -> None:
    (tmp_path / "TEST-pytest.xml").write_text(PYTEST_REPORT, encoding="utf-8")
    (outcome,) = junit.read_reports(tmp_path)
    assert outcome.name == "test_shelf.test_heaviest"
    assert outcome.message.splitlines() == [
        "NotImplementedError",
        "def test_heaviest():",
        ">       assert heaviest([3, 9, 4]) == 9",
    ]


def test_a_missing_report_folder_gives_no_outcome(tmp_path: Path) -> None:
    assert junit.read_reports(tmp_path / "absent") == []


def test_class_name_comes_from_the_package_and_the_file_name() -> None:
    source = "// package not.this;\n/* header */\npackage com.acme.orders;\n\nclass A {}\n"
    assert junit.class_name(source, "src/test/java/com/acme/orders/ATest.java") == (
        "com.acme.orders.ATest"
    )
    assert junit.class_name("class B {}", "BTest.java") == "BTest"


def test_mockito5_names_are_mapped_to_mockito_2() -> None:
    source = "import static org.mockito.Mockito.verifyNoInteractions;\nverifyNoInteractions(a);"
    assert junit.mockito5_compatible(source) == (
        "import static org.mockito.Mockito.verifyZeroInteractions;\nverifyZeroInteractions(a);"
    )
    assert junit.mockito5_compatible("verifyNoInteractionsAtAll(a);") == (
        "verifyNoInteractionsAtAll(a);"
    )


def _jars(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"PK")


def test_jar_lookup_takes_each_required_jar_from_the_first_folder_holding_it(
    tmp_path: Path,
) -> None:
    required = [names[0] for names in junit.REQUIRED.values()]
    _jars(tmp_path / "a", required[:2])
    _jars(tmp_path / "b", [*required, "assertj-core.jar"])
    jars, missing = junit.find_jars([tmp_path / "a", tmp_path / "b"])
    assert missing == []
    assert jars[:2] == [tmp_path / "a" / n for n in required[:2]]
    assert jars[2:] == [tmp_path / "b" / n for n in [*required[2:], "assertj-core.jar"]]


def test_missing_jars_give_one_line_naming_them_and_the_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _jars(tmp_path, ["junit-platform-console-standalone.jar", "byte-buddy.jar"])
    monkeypatch.setenv("LLMBENCH_JAVA_LIBS", str(tmp_path))
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed here")
    why = junit.toolchain()
    assert isinstance(why, str) and "\n" not in why
    assert "Mockito (mockito-core.jar)" in why and "Objenesis" in why
    assert "JUnit 5 console launcher" not in why
    assert "libmockito-java" in why and str(tmp_path) in why


CALC = "package demo;\npublic class Calc { public int add(int a, int b) { return a + b; } }\n"
CALC_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.verifyNoInteractions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
@ExtendWith(MockitoExtension.class)
class CalcTest {
    @Mock List<String> unused;
    @Test void adds() { assertEquals(3, new Calc().add(1, 2)); verifyNoInteractions(unused); }
    @Test void claimsFour() { assertEquals(4, new Calc().add(1, 2), "one and two"); }
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    if isinstance(why := junit.toolchain(), str):
        pytest.skip(why)
    for path, text in {
        "src/main/java/demo/Calc.java": CALC,
        "src/test/java/demo/CalcTest.java": CALC_TEST,
    }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return tmp_path


def test_suite_compiles_and_runs_the_tests_against_the_main_code(project: Path) -> None:
    """With our MockitoExtension filling the @Mock field, and Mockito 5's
    verifyNoInteractions compiled against Debian's Mockito 2."""
    run = junit.suite(project, SuiteRun(("src/test/java/demo/CalcTest.java", "pom.xml"), 120))
    assert run.error is None
    outcomes = {t.name: t for t in run.tests}
    assert set(outcomes) == {"CalcTest.adds", "CalcTest.claimsFour"}
    assert outcomes["CalcTest.adds"].passed
    assert not outcomes["CalcTest.claimsFour"].passed
    assert "one and two ==> expected: <4> but was: <3>" in outcomes["CalcTest.claimsFour"].message


def test_tests_that_do_not_compile_give_a_broken_run_with_the_error(project: Path) -> None:
    test = project / "src/test/java/demo/CalcTest.java"
    test.write_text(CALC_TEST.replace("add(1, 2), ", "sub(1, 2), "), encoding="utf-8")
    run = junit.suite(project, SuiteRun(("src/test/java/demo/CalcTest.java",), 120))
    assert run.tests == ()
    assert run.error is not None and run.error.startswith("the tests and src/main/java do not")
    assert "CalcTest.java" in run.error and "cannot find symbol" in run.error


# A suite's later runs start from the first run's classes (javac_carry.py) ----------------

STATE_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertFalse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
class StateTest {
    // A test that leaves a file among the compiled classes and fails when it finds one:
    // it passes on every run only when no run starts from what a run's tests wrote.
    @Test void firstToRun() throws Exception {
        Path classes = Path.of(StateTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path mark = classes.resolve("demo/Mark.class");
        assertFalse(Files.exists(mark), "a run's tests saw what an earlier run wrote");
        Files.writeString(mark, "left by the tests");
    }
}
"""


def _suite_run(project: Path, tests: tuple[str, ...], carry: Path) -> Run:
    work = project.parent / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(project, work)
    return junit.suite(work, SuiteRun(tests, 120, carry=carry))


def test_later_runs_reuse_the_classes_javac_left_before_any_test_ran(project: Path) -> None:
    (project / "src/test/java/demo/StateTest.java").write_text(STATE_TEST, encoding="utf-8")
    tests = ("src/test/java/demo/CalcTest.java", "src/test/java/demo/StateTest.java")
    carry = project.parent / "carry"
    first = _suite_run(project, tests, carry)
    assert {t.name: t.passed for t in first.tests}["StateTest.firstToRun"]
    assert (carry / javac_carry.SOURCES).is_file() and not list(carry.rglob("Mark.class"))
    calc = project / "src/main/java/demo/Calc.java"
    calc.write_text(CALC.replace("a + b", "a - b"), encoding="utf-8")  # a mutant
    later = {t.name: t for t in _suite_run(project, tests, carry).tests}
    assert later["StateTest.firstToRun"].passed  # the tests' mark was not carried
    assert not later["CalcTest.adds"].passed  # the changed class was compiled again
    calc.write_text(CALC, encoding="utf-8")
    again = {t.name: t.passed for t in _suite_run(project, tests, carry).tests}
    assert again == {
        "CalcTest.adds": True,
        "CalcTest.claimsFour": False,
        "StateTest.firstToRun": True,
    }


def test_what_changed_is_compiled_and_a_touched_constant_compiles_everything(
    tmp_path: Path,
) -> None:
    classes, carry = tmp_path / "classes", tmp_path / "carry"
    (classes / "demo").mkdir(parents=True)
    for name in ("Calc", "Canary1", "Canary1$Inner", "Other"):
        (classes / "demo" / f"{name}.class").write_bytes(b"\xca\xfe")
    files = {name: tmp_path / name for name in ("Calc.java", "Canary1.java", "T.java")}
    files["Calc.java"].write_text(CALC)
    files["Canary1.java"].write_text("package demo;\nclass Canary1 {}\n")
    files["T.java"].write_text("package demo;\nclass T {}\n")
    javac_carry.keep(carry, classes, files)
    shutil.rmtree(classes)
    now = {"Calc.java": files["Calc.java"], "T.java": files["T.java"]}
    now["Canary2.java"] = tmp_path / "Canary2.java"
    now["Canary2.java"].write_text("package demo;\nclass Canary2 {}\n")
    todo = javac_carry.reuse(carry, classes, now, {"T.java"}, junit.class_name)
    assert todo == ["T.java", "Canary2.java"]  # the tests always, and what is new
    assert sorted(p.name for p in (classes / "demo").iterdir()) == ["Calc.class", "Other.class"]
    files["Calc.java"].write_text(CALC.replace("a + b", "a * b"))
    assert javac_carry.reuse(carry, tmp_path / "c2", now, set(), junit.class_name) == [
        "Calc.java",
        "Canary2.java",
    ]
    files["Calc.java"].write_text(
        CALC.replace("{ public int", "{ static final int K = 1; public int")
    )
    assert javac_carry.reuse(carry, tmp_path / "c3", now, set(), junit.class_name) is None
    assert not (tmp_path / "c3").exists()


# --- tests the run did not reach: the launcher's plan (java/llmbench/junit/PlannedTests) ---

PLANNED_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CalcTest {
    @Test @Order(1) void adds() { assertEquals(3, new Calc().add(1, 2)); }
    @Test @Order(2) void halves() { assertEquals(2, new Calc().half(4)); }
    @Test @Order(3) void namesItself(TestInfo info) { assertEquals("namesItself(TestInfo)", info.getDisplayName()); }
    @ParameterizedTest @Order(4) @ValueSource(ints = {1, 2}) void addsZero(int x) { assertEquals(x, new Calc().add(x, 0)); }
    @Test @Order(5) @Disabled("later") void later() {}
    @RepeatedTest(2) @Order(6) void repeats() { assertEquals(1, new Calc().add(1, 0)); }
    @TestFactory @Order(7) java.util.List<DynamicTest> made() {
        return java.util.List.of(DynamicTest.dynamicTest("one", () -> assertEquals(1, new Calc().add(0, 1))));
    }
    @Nested class Inner { @Test void addsNegatives() { assertEquals(-3, new Calc().add(-1, -2)); } }
}
"""
HALVES = "public int half(int x) { return x / 2; }"
# an answer that ends the JVM in the second test (a legacy CLI's way with bad input)
EXITS = "public int half(int x) { System.exit(1); return 0; }"


def _planned_run(half: str) -> FunctionalResult:
    functional = Functional(
        "junit", "acceptance", "empty", 120.0, (HiddenFile("demo/CalcTest.java", PLANNED_TEST),)
    )
    calc = CALC.replace("return a + b; }", f"return a + b; }} {half}")
    return run_functional(functional, None, [("src/main/java/demo/Calc.java", calc)])


def test_a_complete_junit_run_lists_every_test_once_and_none_as_not_run() -> None:
    """The plan names tests as the XML reports do (nested classes, parameters, invocations
    of a parameterized test, disabled ones): a run that finished adds nothing."""
    if isinstance(why := junit.toolchain(), str):
        pytest.skip(why)
    result = _planned_run(HALVES)
    assert (result.error, result.tampered) == (None, False), result
    assert {t.name: t.status for t in result.tests} == {
        "CalcTest.adds": "passed",
        "CalcTest.halves": "passed",
        "CalcTest.namesItself(TestInfo)": "passed",
        "CalcTest.addsZero(int)[1]": "passed",
        "CalcTest.addsZero(int)[2]": "passed",
        "CalcTest.later": "skipped",
        "CalcTest.repeats()[1]": "passed",
        "CalcTest.repeats()[2]": "passed",
        "CalcTest.made()[1]": "passed",
        "CalcTest$Inner.addsNegatives": "passed",
    }
    assert (result.passed, result.total) == (9, 10)


def test_a_jvm_that_exits_mid_run_lists_the_planned_tests_as_not_run() -> None:
    """The JVM ends in the second test: the launcher writes no report at all, so every
    test planned before the run started is listed `not run`, the parameterized test (its
    cases are registered only as it runs) as one, so the repeated test and the factory;
    no evidence."""
    if isinstance(why := junit.toolchain(), str):
        pytest.skip(why)
    result = _planned_run(EXITS)
    assert result.error is not None and result.error.startswith("no test ran")
    assert {t.name: t.status for t in result.tests} == {
        "CalcTest.adds": "not run",
        "CalcTest.halves": "not run",
        "CalcTest.namesItself(TestInfo)": "not run",
        "CalcTest.addsZero(int)": "not run",
        "CalcTest.later": "not run",
        "CalcTest.repeats": "not run",
        "CalcTest.made": "not run",
        "CalcTest$Inner.addsNegatives": "not run",
    }  # the canary class was planned too, and is never listed
    assert (result.passed, result.total, result.rate, result.tampered) == (0, 8, 0.0, False)


def test_an_answers_own_suite_that_exits_lists_its_tests_as_not_run(project: Path) -> None:
    """Mutation mode's `suite`: the same plan, for the answer's own tests."""
    calc = project / "src/main/java/demo/Calc.java"
    calc.write_text(CALC.replace("return a + b;", "System.exit(1); return 0;"), encoding="utf-8")
    run = junit.suite(project, SuiteRun(("src/test/java/demo/CalcTest.java",), 120))
    assert run.error is not None and not run.all_passed
    assert {t.name: t.status for t in run.tests} == {
        "CalcTest.adds": "not run",
        "CalcTest.claimsFour": "not run",
    }


def test_a_planned_container_stands_for_its_tests_until_one_is_planned(tmp_path: Path) -> None:
    plan = tmp_path / "planned.tsv"
    plan.write_text(
        "demo.CalcTest\tadds()\n"
        "demo.CalcTest\taddsAll(int[])\t+\n"  # ran: its cases were planned
        "demo.CalcTest\trepeats()\t+\n"  # never reached
        "demo.OtherTest\taddsAll(int[])\t+\n"  # another class's: not expanded by CalcTest's
        "demo.CalcTest\taddsAll(int[])[1]\n"
        "a line without a tab\n",
        encoding="utf-8",
    )
    assert junit.read_plan(plan) == [
        "CalcTest.adds",
        "CalcTest.addsAll(int[])[1]",
        "CalcTest.repeats",
        "OtherTest.addsAll(int[])",
    ]
