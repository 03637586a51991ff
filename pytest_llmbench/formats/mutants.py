"""The mutants of a dataset (the scenario's `functional.<dataset>.mutants` file): small
injected bugs the answer's tests should catch.

    - id: filterOptions-eq-67            # unique in the file
      file: src/utils/filterOptions.ts    # dataset-relative
      find: "if (count === 0) return -1;" # exact text, exactly once in the file
      line: 67                            # optional: then exactly once on this line
      replace: "if (count !== 0) return -1;"
      description: the empty-list guard is inverted

Loading is strict: anything that does not apply cleanly to the dataset is one MutantsError
line naming the mutants file and the mutant."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import MutantsError
from .paths import safe_path

MAX_MUTANTS = 100


class MutantSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=80)
    file: str = Field(min_length=1)
    find: str = Field(min_length=1)
    replace: str
    line: int | None = Field(default=None, ge=1)
    description: str = ""


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str  # dataset-relative, normalised
    start: int  # offset of `find` in the file's text
    find: str
    replace: str
    description: str

    def apply(self, text: str) -> str:
        """The file's text with this mutant in it (the text it was loaded against)."""
        if text[self.start : self.start + len(self.find)] != self.find:
            raise MutantsError(f"mutant {self.id}: {self.file} changed since it was loaded")
        return text[: self.start] + self.replace + text[self.start + len(self.find) :]


def occurrences(text: str, find: str, line: int | None = None) -> list[int]:
    """Offsets where `find` starts in `text` (only those starting on `line`, 1-based)."""
    found: list[int] = []
    at = text.find(find)
    while at != -1:
        if line is None or text.count("\n", 0, at) + 1 == line:
            found.append(at)
        at = text.find(find, at + 1)
    return found


def _locate(spec: MutantSpec, files: Mapping[str, str]) -> tuple[str, int]:
    """(the normalised file, the offset of `find`), or why not."""
    path, why = safe_path(spec.file)
    if path is None:
        raise ValueError(f"file {spec.file!r}: {why}")
    text = files.get(path)
    if text is None:
        raise ValueError(f"file {spec.file!r} is not a file of the dataset")
    if spec.find == spec.replace:
        raise ValueError("find and replace are the same text")
    found = occurrences(text, spec.find, spec.line)
    if len(found) != 1:
        where = f"on line {spec.line} of {path}" if spec.line else f"in {path}"
        raise ValueError(f"find occurs {len(found)} times {where} (it must occur exactly once)")
    return path, found[0]


def _specs(text: str, source: str) -> list[MutantSpec]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise MutantsError(f"{source}: not valid YAML{where}") from None
    if not isinstance(data, list) or not data:
        raise MutantsError(f"{source}: must be a non-empty YAML list of mutants")
    if len(data) > MAX_MUTANTS:
        raise MutantsError(f"{source}: has {len(data)} mutants; at most {MAX_MUTANTS}")
    specs: list[MutantSpec] = []
    for number, item in enumerate(data, start=1):
        try:
            specs.append(MutantSpec.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "entry"
            name = item.get("id", f"#{number}") if isinstance(item, dict) else f"#{number}"
            raise MutantsError(f"{source}: mutant {name}: {field}: {first['msg']}") from None
    return specs


def load_mutants(text: str, source: str, files: Mapping[str, str]) -> list[Mutant]:
    """The mutants of `text` (YAML), each located in `files` (dataset path -> text).
    `source` names the mutants file in the error line."""
    mutants: list[Mutant] = []
    seen: set[str] = set()
    for spec in _specs(text, source):
        if spec.id in seen:
            raise MutantsError(f"{source}: mutant {spec.id}: the id is used twice")
        seen.add(spec.id)
        try:
            path, start = _locate(spec, files)
        except ValueError as exc:
            raise MutantsError(f"{source}: mutant {spec.id}: {exc}") from None
        mutants.append(Mutant(spec.id, path, start, spec.find, spec.replace, spec.description))
    return mutants
