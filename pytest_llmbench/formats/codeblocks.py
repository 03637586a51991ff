"""Fenced code blocks in a chat answer, with the file path the answer gives each one.

Extraction is line based and close to CommonMark, because chat models write Markdown:
a fence opens only at the start of a line, and closes only with the same character
repeated at least as often, so a ````markdown block keeps the ``` blocks written inside it.
One departure: a backtick fence with a language glued to the end of a prose line
(`Here it is:```js`) opens a block too; CommonMark would read it as text and lose the
code (FEABench's parser lost code the same way, method.md section 7). The prose before it
is the block's label line, as if it stood on the line above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EXTENSION_LANGUAGES = {
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "jsx": "jsx",
    "ts": "typescript",
    "mts": "typescript",
    "cts": "typescript",
    "tsx": "tsx",
    "py": "python",
    "json": "json",
    "yaml": "yaml",
    "yml": "yaml",
    "html": "html",
    "htm": "html",
    "css": "css",
    "scss": "scss",
    "less": "less",
    "java": "java",
    "vue": "vue",
    "md": "markdown",
    "sh": "bash",
}

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Prose without backticks, then a backtick fence and a language word: a glued opening.
_GLUED = re.compile(r"^(?P<prose>[^`]*[^`\s])(?P<fence>`{3,})(?P<info>[A-Za-z][^`]*)$")
_HEADING = re.compile(r"^#{1,6}\s+")
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_LABEL_TEXT = r"(?:file\s*name|file|path)\s*:\s*"
_LABEL = re.compile("^" + _LABEL_TEXT, re.IGNORECASE)
_ATTRIBUTE = re.compile(
    r"""\b(?:title|file|filename|path|name)\s*=\s*["']?([^"'\s]+)""", re.IGNORECASE
)
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_PATH_CHARS = re.compile(r"^[\w.\-/\\@+~\[\]()]+$")
_BARE_NAMES = frozenset({"Dockerfile", "Makefile", "Procfile", "Gemfile", "Rakefile"})
_COMMENT_PATTERNS = tuple(
    re.compile(rf"^\s*{start}\s*(?:{_LABEL_TEXT})?(?P<p>\S+?)\s*{end}\s*$", re.IGNORECASE)
    for start, end in (("(?://|#|--|;)", ""), ("<!--", "-->"), (r"/\*", r"\*/"))
)
# "Update `src/App.jsx`:" names its file in backticks inside a sentence that ends in a colon.
_INLINE_PATH = re.compile(r"`([^`\s]+)`")


@dataclass(frozen=True)
class CodeBlock:
    language: str  # lower-cased first word of the info string, '' if none
    path: str | None  # file path when the answer names one
    code: str


def looks_like_path(token: str) -> bool:
    """A file name with an extension, or a slash-separated path; never a URL or a number."""
    if not token or "://" in token or not _PATH_CHARS.match(token):
        return False
    if token in _BARE_NAMES:
        return True
    return bool(_EXTENSION.search(token)) or (
        "/" in token.strip("/") and any(c.isalpha() for c in token)
    )


def language_for_path(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return ""
    return EXTENSION_LANGUAGES.get(name.rsplit(".", 1)[1].lower(), "")


def _path_from_info(words: list[str], info: str) -> tuple[str, str | None]:
    """(language, path) from an info string such as `tsx title="src/App.tsx"`."""
    language = words[0].lower() if words and "=" not in words[0] else ""
    attribute = _ATTRIBUTE.search(info)
    if attribute and looks_like_path(attribute.group(1)):
        path: str | None = attribute.group(1)
    else:
        path = next((w for w in words[1:] if looks_like_path(w)), None)
    # Some tools write the path where the language goes: ```src/App.tsx or ```tsx:src/App.tsx.
    if language and ":" in language and looks_like_path(words[0].split(":", 1)[1]):
        language, path = language.split(":", 1)[0], words[0].split(":", 1)[1]
    elif language and looks_like_path(words[0]):
        language, path = "", words[0]
    return language, path


def _path_from_label(line: str) -> str | None:
    """A path named by a heading, a bold or backticked line, or a `File:` line."""
    text = line.strip()
    inline = _INLINE_PATH.findall(text) if text.endswith(":") else []
    if len(inline) == 1 and looks_like_path(inline[0]) and " " in text:
        return str(inline[0])
    heading = bool(_HEADING.match(text))
    text = _LIST_MARKER.sub("", _HEADING.sub("", text))
    decorated = "**" in text or "`" in text
    text = text.replace("**", "").replace("`", "").strip()
    if len(text) > 2 and text[0] == text[-1] and text[0] in "*_":
        text = text[1:-1].strip()
    labelled = bool(_LABEL.match(text))
    text = _LABEL.sub("", text)
    if heading:
        text = re.sub(r"^\d+[.)]\s*", "", text)
    words = text.split()
    if not words:
        return None
    first = words[0].rstrip(":,")
    if not looks_like_path(first):
        return None
    if len(words) == 1 or heading:
        return first
    # Past a label's path only a note in parentheses may follow; more words make it prose.
    if (decorated or labelled) and re.fullmatch(r"\(.*\)", " ".join(words[1:])):
        return first
    return None


def _path_from_comment(code: str) -> str | None:
    first = next((line for line in code.splitlines() if line.strip()), "")
    for pattern in _COMMENT_PATTERNS:
        match = pattern.match(first)
        if match:
            return match.group("p") if looks_like_path(match.group("p")) else None
    return None


def _make_block(info: str, before: str, lines: list[str]) -> CodeBlock:
    code = "\n".join(lines)
    words = info.split()
    language, path = _path_from_info(words, info)
    path = path or _path_from_label(before) or _path_from_comment(code)
    if not language and path:
        language = language_for_path(path)
    return CodeBlock(language=language.strip("{}."), path=path, code=code)


def _dedent(line: str, indent: int) -> str:
    """Drop up to the opening fence's indentation, as CommonMark does inside list items."""
    stripped = len(line) - len(line.lstrip(" \t"))
    return line[min(stripped, indent) :]


def extract_code_blocks(answer: str) -> list[CodeBlock]:
    """Every fenced block in order; an unterminated last block runs to the end of the text."""
    blocks: list[CodeBlock] = []
    lines = answer.splitlines()
    before = ""  # the nearest non-empty line outside a block, for a path label
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        # A backtick in a backtick info string means inline code (```x```), not a fence.
        if match and match.group("fence")[0] == "`" and "`" in match.group("info"):
            match = None
        if match is None and (match := _GLUED.match(lines[i])) is not None:
            before = match.group("prose")
        if match is None:
            if lines[i].strip():
                before = lines[i]
            i += 1
            continue
        fence = match.group("fence")
        indent = len(match.groupdict().get("indent") or "")
        closer = re.compile(
            rf"^[ \t]{{0,{indent + 3}}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$"
        )
        body: list[str] = []
        i += 1
        while i < len(lines) and not closer.match(lines[i]):
            body.append(_dedent(lines[i], indent))
            i += 1
        if i >= len(lines):
            while body and not body[-1].strip():
                body.pop()
        blocks.append(_make_block(match.group("info").strip(), before, body))
        before = ""
        i += 1
    return blocks
