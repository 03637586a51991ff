"""JUnit 5 tests, compiled with javac and run by JUnit's console launcher in one JVM per
run, both in the sandbox, on the jars of Debian's packages (scripts/install-test-tools):
junit5 (the console launcher, Jupiter included), libmockito-java (mockito-core with Byte
Buddy and Objenesis), the EJB and JPA APIs of Geronimo, and AssertJ and Hamcrest when
present. Debian has no mockito-junit-jupiter: java/org/mockito/junit/jupiter/ holds our
own MockitoExtension and MockitoSettings on mockito-core's session API, compiled with
every run. Debian's Mockito is 2.23: of the newer API the answers are asked for, only
verifyNoInteractions is mapped (MOCKITO5_NAMES); mockStatic, mockConstruction and
@Mock(lenient = true) do not compile.

- `hidden`: the hidden tests (any *.java under the hidden folder) against the
  workspace's src/main/java (acceptance mode).
- `suite`: the answer's own tests against the workspace's src/main/java (mutation mode:
  the driver calls it on the dataset and on each mutant; warm: junit_warm.py).

Outcomes come from the launcher's XML reports: one per test, named Class.method. The
launcher also loads our listener java/llmbench/junit/PlannedTests.java (by SUPPORT's
META-INF/services), which writes the test plan before any test runs: a planned test the
reports do not name (the JVM halted, exited or was stopped, and wrote no report) is
listed `not run`. Jars are looked for in $LLMBENCH_JAVA_LIBS (folders, os.pathsep-
separated) or /usr/share/java."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path

from ..schema.functional import TestOutcome
from ..toolchain import jvm_share, sandbox
from . import javac_carry
from .jsreport import read_options
from .junit_options import C2_LATER, JAVAC_FLAGS, JVM_FLAGS, OPTIONS, JUnitOptions, jars
from .launch import RunnerSandbox
from .outcome import Run, SuiteRun, read_lines, report_seconds

# MockitoExtension and PlannedTests, compiled with the tests; META-INF/services for the latter
SUPPORT = Path(__file__).with_name("java")
DEFAULT_LIBS = ("/usr/share/java",)
REQUIRED: dict[str, tuple[str, ...]] = {  # what -> jar file names, the first found is used
    "JUnit 5 console launcher": ("junit-platform-console-standalone.jar",),
    "Mockito": ("mockito-core.jar",),
    "Byte Buddy": ("byte-buddy.jar",),
    "Objenesis": ("objenesis.jar",),
    "EJB API": ("geronimo-ejb-3.2-spec.jar",),
    "JPA API": ("geronimo-jpa_2.0_spec.jar",),
}
OPTIONAL = ("byte-buddy-agent.jar", "assertj-core.jar", "hamcrest.jar")
DEBIAN = "junit5 libmockito-java libgeronimo-ejb-3.2-spec-java libgeronimo-jpa-2.0-spec-java"
# (AssertJ and Hamcrest: libassertj-core-java, libhamcrest-java)
LAUNCHER = "org.junit.platform.console.ConsoleLauncher"
# RLIMIT_DATA: the LegacyEJBService suite fails at 384 MB, runs at 512; a JVM's threads count
SANDBOX = RunnerSandbox(memory_mb=1024, processes=sandbox.JVM_PROCESS_LIMIT)
MAX_REPORT_BYTES = 5_000_000
MAX_ERROR_LINES = 6
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
# The answers are written for Mockito 5. verifyNoInteractions (Mockito 3.1) is
# verifyZeroInteractions in 2.23: weaker (it allows interactions already verified), never
# failing a test the newer one passes.
MOCKITO5_NAMES = ((re.compile(r"\bverifyNoInteractions\b"), "verifyZeroInteractions"),)


@dataclass(frozen=True)
class Toolchain:
    javac: str
    java: str
    jars: tuple[Path, ...]


def library_dirs() -> list[Path]:
    written = os.environ.get("LLMBENCH_JAVA_LIBS")
    return [Path(p) for p in (written.split(os.pathsep) if written else DEFAULT_LIBS) if p]


def find_jars(dirs: list[Path]) -> tuple[list[Path], list[str]]:
    """(the jars for the classpath, the names of the required ones not found)."""

    def first(names: tuple[str, ...]) -> Path | None:
        return next((d / n for n in names for d in dirs if (d / n).is_file()), None)

    jars: list[Path] = []
    missing: list[str] = []
    for what, names in REQUIRED.items():
        found = first(names)
        if found is None:
            missing.append(f"{what} ({' or '.join(names)})")
        else:
            jars.append(found)
    jars.extend(p for p in (first((n,)) for n in OPTIONAL) if p is not None)
    return jars, missing


def toolchain() -> Toolchain | str:
    """javac, the java beside it and the jars, or the one line saying what is missing."""
    home = os.environ.get("JAVA_HOME")
    javac = shutil.which("javac", path=f"{home}/bin" if home else None) or shutil.which("javac")
    if javac is None:
        return "javac is not installed: a JDK 17 is needed (Debian: openjdk-17-jdk-headless)"
    java = Path(javac).resolve().with_name("java")
    dirs = library_dirs()
    jars, missing = find_jars(dirs)
    if missing:
        where = os.pathsep.join(str(d) for d in dirs)
        return (
            f"JUnit jars missing from {where}: {', '.join(missing)}; run scripts/install-test-tools"
            f" (Debian packages {DEBIAN}) or set LLMBENCH_JAVA_LIBS"
        )
    return Toolchain(javac, str(java) if java.is_file() else "java", tuple(jars))


def missing() -> str | None:
    """Why this machine cannot run JUnit tests, or None."""
    found = toolchain()
    return found if isinstance(found, str) else None


def class_name(source: str, file_name: str) -> str:
    """The top-level class a source file declares: its package and the file's name."""
    found = _PACKAGE.search(source)
    stem = file_name.rsplit("/", 1)[-1].removesuffix(".java")
    return f"{found.group(1)}.{stem}" if found else stem


def _first_lines(text: str, count: int = 3) -> str:
    lines = [
        line for line in text.strip().splitlines() if line.strip() and not line.startswith("\tat ")
    ]
    return "\n".join(lines[:count])[:600]


def _cause_first(detail: ET.Element) -> str:
    """A failure's first lines, its cause first: pytest's error lines (`E   ...`) where the
    text has them, else the report's message (pytest's exception, e.g.
    `NotImplementedError`) before the text (pytest: the failing source lines; JUnit: the
    stack trace, whose first line already names it)."""
    message, kind = detail.get("message", ""), detail.get("type", "")
    text = (detail.text or "").strip()
    errors = [line[1:].strip() for line in text.splitlines() if line.startswith("E   ")]
    if errors:
        return _first_lines("\n".join(errors), 4)
    first = text.splitlines()[0] if text else ""
    if message and message.splitlines()[0] not in first:
        return _first_lines(f"{message}\n{text}")
    return _first_lines(text or ": ".join(filter(None, [kind, message])))


def test_name(classname: str, name: str) -> str:
    """A test's name from a report's `classname` and `name`: `Class.method` (the class
    without its package; `()` dropped), a module's name alone where there is no class
    (pytest: a module that could not be collected)."""
    owner = classname.rsplit(".", 1)[-1]
    method = name.removesuffix("()")
    if not owner:
        method = method.rsplit(".", 1)[-1]
    return f"{owner}.{method}" if owner else method


def read_plan(path: Path) -> list[str]:
    """The names of the tests the launcher planned (java/llmbench/junit/PlannedTests.java:
    `classname TAB name` a line), from the file's head (outcome.read_lines). A test
    method planned as a container (`classname TAB name TAB +`: parameterized, repeated, a
    factory) stands for its tests until one is planned (named `name[1]`, ...)."""
    rows = [line.split("\t") for line in read_lines(path)]
    tests = [(row[0], row[1]) for row in rows if len(row) == 2]
    containers = [(row[0], row[1]) for row in rows if len(row) == 3 and row[2] == "+"]
    # what each test's name may be a container's tests under: its text before each `[`
    expanded = {(o, n[:i]) for o, n in tests for i, c in enumerate(n[:300]) if c == "["}
    unexpanded = [row for row in containers if row not in expanded]
    return [test_name(owner, name) for owner, name in tests + unexpanded]


def read_reports(folder: Path) -> list[TestOutcome]:
    """Every test case of the launcher's XML reports (TEST-*.xml), a skipped or disabled
    one (pytest: skip, xfail) as skipped, which counts as not passed; an unreadable or
    oversized report ignored."""
    outcomes: list[TestOutcome] = []
    for report in sorted(folder.glob("TEST-*.xml")) if folder.is_dir() else []:
        try:
            if report.is_symlink() or report.stat().st_size > MAX_REPORT_BYTES:
                continue
            root = ET.parse(report).getroot()
        except (OSError, ET.ParseError):
            continue
        for case in root.iter("testcase"):
            problems = [c for c in case if c.tag in ("failure", "error", "skipped")]
            message = ""
            if problems:
                message = _cause_first(problems[0])
            name = test_name(case.get("classname", ""), case.get("name", ""))
            status = (
                "passed"
                if not problems
                else "skipped"
                if problems[0].tag == "skipped"
                else "failed"
            )
            outcomes.append(
                TestOutcome(
                    name=name[:300],
                    passed=not problems,
                    message=message,
                    status=status,
                    seconds=report_seconds(case.get("time")),
                )
            )
    return outcomes


def _quoted(path: str) -> str:  # one argument of a javac @file
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def compile_errors(outcome: sandbox.Outcome) -> str:
    if outcome.killed:
        return f"stopped at the {outcome.killed}"
    text = outcome.stderr or outcome.stdout
    lines = [
        line
        for line in text.splitlines()
        if ": error:" in line or line.startswith(("error:", "  symbol:"))
    ]
    shown = lines[:MAX_ERROR_LINES] or text.strip().splitlines()[:MAX_ERROR_LINES]
    return " | ".join(line.strip() for line in shown)[:800] or f"javac exit {outcome.returncode}"


def _main_sources(workspace: Path) -> list[str]:
    main = workspace / "src" / "main" / "java"
    return sorted(
        p.relative_to(workspace).as_posix()
        for p in main.rglob("*.java")
        if p.is_file() and not p.is_symlink()
    )


def _classpath(workspace: Path, classes: str, jars: tuple[Path, ...]) -> str:
    """The test tools' jars first: a class or resource of the answer's named like one of
    theirs (org.junit..., a junit-platform.properties) is never the one loaded. Then
    SUPPORT, for its META-INF/services (the launcher loads our PlannedTests listener)."""
    resources = [
        r for r in ("src/test/resources", "src/main/resources") if (workspace / r).is_dir()
    ]
    return os.pathsep.join([*(str(j) for j in jars), str(SUPPORT), classes, *resources])


def surroundings(tools: Toolchain, shared: jvm_share.Archives) -> tuple[dict[str, str], list[Path]]:
    """The environment javac and java run with, and what they read besides the workspace
    (the class data archives among it: jvm_share.py)."""
    env = {"JAVA_HOME": os.environ["JAVA_HOME"]} if "JAVA_HOME" in os.environ else {}
    archives = [shared.folder] if shared.folder else []
    return env, [SUPPORT, *sorted({jar.parent for jar in tools.jars}), *archives]


def _compile(
    workspace: Path,
    work: Path,
    tests: list[str],
    tools: Toolchain,
    shared: jvm_share.Archives,
    limits: tuple[float, int | None],
    carry: Path | None,
) -> sandbox.Outcome:
    """javac on src/main/java, `tests` and our support classes into `work`/classes (with
    a carry folder: only what changed since the suite's first run, javac_carry.py)."""
    classes = work / "classes"
    sources = {s: workspace / s for s in sorted({*_main_sources(workspace), *tests})}
    sources |= {str(p): p for p in sorted(SUPPORT.rglob("*.java"))}
    todo = None
    if carry is not None:
        todo = javac_carry.reuse(carry, classes, sources, set(tests), class_name)
    compiled_on = [*tools.jars, *([classes] if todo is not None else [])]
    arguments = [
        "-d", classes.relative_to(workspace).as_posix(),
        "-cp", os.pathsep.join(str(j) for j in compiled_on),
        "--release", "17", "-encoding", "UTF-8", "-nowarn", "-proc:none", "-Xmaxerrs", "20",
        *(sources if todo is None else todo),
    ]  # fmt: skip
    (work / "javac.args").write_text("\n".join(map(_quoted, arguments)), encoding="utf-8")
    flags = (*JAVAC_FLAGS, *shared.javac)
    javac = [tools.javac, *(f"-J{flag}" for flag in flags), f"@{work.name}/javac.args"]
    env, reads = surroundings(tools, shared)
    compiled = SANDBOX.run(javac, workspace, *limits, env=env, reads=reads)
    if compiled.returncode == 0 and carry is not None and todo is None:
        javac_carry.keep(carry, classes, sources)
    return compiled


def run_junit(
    workspace: Path,
    tests: list[str],
    timeout_s: float,
    what: str,
    processes: int | None = None,
    options: JUnitOptions | None = None,
    carry: Path | None = None,
) -> Run:
    """Compile src/main/java with `tests` (workspace-relative .java files) and run the
    test classes they declare in one JVM; `what` names the tests in a compile error.
    `options`: the scenario's extra jars and JVM options (junit_options.py). `carry`: a
    suite's carry folder (javac_carry.py: later runs compile only what changed)."""
    started = time.monotonic()
    tools = toolchain()
    if isinstance(tools, str):
        return Run.broken(tools)
    options = options or JUnitOptions()
    extra, absent = jars(options, library_dirs())
    if absent:
        return Run.broken(
            f"{OPTIONS} of the hidden tests: classpath: not found: {', '.join(absent)}"
        )
    tools = replace(tools, jars=(*extra, *tools.jars))  # a newer AssertJ the scenario names wins
    if not tests:
        return Run.broken(f"{what}: no .java test file")
    work = workspace / f".llmbench-junit-{secrets.token_hex(4)}"
    (work / "tmp").mkdir(parents=True)
    classes, reports = f"{work.name}/classes", f"{work.name}/reports"
    shared = jvm_share.archives(tools.javac, tools.java, tools.jars, SUPPORT, LAUNCHER)
    env, reads = surroundings(tools, shared)
    compiled = _compile(workspace, work, tests, tools, shared, (timeout_s, processes), carry)
    if compiled.returncode != 0:
        return Run.broken(f"{what} and src/main/java do not compile: {compile_errors(compiled)}")
    declared = {class_name(_read(workspace / t), t) for t in tests}
    # a file may hold only classes named otherwise; the launcher refuses unknown names
    selected = sorted(
        n for n in declared if (workspace / classes / f"{n.replace('.', '/')}.class").is_file()
    )
    if not selected:
        return Run.broken(f"{what}: no class named after its file among {len(tests)} .java files")
    plan = f"{work.name}/planned.tsv"
    java = [
        tools.java, *JVM_FLAGS, *C2_LATER, *shared.java, *options.jvmOptions,
        f"-Djava.io.tmpdir={work.name}/tmp",
        f"-Dllmbench.planned={plan}", "-cp", _classpath(workspace, classes, tools.jars), LAUNCHER,
        "--disable-banner", "--disable-ansi-colors", "--details=none",
        "--include-classname=.*", f"--reports-dir={reports}",
        *(f"--select-class={name}" for name in selected),
    ]  # fmt: skip
    remaining = max(1.0, timeout_s - (time.monotonic() - started))
    outcome = SANDBOX.run(java, workspace, remaining, processes, env=env, reads=reads)
    # a planned test no report names is listed not run (a JVM that halted wrote none)
    done = Run.of(read_reports(workspace / reports), outcome).with_planned(
        read_plan(workspace / plan)
    )
    return replace(done, seconds=compiled.seconds + outcome.seconds, build_s=compiled.seconds)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def hidden(workspace: Path, hidden: Path, timeout_s: float, *, processes: int | None = None) -> Run:
    """The hidden JUnit tests (every .java file under `hidden`) on the workspace's code."""
    tests = sorted(
        p.relative_to(workspace).as_posix()
        for p in hidden.rglob("*.java")
        if p.is_file() and not p.is_symlink()
    )
    try:
        options = read_options(hidden / OPTIONS, JUnitOptions)
    except ValueError as exc:
        return Run.broken(str(exc))
    return run_junit(workspace, tests, timeout_s, "the hidden tests", processes, options)


def mockito5_compatible(source: str) -> str:
    """The test source with the Mockito 3-5 names Debian's Mockito 2.23 lacks renamed to
    their 2.23 counterparts (MOCKITO5_NAMES)."""
    for pattern, replacement in MOCKITO5_NAMES:
        source = pattern.sub(replacement, source)
    return source


def suite(workspace: Path, run: SuiteRun) -> Run:
    """The answer's own tests (workspace-relative paths; .java files are compiled, test
    classes among them run) on the workspace's code. The launcher has no stop at the
    first failure: every class runs, the run's canary class among them."""
    tests = suite_tests(workspace, run)
    return run_junit(workspace, tests, run.timeout_s, "the tests", run.processes, carry=run.carry)


def suite_tests(workspace: Path, run: SuiteRun) -> list[str]:
    """The run's .java files (no links), each made mockito5_compatible in place."""
    files = sorted(t for t in run.tests if t.endswith(".java"))
    tests = [t for t in files if (workspace / t).is_file() and not (workspace / t).is_symlink()]
    for test in tests:
        source = _read(workspace / test)
        if (compatible := mockito5_compatible(source)) != source:
            (workspace / test).write_text(compatible, encoding="utf-8")
    return tests
