"""JUnit's runs of one answer's suite (mutation mode) compile only what changed: the first
run's classes, copied out right after javac and before any test ran (so no code of the
answer has touched them), go to the suite's carry folder (carry.py) with the text of
every source they were compiled from; a later run starts from a copy of them and compiles
its changed and new sources and every test source (so the tests are checked against the
changed code, as a full build would), against them.

A change that adds or removes a line with `final` or `static` compiles everything: a
constant (static final) is copied into the classes that use it when they are compiled, so
they would keep the old value."""

from __future__ import annotations

import difflib
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from .carry import copy_folder

CLASSES = "classes"
SOURCES = "sources.json"  # source path -> the text the carried classes were compiled from
_CONSTANT = re.compile(r"\b(final|static)\b")


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def keep(carry: Path, classes: Path, sources: dict[str, Path]) -> None:
    """After the first run's javac: its classes and the texts they came from (`sources`:
    the javac argument -> the file)."""
    if (carry / SOURCES).exists() or not copy_folder(classes, carry / CLASSES):
        return
    texts = {name: _text(path) for name, path in sources.items()}
    (carry / SOURCES).write_text(json.dumps(texts), encoding="utf-8")


def _touches_constants(old: str, new: str) -> bool:
    changed = (
        line[2:]
        for line in difflib.ndiff(old.splitlines(), new.splitlines())
        if line.startswith(("- ", "+ "))
    )
    return any(_CONSTANT.search(line) for line in changed)


def _drop(classes: Path, qualified: str) -> None:
    """The class files of a class whose source is gone (another run's canary class)."""
    *package, stem = qualified.split(".")
    folder = classes.joinpath(*package)
    for path in [folder / f"{stem}.class", *folder.glob(f"{stem}$*.class")]:
        path.unlink(missing_ok=True)


def reuse(
    carry: Path,
    classes: Path,
    sources: dict[str, Path],
    tests: set[str],
    class_name: Callable[[str, str], str],
) -> list[str] | None:
    """The javac arguments left to compile once `classes` holds the carried ones, or None
    (compile everything; nothing copied) when nothing is carried or a change may touch a
    constant. `class_name(source text, file name)`: the class a source file declares."""
    try:
        carried: dict[str, str | None] = json.loads((carry / SOURCES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    todo = []
    for name, path in sources.items():
        text, old = _text(path), carried.get(name)
        if text is None or old is None or text != old or name in tests:
            if text is not None and old is not None and _touches_constants(old, text):
                return None
            todo.append(name)
    if not copy_folder(carry / CLASSES, classes):
        shutil.rmtree(classes, ignore_errors=True)
        return None
    for name, old in carried.items():
        if name not in sources and old is not None:
            _drop(classes, class_name(old, Path(name).name))
    return todo
