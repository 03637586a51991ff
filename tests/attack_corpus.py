"""The red team's corpus (tests/attacks/): answers that do not do the task but attack the
verdict of the hidden tests (acceptance) or of the mutants (mutation), one folder per
runner, and a benchmark project that runs each answer as the reference answer of its own
scenario, so `--llm-model=llmbench/reference` sends it through the whole pipeline.

An answer file's first line says what it is: `Attack: ...` (must be marked tampered and get
no functional credit), `Probe: ...` (an escape from the sandbox that, where it succeeds,
earns the credit the task would: it must not get full credit) or `Control: ...`
(`control.md` of each runner: the honest, correct answer that must keep full credit).
tests/attacks/README.md describes the layout.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytest_llmbench.formats.dataset import Dataset, load_dataset
from pytest_llmbench.formats.functional import Functional, FunctionalSpec, load_functional

CORPUS = Path(__file__).with_name("attacks")
PROJECT = CORPUS / "project"
CONTROL = "control"
LANGUAGES = {"AttackJs": "javascript", "AttackJava": "java", "AttackPy": "python"}


@dataclass(frozen=True)
class Suite:
    """How one runner's answers are run: the dataset and the `functional:` section."""

    runner: str
    mode: str
    dataset: str  # a dataset of tests/attacks/project/datasets, by name
    category: str
    task: str
    mutants: str | None = None  # relative to project/functional

    @property
    def folder(self) -> str:
        """The answers' folder in CORPUS, also the hidden tests' folder in functional/."""
        return self.runner if self.mode == "acceptance" else f"{self.runner}-mutation"


def dataset_of(suite: Suite) -> Dataset:
    return load_dataset(PROJECT / "datasets" / LANGUAGES[suite.dataset] / suite.dataset)


def functional_of(suite: Suite) -> Functional:
    """The suite's `functional:` section, loaded as a scenario's would be."""
    spec = FunctionalSpec(
        runner=suite.runner,
        mode=suite.mode,
        tests=f"functional/{suite.folder}",
        mutants=f"functional/{suite.mutants}" if suite.mutants else None,
    )
    files = {f.path: f.text for f in dataset_of(suite).files}
    scenario = PROJECT / "corpus.yaml"  # paths are relative to the project folder
    return load_functional(
        spec, scenario=scenario, root=PROJECT, key=suite.dataset, dataset_files=files
    )


SUITES = (
    Suite("node", "acceptance", "AttackJs", "generation",
          "Add `greet(name)` to src/calc.js; it returns \"Hello, <name>!\"."),
    Suite("vitest", "mutation", "AttackJs", "testing",
          "Write Vitest tests for src/calc.js.", "js.mutants.yaml"),
    Suite("jest", "mutation", "AttackJs", "testing",
          "Write Jest tests for src/calc.js.", "js.mutants.yaml"),
    Suite("junit", "acceptance", "AttackJava", "generation",
          "Implement `Calc.max(a, b)`: the larger of the two."),
    Suite("junit", "mutation", "AttackJava", "testing",
          "Write JUnit 5 tests for Calc.", "java.mutants.yaml"),
    Suite("pytest", "acceptance", "AttackPy", "generation",
          "Implement `halve(x)` in calc.py: x divided by two."),
    Suite("pytest", "mutation", "AttackPy", "testing",
          "Write pytest tests for calc.py.", "python.mutants.yaml"),
)  # fmt: skip


@dataclass(frozen=True)
class Answer:
    suite: Suite
    name: str  # the file's stem: "control" or the attack's name
    text: str

    @property
    def kind(self) -> str:
        """attack, probe or control: the first word of the first line."""
        return self.description.split(":", 1)[0].lower()

    @property
    def is_control(self) -> bool:
        return self.name == CONTROL

    @property
    def scenario(self) -> str:
        """The scenario id: letters, digits and `_` only."""
        words = [self.suite.runner, self.suite.mode, *self.name.split("-")]
        return "".join(w.capitalize() for w in words)

    @property
    def label(self) -> str:
        return f"{self.suite.folder}/{self.name}"

    @property
    def description(self) -> str:
        return self.text.splitlines()[0].strip() if self.text else ""


def answers() -> list[Answer]:
    """Every answer of the corpus, controls included, in a stable order."""
    found = []
    for suite in SUITES:
        for path in sorted((CORPUS / suite.folder).glob("*.md")):
            found.append(Answer(suite, path.stem, path.read_text(encoding="utf-8")))
    return found


SCENARIO = """\
id: {id}
category: {category}
datasets: [{dataset}]
prompt: |
  {task}
  Return every file you write as a fenced block headed by its path.

  {{{{ dataset | inline_files }}}}
references:
  {dataset}: {{file: references/{id}.md}}
criteria:
  accuracy:
    - criterion: The answer has code
      check: {{contains: "```"}}
  completeness:
    - criterion: The answer names its files
      check: {{contains: "###"}}
functional:
  {dataset}:
    runner: {runner}
    mode: {mode}
    tests: functional/{folder}
{mutants}    timeout_s: 60
"""


def _scenario(answer: Answer) -> str:
    suite = answer.suite
    mutants = f"    mutants: functional/{suite.mutants}\n" if suite.mutants else ""
    return SCENARIO.format(
        id=answer.scenario,
        category=suite.category,
        dataset=suite.dataset,
        task=suite.task,
        runner=suite.runner,
        mode=suite.mode,
        folder=suite.folder,
        mutants=mutants,
    )


def write_attack_project(root: Path, chosen: list[Answer] | None = None) -> list[Answer]:
    """The datasets, hidden tests, mutants and one scenario per answer under `root`;
    returns the answers written (default: the whole corpus)."""
    chosen = answers() if chosen is None else chosen
    project = PROJECT
    shutil.copytree(project / "datasets", root / "datasets", dirs_exist_ok=True)
    for category in sorted({a.suite.category for a in chosen}):
        folder = root / "scenarios" / category
        shutil.copytree(project / "functional", folder / "functional", dirs_exist_ok=True)
        (folder / "references").mkdir(parents=True, exist_ok=True)
    for answer in chosen:
        folder = root / "scenarios" / answer.suite.category
        (folder / f"{answer.scenario}.yaml").write_text(_scenario(answer), encoding="utf-8")
        (folder / "references" / f"{answer.scenario}.md").write_text(answer.text, encoding="utf-8")
    return chosen


@contextmanager
def host_socket() -> Iterator[Path]:
    """A world-writable unix socket on the host's filesystem (under /tmp, in a folder
    anyone may enter) that accepts every connection, for escape-host-socket.md."""
    folder = Path(tempfile.mkdtemp(prefix="llmbench-probe-", dir="/tmp"))
    folder.chmod(0o755)
    path = folder / "host.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    path.chmod(0o777)
    server.listen(16)

    def serve() -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:  # closed: the run is over
                return
            client.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield path
    finally:
        server.close()
        path.unlink(missing_ok=True)
        folder.rmdir()
