"""Scenario files: `scenarios/<category>/<Id>.yaml`, validated on load (docs/formats.md).

A scenario is a task (a prompt template and an optional system prompt), the datasets
it runs on, optional reference answers per dataset, and the evaluation criteria.
`load_scenario` returns a `Scenario` whose datasets, references, templates and images
are resolved, so every later stage works on checked data.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from jinja2 import Template, TemplateError
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..errors import FormatError
from ..schema.vocabulary import METRICS
from .categories import CATEGORIES, category_ids
from .criteria import Criteria, CriterionStep, numbered
from .dataset import Dataset, DatasetIndex
from .dialog import DialogLimits, Script, load_script, script_files
from .functional import Functional, FunctionalSpec, load_functional
from .images import ImageSpec, ScenarioImage, load_images
from .paths import inside, named_file, scenarios_root
from .render import compile_template, fenced_files, render
from .validation import load_model, read_text

NO_DATASET = "none"  # the references key of a scenario that runs on no dataset
_ID = r"^[A-Za-z][A-Za-z0-9_]*$"


class FileRef(BaseModel):
    """`{file: relative/path}`: text kept in a file beside the scenario."""

    model_config = ConfigDict(extra="forbid")
    file: str


class ScriptRef(BaseModel):
    """`{script: relative/path.yaml}`: a dialog's reference script (formats/dialog.py)."""

    model_config = ConfigDict(extra="forbid")
    script: str


class TurnSpec(BaseModel):
    """One user turn of a dialog scenario, with its own criteria."""

    model_config = ConfigDict(extra="forbid")
    title: str | None = None
    prompt: str = Field(min_length=1)
    criteria: Criteria


class Origin(BaseModel):
    """Where an imported scenario came from (`llmbench import-airun` writes it).

    `name`, `lang` and `category` are the public file's stem and folders: llmbench/replay
    finds published answers by them; `complexity` and `size` are the file name's buckets.
    """

    model_config = ConfigDict(extra="forbid")
    benchmark: str = Field(min_length=1)
    name: str = Field(min_length=1)
    lang: str = ""
    category: str = ""
    complexity: str | None = None
    size: str | None = None


class ScenarioSpec(BaseModel):
    """The fields of a scenario file, as written."""

    model_config = ConfigDict(extra="forbid")
    id: Annotated[str, Field(pattern=_ID)]
    title: str | None = None
    category: str
    description: str = ""
    system: str | None = None
    prompt: str | None = Field(default=None, min_length=1)
    datasets: list[str] = []
    references: dict[str, str | FileRef | ScriptRef] = {}
    criteria: Criteria = Criteria()
    dataset_criteria: dict[str, Criteria | FileRef] = {}
    images: list[ImageSpec] = []  # PNG/JPEG files sent with the prompt (formats/images.py)
    judge_images: bool = False  # the evaluator also receives the images
    turns: list[TurnSpec] = []
    limits: DialogLimits = DialogLimits()
    functional: dict[str, FunctionalSpec] = {}  # hidden tests per dataset (formats/functional.py)
    # True for a scenario imported before its criteria exist: a metric with no steps is
    # then unscored ("no criteria") instead of a collection error.
    criteria_missing: bool = False
    origin: Origin | None = None

    @field_validator("category")
    @classmethod
    def _known_category(cls, value: str) -> str:
        if value not in CATEGORIES:
            raise ValueError(f"unknown category {value!r}; accepted: {', '.join(category_ids())}")
        return value


@dataclass(frozen=True)
class DialogTurn:
    """A turn of a dialog, rendered for one dataset; its steps are numbered A1.., C1.."""

    number: int  # from 1
    title: str
    prompt: str
    steps: tuple[CriterionStep, ...]


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    category: str
    description: str
    path: Path
    system: str
    datasets: tuple[Dataset, ...]
    references: dict[str, str]  # dataset name (or NO_DATASET) -> reference answer
    prompts: dict[str, str]  # dataset name (or NO_DATASET) -> the prompt, rendered at load
    steps: dict[str, tuple[CriterionStep, ...]]  # dataset name (or NO_DATASET) -> its steps
    images: tuple[ScenarioImage, ...] = ()  # attached to the user prompt of every item
    judge_images: bool = False  # the evaluator's request carries the images too
    # Dialog scenarios only: dataset name (or NO_DATASET) -> its turns / reference script.
    turns: dict[str, tuple[DialogTurn, ...]] = field(default_factory=dict)
    scripts: dict[str, Script] = field(default_factory=dict)
    limits: DialogLimits = field(default_factory=DialogLimits)
    functional: dict[str, Functional] = field(
        default_factory=dict
    )  # dataset (or NO_DATASET) -> hidden tests

    @property
    def is_dialog(self) -> bool:
        return bool(self.turns)

    def turns_for(self, dataset: Dataset | None) -> tuple[DialogTurn, ...]:
        return self.turns.get(dataset.name if dataset else NO_DATASET, ())

    def script_for(self, dataset: Dataset | None) -> Script | None:
        return self.scripts.get(dataset.name if dataset else NO_DATASET)

    criteria_missing: bool = False
    origin: Origin | None = None

    def steps_for(self, dataset: Dataset | None) -> tuple[CriterionStep, ...]:
        """The shared steps followed by the dataset's own, numbered A1.., C1.."""
        return self.steps[dataset.name if dataset else NO_DATASET]

    def prompt_for(self, dataset: Dataset | None) -> str:
        return self.prompts[dataset.name if dataset else NO_DATASET]

    def reference_for(self, dataset: Dataset | None) -> str | None:
        return self.references.get(dataset.name if dataset else NO_DATASET)

    def functional_for(self, dataset: Dataset | None) -> Functional | None:
        return self.functional.get(dataset.name if dataset else NO_DATASET)


def _render_prompts(
    path: Path,
    spec: ScenarioSpec,
    template: Template,
    datasets: tuple[Dataset, ...],
    field_name: str = "prompt",
) -> dict[str, str]:
    """Every prompt of the scenario, rendered once at load: an undefined variable is a
    collection error, and no item renders again."""
    view = {"id": spec.id, "title": spec.title or spec.id, "category": spec.category}
    prompts = {}
    for dataset in datasets or (None,):
        try:
            prompts[dataset.name if dataset else NO_DATASET] = render(
                template, dataset=dataset, scenario=view
            )
        except TemplateError as exc:
            raise FormatError(path, field_name, f"template error: {exc}") from None
    return prompts


def _compile(path: Path, field_name: str, source: str) -> Template:
    try:
        return compile_template(source)
    except TemplateError as exc:
        line = getattr(exc, "lineno", None)
        raise FormatError(
            path, field_name, f"template error{f' on line {line}' if line else ''}: {exc}"
        ) from None


def _category_system(scenarios_dir: Path, category: str) -> str:
    """The category's `system.md` next to its scenarios, else the built-in default."""
    path = scenarios_dir / "system.md"
    if path.is_file():
        _, why = inside(scenarios_dir.parent, path)
        if why is not None:
            raise FormatError(path, "", f"is refused: {why}")
        return read_text(path).strip()
    return CATEGORIES[category].default_system


def _read_ref(path: Path, field_name: str, ref: FileRef) -> str:
    return read_text(named_file(path, f"{field_name}.file", ref.file, scenarios_root(path)))


def _dataset_criteria(path: Path, spec: ScenarioSpec, name: str) -> Criteria:
    value = spec.dataset_criteria.get(name, Criteria())
    if isinstance(value, Criteria):
        return value
    field_name = f"dataset_criteria.{name}"
    # The file holds `accuracy:` and `completeness:` lists; its own errors name it.
    target = named_file(path, f"{field_name}.file", value.file, scenarios_root(path))
    return load_model(target, Criteria, "accuracy and completeness lists of steps")


def _steps(path: Path, spec: ScenarioSpec, name: str) -> tuple[CriterionStep, ...]:
    """The shared steps, then the dataset's own, numbered per metric."""
    own = _dataset_criteria(path, spec, name)
    steps: list[CriterionStep] = []
    for metric in METRICS:
        written = getattr(spec.criteria, metric) + getattr(own, metric)
        if not written and not spec.criteria_missing:
            where = "" if name == NO_DATASET else f" for dataset {name}"
            raise FormatError(
                path,
                f"criteria.{metric}",
                f"no {metric} steps{where}; give them in criteria or dataset_criteria "
                "(or set criteria_missing: true to run it unscored)",
            )
        steps.extend(numbered(metric, written))
    return tuple(steps)


def _shape_errors(path: Path, spec: ScenarioSpec) -> None:
    """What a dialog scenario, or a single-shot one, may not have."""
    if spec.category == "dialog":
        if not spec.turns:
            raise FormatError(path, "turns", "a dialog scenario needs a list of turns")
        for name in ("prompt", "dataset_criteria"):
            if getattr(spec, name):
                raise FormatError(path, name, "a dialog scenario gives it per turn under turns")
        if spec.criteria.accuracy or spec.criteria.completeness:
            raise FormatError(path, "criteria", "a dialog scenario gives it per turn under turns")
        for key, ref in spec.references.items():
            if not isinstance(ref, ScriptRef):
                raise FormatError(
                    path, f"references.{key}", "a dialog's reference is {script: file.yaml}"
                )
        return
    if spec.turns:
        raise FormatError(path, "turns", "only scenarios of the category dialog have turns")
    if spec.prompt is None:
        raise FormatError(path, "prompt", "required field is missing")
    for key, ref in spec.references.items():
        if isinstance(ref, ScriptRef):
            raise FormatError(path, f"references.{key}", "scripts are for dialog scenarios only")
    for metric in METRICS:
        for i, step in enumerate(getattr(spec.criteria, metric)):
            if step.check is not None and step.check.path is not None:
                raise FormatError(
                    path, f"criteria.{metric}.{i}.check.path", "is for dialog turns only"
                )


def _turns(
    path: Path, spec: ScenarioSpec, datasets: tuple[Dataset, ...]
) -> dict[str, tuple[DialogTurn, ...]]:
    """Each turn's prompt rendered per dataset, with its steps numbered per turn."""
    rendered = []
    for t, turn in enumerate(spec.turns):
        where = f"turns.{t}"
        for metric in METRICS:
            if not getattr(turn.criteria, metric):
                raise FormatError(path, f"{where}.criteria.{metric}", f"no {metric} steps")
        template = _compile(path, f"{where}.prompt", turn.prompt)
        rendered.append(_render_prompts(path, spec, template, datasets, f"{where}.prompt"))
    steps = [
        tuple(s for metric in METRICS for s in numbered(metric, getattr(turn.criteria, metric)))
        for turn in spec.turns
    ]
    return {
        name: tuple(
            DialogTurn(t + 1, turn.title or f"Step {t + 1}", rendered[t][name], steps[t])
            for t, turn in enumerate(spec.turns)
        )
        for name in rendered[0]
    }


def _load_dialog(path: Path, spec: ScenarioSpec, resolved: tuple[Dataset, ...]) -> dict[str, Any]:
    turns = _turns(path, spec, resolved)
    scripts = {}
    references = {}
    for key, ref in spec.references.items():
        assert isinstance(ref, ScriptRef)  # _shape_errors made sure
        root = scenarios_root(path)
        target = named_file(path, f"references.{key}.script", ref.script, root)
        scripts[key] = load_script(target, len(spec.turns), root)
        # The reference answer of the code metrics: the files the script leaves written.
        references[key] = fenced_files(script_files(scripts[key]))
    flat = {
        name: tuple(replace(s, id=f"T{turn.number}.{s.id}") for turn in dialog for s in turn.steps)
        for name, dialog in turns.items()
    }
    return {
        "turns": turns,
        "scripts": scripts,
        "references": references,
        "steps": flat,
        "prompts": {name: dialog[0].prompt for name, dialog in turns.items()},
    }


def _check_dataset_keys(path: Path, spec: ScenarioSpec, names: set[str]) -> None:
    """references and dataset_criteria name only datasets of the scenario."""
    for field_name, mapping in (
        ("references", spec.references),
        ("dataset_criteria", spec.dataset_criteria),
        ("functional", spec.functional),
    ):
        for key in mapping:
            if key not in names:
                raise FormatError(
                    path,
                    f"{field_name}.{key}",
                    f"is not one of this scenario's datasets ({', '.join(sorted(names))})",
                )


def _functional(
    path: Path, spec: ScenarioSpec, datasets: tuple[Dataset, ...]
) -> dict[str, Functional]:
    files = {d.name: {f.path: f.text for f in d.files} for d in datasets}
    return {
        key: load_functional(
            value, scenario=path, root=scenarios_root(path), key=key, dataset_files=files.get(key)
        )
        for key, value in spec.functional.items()
    }


def load_scenario(path: Path, datasets: DatasetIndex) -> Scenario:
    """Load and check one scenario file; any problem raises FormatError(path, field, why)."""
    spec = load_model(path, ScenarioSpec, "id, category, prompt and criteria")
    folder = path.parent.name
    if folder != spec.category:
        raise FormatError(
            path,
            "category",
            f"is {spec.category!r} but the file sits in scenarios/{folder}/; move it or fix the field",
        )
    _shape_errors(path, spec)
    resolved = tuple(
        datasets.get(name, referrer=path, field_name=f"datasets.{i}")
        for i, name in enumerate(spec.datasets)
    )
    names = {d.name for d in resolved} or {NO_DATASET}
    _check_dataset_keys(path, spec, names)
    system = spec.system.strip() if spec.system else _category_system(path.parent, spec.category)
    common: dict[str, Any] = {
        "id": spec.id,
        "title": spec.title or spec.id,
        "category": spec.category,
        "description": spec.description,
        "path": path,
        "system": system,
        "datasets": resolved,
        "functional": _functional(path, spec, resolved),
    }
    if spec.turns:
        if spec.images or spec.judge_images:
            raise FormatError(
                path, "images", "dialog scenarios (turns:) take no images; use a single prompt"
            )
        return Scenario(**common, **_load_dialog(path, spec, resolved), limits=spec.limits)
    assert spec.prompt is not None  # _shape_errors made sure
    template = _compile(path, "prompt", spec.prompt)
    references = {
        key: _read_ref(path, f"references.{key}", value) if isinstance(value, FileRef) else value
        for key, value in spec.references.items()
        if not isinstance(value, ScriptRef)
    }
    steps = {name: _steps(path, spec, name) for name in sorted(names)}
    if spec.judge_images and not spec.images:
        raise FormatError(path, "judge_images", "is true but the scenario lists no images:")
    return Scenario(
        **common,
        references=references,
        prompts=_render_prompts(path, spec, template, resolved),
        steps=steps,
        images=load_images(path, spec.images),
        judge_images=spec.judge_images,
        criteria_missing=spec.criteria_missing,
        origin=spec.origin,
    )
