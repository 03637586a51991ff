"""Hooks other plugins and conftest.py files may implement.

Built-in behaviour is a `trylast` implementation of these hooks in pytest_llmbench.plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy
import pytest

if TYPE_CHECKING:
    from .models.base import Model
    from .schema.leaderboard import Leaderboard
    from .settings import Settings

hookspec = pluggy.HookspecMarker("pytest")


@hookspec(firstresult=True)
def pytest_llmbench_make_model(name: str, settings: Settings) -> Model | None:
    """Return the model object for a model name given to --llm-model/--llm-judge/--llm-grader.

    The model subclasses `pytest_llmbench.Model`. Called once per name on every process
    that runs items. Return None to let the next
    implementation (finally the built-in one: offline models, else litellm) handle it.
    """


@hookspec
def pytest_llmbench_leaderboard(leaderboard: Leaderboard, config: pytest.Config) -> None:
    """Called on the controller with the leaderboard before it is written; may modify it.

    `leaderboard` is a `pytest_llmbench.schema.leaderboard.Leaderboard`: change its fields
    and rows (`leaderboard.models[0].notes.append(...)`), or add a key of your own with
    `leaderboard.team = "platform"`; leaderboard.json, leaderboard.md and report.html are
    written from it afterwards.
    """
