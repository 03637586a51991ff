"""The `functional:` section of a scenario: hidden tests that run the answer's code.

    functional:
      ToDoApp_ReactJS:            # a dataset of the scenario, or "none"
        runner: node              # node (node:test + the jsdom harness), junit, vitest,
                                  # jest, pytest, go, cargo, cmake
        tests: functional/UpdateReact/ToDoApp_ReactJS   # folder, relative to the scenario file
        support: [functional/shared/todo.mjs]           # more files copied beside the tests
        mode: acceptance          # acceptance: the hidden tests run on dataset + answer
                                  # mutation: the answer's tests run on the dataset and its mutants
        mutants: functional/.../mutants.yaml             # mutation mode: the mutants (see docs/formats.md)
        base: dataset             # the workspace starts from the dataset's files (or: empty)
        timeout_s: 60             # one test run's time limit
        processes: 512            # optional: the runs' process/thread limit (default: the runner's)

Every path resolves inside the scenarios root (links included) or the scenario is refused
with one line naming the field. The tests are never shown to the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import FormatError, MutantsError
from .mutants import load_mutants
from .paths import resolve_inside

MAX_TEST_FILES = 200
MAX_TEST_BYTES = 2_000_000


class FunctionalSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    runner: Literal["node", "junit", "vitest", "jest", "pytest", "go", "cargo", "cmake"] = "node"
    mode: Literal["acceptance", "mutation"] = "acceptance"
    tests: str = Field(min_length=1)
    support: list[str] = []
    mutants: str | None = None
    base: Literal["dataset", "empty"] = "dataset"
    timeout_s: float = Field(default=60.0, gt=0, le=600)
    processes: int | None = Field(default=None, ge=16, le=4096)


@dataclass(frozen=True)
class HiddenFile:
    path: str  # relative to the hidden-tests folder in the workspace
    text: str


@dataclass(frozen=True)
class Functional:
    runner: str
    mode: str
    base: str
    timeout_s: float
    files: tuple[HiddenFile, ...]  # the hidden tests and their support files
    mutants_text: str | None = None  # the mutants file (YAML), mutation mode
    mutants_file: str | None = None  # its path as the scenario writes it (for error lines)
    processes: int | None = None  # the runs' process/thread limit; None: the runner's own

    @property
    def digest(self) -> str:
        import hashlib

        h = hashlib.sha256(f"{self.runner}\0{self.mode}\0{self.base}\0".encode())
        for f in self.files:
            h.update(f.path.encode() + b"\0" + f.text.encode() + b"\0")
        h.update((self.mutants_text or "").encode())
        h.update(f"\0{self.processes}".encode())
        return h.hexdigest()[:16]


def _read(path: Path, shown: str, field_name: str) -> str:
    """The text of a file the scenario's `field_name` names; errors name the file."""
    named = f"(named by {field_name})"
    try:
        if path.stat().st_size > MAX_TEST_BYTES:
            raise FormatError(path, "", f"is over {MAX_TEST_BYTES} bytes {named}")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FormatError(path, "", f"is not UTF-8 text {named}") from None
    except OSError as exc:
        raise FormatError(path, "", f"cannot be read ({exc.strerror}) {named}") from None


def _resolved(root: Path, scenario: Path, written: str, field_name: str) -> Path:
    target, why = resolve_inside(root, scenario.parent, written)
    if target is None:
        raise FormatError(scenario, field_name, f"{written!r}: {why}")
    if not target.exists():
        raise FormatError(scenario, field_name, f"{written!r} does not exist")
    return target


def _mutants(
    spec: FunctionalSpec,
    scenario: Path,
    root: Path,
    field_name: str,
    dataset_files: Mapping[str, str] | None,
) -> str | None:
    """Mutation mode: the mutants file's text, checked to apply to the dataset."""
    if spec.mode != "mutation":
        return None
    if spec.mutants is None:
        raise FormatError(scenario, f"{field_name}.mutants", "mutation mode needs a mutants file")
    target = _resolved(root, scenario, spec.mutants, f"{field_name}.mutants")
    text = _read(target, spec.mutants, f"{field_name}.mutants")
    if dataset_files is not None:  # every mutant applies to the dataset, or one line now
        try:
            load_mutants(text, spec.mutants, dataset_files)
        except MutantsError as exc:
            raise FormatError(scenario, f"{field_name}.mutants", str(exc)) from None
    return text


def load_functional(
    spec: FunctionalSpec,
    *,
    scenario: Path,
    root: Path,
    key: str,
    dataset_files: Mapping[str, str] | None = None,
) -> Functional:
    """The hidden tests `spec` names, read; FormatError names the field on any problem.
    `dataset_files` (path -> text): the mutants must apply to them."""
    field_name = f"functional.{key}"
    folder = _resolved(root, scenario, spec.tests, f"{field_name}.tests")
    if not folder.is_dir():
        raise FormatError(scenario, f"{field_name}.tests", f"{spec.tests!r} is not a folder")
    files: list[HiddenFile] = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink()):
        written = (Path(spec.tests) / path.relative_to(folder)).as_posix()
        target = _resolved(root, scenario, written, f"{field_name}.tests")
        files.append(
            HiddenFile(
                path.relative_to(folder).as_posix(), _read(target, str(path), f"{field_name}.tests")
            )
        )
    for written in spec.support:
        target = _resolved(root, scenario, written, f"{field_name}.support")
        files.append(HiddenFile(target.name, _read(target, written, f"{field_name}.support")))
    if len(files) > MAX_TEST_FILES:
        raise FormatError(scenario, f"{field_name}.tests", f"has over {MAX_TEST_FILES} files")
    mutants = _mutants(spec, scenario, root, field_name, dataset_files)
    return Functional(
        spec.runner,
        spec.mode,
        spec.base,
        spec.timeout_s,
        tuple(files),
        mutants,
        spec.mutants,
        spec.processes,
    )
