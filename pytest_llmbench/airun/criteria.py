"""Criteria files of a results clone: `evaluation_steps` and `metadata`.

    <criteria set>/<lang>/<category folder>/<prompt stem>_criteria.yaml
    evaluation_steps:
      accuracy: [...]        steps as plain strings (the public files), {criteria: TEXT,
      completeness: [...]    weight: W} or {criterion: TEXT, weight: W} (our Step reads all)
    metadata: {category, experiment, repository, scenario_id}

The results clone has two sets, `Criteria/` (current) and `Criteria_v1/` (older, with
the datasets' old names). A file belongs to the prompt whose stem is its file name
without `_criteria` (old dataset names read as the current ones: names.current_name), in
the category folder of the same name. The metadata is not the link: `scenario_id` is a
number per folder, `repository` a snake_case id and `category` the published stem; they
are kept as read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..errors import FormatError
from ..formats.criteria import Criteria
from ..formats.validation import load_model
from .names import current_name

CRITERIA_SETS = ("Criteria", "Criteria_v1")
SUFFIX = "_criteria"


class Metadata(BaseModel):
    model_config = ConfigDict(extra="ignore")
    category: str | None = None
    experiment: str | None = None
    repository: str | None = None
    scenario_id: str | int | None = None  # 1..24, or '08' quoted


class CriteriaFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    evaluation_steps: Criteria
    metadata: Metadata = Metadata()


@dataclass(frozen=True)
class FoundCriteria:
    path: Path
    steps: Criteria
    stem: str  # the prompt stem it belongs to (current dataset names)
    folder: str | None  # its category folder; None for a file at the set's top
    metadata: Metadata

    def fits(self, stem: str, folder: str) -> bool:
        return self.stem.lower() == stem.lower() and self.folder in (None, folder)


def criteria_root(folder: Path, criteria_set: str = CRITERIA_SETS[0]) -> Path:
    """`folder/<criteria_set>` for a results clone, else `folder` itself."""
    inside = folder / criteria_set
    return inside if inside.is_dir() else folder


def read_criteria(folder: Path) -> tuple[list[FoundCriteria], list[str]]:
    """Every criteria YAML under `folder`, and one 'path: why' line per file that failed."""
    found: list[FoundCriteria] = []
    problems: list[str] = []
    for path in sorted([*folder.rglob("*.yaml"), *folder.rglob("*.yml")]):
        try:
            spec = load_model(path, CriteriaFile, "evaluation_steps and metadata")
        except FormatError as exc:  # names the file and the field
            problems.append(str(exc))
            continue
        found.append(
            FoundCriteria(
                path=path,
                steps=spec.evaluation_steps,
                stem=current_name(path.stem.removesuffix(SUFFIX)),
                folder=None if path.parent == folder else path.parent.name,
                metadata=spec.metadata,
            )
        )
    return found, problems
