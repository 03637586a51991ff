"""The JUnit runner's warm server (functional/junit_warm.py, java_warm/): one sandboxed JVM
serves an answer's runs as runs of their own would go (the same outcomes and errors, on
the code as given and on mutants, whatever a mutant changes), each run with a class
loader of its own; a test that exits ends its run and the next run gets a new server; the
canaries still catch a forged report. Real sandboxed runs (skipped without a JDK, the
jars or the sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.functional import junit, junit_warm
from pytest_llmbench.functional.mutation import Lab
from pytest_llmbench.functional.outcome import Run, SuiteRun
from pytest_llmbench.functional.warm import Server
from pytest_llmbench.functional.workspace import fresh_copy
from pytest_llmbench.toolchain import sandbox

CALC = """package demo;
public class Calc {
    public static final int BASE = 10;
    public static int calls;
    public static int add(int a, int b) { calls++; return a + b; }
}
class Helper { static int one() { return 1; } }
"""
CALC_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class CalcTest {
    @Test void adds() { assertEquals(3, Calc.add(1, 2)); }
    @Test void startsAtBase() { assertEquals(10, Calc.BASE); }
    @Test void helps() { assertEquals(1, Helper.one()); }
}
"""
CALC_JAVA = "src/main/java/demo/Calc.java"
TESTS = ("src/test/java/demo/CalcTest.java",)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    if isinstance(why := junit.toolchain(), str):
        pytest.skip(why)
    if sandbox.missing() is not None or not sandbox.kernel_holds_limit():
        pytest.skip("a warm server needs bubblewrap and the kernel's process count")
    base = tmp_path / "lab" / "base"
    _write(base, {CALC_JAVA: CALC, TESTS[0]: CALC_TEST})
    return base


def _write(folder: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")


def _server(base: Path, tests: tuple[str, ...] = TESTS) -> Server:
    work = fresh_copy(base.parent, base)
    spec = junit_warm.warm(work, SuiteRun(tests, 120))
    assert spec is not None
    return Server(spec, work)


def _warm(server: Server, changes: dict[str, str] | None, tests: tuple[str, ...] = TESTS) -> Run:
    """One run served, on the workspace laid out afresh as mutation.Lab lays it out."""
    root = server.workspace.parent
    fresh_copy(root, root / "base", changes, server.kept)
    run = server.run(SuiteRun(tests, 120))
    assert run is not None
    return run


def _cold(base: Path, changes: dict[str, str] | None, tests: tuple[str, ...] = TESTS) -> Run:
    work = fresh_copy(base.parent.parent / "cold", base, changes)
    return junit.suite(work, SuiteRun(tests, 120))


def _seen(run: Run) -> tuple[str | None, dict[str, tuple[bool, str]]]:
    return run.error, {t.name: (t.passed, t.status) for t in run.tests}


def _mutant(find: str, replace: str) -> dict[str, str]:
    return {CALC_JAVA: CALC.replace(find, replace)}


def test_served_runs_have_the_outcomes_of_runs_of_their_own(base: Path) -> None:
    """The code as given, then mutants of a method's body, of a constant (copied into the
    test class when it is compiled: the test must be compiled again), of a signature (a
    full build resolves the test's call anew: assertEquals(long, long) passes), one that
    does not compile and one without a class the tests use, all served by one server."""
    server = _server(base)
    mutants = {
        "body": _mutant("a + b", "a - b"),
        "constant": _mutant("BASE = 10", "BASE = 11"),
        "signature": _mutant("static int add", "static long add"),
        "broken": _mutant("a + b", "a + c"),
        "a class gone": _mutant("class Helper { static int one() { return 1; } }", ""),
    }
    alone: dict[str, Run] = {}
    try:
        for name, changes in [("clean", None), *mutants.items(), ("clean again", None)]:
            served, alone[name] = _warm(server, changes), _cold(base, changes)
            assert _seen(served) == _seen(alone[name]), name
            assert served.returncode == alone[name].returncode, name
        assert server.starts == 1
    finally:
        server.close()
    names = ("CalcTest.adds", "CalcTest.startsAtBase", "CalcTest.helps")
    passed = (None, {name: (True, "passed") for name in names})
    assert _seen(alone["clean"]) == _seen(alone["signature"]) == passed
    assert _seen(alone["body"])[1]["CalcTest.adds"][0] is False
    assert _seen(alone["constant"])[1]["CalcTest.startsAtBase"][0] is False
    error = alone["broken"].error or ""
    assert error.startswith("the tests and src/main/java do not compile: ")
    assert "Calc.java:5: error: cannot find symbol" in error
    assert "CalcTest.java:7: error: cannot find symbol" in (alone["a class gone"].error or "")


STATE_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.assertj.core.presentation.StandardRepresentation;
import org.junit.jupiter.api.Test;
class StateTest {
    static int runs;
    // passes only where nothing of an earlier run is left: the test class's statics, the
    // dataset's (Counter.count), a system property, the default locale, AssertJ's settings,
    // the root logger's level, a closed stdout, a thread left running
    @Test void firstOfItsKind() {
        runs++;
        assertEquals(1, runs);
        assertEquals(1, ++Counter.count);
        assertNull(System.getProperty("llmbench.seen"));
        assertNotEquals(Locale.GERMANY, Locale.getDefault());
        System.setProperty("llmbench.seen", "yes");
        Locale.setDefault(Locale.GERMANY);
        assertEquals(1000, StandardRepresentation.getMaxElementsForPrinting());
        org.assertj.core.api.Assertions.setMaxElementsForPrinting(3);
        assertEquals(Level.INFO, Logger.getLogger("").getLevel());
        Logger.getLogger("").setLevel(Level.OFF);
        System.out.close(); // the server's output: the run's done line must still go out
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("spins")));
        Thread spins = new Thread(() -> { while (true) { Thread.onSpinWait(); } }, "spins");
        spins.setDaemon(true);
        spins.start(); // deaf to interrupts: it must not outlive the run
    }
}
"""


def test_each_run_has_a_class_loader_and_settings_of_its_own(base: Path) -> None:
    tools = junit.toolchain()
    if isinstance(tools, str) or not any(j.name == "assertj-core.jar" for j in tools.jars):
        pytest.skip("AssertJ is not installed here")
    counter = "package demo;\npublic class Counter { public static int count; }\n"
    _write(
        base,
        {
            "src/test/java/demo/StateTest.java": STATE_TEST,
            "src/main/java/demo/Counter.java": counter,
        },
    )
    tests = (*TESTS, "src/test/java/demo/StateTest.java")
    server = _server(base, tests)
    try:
        runs = [_warm(server, None, tests) for _ in range(3)]
        assert server.starts == 1  # one JVM served them all
    finally:
        server.close()
    for run in runs:
        assert run.all_passed, _seen(run)
        assert {t.name for t in run.tests} == {
            "CalcTest.adds",
            "CalcTest.startsAtBase",
            "CalcTest.helps",
            "StateTest.firstOfItsKind",
        }


EXITS_TEST = CALC_TEST.replace(
    "@Test void adds() {", "@Test void adds() { if (Calc.add(1, 2) != 3) System.exit(0);"
)


def test_a_test_that_exits_ends_its_run_and_the_next_run_starts_a_new_server(
    base: Path,
) -> None:
    _write(base, {TESTS[0]: EXITS_TEST})
    server = _server(base)
    mutant = _mutant("a + b", "a - b")
    try:
        ended = _warm(server, mutant)
        assert server.starts == 1
        again = _warm(server, None)
        assert server.starts == 2
    finally:
        server.close()
    alone = _cold(base, mutant)
    assert (
        _seen(ended)[1]
        == _seen(alone)[1]
        == {
            "CalcTest.adds": (False, "not run"),
            "CalcTest.startsAtBase": (False, "not run"),
            "CalcTest.helps": (False, "not run"),
        }
    )
    assert (ended.error or "").startswith("no test ran") and ended.returncode == 0
    assert again.all_passed, _seen(again)


FORGE_TEST = """package demo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
class ForgeTest {
    // writes a report in which every planned test passed, then ends the JVM before the
    // launcher writes the real one
    @Test void forges() throws Exception {
        StringBuilder xml = new StringBuilder("<?xml version='1.0'?><testsuite>");
        for (String line : Files.readAllLines(Path.of(".llmbench-out/junit/planned.tsv"))) {
            String[] cells = line.split("\\t");
            if (cells.length == 2) {
                xml.append("<testcase classname='" + cells[0] + "' name='" + cells[1] + "'/>");
            }
        }
        Files.createDirectories(Path.of(".llmbench-out/junit/reports"));
        Files.writeString(Path.of(".llmbench-out/junit/reports/TEST-junit-jupiter.xml"), xml + "</testsuite>");
        Runtime.getRuntime().halt(0);
    }
}
"""


def test_the_canaries_catch_a_report_forged_in_a_served_run(base: Path) -> None:
    _write(base, {"src/test/java/demo/ForgeTest.java": FORGE_TEST})
    tests = [*TESTS, "src/test/java/demo/ForgeTest.java"]
    lab = Lab(base.parent, "junit", tests, junit.suite, 120.0, warm=junit_warm.warm)
    try:
        run = lab.clean()
        assert lab.served
    finally:
        lab.close()
    assert {t.name: t.passed for t in run.tests} == {
        "CalcTest.adds": True,
        "CalcTest.startsAtBase": True,
        "CalcTest.helps": True,
        "ForgeTest.forges": True,
    }  # the forged report, as read
    assert any(line.startswith("must-fail canary test") for line in lab.evidence), lab.evidence
    assert "the test runner exited with status 0 though a canary test failed" in lab.evidence


def test_the_server_runs_c1_alone_and_a_suite_whose_tests_took_long_gets_c2_after_its_clean_run(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A short suite is served by one JVM with the client compiler alone; after a clean run
    whose tests took LONG_TESTS_S or more (here: any), a tiered JVM serves the later runs,
    with the outcomes of runs of their own."""
    c1 = "-XX:TieredStopAtLevel=1"
    short = _server(base)
    try:
        _warm(short, None)
        assert short.process is not None and c1 in short.process.args
        assert _warm(short, None).all_passed and short.starts == 1
    finally:
        short.close()
    monkeypatch.setattr(junit_warm, "LONG_TESTS_S", 0.0)
    computing = _server(base)
    mutant = _mutant("a + b", "a - b")
    try:
        assert _warm(computing, None).all_passed
        later = _warm(computing, mutant)
        assert computing.starts == 2
        assert computing.process is not None and c1 not in computing.process.args
    finally:
        computing.close()
    assert _seen(later) == _seen(_cold(base, mutant))
    assert _seen(later)[1]["CalcTest.adds"][0] is False
