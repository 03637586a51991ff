"""Built-in offline models: no key, no network.

llmbench/reference  answers with the scenario's reference answer for the dataset
                    (the upper bound: a correct answer should score near the top);
                    in a dialog it plays the reference script's tool calls (script.py);
llmbench/echo       answers with the input code unchanged (the do-nothing baseline);
                    in a dialog it finishes every step without writing anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..errors import ModelError
from .base import Model, ModelReply, ModelRequest, TaskContext, ToolCall


def _reference(task: TaskContext) -> str:
    answer = task.scenario.reference_for(task.dataset)
    if answer is None:
        where = task.dataset.name if task.dataset else "its run without a dataset"
        raise ModelError(
            f"llmbench/reference: {task.scenario.path} has no reference answer for {where} "
            "(add it under references:)"
        )
    return answer


def _echo(task: TaskContext) -> str:
    from ..formats.render import inline_files  # jinja2: only when a task is answered

    return inline_files(task.dataset)


OFFLINE_ANSWERS: dict[str, Callable[[TaskContext], str]] = {
    "llmbench/reference": _reference,
    "llmbench/echo": _echo,
}


class OfflineModel(Model):
    offline = True

    def __init__(self, name: str) -> None:
        self.name = name
        self._answer = OFFLINE_ANSWERS[name]

    async def complete(self, request: ModelRequest) -> ModelReply:
        if request.task is None or request.role != "candidate":
            raise ModelError(f"{self.name} is an offline model; it can only answer benchmark tasks")
        start = time.perf_counter()
        calls: tuple[ToolCall, ...] = ()
        task = request.task
        if task.scenario.is_dialog:
            from .script import play

            script = task.scenario.script_for(task.dataset)
            if self.name == "llmbench/reference" and script is None:
                _reference(task)  # raises: the scenario has no reference for this dataset
            played = script if self.name == "llmbench/reference" else None
            text, calls = play(played, request.messages, native=bool(request.tools))
        else:
            text = self._answer(task)
        # Free by construction, so the cost is a known 0, not an unknown price.
        return ModelReply(
            model=self.name,
            text=text,
            latency_s=time.perf_counter() - start,
            cost_usd=0.0,
            tool_calls=calls,
        )
