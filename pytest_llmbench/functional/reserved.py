"""Paths an answer may not write into a test workspace: the files through which code can
replace a test tool or the harness, or change how a runner reports.

A path is reserved when
- any of its parts is `node_modules` or starts with `.llmbench-` (the harness's folders,
  the runners' own configs and reports, the linked packages);
- its name is `conftest.py`, `sitecustomize.py`, `usercustomize.py`, `pytest.py` or
  `junit-platform.properties`, or ends with `.pth` or `.pyc` (code Python or pytest
  imports before the tests, or a JUnit platform setting);
- any of its parts is `_pytest` or `pluggy` (pytest's own packages) or `.cargo` (Cargo's
  configuration, which can name the program that runs the tests), or it lies under
  `META-INF/services` (ServiceLoader: JUnit listeners and extensions), or under
  `org/junit`, `org/opentest4j` or `org/apiguardian` anywhere in it (sources or classes
  that would stand in for JUnit's, e.g. `src/main/java/org/junit/jupiter/api/Assertions.java`).

A Java source that declares a package of those three trees (`package org.junit...;`) is
refused too, wherever it lies: javac compiles a source it is given in place of the jar's
class. The workspace builders (workspace.materialise, suite_files.answer_files_used) refuse
such a file and the run is marked tampered with `reserved path: <path>` (or `reserved
package <package>: <path>`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from ..formats.paths import safe_path

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
_PARTS = frozenset({"node_modules", "_pytest", "pluggy", ".cargo"})
_TREES = (("META-INF", "services"), ("org", "junit"), ("org", "opentest4j"), ("org", "apiguardian"))
_JAVA_PACKAGES = [list(tree) for tree in _TREES[1:]]
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


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


def java_package(path: str, text: str) -> str | None:
    """The reserved package a Java source declares (javac compiles it wherever it lies, in
    place of the tool's own class), or None."""
    if not path.endswith(".java"):
        return None
    found = _PACKAGE.search(text)
    name = found.group(1) if found else ""
    return name if name.split(".")[:2] in _JAVA_PACKAGES else None


def is_refused(path: str, text: str) -> bool:
    """An answer file that is not written: at a reserved path, or Java in a reserved package."""
    return is_reserved(path) or java_package(path, text) is not None


def refused(answer_files: Iterable[tuple[str, str]]) -> list[str]:
    """The evidence lines for the answer's files that are refused (sorted by path): each
    marks the run tampered."""
    found: dict[str, str] = {}
    for written, text in answer_files:
        path, _why = safe_path(written)
        if path is None:
            continue
        if is_reserved(path):
            found[path] = f"reserved path: {path}"
        elif (package := java_package(path, text)) is not None:
            found[path] = f"reserved package {package}: {path}"
    return [found[path] for path in sorted(found)]
