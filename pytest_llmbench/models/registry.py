"""Model names to model objects, and which names are accepted. Plugins add models through
`pytest_llmbench_make_model` (the public-run replay model of airun/ comes in that way too:
its name is reserved here, the model is made in airun/replay.py)."""

from __future__ import annotations

from .base import Model
from .litellm_model import LiteLLMModel
from .offline import OFFLINE_ANSWERS, OfflineModel

OFFLINE_PREFIX = "llmbench/"
# Replays a published run: `llmbench/replay` or `llmbench/replay/<Model>` (airun/replay.py).
REPLAY = OFFLINE_PREFIX + "replay"


def is_offline(name: str) -> bool:
    return name.startswith(OFFLINE_PREFIX)


def is_replay(name: str) -> bool:
    return name == REPLAY or name.startswith(REPLAY + "/")


def builtin_names() -> list[str]:
    """The built-in model names as a user may write them."""
    return sorted([*OFFLINE_ANSWERS, f"{REPLAY}[/<Model>]"])


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a model (one line saying what is accepted), or None."""
    if not name or any(c.isspace() for c in name):
        return f"expected a model name such as openai/gpt-4o-mini, got {name!r}"
    if is_offline(name) and not (name in OFFLINE_ANSWERS or is_replay(name)):
        known = ", ".join(builtin_names())
        return f"unknown built-in model {name!r}; built-in models: {known}"
    return None


def make_model(name: str, api_base: str | None, context_window: int | None = None) -> Model:
    """The built-in factory: offline models by name, litellm for everything else
    (`context_window`: the model's input window when litellm does not know it)."""
    if is_offline(name):
        if name not in OFFLINE_ANSWERS:
            raise KeyError(name)
        return OfflineModel(name)
    return LiteLLMModel(name, api_base, context_window)
