"""Cyclomatic complexity and lines of JavaScript/TypeScript files counted by ESLint itself.

The public AIRUN analyzer (docs/airun.md, "Complexity") runs ESLint 8 with
@typescript-eslint/parser for every file and the rules `complexity` (max 0) and
`max-lines` (max 0), so ESLint reports every unit's complexity and every file's line
count; it adds up the units per file. We run the same ESLint and parser (pinned in
package.json, installed by `npm ci`) through node in the sandbox (sandbox.run: time and
memory limits, no network), with the same rules, and read the numbers from the messages:

- units: every code path the `complexity` rule reports: functions, arrows, methods,
  constructors, accessors, class field initializers and static blocks;
- LoC: `max-lines` with its defaults, every physical line (blank and comment lines too;
  a final newline adds none);
- a file ESLint cannot parse gets no figures (the analyzer counted it 0): its error is
  the parse message.

`counter()` says which ESLint answers, None when node or the packages are missing (then
complexity.py falls back to lizard).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import sandbox

_PROJECT = Path(__file__).resolve().parents[2]
# The analyzer's suffixes, and the module variants of the same languages.
SUFFIXES = frozenset({".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"})
_UNIT = re.compile(r"^(?P<name>.*?) has a complexity of (?P<ci>\d+)")
_LINES = re.compile(r"too many lines \((?P<loc>\d+)\)")

_SCRIPT = r"""
const path = require('path');
const fs = require('fs');
const [modules, manifest] = process.argv.slice(2);
const from = { paths: [modules] };
const { ESLint } = require(require.resolve('eslint', from));
const parser = require.resolve('@typescript-eslint/parser', from);
const eslint = new ESLint({
  useEslintrc: false,
  cwd: path.dirname(manifest),
  overrideConfig: {
    parser,
    parserOptions: { sourceType: 'module' },
    rules: { complexity: ['error', 0], 'max-lines': ['error', 0] },
  },
});
(async () => {
  const files = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const out = [];
  for (const file of files) {
    const [result] = await eslint.lintFiles([file]);
    out.push(result.messages.map(m => [m.ruleId, m.line, m.message, !!m.fatal]));
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { process.stderr.write(String(e && e.stack || e)); process.exit(2); });
"""


@dataclass(frozen=True)
class Unit:
    name: str  # ESLint's words for it: "Method 'render'", "Arrow function", ...
    line: int
    ci: int


@dataclass(frozen=True)
class EslintFigures:
    loc: int
    units: list[Unit]
    error: str | None  # the parse error; then loc and units are empty


class EslintBroken(Exception):
    """node or ESLint itself failed; the message says how."""


def modules_dir() -> Path | None:
    """The node_modules holding eslint and @typescript-eslint/parser
    ($LLMBENCH_NODE_MODULES, `<cwd>/node_modules` or the project's)."""
    override = os.environ.get("LLMBENCH_NODE_MODULES")
    roots = (
        [Path(override)] if override else [Path.cwd() / "node_modules", _PROJECT / "node_modules"]
    )
    for root in roots:
        if (root / "eslint" / "package.json").is_file() and (
            root / "@typescript-eslint" / "parser" / "package.json"
        ).is_file():
            return root.resolve()
    return None


def _version(package: Path) -> str:
    try:
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return "?"


@functools.cache
def counter() -> str | None:
    """'eslint <version>' when node and the packages are there, else None."""
    modules = modules_dir()
    if modules is None or shutil.which("node") is None:
        return None
    return f"eslint {_version(modules / 'eslint' / 'package.json')}"


def counts(path: str) -> bool:
    """Whether ESLint counts this file: the analyzer's suffixes, without its `*.test.*`."""
    name = Path(path).name.lower()
    suffix = Path(name).suffix
    return suffix in SUFFIXES and not re.search(r"\.test\.[a-z]+$", name)


def _figures(messages: list[list[object]]) -> EslintFigures:
    loc = 0
    units: list[Unit] = []
    for rule, line, message, fatal in messages:
        text = str(message)
        if fatal:
            return EslintFigures(0, [], f"ESLint cannot parse it: line {line}: {text}")
        if rule == "max-lines" and (found := _LINES.search(text)):
            loc = int(found.group("loc"))
        elif rule == "complexity" and (unit := _UNIT.match(text)):
            units.append(Unit(unit.group("name"), int(str(line)), int(unit.group("ci"))))
    return EslintFigures(loc, units, None)


def measure_texts(files: list[tuple[str, str]]) -> list[EslintFigures]:
    """ESLint's figures of each (path, text), in order; EslintBroken when it cannot run."""
    modules = modules_dir()
    node = shutil.which("node")
    if modules is None or node is None:
        raise EslintBroken("node or eslint is not installed (run `npm ci` in the project)")
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="llmbench-eslint-") as tmp:
        work = Path(tmp)
        names = []
        for index, (path, text) in enumerate(files):
            target = work / str(index) / Path(path).name
            target.parent.mkdir()
            target.write_text(text, encoding="utf-8")
            names.append(str(target))
        manifest = work / "files.json"
        manifest.write_text(json.dumps(names), encoding="utf-8")
        script = work / "eslint_ci.cjs"
        script.write_text(_SCRIPT, encoding="utf-8")
        outcome = sandbox.run([node, str(script), str(modules), str(manifest)], work)
    if outcome.timed_out:
        raise EslintBroken(f"ESLint exceeded {sandbox.TIME_LIMIT_S:.0f} s")
    try:
        found = json.loads(outcome.stdout)
    except json.JSONDecodeError:
        found = None
    if outcome.returncode != 0 or not isinstance(found, list) or len(found) != len(files):
        detail = " ".join((outcome.stderr or outcome.stdout).split())[-200:]
        raise EslintBroken(f"ESLint failed (exit {outcome.returncode}): {detail}")
    return [_figures(messages) for messages in found]
