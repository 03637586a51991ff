"""`llmbench import-airun`: a clone of the public benchmark into our scenario layout.

BENCHMARK_DIR/Scenarios/Tasks/<lang>/<category>/<name>.md  ->  OUT/scenarios/<ours>/<Id>.yaml
BENCHMARK_DIR/Scenarios/Tasks/<lang>/<category>/system.txt ->  each scenario's `system`
BENCHMARK_DIR/Dataset/<lang>/<Name>/                       ->  OUT/datasets/<lang>/<Name>/
<criteria dir>/<lang>/<category>/<name>_criteria.yaml      ->  each scenario's `criteria`
(the criteria dir is RESULTS/Criteria or RESULTS/Criteria_v1 of a results clone, chosen
by --criteria-set, or a folder of such files; criteria.py has the link)

The prompt's first `<place_code_here repo="NAME"/>` becomes `{{ dataset | inline_files }}`
(every file of the dataset as a fenced block headed by its path); the rest of the text
is kept literally. Every scenario written is loaded back as collection would load it, so
a file that would not collect is reported as skipped instead of being left behind.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import FormatError
from ..formats.dataset import MANIFEST, DatasetIndex
from ..formats.images import media_type
from ..formats.scenario import load_scenario
from ..formats.scenario_yaml import scenario_yaml
from ..schema.vocabulary import METRICS
from .criteria import CRITERIA_SETS, FoundCriteria, criteria_root, read_criteria
from .names import SINGLE_PROMPT, PromptName, map_category, parse_prompt_name, scenario_id

TASKS = Path("Scenarios") / "Tasks"
DATASETS = "Dataset"
MARKER = "airun-import.json"  # the summary; its presence lets a later import replace OUT
_TAG = re.compile(r"""<place_code_here\s+repo\s*=\s*["']([^"']+)["']\s*/?>""")
_ENDRAW = re.compile(r"\{%-?\s*endraw\s*-?%\}")
_COPY_IGNORED = shutil.ignore_patterns(".git", "node_modules", ".DS_Store")


@dataclass
class Summary:
    scenarios: list[str] = field(default_factory=list)  # "category/Id"
    datasets: list[str] = field(default_factory=list)  # "lang/Name"
    with_criteria: list[str] = field(default_factory=list)
    without_criteria: list[str] = field(default_factory=list)
    criteria_files: int = 0
    criteria_attached: int = 0
    unused_criteria: list[str] = field(default_factory=list)
    images: int = 0
    skipped: list[str] = field(default_factory=list)  # "what: why"
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"scenarios imported: {len(self.scenarios)} "
            f"({len(self.with_criteria)} with criteria, {len(self.without_criteria)} without: "
            "marked criteria_missing, unscored until criteria exist)",
            f"datasets imported: {len(self.datasets)}",
            f"criteria files read: {self.criteria_files} "
            f"({self.criteria_attached} attached, {len(self.unused_criteria)} matched no scenario)",
            f"images copied: {self.images}",
            f"skipped: {len(self.skipped)}",
        ]
        out += [f"  skipped {line}" for line in self.skipped]
        out += [f"  criteria unused: {line}" for line in self.unused_criteria]
        out += [f"  note: {line}" for line in self.notes]
        return out


def source_checkout() -> Path | None:
    """This package's source checkout (a folder with pyproject.toml), when run from one."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def check_outside_checkout(out: Path) -> None:
    """Nothing of the public benchmark may land in our repository."""
    checkout = source_checkout()
    resolved = out.resolve()
    if checkout is not None and resolved.is_relative_to(checkout):
        raise FormatError(
            out,
            "",
            f"is inside the pytest-llmbench checkout {checkout}; import the public "
            "benchmark into a folder outside this repository",
        )


def check_output(out: Path, marker: str = MARKER) -> None:
    """OUT must be outside our repository, and empty or an earlier import's folder (one
    holding `marker`, that import's summary)."""
    check_outside_checkout(out)
    resolved = out.resolve()
    if resolved.is_dir() and any(resolved.iterdir()) and not (resolved / marker).is_file():
        raise FormatError(
            out,
            "",
            f"is not empty and holds no {marker}; give an empty or new folder "
            "(an earlier import's folder is replaced)",
        )


def jinja_literal(text: str) -> str:
    """`text` as a jinja2 template that renders to exactly `text`."""
    pieces = []
    last = 0
    for match in _ENDRAW.finditer(text):
        pieces.append("{% raw %}" + text[last : match.start()] + "{% endraw %}")
        pieces.append("{{ " + json.dumps(match.group()) + " }}")
        last = match.end()
    pieces.append("{% raw %}" + text[last:] + "{% endraw %}")
    return "".join(pieces)


def prompt_template(text: str) -> tuple[str, str | None]:
    """The prompt as our template, and the repo its first place_code_here tag names."""
    tag = _TAG.search(text)
    if tag is None:
        return jinja_literal(text), None
    inline = "{{ dataset | inline_files }}"
    return jinja_literal(text[: tag.start()]) + inline + jinja_literal(
        text[tag.end() :]
    ), tag.group(1)


def _datasets(bench: Path, out: Path, summary: Summary) -> dict[str, list[str]]:
    """Copy every dataset folder; returns name -> its `lang/Name` refs."""
    refs: dict[str, list[str]] = {}
    root = bench / DATASETS
    for folder in sorted(p for p in root.glob("*/*") if p.is_dir()):
        lang, name = folder.parent.name, folder.name
        if (folder / MANIFEST).exists():
            summary.notes.append(f"{DATASETS}/{lang}/{name}/{MANIFEST} replaced by our manifest")
        target = out / "datasets" / lang / name
        shutil.copytree(folder, target, ignore=_COPY_IGNORED)
        manifest = {
            "technology": f"{lang} (imported from the public AIRUN benchmark)",
            "description": f"The public benchmark's dataset {name}.",
        }
        (target / MANIFEST).write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")
        refs.setdefault(name, []).append(f"{lang}/{name}")
        summary.datasets.append(f"{lang}/{name}")
    return refs


def _prompt_files(bench: Path) -> Iterator[tuple[str, str, Path]]:
    for path in sorted((bench / TASKS).glob("*/*/*.md")):
        yield path.parent.parent.name, path.parent.name, path


def _images(source: Path, name: PromptName, target_dir: Path, sid: str) -> list[str]:
    """Copy `<name>_images/` (by stem or scenario part) beside the scenario file, as
    `<Id>_images/`; returns the copied files, relative to the scenario's folder."""
    wanted = {f"{name.stem}_images".lower(), f"{name.scenario}_images".lower()}
    folder = next(
        (p for p in sorted(source.parent.iterdir()) if p.is_dir() and p.name.lower() in wanted),
        None,
    )
    if folder is None:
        return []
    target = target_dir / f"{sid}_images"
    shutil.copytree(folder, target, dirs_exist_ok=True, ignore=_COPY_IGNORED)
    return sorted(p.relative_to(target_dir).as_posix() for p in target.rglob("*") if p.is_file())


def _criteria_for(found: list[FoundCriteria], stem: str, folder: str) -> FoundCriteria | None:
    return next((c for c in found if c.fits(stem, folder)), None)


def _steps(found: FoundCriteria) -> dict[str, list[Any]]:
    """Our written form: plain text for weight 1, else {criterion, weight}."""
    return {
        metric: [
            s.criterion if s.weight == 1 else {"criterion": s.criterion, "weight": s.weight}
            for s in getattr(found.steps, metric)
        ]
        for metric in METRICS
    }


@dataclass
class _Import:
    """One import's inputs and what it has done so far."""

    bench: Path
    out: Path
    category_map: dict[str, str]
    refs: dict[str, list[str]]
    found: list[FoundCriteria]
    index: DatasetIndex
    summary: Summary
    used: set[Path] = field(default_factory=set)
    taken: set[tuple[str, str]] = field(default_factory=set)


def import_benchmark(
    bench: Path,
    out: Path,
    criteria_dir: Path | None,
    category_map: dict[str, str],
    criteria_set: str = CRITERIA_SETS[0],
) -> Summary:
    if not (bench / TASKS).is_dir():
        raise FormatError(
            bench, "", f"has no {TASKS.as_posix()}/ folder; give a clone of the benchmark"
        )
    if criteria_dir is not None and not criteria_dir.is_dir():
        raise FormatError(criteria_dir, "--criteria", "is not a folder")
    check_output(out)
    for part in ("scenarios", "datasets"):
        shutil.rmtree(out / part, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    refs = _datasets(bench, out, summary)
    found, problems = (
        read_criteria(criteria_root(criteria_dir, criteria_set)) if criteria_dir else ([], [])
    )
    summary.criteria_files = len(found) + len(problems)
    summary.skipped += [f"criteria {p}" for p in problems]
    run = _Import(bench, out, category_map, refs, found, DatasetIndex(out / "datasets"), summary)
    for lang, folder, path in _prompt_files(bench):
        problem = _import_prompt(run, lang, folder, path)
        if problem is not None:
            summary.skipped.append(f"{path.relative_to(bench).as_posix()}: {problem}")
    summary.unused_criteria = [str(c.path) for c in found if c.path not in run.used]
    summary.criteria_attached = len(run.used)
    (out / MARKER).write_text(json.dumps(summary.__dict__, indent=2) + "\n", encoding="utf-8")
    return summary


def _dataset_of(
    run: _Import, lang: str, repo: str | None, name: PromptName, where: str
) -> str | None:
    """The dataset a prompt inlines (its place_code_here tag names the repository)."""
    if repo is None:
        if name.dataset:
            run.summary.notes.append(
                f"{where}: its name names dataset {name.dataset} but the prompt has no "
                "place_code_here tag; imported without a dataset"
            )
        return None
    choices = run.refs.get(repo, [])
    if not choices:
        raise ValueError(f"dataset {repo!r} not found under {DATASETS}/")
    preferred = [r for r in choices if r.startswith(f"{lang}/")]
    return (preferred or choices)[0]


def _import_prompt(run: _Import, lang: str, folder: str, path: Path) -> str | None:
    """Write one prompt as a scenario; why it was skipped, or None when it was imported."""
    where = path.relative_to(run.bench).as_posix()
    category = map_category(folder, run.category_map)
    if category is None:
        return (
            f"category folder {folder!r} has no counterpart; map it with "
            f"--category-map {folder}=<one of {', '.join(sorted(SINGLE_PROMPT))}>"
        )
    try:
        name = parse_prompt_name(path.stem, run.refs)
        template, repo = prompt_template(path.read_text(encoding="utf-8"))
        dataset_ref = _dataset_of(run, lang, repo, name, where)
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text ({exc.reason})"
    except ValueError as exc:
        return str(exc)
    sid = scenario_id(name.stem)
    if (category, sid) in run.taken:
        sid = scenario_id(f"{name.stem}_{lang}")
    if (category, sid) in run.taken:
        return f"scenario id {sid} already taken in {category}"
    target_dir = run.out / "scenarios" / category
    target_dir.mkdir(parents=True, exist_ok=True)
    spec = _spec(run, sid, category, where, path, template, dataset_ref, name, folder)
    spec.update(_image_fields(run, path, name, target_dir, sid, where))
    spec["origin"] = {
        "benchmark": "airun",
        "name": name.stem,
        "lang": lang,
        "category": folder,
        "complexity": name.complexity,
        "size": name.size,
    }
    file = target_dir / f"{sid}.yaml"
    file.write_text(
        scenario_yaml(spec),
        encoding="utf-8",
    )
    try:
        load_scenario(file, run.index)
    except FormatError as exc:
        file.unlink()
        shutil.rmtree(target_dir / f"{sid}_images", ignore_errors=True)
        return f"does not load after conversion ({exc})"
    run.taken.add((category, sid))
    run.summary.scenarios.append(f"{category}/{sid}")
    missing = spec.get("criteria_missing")
    (run.summary.without_criteria if missing else run.summary.with_criteria).append(sid)
    return None


def _spec(
    run: _Import,
    sid: str,
    category: str,
    where: str,
    path: Path,
    template: str,
    dataset_ref: str | None,
    name: PromptName,
    folder: str,
) -> dict[str, Any]:
    """The scenario's fields from the prompt, its system prompt and its criteria file."""
    spec: dict[str, Any] = {
        "id": sid,
        "title": name.stem,
        "category": category,
        "description": f"Imported from the public AIRUN benchmark: {where}",
    }
    system = path.parent / "system.txt"
    if system.is_file():
        spec["system"] = system.read_text(encoding="utf-8", errors="replace").strip()
    spec["prompt"] = template
    if dataset_ref is not None:
        spec["datasets"] = [dataset_ref]
    criteria = _criteria_for(run.found, name.stem, folder)
    if criteria is not None:
        run.used.add(criteria.path)
        spec["criteria"] = _steps(criteria)
    if criteria is None or not all(spec["criteria"].values()):
        spec["criteria_missing"] = True
        if criteria is not None:
            run.summary.notes.append(f"{where}: {criteria.path} has steps of one metric only")
    return spec


def _image_fields(
    run: _Import, path: Path, name: PromptName, target_dir: Path, sid: str, where: str
) -> dict[str, Any]:
    """The prompt's screenshots, copied beside the scenario; PNG and JPEG are sent."""
    copied = _images(path, name, target_dir, sid)
    run.summary.images += len(copied)
    images = [f for f in copied if media_type((target_dir / f).read_bytes()[:16])]
    run.summary.notes += [
        f"{where}: {f} copied but not sent to models (only PNG and JPEG are)"
        for f in copied
        if f not in images
    ]
    # The evaluator sees them too: criteria of screenshot tasks are about the picture.
    return {"images": images, "judge_images": True} if images else {}
