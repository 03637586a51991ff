"""The folder a test run works in: the dataset's files (unless the scenario starts from
nothing), the answer's files over them (never one at a reserved path, reserved.py), and
the hidden tests in HIDDEN, written last so no answer file can replace them. The runners
write their reports to OUT, so that HIDDEN (and the harness in it) can be read-only to the
tests (sandbox.run's `protect`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from ..formats.dataset import Dataset
from ..formats.functional import Functional
from ..formats.paths import safe_path
from .reserved import is_refused

HIDDEN = ".llmbench-hidden"
OUT = ".llmbench-out"
HARNESS = Path(__file__).with_name("harness")


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.is_dir():
        return  # a file may not replace a folder; nothing the answer wrote is a link
    path.write_text(text, encoding="utf-8")


def materialise(
    root: Path,
    functional: Functional,
    dataset: Dataset | None,
    answer_files: Iterable[tuple[str, str]],
) -> Path:
    """Fill `root` and return the hidden-tests folder in it."""
    if functional.base == "dataset" and dataset is not None:
        for source in dataset.files:
            _write(root, source.path, source.text)
    for written, text in answer_files:
        path, why = safe_path(written)
        if path is not None and not is_refused(path, text):
            _write(root, path, text)
    hidden = root / HIDDEN
    shutil.rmtree(hidden, ignore_errors=True)
    hidden.mkdir()
    for harness_file in sorted(HARNESS.iterdir()):
        if harness_file.is_file():
            shutil.copyfile(harness_file, hidden / harness_file.name)
    for hidden_file in functional.files:
        _write(hidden, hidden_file.path, hidden_file.text)
    (root / OUT).mkdir(exist_ok=True)
    return hidden
