"""Cyclomatic complexity and lines of JavaScript/TypeScript files counted by ESLint itself.

The public AIRUN analyzer (docs/airun.md, "Complexity") runs ESLint 8 with
@typescript-eslint/parser for every file and the rules `complexity` (max 0) and
`max-lines` (max 0), so ESLint reports every unit's complexity and every file's line
count; it adds up the units per file. We run the same ESLint and parser (pinned in
package.json, installed by scripts/install-runners) through node in the sandbox (sandbox.start: memory
limit, no network; a time limit per request), one long-lived node process per Python
process, with the same rules, and read the numbers from the messages:

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

import atexit
import functools
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import EslintBroken
from ..toolchain import sandbox
from ..toolchain.node_packages import modules_dir as find_modules
from ..toolchain.node_packages import node_program

_PROJECT = Path(__file__).resolve().parents[2]
# The analyzer's suffixes, and the module variants of the same languages.
SUFFIXES = frozenset({".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts"})
_UNIT = re.compile(r"^(?P<name>.*?) has a complexity of (?P<ci>\d+)")
_LINES = re.compile(r"too many lines \((?P<loc>\d+)\)")

# One long-lived node process per Python process: it reads a JSON list of files per line
# on stdin and answers one JSON line (each file's messages), so ESLint and the
# TypeScript parser load once, not once per dataset or answer.
_SCRIPT = r"""
const path = require('path');
const readline = require('readline');
const [modules] = process.argv.slice(2);
const from = { paths: [modules] };
const { ESLint } = require(require.resolve('eslint', from));
const parser = require.resolve('@typescript-eslint/parser', from);
const eslint = new ESLint({
  useEslintrc: false,
  cwd: process.cwd(),
  overrideConfig: {
    parser,
    parserOptions: { sourceType: 'module' },
    rules: { complexity: ['error', 0], 'max-lines': ['error', 0] },
  },
});
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', line => {
  queue = queue.then(async () => {
    const out = [];
    for (const file of JSON.parse(line)) {
      const [result] = await eslint.lintFiles([file]);
      out.push(result.messages.map(m => [m.ruleId, m.line, m.message, !!m.fatal]));
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }).catch(e => process.stdout.write(JSON.stringify({ error: String(e && e.stack || e) }) + '\n'));
});
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


def modules_dir() -> Path | None:
    """The node_modules holding eslint and @typescript-eslint/parser (node_packages.py)."""
    return find_modules(("eslint", "@typescript-eslint/parser"))


def _version(package: Path) -> str:
    try:
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return "?"


@functools.cache
def counter() -> str | None:
    """'eslint <version>' when node and the packages are there, else None."""
    modules = modules_dir()
    if modules is None or shutil.which(node_program()) is None:
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


class _Worker:
    """The node process (started on first use, again after a fork or a failure)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.process: subprocess.Popen[str] | None = None
        self.pid = 0
        self.modules: Path | None = None
        self.home: tempfile.TemporaryDirectory[str] | None = None

    def stop(self) -> None:
        if self.process is not None and self.pid == os.getpid():
            self.process.kill()
            self.process.wait()
        self.process = None
        if self.home is not None and self.pid == os.getpid():
            self.home.cleanup()
        self.home = None

    def _start(self, node: str, modules: Path) -> None:
        self.stop()
        self.home = tempfile.TemporaryDirectory(prefix="llmbench-eslint-")
        script = Path(self.home.name) / "eslint_ci.cjs"
        script.write_text(_SCRIPT, encoding="utf-8")
        self.process = sandbox.start([node, str(script), str(modules)], Path(self.home.name))
        self.pid, self.modules = os.getpid(), modules

    def ask(self, node: str, modules: Path, files: list[tuple[str, str]]) -> list[Any]:
        with self.lock:
            alive = self.process is not None and self.process.poll() is None
            if not alive or self.pid != os.getpid() or self.modules != modules:
                self._start(node, modules)
            assert self.process is not None and self.home is not None
            assert self.process.stdin is not None and self.process.stdout is not None
            work = Path(tempfile.mkdtemp(dir=self.home.name))
            try:
                names = []
                for index, (path, text) in enumerate(files):
                    target = work / str(index) / Path(path).name
                    target.parent.mkdir()
                    target.write_text(text, encoding="utf-8")
                    names.append(str(target))
                self.process.stdin.write(json.dumps(names) + "\n")
                self.process.stdin.flush()
                ready, _, _ = select.select([self.process.stdout], [], [], sandbox.TIME_LIMIT_S)
                line = self.process.stdout.readline() if ready else ""
            except OSError as exc:
                self.stop()
                raise EslintBroken(f"ESLint stopped: {exc}") from None
            finally:
                shutil.rmtree(work, ignore_errors=True)
            if not ready:
                self.stop()
                raise EslintBroken(f"ESLint exceeded {sandbox.TIME_LIMIT_S:.0f} s")
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            answer = None
        if not isinstance(answer, list) or len(answer) != len(files):
            detail = answer.get("error", "") if isinstance(answer, dict) else line
            with self.lock:
                self.stop()
            raise EslintBroken(f"ESLint failed: {' '.join(str(detail).split())[-200:]}")
        return answer


_WORKER = _Worker()
atexit.register(_WORKER.stop)


def measure_texts(files: list[tuple[str, str]]) -> list[EslintFigures]:
    """ESLint's figures of each (path, text), in order; EslintBroken when it cannot run."""
    modules = modules_dir()
    node = shutil.which(node_program())
    if modules is None or node is None:
        raise EslintBroken(
            "node or eslint is not installed (run scripts/install-runners in the project)"
        )
    if not files:
        return []
    return [_figures(messages) for messages in _WORKER.ask(node, modules, files)]
