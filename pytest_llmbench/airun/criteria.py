"""Criteria files of a results clone: `evaluation_steps` and `metadata`.

    evaluation_steps:
      accuracy: [...]        steps as plain strings, {criteria: TEXT, weight: W}
      completeness: [...]    or {criterion: TEXT, weight: W} (our Step reads all three)
    metadata: {category, experiment, repository, scenario_id}

A file belongs to the scenarios whose public name (or scenario part) is its
`scenario_id` (else its file stem), and, when it names a `repository`, whose dataset is
that repository.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..errors import FormatError
from ..formats.criteria import Criteria
from ..formats.validation import load_model
from .names import PromptName, normalise_name


class Metadata(BaseModel):
    model_config = ConfigDict(extra="ignore")
    category: str | None = None
    experiment: str | None = None
    repository: str | None = None
    scenario_id: str | None = None


class CriteriaFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    evaluation_steps: Criteria
    metadata: Metadata = Metadata()


@dataclass(frozen=True)
class FoundCriteria:
    path: Path
    steps: Criteria
    scenario_id: str
    repository: str | None
    category: str | None

    def fits(self, name: PromptName, dataset: str | None) -> bool:
        wanted = normalise_name(self.scenario_id)
        if wanted not in (normalise_name(name.stem), normalise_name(name.scenario)):
            return False
        if (
            self.repository
            and dataset
            and normalise_name(self.repository) != normalise_name(dataset)
        ):
            return False
        return True


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
        meta = spec.metadata
        found.append(
            FoundCriteria(
                path=path,
                steps=spec.evaluation_steps,
                scenario_id=meta.scenario_id or path.stem,
                repository=meta.repository or None,
                category=meta.category,
            )
        )
    return found, problems
