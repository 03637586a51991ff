"""Prompt templates: jinja2 in a sandbox, with a dataset's files inlined as fenced blocks.

A template sees:
  dataset   the dataset (name, language, technology, description, files) or None
  scenario  the scenario (id, title, category)
and the filter `inline_files`: `{{ dataset | inline_files }}` renders every file of the
dataset, sorted by relative path, as a fenced code block headed by that path.

Bounds (docs/formats.md, "Templates"): a rendered template has at most MAX_RENDERED_CHARS
characters; `*`, `+` and `**`, and every filter or method given a number, refuse to build
a value over that size (`{{ 'x' * 4000000000 }}` is an error, not 4 GB); any failure while
rendering (`{{ 1/0 }}`, a macro calling itself without end) is a TemplateError.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError
from jinja2.exceptions import SecurityError, TemplateRuntimeError
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from .dataset import Dataset, SourceFile

_FENCE_LANGUAGES = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "jsx",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".vue": "vue",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".json": "json",
    ".py": "python",
    ".java": "java",
    ".xml": "xml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".md": "markdown",
    ".sh": "bash",
    ".properties": "properties",
    ".xhtml": "xml",
    ".sql": "sql",
    ".kt": "kotlin",
}


def fence_language(path: str) -> str:
    return _FENCE_LANGUAGES.get(PurePosixPath(path).suffix.lower(), "")


def fenced(file: SourceFile) -> str:
    """One file as a fenced block, headed by its path; the fence outgrows any backtick run."""
    longest = 0
    run = 0
    for ch in file.text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    body = file.text if file.text.endswith("\n") else file.text + "\n"
    return f"### {file.path}\n{fence}{fence_language(file.path)}\n{body}{fence}\n"


def fenced_files(files: dict[str, str]) -> str:
    """Files given by path, as fenced blocks in stable path order (a dialog's workspace)."""
    return "\n".join(fenced(SourceFile(p, text)) for p, text in sorted(files.items()))


def inline_files(dataset: Dataset | None) -> str:
    """Every file of `dataset` as fenced blocks in stable path order ('' for no dataset)."""
    if dataset is None:
        return ""
    return "\n".join(fenced(f) for f in sorted(dataset.files, key=lambda f: f.path))


# A prompt inlines one dataset (at most 2 MB of text, formats/dataset.py) and some words.
MAX_RENDERED_CHARS = 4 * 1024 * 1024
_MAX_POWER_BITS = 4096


def _check_size(size: int) -> None:
    if size > MAX_RENDERED_CHARS:
        raise SecurityError(
            f"the template builds a value of {size} items; at most {MAX_RENDERED_CHARS}"
        )


def _check_numbers(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool):
            _check_size(abs(value))


def _bounded_filter(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)  # keeps jinja's pass_context/pass_environment marks
    def bounded(*args: Any, **kwargs: Any) -> Any:
        passed = 2 if getattr(func, "jinja_pass_arg", None) else 1  # the value (and context)
        _check_numbers(args[passed:], kwargs)
        return func(*args, **kwargs)

    return bounded


class _BoundedEnvironment(SandboxedEnvironment):
    intercepted_binops = frozenset({"*", "+", "**"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        sized = [len(v) for v in (left, right) if isinstance(v, str | bytes | list | tuple)]
        numbers = [v for v in (left, right) if isinstance(v, int)]
        if operator == "*" and sized and numbers:
            _check_size(sized[0] * abs(numbers[0]))
        elif operator == "+" and len(sized) == 2:
            _check_size(sum(sized))
        elif (
            operator == "**"
            and len(numbers) == 2
            and abs(right) * abs(left).bit_length() > (_MAX_POWER_BITS)
        ):
            raise SecurityError(
                f"the template raises a number to a power of over {_MAX_POWER_BITS} bits"
            )
        return super().call_binop(context, operator, left, right)

    def call(self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_numbers(args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)


def _environment() -> SandboxedEnvironment:
    env = _BoundedEnvironment(
        undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True
    )
    env.filters["inline_files"] = inline_files
    env.filters = {name: _bounded_filter(f) for name, f in env.filters.items()}
    env.globals["inline_files"] = inline_files
    return env


_ENV = _environment()


def compile_template(source: str) -> Template:
    """Compile a template; raises a jinja2.TemplateError (with a line number when the
    syntax is wrong)."""
    try:
        return _ENV.from_string(source)
    except TemplateError:
        raise
    except (RecursionError, MemoryError):
        raise TemplateRuntimeError("the template is nested too deeply") from None


def render(template: Template, **context: Any) -> str:
    """The rendered text; any failure, or more than MAX_RENDERED_CHARS, is a TemplateError."""
    parts: list[str] = []
    size = 0
    try:
        for chunk in template.generate(**context):
            size += len(chunk)
            _check_size(size)
            parts.append(chunk)
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateRuntimeError("recursion too deep (a macro that calls itself?)") from None
    except Exception as exc:  # a template is user input: 1/0, int('x'), ...
        raise TemplateRuntimeError(f"{type(exc).__name__}: {exc}") from None
    return "".join(parts)


__all__ = [
    "TemplateError",
    "compile_template",
    "fence_language",
    "fenced",
    "fenced_files",
    "inline_files",
    "render",
]
