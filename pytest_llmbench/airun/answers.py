"""Published answer files: `Output/<Model>/<lang>/<category>/<run>/<Scenario>/<Scenario>_report_<N>.md`.

One file per attempt N: the prompt, then `## Run N:`, an optional `### Thoughts:`,
`### Answer:` (the answer text), `### Tokens:` (a Python dict literal such as
`{'input_tokens': 313, 'output_tokens': 5424}`) and `### Execution time:` (seconds).
The answer may hold `###` headings of its own, so it runs from the first `### Answer:`
after the run heading to the last `### Tokens:` / `### Execution time:` heading.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import AnswerFileError
from .names import published_names

OUTPUT = "Output"
_RUN = re.compile(r"^##\s*Run\s+(\d+)\s*:?\s*$", re.MULTILINE | re.IGNORECASE)
_SECTION = r"^###\s*{}\s*:?[ \t]*"
_THOUGHTS = re.compile(_SECTION.format("Thoughts"), re.MULTILINE | re.IGNORECASE)
_ANSWER = re.compile(_SECTION.format("Answer"), re.MULTILINE | re.IGNORECASE)
_TOKENS = re.compile(_SECTION.format("Tokens"), re.MULTILINE | re.IGNORECASE)
_TIME = re.compile(_SECTION.format("Execution time"), re.MULTILINE | re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
REPORT_NAME = re.compile(r"^(?P<scenario>.+)_report_(?P<n>\d+)\.md$")


@dataclass(frozen=True)
class PublishedAnswer:
    run: int | None  # N of `## Run N:`
    answer: str
    thoughts: str | None
    input_tokens: int | None
    output_tokens: int | None
    seconds: float | None  # the recorded execution time

    @property
    def rate(self) -> float | None:
        """Recorded output tokens per recorded second (the method's generation rate)."""
        if self.output_tokens and self.seconds:
            return self.output_tokens / self.seconds
        return None


def _last(pattern: re.Pattern[str], text: str, start: int) -> re.Match[str] | None:
    matches = list(pattern.finditer(text, start))
    return matches[-1] if matches else None


def _tokens(text: str) -> tuple[int | None, int | None]:
    """Input and output tokens of the `### Tokens:` dict; literal_eval, never eval."""
    text = text.strip()
    if not text:
        return None, None
    try:
        value = ast.literal_eval(text.splitlines()[0].strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise AnswerFileError(f"### Tokens: is not a dict literal ({text[:60]!r})") from None
    if not isinstance(value, dict):
        raise AnswerFileError(f"### Tokens: is not a dict literal ({text[:60]!r})")

    def pick(*keys: str) -> int | None:
        for key in keys:
            number = value.get(key)
            if isinstance(number, int | float) and not isinstance(number, bool):
                return int(number)
        return None

    return pick("input_tokens", "prompt_tokens"), pick("output_tokens", "completion_tokens")


def parse_answer_file(text: str) -> PublishedAnswer:
    """The parts of one published answer; raises AnswerFileError when there is no answer."""
    runs = list(_RUN.finditer(text))
    start = runs[-1].end() if runs else 0
    answer_at = _ANSWER.search(text, start)
    if answer_at is None:
        raise AnswerFileError("no '### Answer:' section after the run heading")
    tokens_at = _last(_TOKENS, text, answer_at.end())
    time_at = _last(_TIME, text, answer_at.end())
    ends = [m.start() for m in (tokens_at, time_at) if m is not None]
    answer = text[answer_at.end() : min(ends) if ends else len(text)]
    thoughts_at = _THOUGHTS.search(text, start, answer_at.start())
    thoughts = text[thoughts_at.end() : answer_at.start()].strip() if thoughts_at else None
    input_tokens = output_tokens = None
    if tokens_at is not None:
        stop = (
            time_at.start()
            if time_at is not None and time_at.start() > tokens_at.start()
            else len(text)
        )
        input_tokens, output_tokens = _tokens(text[tokens_at.end() : stop])
    seconds = None
    if time_at is not None:
        number = _NUMBER.search(text, time_at.end())
        seconds = float(number.group()) if number else None
    return PublishedAnswer(
        run=int(runs[-1].group(1)) if runs else None,
        answer=answer.strip("\n").strip() + "\n" if answer.strip() else "",
        thoughts=thoughts or None,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        seconds=seconds,
    )


def output_root(results_dir: Path) -> Path:
    """The `Output` folder of a results clone (or the folder itself when it is one)."""
    inside = results_dir / OUTPUT
    return inside if inside.is_dir() else results_dir


def published_models(results_dir: Path) -> list[str]:
    root = output_root(results_dir)
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def answer_files(
    model_dir: Path, name: str, attempt: int | None, lang: str = "*", category: str = "*"
) -> list[Path]:
    """Every `<lang>/<category>/<run>/<name>/<name>_report_<attempt>.md` of one model
    (any attempt for None), sorted (so the last is the run folder that sorts last). A
    prompt whose dataset was renamed is found under its published name too
    (names.RENAMED_DATASETS)."""
    number = "*" if attempt is None else str(attempt)
    found: list[Path] = []
    for published in published_names(name):
        folders = f"{glob_safe(lang)}/{glob_safe(category)}/*/{glob_safe(published)}"
        found += model_dir.glob(f"{folders}/{glob_safe(published)}_report_{number}.md")
    return sorted(found)


def glob_safe(text: str) -> str:
    """`text` with glob's special characters made literal ('*' alone stays a wildcard)."""
    if text == "*":
        return text
    return re.sub(r"([\[\]*?])", r"[\1]", text)
