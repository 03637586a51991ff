"""`llmbench import-polyglot`: a clone of Aider's polyglot benchmark into our layout.

<lang>/exercises/practice/<name>/   ->  OUT/datasets/<lang>/<key>/         the stubs
                                        OUT/scenarios/generation/<key>.yaml
                                        OUT/scenarios/generation/functional/<key>/  hidden tests

`key` is `<lang>_<name>` with `_` for other characters (exercises.Exercise.key): a valid
scenario id, and a dataset name no other language shares. The scenario's prompt is the
exercise's instructions with our own words around them and the stubs inlined; its
reference answer is the example solution at the solution files' paths; its criteria name
the hidden tests (`tests: ["*"]`), so it is scored by execution without a judge. Every
scenario written is loaded back as collection would load it; one that would not collect
is reported as skipped and removed.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..airun.importer import check_output, jinja_literal
from ..errors import FormatError
from ..formats.codeblocks import EXTENSION_LANGUAGES
from ..formats.dataset import MANIFEST, DatasetIndex
from ..formats.scenario import load_scenario
from ..formats.scenario_yaml import scenario_yaml
from .exercises import LANGUAGES, Exercise, exercise_folders, read_exercise

MARKER = "polyglot-import.json"  # the summary; its presence lets a later import replace OUT
CATEGORY = "generation"
FUNCTIONAL = "functional"
NAMES = {
    "cpp": "C++17",
    "go": "Go",
    "java": "Java 17",
    "javascript": "JavaScript",
    "python": "Python 3",
    "rust": "Rust (edition 2021)",
}
# Per language: the runner of its hidden tests and one run's time limit (a C++ or Rust
# run compiles the tests first).
RUNNERS: dict[str, tuple[str, float]] = {
    "cpp": ("cmake", 300.0),
    "go": ("go", 180.0),
    "java": ("junit", 180.0),
    "javascript": ("jest", 120.0),
    "python": ("pytest", 120.0),
    "rust": ("cargo", 300.0),
}
# The runner's options beside the hidden tests: exercism's JavaScript specs need no DOM.
RUNNER_OPTIONS = {"javascript": {"jest.json": '{"environment": "node"}\n'}}
# Suites that start a thousand threads (bank-account in Java and C++) need more than the
# runners' usual task limit.
PROCESSES = {"java": 1280, "cpp": 1280}
FENCES = {**EXTENSION_LANGUAGES, "go": "go", "rs": "rust", "cpp": "cpp", "h": "cpp", "hpp": "cpp"}
PROMPT = """\
# Exercise: {name} ({language})

{instructions}

## Your task

Solve the exercise above in {language} by completing the files below. Keep the names
of the functions, types and files the files already declare: hidden tests call them.
Use only the language's standard library{crates}. Give every file you change in full,
each as a fenced code block headed by its relative path.

"""
CRITERIA = {
    "accuracy": [
        {"criterion": "The solution passes the exercise's hidden tests.", "tests": ["*"]},
    ],
    "completeness": [
        {
            "criterion": "Every hidden test of the exercise runs and passes; none is skipped.",
            "tests": ["*"],
        },
    ],
}


@dataclass
class Summary:
    scenarios: dict[str, list[str]] = field(default_factory=dict)  # lang -> keys
    skipped: list[str] = field(default_factory=list)  # "what: why"

    def lines(self) -> list[str]:
        total = sum(len(v) for v in self.scenarios.values())
        counts = ", ".join(f"{lang} {len(self.scenarios.get(lang, []))}" for lang in LANGUAGES)
        out = [f"exercises imported: {total} ({counts})", f"skipped: {len(self.skipped)}"]
        return out + [f"  skipped {line}" for line in self.skipped]


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _fenced(files: dict[str, str]) -> str:
    """Files as our answers give them: a `### path` heading, then a fenced block."""
    blocks = []
    for path, text in sorted(files.items()):
        language = FENCES.get(path.rsplit(".", 1)[-1], "")
        fence = "````" if "```" in text else "```"
        blocks.append(f"### {path}\n{fence}{language}\n{text.rstrip()}\n{fence}\n")
    return "\n".join(blocks)


def _crates(exercise: Exercise) -> str:
    manifest = exercise.stubs.get("Cargo.toml", "")
    if "[dependencies]" not in manifest:
        return ""
    listed = [
        line.split("=")[0].strip()
        for line in manifest.split("[dependencies]", 1)[1].splitlines()
        if "=" in line and not line.lstrip().startswith("[")
    ]
    return f" and the crates Cargo.toml lists ({', '.join(listed)})" if listed else ""


def scenario_spec(exercise: Exercise) -> dict[str, Any]:
    """The scenario file's fields for one exercise."""
    runner, timeout = RUNNERS[exercise.lang]
    language = NAMES[exercise.lang]
    prompt = PROMPT.format(
        name=exercise.name,
        language=language,
        instructions=exercise.instructions,
        crates=_crates(exercise),
    )
    functional: dict[str, Any] = {
        "runner": runner,
        "tests": f"{FUNCTIONAL}/{exercise.key}",
        "timeout_s": timeout,
    }
    if exercise.lang in PROCESSES:
        functional["processes"] = PROCESSES[exercise.lang]
    return {
        "id": exercise.key,
        "title": f"{exercise.name} ({language})",
        "category": CATEGORY,
        "description": f"Aider's polyglot benchmark: {exercise.lang}/{exercise.name}",
        "prompt": jinja_literal(prompt) + "{{ dataset | inline_files }}\n",
        "datasets": [exercise.key],
        "references": {exercise.key: _fenced(exercise.example)},
        "criteria": CRITERIA,
        "functional": {exercise.key: functional},
        "origin": {"benchmark": "polyglot", "name": exercise.name, "lang": exercise.lang},
    }


def _import_one(exercise: Exercise, out: Path, index: DatasetIndex) -> None:
    """Write one exercise; FormatError when its scenario would not collect."""
    dataset = out / "datasets" / exercise.lang / exercise.key
    _write(dataset, exercise.stubs)
    manifest = {
        "technology": NAMES[exercise.lang],
        "description": f"The stubs of the polyglot exercise {exercise.lang}/{exercise.name}.",
    }
    (dataset / MANIFEST).write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")
    scenarios = out / "scenarios" / CATEGORY
    _write(
        scenarios / FUNCTIONAL / exercise.key,
        {**exercise.tests, **RUNNER_OPTIONS.get(exercise.lang, {})},
    )
    file = scenarios / f"{exercise.key}.yaml"
    file.write_text(
        scenario_yaml(scenario_spec(exercise)),
        encoding="utf-8",
    )
    try:
        load_scenario(file, index)
    except FormatError:
        file.unlink()
        shutil.rmtree(scenarios / FUNCTIONAL / exercise.key, ignore_errors=True)
        shutil.rmtree(dataset, ignore_errors=True)
        raise


def import_polyglot(clone: Path, out: Path, languages: tuple[str, ...] = LANGUAGES) -> Summary:
    """Every exercise of `languages` in the clone, written under `out`."""
    folders = [(lang, f) for lang, f in exercise_folders(clone) if lang in languages]
    if not folders:
        raise FormatError(
            clone, "", "has no <lang>/exercises/practice/<name>/.meta/config.json; give a "
            "clone of Aider-AI/polyglot-benchmark"
        )  # fmt: skip
    check_output(out, MARKER)
    for part in ("scenarios", "datasets"):
        shutil.rmtree(out / part, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    index = DatasetIndex(out / "datasets")
    for lang, folder in folders:
        where = folder.relative_to(clone).as_posix()
        try:
            exercise = read_exercise(lang, folder)
            _import_one(exercise, out, index)
        except FormatError as exc:
            summary.skipped.append(f"{where}: {exc}")
            continue
        summary.scenarios.setdefault(lang, []).append(exercise.key)
    (out / MARKER).write_text(json.dumps(summary.__dict__, indent=2) + "\n", encoding="utf-8")
    return summary
