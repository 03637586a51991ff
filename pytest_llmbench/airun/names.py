"""Names in the public benchmark: scenario prompt files, category folders, renamed datasets.

A prompt file is `<Scenario>_<Dataset>_<complexity>_<size>[_N].md`; a scenario that needs
no dataset has a shorter name (`<Scenario>[_N].md`, or `<Scenario>_<complexity>_<size>`).
Complexity is low, avg, high or extra_high; size low, avg or high. The multimodal prompts
put the dataset first: `<Dataset>_Q<n>_<complexity>_<size>` (the scenario is `Q<n>`).
Scenario and dataset names may both hold underscores (`ToDoApp_ReactJS`), so the split
between them is found by the dataset names the clone actually has, not by counting parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..formats.categories import CATEGORIES

BUCKETS = ("low", "avg", "high")
EXTRA_HIGH = "extra_high"  # a complexity only (WriteTestsForActualCode_ReactSelect_extra_high_high)
_QUESTION = re.compile(r"^Q\d+$", re.IGNORECASE)

# Datasets the benchmark renamed (its commit "rename Angular -> AngularJS", 2025-08-01):
# published answers, grades and Criteria_v1 use the old name, current prompts the new.
RENAMED_DATASETS: dict[str, str] = {
    "AngularCalendar": "AngularJSCalendar",
    "AngularCosmoAdmin": "AngularJSCosmoAdmin",
    "AngularCosmoMenu": "AngularJSCosmoMenu",
    "AngularCosmoPage": "AngularJSCosmoPage",
}


def current_name(stem: str) -> str:
    """A published stem with renamed datasets under their current name."""
    return "_".join(RENAMED_DATASETS.get(part, part) for part in stem.split("_"))


def published_names(stem: str) -> list[str]:
    """A current stem, and the stems it was published under before a dataset was renamed."""
    old = {new: old for old, new in RENAMED_DATASETS.items()}
    earlier = "_".join(old.get(part, part) for part in stem.split("_"))
    return [stem] if earlier == stem else [stem, earlier]


# Public category folder names (normalised: lower case, words joined by "_") -> our id.
CATEGORY_ALIASES: dict[str, str] = {
    "component_generation": "generation",
    "code_generation": "generation",
    "test_generation": "testing",
    "tests_generation": "testing",
    "unit_tests": "testing",
    "code_explanation": "explanation",
    "solution_documentation": "documentation",
    "documentation_generation": "documentation",
    "code_analysis": "analysis",
    "code_quality": "analysis",
    "solution_migration": "migration",
    "code_translation": "migration",
    "translation": "migration",
    "solution_template_generation": "template",
    "template_generation": "template",
    "multimodal_generation": "multimodal",
    "image_to_code": "multimodal",
}


def normalise_name(text: str) -> str:
    """`Code Translation`, `code-translation`, `CodeTranslation` -> `code_translation`."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text.strip())
    return "_".join(part for part in re.split(r"[^a-z0-9]+", spaced.lower()) if part)


# Our dialog scenarios are written as turns; a public prompt file is one prompt.
SINGLE_PROMPT = tuple(c for c in CATEGORIES if c != "dialog")


def map_category(folder: str, extra: dict[str, str] | None = None) -> str | None:
    """Our category id for a public category folder, or None when it has no counterpart.

    `extra` (from `--category-map PUBLIC=OURS`) is consulted first, by folder name as
    written or normalised. Never `dialog`: a public prompt file cannot give its turns.
    """
    key = normalise_name(folder)
    for mapping in (extra or {}), CATEGORY_ALIASES:
        for public, ours in mapping.items():
            if public == folder or normalise_name(public) == key:
                return ours
    return key if key in SINGLE_PROMPT else None


@dataclass(frozen=True)
class PromptName:
    """What a prompt file's name says."""

    stem: str  # the whole file name without .md: the scenario's public name
    scenario: str  # the scenario part
    dataset: str | None  # None for a scenario that needs no dataset
    complexity: str | None
    size: str | None
    index: int | None  # the trailing _N of a numbered variant


def parse_prompt_name(stem: str, datasets: Iterable[str] = ()) -> PromptName:
    """Split a prompt file's stem; `datasets` are the dataset names the clone has.

    The dataset is the longest run of parts just before `<complexity>_<size>` that names
    a known dataset (else, when there are at least two parts, the parts after the first;
    one part is the scenario); before a `Q<n>` scenario, the parts ahead of it.
    Raises ValueError for an empty name.
    """
    parts = [p for p in stem.split("_") if p]
    if not parts:
        raise ValueError(f"{stem!r}: empty file name")
    index = None
    if len(parts) > 1 and parts[-1].isdigit():
        index = int(parts.pop())
    complexity = size = None
    lower = [p.lower() for p in parts]
    if len(parts) >= 4 and lower[-1] in BUCKETS and "_".join(lower[-3:-1]) == EXTRA_HIGH:
        complexity, size = EXTRA_HIGH, lower[-1]
        parts = parts[:-3]
    elif len(parts) >= 3 and lower[-1] in BUCKETS and lower[-2] in BUCKETS:
        complexity, size = lower[-2], lower[-1]
        parts = parts[:-2]
    known = {d.lower(): d for d in datasets}
    dataset = None
    if len(parts) >= 2 and _QUESTION.match(parts[-1]):  # multimodal: the dataset comes first
        ahead = "_".join(parts[:-1])
        return PromptName(stem, parts[-1], known.get(ahead.lower(), ahead), complexity, size, index)
    if complexity is not None:
        for start in range(1, len(parts)):
            candidate = "_".join(parts[start:])
            if candidate.lower() in known:
                dataset, parts = known[candidate.lower()], parts[:start]
                break
        else:
            if len(parts) >= 2:  # the dataset is not in the clone: still say which it was
                dataset, parts = "_".join(parts[1:]), parts[:1]
    return PromptName(stem, "_".join(parts), dataset, complexity, size, index)


_ID_CHARS = re.compile(r"[^A-Za-z0-9_]+")


def scenario_id(stem: str) -> str:
    """Our scenario id (letters, digits, `_`, starting with a letter) for a public name."""
    text = _ID_CHARS.sub("_", stem).strip("_") or "Scenario"
    return text if text[0].isalpha() else f"S{text}"
