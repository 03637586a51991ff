"""One exercise of the polyglot benchmark: `<lang>/exercises/practice/<name>/`.

Its `.meta/config.json` lists the files by role (`files`: solution, test, example,
editor, invalidator); the prose is `.docs/instructions.md` (and `instructions.append.md`,
`introduction.md` when present). From them:

- stubs: the solution files, the editor files the code needs (a Java class the tests
  use, Go's shared definitions), the build file the tests compile with (go.mod,
  Cargo.toml) and the source files the config does not list: the dataset the model sees
  and changes;
- hidden tests: the test files, the editor files that are tests (Go's cases_test.go),
  the unlisted files that are tests or data (C++'s `test/` folder with Catch's header
  and main, a second Go test file, the texts a JavaScript exercise reads), each at its
  path in the exercise, with the skipped tests enabled as Aider's harness does (PREPARE);
- example: the example solution, each file at the solution path it stands for (a Rust
  example's `.meta/Cargo-example.toml` as its Cargo.toml).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..errors import FormatError

LANGUAGES = ("cpp", "go", "java", "javascript", "python", "rust")
PRACTICE = PurePosixPath("exercises") / "practice"
CONFIG = ".meta/config.json"
DOCS = (".docs/introduction.md", ".docs/instructions.md", ".docs/instructions.append.md")
# Files the tests build with, kept in the dataset when present (the rest of the build
# set-up, gradle, npm and CMake files, is the runner's own).
BUILD_FILES = ("go.mod", "Cargo.toml")
CPP_TEST_FOLDER = "test"
CARGO_EXAMPLE = ".meta/Cargo-example.toml"  # the manifest of a Rust example that needs crates
# Files of the exercise folder the config may not list: exercism's own tooling (we build
# and run with ours) and the folders of its documentation and metadata.
TOOLING = frozenset(
    {"CMakeLists.txt", "build.gradle", "gradlew", "gradlew.bat", "package.json",
     "babel.config.js", ".eslintrc", ".npmrc", ".gitignore", "LICENSE"}
)  # fmt: skip
TOOLING_FOLDERS = frozenset({".meta", ".docs", ".approaches", ".articles", "gradle", "benches"})
SOURCES = {
    "cpp": (".cpp", ".h", ".hpp"), "go": (".go",), "java": (".java",),
    "javascript": (".js", ".mjs"), "python": (".py",), "rust": (".rs",),
}  # fmt: skip


def _all_tests_cpp(text: str) -> str:
    """Catch suites hide all but the first test behind EXERCISM_RUN_ALL_TESTS."""
    return "#define EXERCISM_RUN_ALL_TESTS 1\n" + text


def _sub(pattern: str, replacement: str) -> Callable[[str], str]:
    compiled = re.compile(pattern, re.MULTILINE)
    return lambda text: compiled.sub(replacement, text)


# Per language: how a test file is prepared so that every test runs (the skipped ones of
# exercism's tracks are left for the student to enable one by one).
PREPARE: dict[str, Callable[[str], str]] = {
    "javascript": _sub(r"\b(?:x(test|it|describe)|(test|it|describe)\.skip)\(", r"\1\2("),
    "java": _sub(r"@Disabled(\([^)]*\))?", ""),
    "rust": _sub(r"^[ \t]*#\[ignore(\s*=\s*\"[^\"]*\")?\][ \t]*\n?", ""),
    "cpp": _all_tests_cpp,
}


def _unchanged(text: str) -> str:
    return text


@dataclass(frozen=True)
class Exercise:
    lang: str
    name: str  # the folder's name, e.g. "all-your-base"
    folder: Path
    instructions: str
    stubs: dict[str, str]  # exercise-relative path -> text
    tests: dict[str, str]  # the hidden tests, prepared
    example: dict[str, str]  # solution path -> the example's text

    @property
    def key(self) -> str:
        """An id unique across languages: letters, digits and `_` (`python_two_fer`)."""
        return f"{self.lang}_{re.sub(r'[^A-Za-z0-9]+', '_', self.name).strip('_')}"


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FormatError(path, "", "is not UTF-8 text") from None
    except OSError as exc:
        raise FormatError(path, "", f"cannot be read ({exc.strerror})") from None


def _files(config: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(_text(config))
    except json.JSONDecodeError as exc:
        raise FormatError(config, "", f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not all(
        isinstance(v, list) and all(isinstance(p, str) for p in v) for v in files.values()
    ):
        raise FormatError(config, "files", "expected an object of lists of paths")
    for role in ("solution", "test", "example"):
        if not files.get(role):
            raise FormatError(config, f"files.{role}", "is missing or empty")
    return files


def _is_test(lang: str, path: str) -> bool:
    parts = PurePosixPath(path)
    return (
        parts.name.endswith("_test.go")
        or parts.parts[0] == CPP_TEST_FOLDER
        or (lang == "java" and "src/test/" in path)
        or (lang == "rust" and parts.parts[0] == "tests")
    )


def _unlisted(folder: Path, listed: set[str]) -> list[str]:
    """Files of the exercise its config does not list, but for exercism's tooling (an
    extra source the package needs, a second test file, data the tests read)."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder)
        if relative.as_posix() in listed or relative.name in TOOLING:
            continue
        if not TOOLING_FOLDERS & set(relative.parts[:-1]):
            found.append(relative.as_posix())
    return found


def solution_path(example: str, examples: list[str], solutions: list[str]) -> str:
    """Where an example file stands in the exercise: its path outside `.meta/` when that
    is a solution file (Java's reference classes go to src/main/java), else the one
    solution file of its suffix when it is the only example of that suffix
    (`.meta/example.rs` -> `src/lib.rs`), else its path outside `.meta/`."""
    outside = example.removeprefix(".meta/").replace("src/reference/", "src/main/")
    if outside in solutions:
        return outside
    suffix = PurePosixPath(example).suffix
    same = [s for s in solutions if PurePosixPath(s).suffix == suffix]
    alone = sum(PurePosixPath(e).suffix == suffix for e in examples) == 1
    return same[0] if len(same) == 1 and alone else outside


def read_exercise(lang: str, folder: Path) -> Exercise:
    """The exercise in `folder`; FormatError names the file and field that is wrong."""
    files = _files(folder / CONFIG)
    solutions = files["solution"]
    stubs = {p: _text(folder / p) for p in solutions}
    for path in [*files.get("editor", []), *BUILD_FILES]:
        if (folder / path).is_file() and not _is_test(lang, path):
            stubs.setdefault(path, _text(folder / path))
    hidden = [*files["test"], *(p for p in files.get("editor", []) if _is_test(lang, p))]
    for path in _unlisted(folder, {p for paths in files.values() for p in paths} | set(stubs)):
        source = path.endswith(SOURCES[lang]) and not _is_test(lang, path)
        if source:
            stubs[path] = _text(folder / path)
        else:  # tests, and data the tests read: never inlined into the prompt
            hidden.append(path)
    prepare = PREPARE.get(lang, _unchanged)
    # the test files, and (but for C++'s Catch folder) the unlisted tests beside them
    prepared = {*files["test"], *(p for p in hidden if _is_test(lang, p) and lang != "cpp")}
    tests = {
        p: prepare(_text(folder / p)) if p in prepared else _text(folder / p)
        for p in dict.fromkeys(hidden)
    }
    example = {
        solution_path(p, files["example"], solutions): _text(folder / p) for p in files["example"]
    }
    if (folder / CARGO_EXAMPLE).is_file():  # the example's own dependencies
        example["Cargo.toml"] = _text(folder / CARGO_EXAMPLE)
    docs = [_text(folder / d).strip() for d in DOCS if (folder / d).is_file()]
    if not docs:
        raise FormatError(folder / DOCS[1], "", "is missing: the exercise has no instructions")
    return Exercise(lang, folder.name, folder, "\n\n".join(docs), stubs, tests, example)


def exercise_folders(clone: Path) -> list[tuple[str, Path]]:
    """(language, folder) of every exercise of the clone, by language and name."""
    return [
        (lang, folder)
        for lang in LANGUAGES
        for folder in sorted((clone / lang / PRACTICE).glob("*"))
        if (folder / CONFIG).is_file()
    ]
