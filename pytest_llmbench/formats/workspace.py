"""The files of an answer: its code blocks named by the paths the answer gives, checked
for safety.

A path that is absolute (`/etc/passwd`, `C:\\x`, `~/x`) or climbs out of the workspace
(`../x`, `a/../../x`) is rejected and reported; its block is kept as an unnamed block, so
its code still counts for the metrics. When the answer gives one path twice, the later
block is the file (a model that revises a file repeats it). Blocks without a path are
named `block<N>` with their language. A file's text is one a file can hold: a lone
surrogate (a model's reply is JSON, which can carry one; UTF-8 cannot) becomes "?", which
leaves a string or a comment parsing as it did and a name failing as it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .codeblocks import CodeBlock, extract_code_blocks
from .languages import language_of
from .paths import safe_path


@dataclass(frozen=True)
class AnswerFile:
    path: str | None  # the safe relative path the answer names, None if it names none
    language: str  # checkable language name (formats.languages.language_of)
    code: str
    number: int  # the block's position in the answer, from 1

    @property
    def label(self) -> str:
        return self.path or f"block {self.number} ({self.language or 'no language'})"


@dataclass(frozen=True)
class Workspace:
    files: tuple[AnswerFile, ...]
    rejected: tuple[tuple[str, str], ...] = field(default=())  # (path as written, why)

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(f.path for f in self.files if f.path)


def build_workspace(blocks: list[CodeBlock]) -> Workspace:
    named: dict[str, AnswerFile] = {}
    unnamed: list[AnswerFile] = []
    rejected: list[tuple[str, str]] = []
    for number, block in enumerate(blocks, start=1):
        path: str | None = None
        if block.path is not None:
            path, why = safe_path(block.path)
            if why is not None:
                rejected.append((block.path, why))
        language = language_of(block.language, path or block.path)
        entry = AnswerFile(path, language, _encodable(block.code), number)
        if path is None:
            unnamed.append(entry)
        else:
            named.pop(path, None)  # the later block of a path is the file, in its place
            named[path] = entry
    files = sorted([*named.values(), *unnamed], key=lambda f: f.number)
    return Workspace(tuple(files), tuple(rejected))


def _encodable(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def answer_workspace(answer: str) -> Workspace:
    return build_workspace(extract_code_blocks(answer))
