"""The model layer: one small interface, offline built-in models, and litellm for the rest."""

from .base import Model, ModelReply, ModelRequest, TaskContext, ToolCall
from .registry import is_offline, make_model

__all__ = [
    "Model",
    "ModelReply",
    "ModelRequest",
    "TaskContext",
    "ToolCall",
    "is_offline",
    "make_model",
]
