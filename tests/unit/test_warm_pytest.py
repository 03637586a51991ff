"""pytest's served runs (pydriver/driver.py `serve`): one driver per answer imports pytest
once and forks every run from that untouched state, so no run sees what an earlier one
did in its interpreter, and whatever a run leaves running is killed before the next.
The answers are the attack corpus's pytest-mutation suite (tests/attacks/)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from pytest_llmbench.formats.mutants import load_mutants
from pytest_llmbench.functional.mutation import Lab, killed
from pytest_llmbench.functional.suite_files import answer_files_used
from pytest_llmbench.toolchain import sandbox
from tests.attack_corpus import answers, dataset_of, functional_of
from tests.unit.test_sandbox import _left_running

pytestmark = pytest.mark.skipif(
    sandbox.missing() is not None or not sandbox.kernel_holds_limit(),
    reason="served runs need bubblewrap and the kernel's process count",
)

# Counts the runs in the interpreter (a module attribute of the standard library's) and
# leaves a process behind that holds a marker in its command line.
CARRIES = """\
import subprocess
import sys
import textwrap

from calc import add


def test_the_interpreter_is_fresh_and_leaves_a_process():
    seen = getattr(textwrap, "runs_seen", 0) + 1
    textwrap.runs_seen = seen
    subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)", "%s"],
        start_new_session=True,
    )
    assert seen == 1 and add(2, 3) == 5
"""


def test_served_pytest_runs_start_fresh_and_leave_nothing_running(tmp_path: Path) -> None:
    suite = next(a.suite for a in answers() if a.label == "pytest-mutation/control")
    functional, dataset = functional_of(suite), dataset_of(suite)
    marker = f"llmbench-left-{uuid.uuid4().hex}"
    files = {f.path: f.text for f in dataset.files}
    used, _ = answer_files_used([("tests/test_calc.py", CARRIES % marker)], set(files))
    mutants = load_mutants(functional.mutants_text or "", "m.yaml", files)
    lab = Lab.build(tmp_path, functional, dataset, used)
    try:
        clean = lab.clean()
        assert clean.all_passed, clean
        assert lab.served and lab.server is not None and lab.server.process is not None
        assert _left_running(marker) == []  # the run's process was killed after it
        add_mutant = next(m for m in mutants if m.id == "add-off-by-one")
        run = lab.mutant(add_mutant)
        assert run is not None and killed(run) and lab.evidence == []
        again = lab.mutant(next(m for m in mutants if m.id != "add-off-by-one"))
        assert again is not None and again.all_passed  # the count did not carry: seen == 1
        assert lab.server.starts == 1 and _left_running(marker) == []
    finally:
        lab.close()
