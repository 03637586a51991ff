"""Model names to model objects. Plugins add models through `pytest_llmbench_make_model`
(the public-run replay model of airun/ comes in that way too)."""

from __future__ import annotations

from .base import Model
from .litellm_model import LiteLLMModel
from .offline import OFFLINE_ANSWERS, OfflineModel

OFFLINE_PREFIX = "llmbench/"


def is_offline(name: str) -> bool:
    return name.startswith(OFFLINE_PREFIX)


def builtin_names() -> list[str]:
    return sorted(OFFLINE_ANSWERS)


def is_builtin(name: str) -> bool:
    return name in OFFLINE_ANSWERS


def make_model(name: str, api_base: str | None, context_window: int | None = None) -> Model:
    """The built-in factory: offline models by name, litellm for everything else
    (`context_window`: the model's input window when litellm does not know it)."""
    if is_offline(name):
        if name not in OFFLINE_ANSWERS:
            raise KeyError(name)
        return OfflineModel(name)
    return LiteLLMModel(name, api_base, context_window)
