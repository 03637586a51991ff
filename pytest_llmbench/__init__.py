"""pytest-llmbench: benchmark LLMs on software-engineering work, as a pytest plugin.

The names a plugin author or a reader of results uses are exported here: the model
interface (`Model`, `ModelRequest`, `ModelReply`), the typed results (`ItemResult`,
`Leaderboard`) and the errors. They are imported on first use, so that importing the
plugin stays light (bench/startup.py): `from pytest_llmbench import Model` loads only what
that name needs.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import (
        BudgetExhausted,
        ConfigError,
        ContextWindowError,
        FormatError,
        LLMBenchError,
        ModelError,
        RunError,
        RunStopped,
    )
    from .models.base import (
        Model,
        ModelReply,
        ModelRequest,
        StablePrefix,
        TaskContext,
        ToolCall,
    )
    from .schema.leaderboard import Leaderboard
    from .schema.results import ItemResult

try:
    __version__ = version("pytest-llmbench")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = [
    "BudgetExhausted",
    "ConfigError",
    "ContextWindowError",
    "FormatError",
    "ItemResult",
    "LLMBenchError",
    "Leaderboard",
    "Model",
    "ModelError",
    "ModelReply",
    "ModelRequest",
    "RunError",
    "RunStopped",
    "StablePrefix",
    "TaskContext",
    "ToolCall",
    "__version__",
]
# Where each exported class is defined (the rest of __all__ is errors.py's).
_HOMES = {
    "ItemResult": "schema.results",
    "Leaderboard": "schema.leaderboard",
    **dict.fromkeys(
        ("Model", "ModelReply", "ModelRequest", "StablePrefix", "TaskContext", "ToolCall"),
        "models.base",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f".{_HOMES.get(name, 'errors')}", __name__)
    return getattr(module, name)
