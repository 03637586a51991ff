"""The languages of answer files: the names code blocks and file extensions are known by,
and the one rule that names a block's language."""

from __future__ import annotations

from pathlib import PurePosixPath

# The languages whose files are checked (metrics/syntax.py names the tool for each).
LANGUAGES = frozenset(
    {
        "python",
        "json",
        "yaml",
        "javascript",
        "jsx",
        "typescript",
        "tsx",
        "java",
        "html",
        "css",
        "scss",
        "less",
        "vue",
    }
)
_ALIASES = {
    "py": "python",
    "python3": "python",
    "yml": "yaml",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "node": "javascript",
    "javascriptreact": "jsx",
    "ts": "typescript",
    "mts": "typescript",
    "cts": "typescript",
    "typescriptreact": "tsx",
    "htm": "html",
}


def language_of(language: str, path: str | None) -> str:
    """The checkable language of a block: its info string, else its file extension."""
    name = _ALIASES.get(language.lower(), language.lower())
    if name in LANGUAGES:
        return name
    if path:
        suffix = PurePosixPath(path).suffix.lower().lstrip(".")
        return _ALIASES.get(suffix, suffix)
    return name
