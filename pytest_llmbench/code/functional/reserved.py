"""Paths an answer may not write into a test workspace: the files through which code can
replace a test tool or the harness, or change how a runner reports.

A path is reserved when
- any of its parts is `node_modules` or starts with `.llmbench-` (the harness's folders,
  the runners' own configs and reports, the linked packages);
- its name is `conftest.py`, `sitecustomize.py`, `usercustomize.py`, `pytest.py` or
  `junit-platform.properties`, or ends with `.pth` or `.pyc` (code Python or pytest
  imports before the tests, or a JUnit platform setting);
- any of its parts is `_pytest` or `pluggy` (pytest's own packages), or it lies under
  `META-INF/services` (ServiceLoader: JUnit listeners and extensions), or under
  `org/junit`, `org/opentest4j` or `org/apiguardian` anywhere in it (sources or classes
  that would stand in for JUnit's, e.g. `src/main/java/org/junit/jupiter/api/Assertions.java`).

The workspace builders (workspace.materialise, mutation.answer_files_used) refuse such
a file and the run is marked tampered with `reserved path: <path>`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from ...formats.paths import safe_path

_NAMES = frozenset(
    {
        "conftest.py",
        "sitecustomize.py",
        "usercustomize.py",
        "pytest.py",
        "junit-platform.properties",
    }
)
_SUFFIXES = (".pth", ".pyc")
_PARTS = frozenset({"node_modules", "_pytest", "pluggy"})
_TREES = (("META-INF", "services"), ("org", "junit"), ("org", "opentest4j"), ("org", "apiguardian"))


def _contains(parts: tuple[str, ...], tree: tuple[str, ...]) -> bool:
    size = len(tree)
    return any(parts[i : i + size] == tree for i in range(len(parts) - size + 1))


def is_reserved(path: str) -> bool:
    """`path` (workspace-relative, `/`-separated) is one an answer may not write."""
    parts = PurePosixPath(path).parts
    if not parts:
        return False
    name = parts[-1]
    if name in _NAMES or name.endswith(_SUFFIXES):
        return True
    if _PARTS & set(parts) or any(p.startswith(".llmbench-") for p in parts):
        return True
    return any(_contains(parts, tree) for tree in _TREES)


def evidence(paths: Iterable[str]) -> list[str]:
    """The tamper-evidence lines for answer files at reserved paths."""
    return [f"reserved path: {path}" for path in paths]


def refused(answer_files: Iterable[tuple[str, str]]) -> list[str]:
    """The answer's files at reserved paths (normalised, sorted): not written, and each an
    evidence line of a tampered run."""
    found = set()
    for written, _ in answer_files:
        path, _why = safe_path(written)
        if path is not None and is_reserved(path):
            found.add(path)
    return sorted(found)
