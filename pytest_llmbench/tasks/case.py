"""A case: one scenario x dataset, and how its candidate is asked (a pytest item is a
case x model)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats.dataset import Dataset
from ..formats.images import user_content
from ..formats.render import inline_files
from ..formats.scenario import Scenario
from ..metrics.complexity import Complexity
from ..models.base import StablePrefix


@dataclass(frozen=True)
class Generation:
    """How the candidate is asked."""

    attempts: int
    temperature: float | None
    max_tokens: int | None
    timeout: float
    tool_protocol: str = "auto"  # dialogs: auto | native | text (tasks/dialog.py)
    functional: bool = True  # run the scenario's hidden tests on each answer
    feedback: bool = False  # a failed attempt's failing tests go to the next (tasks/feedback.py)


@dataclass(frozen=True)
class Case:
    """One scenario x dataset; a pytest item is a case x model."""

    scenario: Scenario
    dataset: Dataset | None
    complexity: Complexity | None = None  # of the dataset, measured once at collection
    # where figures no answer changes are kept between runs (the similarity baseline)
    cache_dir: Path | None = None

    @property
    def label(self) -> str:
        return f"{self.scenario.id}-{self.dataset.name}" if self.dataset else self.scenario.id

    def messages(self) -> list[dict[str, Any]]:
        """System and user message; the user's carries the scenario's images as parts."""
        prompt = self.scenario.prompt_for(self.dataset)
        return [
            {"role": "system", "content": self.scenario.system},
            {"role": "user", "content": user_content(prompt, self.scenario.images)},
        ]

    def stable_prefix(self) -> StablePrefix:
        """What messages() repeats for every model and attempt of the case, and across the
        scenarios that inline the same dataset after the same words: the system prompt, and
        the user prompt up to and including its inlined dataset (when it inlines one)."""
        prompt = self.scenario.prompt_for(self.dataset)
        inlined = inline_files(self.dataset)
        at = prompt.rfind(inlined) if inlined else -1
        return StablePrefix(messages=1, chars=at + len(inlined) if at >= 0 else 0)

    def prompt_text(self) -> str:
        """The user prompt as readable text: images named by a note, never as base64."""
        notes = [image.note() for image in self.scenario.images]
        return "\n\n".join([self.scenario.prompt_for(self.dataset), *notes])
