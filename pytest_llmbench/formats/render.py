"""Prompt templates: jinja2 in a sandbox, with a dataset's files inlined as fenced blocks.

A template sees:
  dataset   the dataset (name, language, technology, description, files) or None
  scenario  the scenario (id, title, category)
and the filter `inline_files`: `{{ dataset | inline_files }}` renders every file of the
dataset, sorted by relative path, as a fenced code block headed by that path.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError
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


def _environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True
    )
    env.filters["inline_files"] = inline_files
    env.globals["inline_files"] = inline_files
    return env


_ENV = _environment()


def compile_template(source: str) -> Template:
    """Compile a template; raises jinja2.TemplateSyntaxError with a line number."""
    return _ENV.from_string(source)


def render(template: Template, **context: Any) -> str:
    return template.render(**context)


__all__ = [
    "TemplateError",
    "compile_template",
    "fence_language",
    "fenced",
    "fenced_files",
    "inline_files",
    "render",
]
