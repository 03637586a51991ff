"""llmbench/replay: answers with a published run's answers, read from a results clone.

`llmbench/replay/<Model>` replays `Output/<Model>/` of the folder given by
--llm-replay-dir (bare `llmbench/replay` is allowed when Output holds one model). The
answer of attempt N of an item is the `### Answer:` of
`<lang>/<category>/<run>/<Scenario>/<Scenario>_report_<N>.md`, where the scenario's
`origin` (written by `llmbench import-airun`) gives the public name, language and
category; a scenario without origin is looked up by its id in any language and category.
When several run folders hold the file, the one whose name sorts last is used.

The reply carries the recorded tokens and execution time, so the generation rate is the
published run's; `### Thoughts:` goes to the reply's thoughts, apart from the answer.
The cost is unknown (None): what the published run paid is not recorded.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import AnswerFileError, ModelError
from ..models.base import Model, ModelReply, ModelRequest
from ..models.registry import REPLAY
from .answers import (
    answer_files,
    output_root,
    parse_answer_file,
    published_models,
)


def published_model(name: str, results_dir: Path | None) -> str:
    """The Output subfolder `name` replays; ValueError with what to give instead."""
    if results_dir is None:
        raise ValueError(f"{name} needs --llm-replay-dir (a results clone with an Output folder)")
    root = output_root(results_dir)
    if not root.is_dir():
        raise ValueError(f"--llm-replay-dir {results_dir} is not a folder")
    known = published_models(results_dir)
    chosen = name[len(REPLAY) + 1 :]
    if not chosen:
        if len(known) != 1:
            raise ValueError(
                f"{REPLAY}: name the published model as {REPLAY}/<Model>; "
                f"{root} holds {', '.join(known) or 'no model folders'}"
            )
        return known[0]
    if chosen not in known:
        raise ValueError(
            f"{name}: no folder {chosen!r} in {root} (models there: {', '.join(known) or 'none'})"
        )
    return chosen


class ReplayModel(Model):
    offline = True

    def __init__(self, name: str, results_dir: Path | None) -> None:
        self.name = name
        try:
            self.model_dir = output_root(results_dir or Path()) / published_model(name, results_dir)
        except ValueError as exc:
            raise ModelError(str(exc)) from None

    def _file(self, request: ModelRequest) -> Path:
        assert request.task is not None
        scenario = request.task.scenario
        origin = scenario.origin
        name, lang, category = (
            (origin.name, origin.lang or "*", origin.category or "*")
            if origin
            else (scenario.id, "*", "*")
        )
        found = answer_files(self.model_dir, name, request.attempt, lang, category)
        if not found:
            expected = (
                self.model_dir
                / lang
                / category
                / "<run>"
                / name
                / f"{name}_report_{request.attempt}.md"
            )
            raise ModelError(
                f"{self.name}: no published answer for attempt {request.attempt}: {expected} does not exist"
            )
        return found[-1]

    async def complete(self, request: ModelRequest) -> ModelReply:
        if request.task is None or request.role != "candidate":
            raise ModelError(
                f"{self.name} replays published answers; it can only answer benchmark tasks"
            )
        path = self._file(request)
        try:
            published = parse_answer_file(path.read_text(encoding="utf-8"))
        except (AnswerFileError, UnicodeDecodeError) as exc:
            raise ModelError(f"{self.name}: {path}: {exc}") from None
        return ModelReply(
            model=self.name,
            text=published.answer,
            latency_s=published.seconds or 0.0,
            prompt_tokens=published.input_tokens,
            completion_tokens=published.output_tokens,
            thoughts=published.thoughts,
            extra={"source": str(path)},
        )
