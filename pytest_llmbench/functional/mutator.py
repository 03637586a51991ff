"""Our own small mutator, for writing a scenario's mutants file (scripts/make-mutants).

Stryker would need a full install of the dataset's project and its own config per
dataset; the scoring needs only a fixed list of textual mutants, so the candidates come
from mutator.mjs: TypeScript's parser finds the places (conditions, operators, literals,
call statements; never strings, comments or types) and esbuild checks each mutant still
parses. Here each candidate becomes a mutants-file entry whose `find` is its trimmed
source line (with `line:` when that text occurs more than once in the file).

Kinds: eq (=== / !==, == / !=), boundary (< / <=, > / >=), logic (&& / ||), arith (+ / -
next to a number: off by one), bool (true / false), negate (an if condition), remove-call
(a call statement removed).
"""

from __future__ import annotations

import ast
import io
import json
import random
import re
import tempfile
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path

import yaml

from ..toolchain import sandbox
from ..toolchain.node_packages import modules_dir, node_program
from .node import MEMORY_MB

SCRIPT = Path(__file__).with_name("mutator.mjs")
MAX_FIND = 140  # a longer source line is not used as a mutant's `find`


@dataclass(frozen=True)
class Candidate:
    file: str
    kind: str
    line: int
    find: str
    replace: str
    description: str
    needs_line: bool  # `find` occurs more than once in the file

    def entry(self, mutant_id: str) -> dict[str, object]:
        """The mutants-file entry."""
        out: dict[str, object] = {"id": mutant_id, "file": self.file}
        if self.needs_line:
            out["line"] = self.line
        out.update(find=self.find, replace=self.replace, description=self.description)
        return out


def _context(text: str, raw: Mapping[str, object]) -> Candidate | None:
    """The candidate with its edit widened to whole (trimmed) lines, or None when that
    text is too long, or spans lines and is not unique in the file."""
    start, end = int(str(raw["start"])), int(str(raw["end"]))
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    last = len(text) if last == -1 else last
    block = text[first:last]
    lead = len(block) - len(block.lstrip())
    find = block.strip()
    if not find or len(find) > MAX_FIND:
        return None
    offset = first + lead
    replace = text[offset:start] + str(raw["replace"]) + text[end : offset + len(find)]
    count = text.count(find)
    if "\n" in find and count != 1:
        return None
    return Candidate(
        file=str(raw["file"]),
        kind=str(raw["kind"]),
        line=int(str(raw["line"])),
        find=find,
        replace=replace.rstrip(),
        description=str(raw["description"]),
        needs_line=count > 1,
    )


def propose(files: Mapping[str, str], timeout_s: float = 120.0) -> list[Candidate]:
    """The candidate mutants of `files` (dataset path -> text), in file and source order.
    Raises RuntimeError when the mutator cannot run."""
    modules = modules_dir(("typescript", "esbuild"))
    if modules is None:
        raise RuntimeError("typescript and esbuild are missing: run `npm ci` in the project")
    with tempfile.TemporaryDirectory(prefix="llmbench-mutator-") as folder:
        work = Path(folder)
        listing = []
        for number, (rel, text) in enumerate(sorted(files.items())):
            copy = work / f"{number}{Path(rel).suffix}"
            copy.write_text(text, encoding="utf-8")
            listing.append({"path": str(copy), "rel": rel})
        (work / "files.json").write_text(json.dumps(listing), encoding="utf-8")
        command = [node_program(), str(SCRIPT), str(modules), str(work / "files.json")]
        outcome = sandbox.run(
            command,
            work,
            timeout=timeout_s,
            memory_mb=MEMORY_MB,
            reads=[SCRIPT.parent, modules],
            runs_answer_code=False,  # our datasets, not an answer
        )
    if outcome.returncode != 0:
        why = outcome.killed or " ".join(outcome.stderr.split())[-300:]
        raise RuntimeError(f"the mutator failed: {why}")
    found: list[Candidate] = []
    for raw in json.loads(outcome.stdout):
        candidate = _context(files[raw["file"]], raw)
        if candidate is not None and candidate.find != candidate.replace:
            found.append(candidate)
    return found


def spread(candidates: list[Candidate], seed: int = 18) -> list[Candidate]:
    """The candidates in the order to try them: round-robin over (file, kind) groups so
    the first ones cover every file and kind, shuffled within a group (seeded)."""
    groups: dict[tuple[str, str], list[Candidate]] = {}
    for candidate in candidates:
        groups.setdefault((candidate.file, candidate.kind), []).append(candidate)
    shuffler = random.Random(seed)
    for group in groups.values():
        shuffler.shuffle(group)
    keys = sorted(groups)
    shuffler.shuffle(keys)
    rounds = zip_longest(*(groups[k] for k in keys))
    return [c for row in rounds for c in row if c is not None]


def mutant_id(candidate: Candidate) -> str:
    stem = Path(candidate.file).stem.split(".")[0]
    return f"{stem}-{candidate.kind}-{candidate.line}"


def to_yaml(entries: list[dict[str, object]], header: str) -> str:
    comment = "".join(f"# {line}\n".replace("# \n", "#\n") for line in header.splitlines())
    body = yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=100)
    return comment + body


# --- equivalent mutants ------------------------------------------------------------------
# A rewrite that keeps a file's behaviour, made afresh for every run: tests that fail on it
# read the source's text instead of running it (mutation.py marks them).
_COMMENT = {".py": "#", ".java": "//"} | dict.fromkeys(
    (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"), "//"
)
_HEADER = re.compile(r"^(#!.*|#.*coding[:=].*|\s*)$")  # lines that must stay first (Python)
_NOTES = ("keep in sync", "see the notes", "reviewed", "checked", "tidy up later", "owner")


def _note(mark: str) -> str:
    shuffler = random.SystemRandom()
    return f"{mark} {shuffler.choice(_NOTES)} ({shuffler.randint(1000, 999999)})"


def _python_blank_lines(text: str) -> str:
    """Blank lines after some logical lines (tokenize finds where each one ends); the text
    unchanged when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    ends = {t.end[0] for t in tokens if t.type == tokenize.NEWLINE}
    return _blank_after(text, ends)


def _python_locals(text: str) -> str:
    """An unused local of random name assigned first in each function body (after its
    docstring) that starts on a line of its own: the functions' code objects change, what
    they do does not. The text unchanged when it does not parse, before or after."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text
    lines = text.split("\n")
    starts: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        docstring = ast.get_docstring(node, clean=False) is not None
        first = body[1] if docstring and len(body) > 1 else None if docstring else body[0]
        if first is None or first.lineno <= node.lineno:
            continue
        if lines[first.lineno - 1][: first.col_offset].strip() == "":
            starts.add((first.lineno, first.col_offset))
    name = f"_unused_{random.SystemRandom().randint(10000, 999999)}"
    for line, column in sorted(starts, reverse=True):
        lines.insert(line - 1, " " * column + f"{name} = None")
    rewritten = "\n".join(lines)
    try:
        ast.parse(rewritten)
    except (SyntaxError, ValueError):
        return text
    return rewritten


def _script_lines(text: str, suffix: str) -> str:
    """Blank lines after some statements ending a line with `;`, and comment lines inside
    some blocks (after a line ending with `{`: a function's own text changes too), where
    no string may span lines (no template literal, text block or line continuation in the
    file); JSX files left as they are."""
    if suffix in (".jsx", ".tsx") or "`" in text or '"""' in text or "\\\n" in text:
        return text
    lines = text.split("\n")
    opening = [n for n, line in enumerate(lines, 1) if line.rstrip().endswith("{")]
    shuffler = random.SystemRandom()
    notes = {n for n in opening if shuffler.random() < 0.5} or set(opening[:1])
    unused = _unused_local(suffix)
    made = 0
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        out.append(line)
        inside = line[: len(line) - len(line.lstrip())] + "  "
        if number in notes:
            out.append(inside + _note("//"))
        if _opens_statements(line, lines[number:], suffix):
            made += 1  # one name each: Java refuses a local that hides an enclosing one
            out.append(inside + unused.replace(" =", f"_{made} =", 1))
    text = "\n".join(out)
    ends = {n for n, line in enumerate(out, 1) if line.rstrip().endswith(";")}
    return _blank_after(text, ends)


# A line that opens a block of statements: a function's, a method's, a lambda's or a
# control statement's body (`) {`, `=> {`, `-> {`); not a switch (statements go in its
# cases), a class body, an object literal, an anonymous class (`new X() {`) or an enum
# constant's body (`RED(1) {`), nor a comment.
_OPENS = re.compile(r"(\)|=>|->)\s*(throws\s+[\w.,\s]+)?\{\s*$")
_NOT_STATEMENTS = re.compile(r"^\s*(switch\b|//|/?\*|[A-Z][A-Z0-9_]*\s*\()|\bnew\s+[\w.<>]+\s*\(")


def _opens_statements(line: str, after: list[str], suffix: str) -> bool:
    if not _OPENS.search(line) or _NOT_STATEMENTS.search(line):
        return False
    following = next((n.strip() for n in after if n.strip()), "")
    # a constructor's first statement may have to be super(...) or this(...) (Java)
    return not (suffix == ".java" and following.startswith(("super(", "this(")))


def _unused_local(suffix: str) -> str:
    """A statement that declares a local of random name and never uses it: the code's
    syntax tree, its compiled instructions and a function's own text change, what it does
    does not (a test that tells it from the original reads the code, not its behaviour)."""
    name = f"llmbench{random.SystemRandom().randint(10000, 999999)}"
    return f"int {name} = 0;" if suffix == ".java" else f"let {name} = 0;"


def _blank_after(text: str, line_numbers: set[int]) -> str:
    shuffler = random.SystemRandom()
    chosen = {n for n in line_numbers if shuffler.random() < 0.3} or set(list(line_numbers)[:1])
    lines = text.split("\n")
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        out.append(line)
        if number in chosen and number < len(lines):
            out.append("")
    return "\n".join(out)


def equivalent(path: str, text: str) -> str | None:
    """`text` (the file at `path`) with its behaviour kept: a comment line after its header
    lines, one at its end, blank lines (and, JS/TS/Java, comment lines inside blocks) where
    no string can span them, an unused local in each Python function; None for a kind of
    file this cannot rewrite."""
    suffix = Path(path).suffix
    mark = _COMMENT.get(suffix)
    if mark is None:
        return None
    if suffix == ".py":
        text = _python_blank_lines(_python_locals(text))
    else:
        text = _script_lines(text, suffix)
    lines = text.split("\n")
    keep = 0
    while keep < min(2, len(lines)) and lines[keep].startswith("#!" if mark == "//" else "#"):
        if mark == "#" and not _HEADER.match(lines[keep]):
            break
        keep += 1
    body = "\n".join([*lines[:keep], _note(mark), *lines[keep:]])
    return body + ("" if body.endswith("\n") else "\n") + _note(mark) + "\n"
