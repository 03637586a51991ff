"""The experiment categories a scenario may belong to (method.md section 2).

A category id is the scenario folder name (`scenarios/<id>/`) and the pytest marker of
its items, so `pytest -m migration` selects every migration scenario.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    id: str
    title: str
    default_system: str


_ENGINEER = (
    "You are a senior software engineer. Answer precisely and completely. "
    "When you write code, give every file as its own fenced code block headed by its "
    "relative path, and do not leave parts out."
)

CATEGORIES: dict[str, Category] = {
    c.id: c
    for c in (
        Category("generation", "Component generation", _ENGINEER),
        Category("testing", "Test generation", _ENGINEER),
        Category(
            "explanation",
            "Code explanation",
            "You are a senior software engineer explaining a code base to a colleague. "
            "Be accurate and specific: name the files, functions and data flows you describe.",
        ),
        Category(
            "documentation",
            "Solution documentation",
            "You are a business analyst with a strong engineering background. Describe what "
            "the software does for its users, precisely and without inventing features.",
        ),
        Category(
            "analysis",
            "Code analysis",
            "You are a senior software engineer reviewing code. Name concrete problems with "
            "their location and a concrete fix.",
        ),
        Category("migration", "Solution migration", _ENGINEER),
        Category("template", "Solution template generation", _ENGINEER),
        Category("dialog", "Large-context instruction following", _ENGINEER),
        Category("multimodal", "Multimodal", _ENGINEER),
    )
}


def category_ids() -> list[str]:
    return sorted(CATEGORIES)
