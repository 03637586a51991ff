"""Hidden C++ tests written with Catch (exercism's C++ track: `<name>_test.cpp`, and the
suite's own `test/catch.hpp` and `test/tests-main.cpp`), built with CMake and g++ and
run in the sandbox.

The test sources are laid over the workspace (overlay.py) and protected. The build is
ours, never a CMakeLists.txt of the workspace: one executable of every `.cpp` file at the
workspace's top (the answer's sources and the tests) and `test/tests-main.cpp` (compiled
once per process and linked as an object: _compile_main), C++17,
the workspace on the include path. Catch's JUnit reporter writes the outcomes (named
`<group>.<test case>`, with the failed expression as the message); a build that fails is
one line of the compiler's first errors."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from ..toolchain import sandbox
from .junit import read_reports
from .outcome import Run
from .overlay import overlay
from .workspace import HIDDEN, OUT

MAIN = "test/tests-main.cpp"
MEMORY_MB = 2048  # cc1plus on catch.hpp
STACK_KB = 1024  # the tests' stack size, each thread's too
PROCESS_LIMIT = 128
MAX_ERROR_LINES = 6
BINARY = "exercise-tests"
# Catch's report of a test that a signal ended (the program stops there).
_SIGNAL = re.compile(r"^SIG[A-Z]+\b", re.MULTILINE)
CMAKE_LISTS = """\
cmake_minimum_required(VERSION 3.13)
project(llmbench_exercise CXX)
set(ROOT %(root)s)
file(GLOB sources "${ROOT}/*.cpp")
add_executable(%(binary)s ${sources} %(main)s)
target_include_directories(%(binary)s PRIVATE "${ROOT}")
set_target_properties(%(binary)s PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
target_compile_options(%(binary)s PRIVATE -Wall -Wextra)
"""


def missing() -> str | None:
    """Why this machine cannot build C++ tests, or None."""
    absent = [tool for tool in ("cmake", "c++") if shutil.which(tool) is None]
    if absent:
        return f"{' and '.join(absent)} not installed (Debian: cmake, g++; scripts/install-runners)"
    return None


def _errors(outcome: sandbox.Outcome, workspace: Path) -> str:
    if outcome.killed:
        return f"stopped at the {outcome.killed}"
    text = f"{outcome.stdout}\n{outcome.stderr}".replace(f"{workspace.resolve()}/", "")
    every = [line.strip() for line in text.splitlines() if line.strip()]
    # a compiler's error lines; CMake's say what is wrong on the line after
    lines = [
        f"{line} {every[i + 1]}" if line.startswith("CMake Error") and i + 1 < len(every) else line
        for i, line in enumerate(every)
        if "error" in line.lower()
    ]
    return " | ".join(lines[:MAX_ERROR_LINES])[:800] or f"exit {outcome.returncode}"


# Catch's main, compiled once per process for each (catch.hpp, tests-main.cpp) pair: it
# is most of a small exercise's build, and holds none of the answer's code.
_MAINS: dict[str, bytes | None] = {}
_MAINS_LOCK = threading.Lock()


def _compile_main(hidden_folder: Path) -> bytes | None:
    """The object of the suite's Catch main (None when it does not build alone)."""
    sources = [hidden_folder / MAIN, hidden_folder / "test" / "catch.hpp"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources if p.is_file())).hexdigest()
    with _MAINS_LOCK:
        if digest not in _MAINS:
            with tempfile.TemporaryDirectory(prefix="llmbench-catch-") as folder:
                work = Path(folder)
                (work / "test").mkdir()
                for source in sources:
                    if source.is_file():
                        shutil.copyfile(source, work / "test" / source.name)
                done = sandbox.run(
                    ["c++", "-std=c++17", "-g", "-c", MAIN, "-o", "main.o"],
                    work,
                    timeout=600.0,
                    memory_mb=MEMORY_MB,
                    processes=PROCESS_LIMIT,
                    runs_answer_code=False,
                )
                built = work / "main.o"
                _MAINS[digest] = built.read_bytes() if done.returncode == 0 else None
        return _MAINS[digest]


def hidden(
    workspace: Path, hidden_folder: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    """Build the workspace's sources with the hidden Catch tests; run them. The three
    steps (configure, build, run) share the run's time limit."""
    placed = overlay(workspace, hidden_folder)
    if MAIN not in placed or not any(p.endswith("_test.cpp") for p in placed):
        return Run.broken(f"the hidden tests folder has no *_test.cpp and {MAIN}")
    own = (workspace / OUT / "cmake").resolve()
    build, reports = own / "build", (workspace / OUT / "catch-reports").resolve()
    for folder in (build, reports):
        folder.mkdir(parents=True, exist_ok=True)
    main = json.dumps(f"{workspace.resolve()}/{MAIN}")
    if (compiled := _compile_main(hidden_folder)) is not None:
        (own / "tests-main.o").write_bytes(compiled)
        main = json.dumps(str(own / "tests-main.o"))
    (own / "CMakeLists.txt").write_text(
        CMAKE_LISTS
        % {"root": json.dumps(str(workspace.resolve())), "binary": BINARY, "main": main},
        encoding="utf-8",
    )
    deadline = time.monotonic() + timeout_s

    def step(command: list[str]) -> sandbox.Outcome:
        return sandbox.run(
            command,
            workspace,
            timeout=max(1.0, deadline - time.monotonic()),
            memory_mb=MEMORY_MB,
            processes=processes or PROCESS_LIMIT,
            protect=[workspace / HIDDEN, own / "tests-main.o", *(workspace / p for p in placed)],
        )

    for command in (
        ["cmake", "-S", str(own), "-B", str(build), "-DCMAKE_BUILD_TYPE=Debug"],
        ["cmake", "--build", str(build), "--parallel", "2"],
    ):
        done = step(command)
        if done.returncode != 0:
            return Run.broken(
                f"the sources do not build with the tests: {_errors(done, workspace)}"
            )
    report = reports / "TEST-catch.xml"
    # Threads get the stack size of RLIMIT_STACK (8 MB), and their stacks count against the
    # memory limit: 1 MB each lets a suite start a thousand threads (bank-account).
    command = [str(build / BINARY), "--reporter", "junit", "--out", str(report)]
    outcome = step(["sh", "-c", f'ulimit -s {STACK_KB} && exec "$0" "$@"', *command])
    root = f"{workspace.resolve()}/"
    tests = [
        t.model_copy(update={"message": t.message.replace(root, "")}) for t in read_reports(reports)
    ]
    run = Run.of(tests, outcome)
    crashed = next((t for t in tests if _SIGNAL.search(t.message)), None)
    if crashed is not None and run.error is None:  # the tests after it never ran
        signal = _SIGNAL.search(crashed.message)
        why = f"the test program crashed in {crashed.name!r} ({signal.group(0) if signal else ''})"
        return replace(run, error=why)
    return run
