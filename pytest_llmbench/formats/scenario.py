"""Scenario files: `scenarios/<category>/<Id>.yaml`, validated on load (docs/formats.md).

A scenario is a task (a prompt template and an optional system prompt), the datasets
it runs on, optional reference answers per dataset, and the evaluation criteria.
`load_scenario` returns a `Scenario` whose datasets, references and templates are
resolved, so every later stage works on checked data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from jinja2 import Template, TemplateError
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..errors import FormatError
from .categories import CATEGORIES, category_ids
from .dataset import Dataset, DatasetIndex
from .render import compile_template, render
from .validation import load_model

NO_DATASET = "none"  # the references key of a scenario that runs on no dataset
_ID = r"^[A-Za-z][A-Za-z0-9_]*$"
CHECK_KINDS = ("contains", "not_contains", "regex", "parses", "file")
PARSE_LANGUAGES = (
    "any",
    "python",
    "json",
    "yaml",
    "javascript",
    "jsx",
    "typescript",
    "tsx",
    "html",
    "css",
    "java",
    "vue",
)


class Check(BaseModel):
    """A deterministic check of an answer; exactly one kind is set."""

    model_config = ConfigDict(extra="forbid")
    contains: str | list[str] | None = None
    not_contains: str | list[str] | None = None
    regex: str | None = None
    parses: bool | str | None = None
    file: str | list[str] | None = None
    ignore_case: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> Check:
        kinds = [k for k in CHECK_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                "a check needs exactly one of contains, not_contains, regex, parses, file "
                f"(got {', '.join(kinds) or 'none'})"
            )
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(f"regex does not compile: {exc}") from None
        if isinstance(self.parses, str) and self.parses not in PARSE_LANGUAGES:
            raise ValueError(f"parses takes true or one of {', '.join(PARSE_LANGUAGES)}")
        if self.parses is False:
            raise ValueError("parses takes true or a language name, not false")
        return self


class Step(BaseModel):
    """One evaluation criterion. Written as a plain string or as a mapping."""

    model_config = ConfigDict(extra="forbid")
    criterion: str = Field(min_length=1)
    weight: float = Field(default=1.0, gt=0)
    check: Check | None = None

    @model_validator(mode="before")
    @classmethod
    def _accept_public_forms(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"criterion": value}
        if isinstance(value, dict) and "criteria" in value:
            if "criterion" in value:
                raise ValueError("give the text as criterion or criteria, not both")
            value = dict(value)
            value["criterion"] = value.pop("criteria")
        return value


class Criteria(BaseModel):
    """Steps of both metrics. In `criteria` (shared by every dataset) and in
    `dataset_criteria` (one dataset's own steps) either list may be empty; each item
    must end up with at least one step per metric."""

    model_config = ConfigDict(extra="forbid")
    accuracy: list[Step] = []
    completeness: list[Step] = []


class FileRef(BaseModel):
    """`{file: relative/path}`: text kept in a file beside the scenario."""

    model_config = ConfigDict(extra="forbid")
    file: str


class Origin(BaseModel):
    """Where an imported scenario came from (`llmbench import-airun` writes it).

    `name`, `lang` and `category` are the public file's stem and folders: llmbench/replay
    finds published answers by them. `images` are the scenario's screenshots, copied
    beside the scenario file (paths relative to it), for multimodal scenarios.
    """

    model_config = ConfigDict(extra="forbid")
    benchmark: str = Field(min_length=1)
    name: str = Field(min_length=1)
    lang: str = ""
    category: str = ""
    complexity: str | None = None
    size: str | None = None
    images: list[str] = []


class ScenarioSpec(BaseModel):
    """The fields of a scenario file, as written."""

    model_config = ConfigDict(extra="forbid")
    id: Annotated[str, Field(pattern=_ID)]
    title: str | None = None
    category: str
    description: str = ""
    system: str | None = None
    prompt: str = Field(min_length=1)
    datasets: list[str] = []
    references: dict[str, str | FileRef] = {}
    criteria: Criteria = Criteria()
    dataset_criteria: dict[str, Criteria | FileRef] = {}
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


Metric = Literal["accuracy", "completeness"]
METRICS: tuple[Metric, Metric] = ("accuracy", "completeness")


@dataclass(frozen=True)
class CriterionStep:
    """A criterion with its stable id (A1.. for accuracy, C1.. for completeness)."""

    id: str
    metric: Metric
    text: str
    weight: float
    check: Check | None


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
    criteria_missing: bool = False
    origin: Origin | None = None

    def steps_for(self, dataset: Dataset | None) -> tuple[CriterionStep, ...]:
        """The shared steps followed by the dataset's own, numbered A1.., C1.."""
        return self.steps[dataset.name if dataset else NO_DATASET]

    def prompt_for(self, dataset: Dataset | None) -> str:
        return self.prompts[dataset.name if dataset else NO_DATASET]

    def reference_for(self, dataset: Dataset | None) -> str | None:
        return self.references.get(dataset.name if dataset else NO_DATASET)


def _render_prompts(
    path: Path, spec: ScenarioSpec, template: Template, datasets: tuple[Dataset, ...]
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
            raise FormatError(path, "prompt", f"template error: {exc}") from None
    return prompts


def _category_system(scenarios_dir: Path, category: str) -> str:
    """The category's `system.md` next to its scenarios, else the built-in default."""
    path = scenarios_dir / "system.md"
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    return CATEGORIES[category].default_system


def _read_ref(path: Path, field_name: str, ref: FileRef) -> str:
    target = (path.parent / ref.file).resolve()
    if not target.is_file():
        raise FormatError(path, f"{field_name}.file", f"{ref.file} does not exist")
    return target.read_text(encoding="utf-8")


def _dataset_criteria(path: Path, spec: ScenarioSpec, name: str) -> Criteria:
    value = spec.dataset_criteria.get(name, Criteria())
    if isinstance(value, Criteria):
        return value
    field_name = f"dataset_criteria.{name}"
    # The file holds `accuracy:` and `completeness:` lists; its own errors name it.
    target = (path.parent / value.file).resolve()
    if not target.is_file():
        raise FormatError(path, f"{field_name}.file", f"{value.file} does not exist")
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
        steps.extend(
            CriterionStep(f"{metric[0].upper()}{i}", metric, s.criterion.strip(), s.weight, s.check)
            for i, s in enumerate(written, start=1)
        )
    return tuple(steps)


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
    try:
        template = compile_template(spec.prompt)
    except TemplateError as exc:
        line = getattr(exc, "lineno", None)
        raise FormatError(
            path, "prompt", f"template error{f' on line {line}' if line else ''}: {exc}"
        ) from None
    resolved = tuple(
        datasets.get(name, referrer=path, field_name=f"datasets.{i}")
        for i, name in enumerate(spec.datasets)
    )
    names = {d.name for d in resolved} or {NO_DATASET}
    for field_name, mapping in (
        ("references", spec.references),
        ("dataset_criteria", spec.dataset_criteria),
    ):
        for key in mapping:
            if key not in names:
                raise FormatError(
                    path,
                    f"{field_name}.{key}",
                    f"is not one of this scenario's datasets ({', '.join(sorted(names))})",
                )
    references = {
        key: _read_ref(path, f"references.{key}", value) if isinstance(value, FileRef) else value
        for key, value in spec.references.items()
    }
    steps = {name: _steps(path, spec, name) for name in sorted(names)}
    return Scenario(
        id=spec.id,
        title=spec.title or spec.id,
        category=spec.category,
        description=spec.description,
        path=path,
        system=spec.system.strip() if spec.system else _category_system(path.parent, spec.category),
        datasets=resolved,
        references=references,
        prompts=_render_prompts(path, spec, template, resolved),
        steps=steps,
        criteria_missing=spec.criteria_missing,
        origin=spec.origin,
    )
