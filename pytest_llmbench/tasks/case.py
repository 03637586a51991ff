"""A case: one scenario x dataset, and how its candidate is asked (a pytest item is a
case x model)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..formats.dataset import Dataset
from ..formats.images import user_content
from ..formats.scenario import Scenario
from ..metrics.complexity import Complexity


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

    def prompt_text(self) -> str:
        """The user prompt as readable text: images named by a note, never as base64."""
        notes = [image.note() for image in self.scenario.images]
        return "\n\n".join([self.scenario.prompt_for(self.dataset), *notes])
