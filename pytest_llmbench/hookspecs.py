"""Hooks other plugins and conftest.py files may implement.

Built-in behaviour is a `trylast` implementation of these hooks in pytest_llmbench.plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy
import pytest

if TYPE_CHECKING:
    from .models.base import Model
    from .settings import Settings

hookspec = pluggy.HookspecMarker("pytest")


@hookspec(firstresult=True)
def pytest_llmbench_make_model(name: str, settings: Settings) -> Model | None:
    """Return the model object for a model name given to --llm-model/--llm-judge/--llm-grader.

    Called once per name on every process that runs items. Return None to let the next
    implementation (finally the built-in one: offline models, else litellm) handle it.
    """


@hookspec
def pytest_llmbench_leaderboard(leaderboard: dict[str, Any], config: pytest.Config) -> None:
    """Called on the controller with the leaderboard dict before it is written; may modify it."""
