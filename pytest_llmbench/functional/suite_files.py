"""Which of an answer's files a mutation run uses (mutation.py, point 1 of its text): its
test files by the common conventions and its new modules, never its rewrites of the
dataset's production code, its tools' config files, or paths with a dot-folder part or at
reserved paths."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from ..formats.paths import safe_path
from . import reserved

_TEST_FOLDERS = {"__tests__", "__mocks__", "__snapshots__", "__fixtures__"}
_CODE = {".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".java", ".py", ".json"}
_CONFIG_NAMES = {"package.json", "package-lock.json", "jsconfig.json", "setup.py", "conftest.py"}


def is_test_path(path: str) -> bool:
    """A test file by the common conventions (JS/TS, Java, Python)."""
    pure = PurePosixPath(path)
    name = pure.name
    if _TEST_FOLDERS & set(pure.parts[:-1]) or path.startswith("src/test/"):
        return True
    if ".test." in name or ".spec." in name:
        return True
    if pure.suffix == ".java" and pure.stem.endswith(("Test", "Tests", "IT")):
        return True
    return pure.suffix == ".py" and (name.startswith("test_") or pure.stem.endswith("_test"))


def runs_as_test(path: str) -> bool:
    """A test file to run (not a mock, snapshot or fixture beside the tests)."""
    pure = PurePosixPath(path)
    if {"__mocks__", "__snapshots__", "__fixtures__"} & set(pure.parts[:-1]):
        return False
    return is_test_path(path)


def is_config(name: str) -> bool:
    lowered = name.lower()
    return (
        lowered in _CONFIG_NAMES
        or ".config." in lowered
        or lowered.startswith(("tsconfig", "vitest.workspace", "jest.preset", "babel"))
    )


def answer_files_used(
    answer_files: Iterable[tuple[str, str]], dataset_paths: set[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """(the answer's files that go into the workspace, the test files among them to run)."""
    stems = {str(PurePosixPath(p).with_suffix("")) for p in dataset_paths}
    stems |= {
        str(PurePosixPath(p).parent) for p in dataset_paths if PurePosixPath(p).stem == "index"
    }
    used: dict[str, str] = {}
    for written, text in answer_files:
        path, _ = safe_path(written)
        if path is None:
            continue
        pure = PurePosixPath(path)
        if reserved.is_refused(path, text) or any(p.startswith(".") for p in pure.parts):
            continue
        if is_test_path(path):
            used[path] = text
        elif (
            path not in dataset_paths
            and pure.suffix in _CODE
            and not is_config(pure.name)
            and str(pure.with_suffix("")) not in stems
        ):
            used[path] = text
    return sorted(used.items()), sorted(p for p in used if runs_as_test(p))
