"""Syntax checks of extracted files with the languages' own tools, one process per tool.

| language                  | checker                                                   |
|---------------------------|-----------------------------------------------------------|
| python, json, yaml        | compile() / json / yaml.safe_load in a Python subprocess  |
| javascript                | node: each file parsed as a script, else as an ES module  |
|                           | (what `node --check` does), all files in one node process |
| jsx, typescript, tsx      | esbuild (npm, scripts/install-runners), one run for all  |
| java                      | javac, parse phase only (no class path needed)            |
| html, css, scss, vue      | the structural checks of structure.py, in process         |

A tool that is not installed makes its files "not checked", never "pass". Every tool runs
through sandbox.run (time and memory limits, temporary folder, no network). esbuild is
found in $LLMBENCH_ESBUILD, `<cwd or project>/node_modules/.bin/esbuild`, or on PATH.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from ..errors import CheckerBroken
from ..folders import keep
from ..formats.languages import LANGUAGES
from ..schema.code import FileCheck
from ..toolchain import jvm_share, sandbox
from ..toolchain.node_packages import node_program
from .structure import structure_problem

TOOL_KINDS = {
    "python": "python",
    "json": "python",
    "yaml": "python",
    "javascript": "node",
    "jsx": "esbuild",
    "typescript": "esbuild",
    "tsx": "esbuild",
    "java": "javac",
    "html": "structure",
    "css": "structure",
    "scss": "structure",
    "less": "structure",
    "vue": "structure",
}

assert set(TOOL_KINDS) == LANGUAGES, "every checkable language has its tool"
_EXTENSIONS = {"javascript": ".js", "jsx": ".jsx", "typescript": ".ts", "tsx": ".tsx"}
_PROJECT = Path(__file__).resolve().parents[2]

_PYTHON_CHECK = """
import json, sys, yaml
class Loader(yaml.SafeLoader):  # accepts application tags such as CloudFormation's !Ref
    pass
Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
results = []
for path, kind in json.load(open(sys.argv[1])):
    text = open(path, encoding="utf-8").read()
    try:
        if kind == "python":
            compile(text, path, "exec", dont_inherit=True)
        elif kind == "json":
            json.loads(text)
        else:
            for _ in yaml.load_all(text, Loader=Loader):
                pass
        results.append(None)
    except SyntaxError as exc:
        results.append(f"line {exc.lineno}: {exc.msg}")
    except json.JSONDecodeError as exc:
        results.append(f"line {exc.lineno}: {exc.msg}")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        results.append(where + str(getattr(exc, "problem", None) or exc))
print(json.dumps(results))
"""

_NODE_CHECK = r"""
const fs = require('fs'), vm = require('vm'), cp = require('child_process');
const files = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = files.map((file) => {
  const src = fs.readFileSync(file, 'utf8');
  try { new vm.Script(src, { filename: file }); return null; } catch (e) {
    try { new vm.SourceTextModule(src, { identifier: file }); return null; } catch (m) {
      // As a module it fails too: ask `node --check` for the message with its line.
      const module = /^\s*(import|export)\b/m.test(src);
      const target = module ? file + '.mjs' : file;
      if (module) fs.copyFileSync(file, target);
      const r = cp.spawnSync(process.execPath, ['--check', target], { encoding: 'utf8' });
      const text = (r.stderr || '') + '';
      const line = (text.match(/:(\d+)\n/) || [])[1];
      const msg = (text.match(/SyntaxError: [^\n]*/) || [(module ? m : e).message])[0];
      return (line ? 'line ' + line + ': ' : '') + msg;
    }
  }
});
process.stdout.write(JSON.stringify(out));
"""


@functools.cache
def esbuild_path() -> str | None:
    override = os.environ.get("LLMBENCH_ESBUILD")
    if override:
        return override if Path(override).is_file() else None
    for root in (Path.cwd(), _PROJECT):
        candidate = root / "node_modules" / ".bin" / "esbuild"
        if candidate.is_file():
            return str(candidate)
    return shutil.which("esbuild")


def _tool(kind: str) -> str | None:
    if kind == "python":
        return sys.executable
    if kind == "node":
        return shutil.which(node_program())
    if kind == "esbuild":
        return esbuild_path()
    if kind == "javac":
        return shutil.which("javac")
    return "structure"


CHECKERS = ("python", "node", "esbuild", "javac")


def available_checkers() -> dict[str, bool]:
    """Which syntax checkers this machine has: a missing one leaves its languages
    unchecked, which changes scores (recorded in the leaderboard envelope)."""
    return {kind: _tool(kind) is not None for kind in CHECKERS}


_TIMED_OUT = f"checker exceeded {sandbox.TIME_LIMIT_S:.0f} s"


def _line_problems(outcome: sandbox.Outcome, count: int) -> list[str | None]:
    """The JSON list a batch script printed, or the same failure for every file."""
    if outcome.timed_out:
        return [_TIMED_OUT] * count
    try:
        problems = json.loads(outcome.stdout)
        if isinstance(problems, list) and len(problems) == count:
            return problems
    except json.JSONDecodeError:
        pass
    detail = " ".join((outcome.stderr or outcome.stdout).split())[-160:]
    raise CheckerBroken(f"checker failed (exit {outcome.returncode}): {detail}")


def _run_python(tool: str, files: list[Path], kinds: list[str], work: Path) -> list[str | None]:
    manifest = work / "python-files.json"
    manifest.write_text(json.dumps([[str(f), k] for f, k in zip(files, kinds, strict=True)]))
    script = work / "check_python.py"
    script.write_text(_PYTHON_CHECK)
    outcome = sandbox.run([tool, "-I", str(script), str(manifest)], work, runs_answer_code=False)
    return _line_problems(outcome, len(files))


def _run_node(tool: str, files: list[Path], kinds: list[str], work: Path) -> list[str | None]:
    manifest = work / "node-files.json"
    manifest.write_text(json.dumps([str(f) for f in files]))
    script = work / "check_node.cjs"
    script.write_text(_NODE_CHECK)
    command = [tool, "--experimental-vm-modules", "--no-warnings", str(script), str(manifest)]
    return _line_problems(sandbox.run(command, work, runs_answer_code=False), len(files))


_ESBUILD_ERROR = re.compile(
    r"\[ERROR\] (?P<msg>[^\n]*)\n\s*\n\s*(?P<file>[^\n:]+):(?P<line>\d+):\d+:"
)


def _run_esbuild(tool: str, files: list[Path], kinds: list[str], work: Path) -> list[str | None]:
    command = [tool, *map(str, files), f"--outdir={work / 'out'}", "--log-limit=0", "--color=false"]
    outcome = sandbox.run(command, work, runs_answer_code=False)
    return _compiler_problems("esbuild", outcome, _ESBUILD_ERROR, files, work)


_JAVAC_ERROR = re.compile(r"^(?P<file>.+?\.java):(?P<line>\d+): error: (?P<msg>.*)$", re.M)


# Stop after parsing: imports of libraries that are not installed are not errors here. A
# parse is a short JVM run (jvm_share.SHORT_RUN).
JAVAC_FLAGS: tuple[str, ...] = (
    "-J-Xmx256m",
    *(f"-J{flag}" for flag in jvm_share.SHORT_RUN),
    "-XDshould-stop.ifNoError=PARSE",
    "-XDshould-stop.ifError=PARSE",
)


def _run_javac(tool: str, files: list[Path], kinds: list[str], work: Path) -> list[str | None]:
    # the classes a parse loads, from a class data archive (jvm_share.parse_archive)
    shared = jvm_share.parse_archive(tool, JAVAC_FLAGS)
    command = [tool, *JAVAC_FLAGS, *(f"-J{flag}" for flag in shared.javac)]
    command = [*command, "-d", str(work / "out"), *map(str, files)]
    reads = [shared.folder] if shared.folder else []
    outcome = sandbox.run(
        command, work, processes=sandbox.JVM_PROCESS_LIMIT, reads=reads, runs_answer_code=False
    )
    return _compiler_problems("javac", outcome, _JAVAC_ERROR, files, work)


def _compiler_problems(
    name: str, outcome: sandbox.Outcome, error: re.Pattern[str], files: list[Path], work: Path
) -> list[str | None]:
    """Per file, the first error the compiler `name` printed on it (`error` matches one
    on stderr: its file, relative to `work`, line and message), None when there is none;
    the same failure for every file at the time limit. CheckerBroken when the compiler
    failed without naming an error."""
    if outcome.timed_out:
        return [_TIMED_OUT] * len(files)
    problems: dict[str, str] = {}
    for match in error.finditer(outcome.stderr):
        problems.setdefault(
            str((work / match.group("file")).resolve()),
            f"line {match.group('line')}: {match.group('msg')}",
        )
    if outcome.returncode != 0 and not problems:
        raise CheckerBroken(f"{name} failed: {' '.join(outcome.stderr.split())[-160:]}")
    return [problems.get(str(f.resolve())) for f in files]


_RUNNERS: dict[str, Callable[[str, list[Path], list[str], Path], list[str | None]]] = {
    "python": _run_python,
    "node": _run_node,
    "esbuild": _run_esbuild,
    "javac": _run_javac,
}


def _file_name(index: int, language: str, path: str | None) -> str:
    """Each file in its own folder under its own name (javac wants Name.java for class Name);
    the extension says the language to esbuild."""
    name = PurePosixPath(path).name if path else f"block{index}"
    extension = _EXTENSIONS.get(language)
    if extension and not name.endswith(extension):
        name += extension
    elif language == "java" and not name.endswith(".java"):
        name += ".java"
    return f"f{index}/{name}"


def check_files(
    files: tuple[tuple[str, str, str], ...], cache_dir: Path | None = None
) -> list[FileCheck]:
    """Check (label, language, code) files; one result each, in order. With `cache_dir`
    the results are kept there (`_kept`), so the same files checked by another worker
    process or a later run are not checked again."""
    if cache_dir is None:
        return list(_check_cached(files))
    target = cache_dir / "syntax" / f"{_check_key(files)}.json"
    try:
        kept = [FileCheck.model_validate(c) for c in json.loads(target.read_text("utf-8"))]
        if [(c.path, c.language) for c in kept] == [(f[0], f[1]) for f in files]:
            return kept
    except (OSError, ValueError, TypeError):  # none yet, or not one: checked again
        pass
    checks = list(_check_cached(files))
    if _kept(checks):
        keep(cache_dir, target, json.dumps([c.model_dump() for c in checks]))
    return checks


def _kept(checks: list[FileCheck]) -> bool:
    """Whether results may be reused: none depends on this moment (a checker that is not
    installed or broke, or one that ran out of time on a loaded machine)."""
    return all(c.status != "not checked" and c.reason != _TIMED_OUT for c in checks)


@functools.cache
def _recipe() -> str:
    """What the checks' results depend on besides the files: this module and structure.py
    (scripts, flags, parsing of the tools' output), and each tool's program (path, size,
    time; the interpreter's version for the Python check)."""
    digest = hashlib.sha256(sys.version.encode())
    for source in (Path(__file__), Path(__file__).with_name("structure.py")):
        digest.update(source.read_bytes())
    for kind in CHECKERS:
        tool = _tool(kind)
        try:
            info = Path(tool).resolve().stat() if tool else None
        except OSError:
            info = None
        digest.update(f"\0{kind}:{tool}:{info and (info.st_size, info.st_mtime_ns)}".encode())
    return digest.hexdigest()


def _check_key(files: tuple[tuple[str, str, str], ...]) -> str:
    digest = hashlib.sha256(_recipe().encode())
    for label, language, code in files:
        for part in (label, language, code):
            digest.update(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()[:40]


@functools.lru_cache(maxsize=256)
def _check_cached(files: tuple[tuple[str, str, str], ...]) -> tuple[FileCheck, ...]:
    results: list[FileCheck | None] = [None] * len(files)
    groups: dict[str, list[int]] = {}
    for index, (label, language, code) in enumerate(files):
        kind = TOOL_KINDS.get(language)
        if kind is None:
            results[index] = FileCheck(
                path=label,
                language=language,
                status="not checked",
                reason="no checker for this language",
            )
        elif kind == "structure":
            problem = structure_problem(language, code)
            results[index] = _result(label, language, "structure", problem)
        else:
            groups.setdefault(kind, []).append(index)
    if groups:
        with tempfile.TemporaryDirectory(prefix="llmbench-check-") as folder:
            work = Path(folder)
            for kind, indexes in groups.items():
                for index, check in zip(
                    indexes,
                    _run_group(kind, [files[i] for i in indexes], indexes, work),
                    strict=True,
                ):
                    results[index] = check
            _recheck_jsx_in_js(files, results, work)
    return tuple(r for r in results if r is not None)


_JSX_HINT = re.compile(r"<[A-Za-z>]")


def _recheck_jsx_in_js(
    files: tuple[tuple[str, str, str], ...], results: list[FileCheck | None], work: Path
) -> None:
    """React projects often keep JSX in .js files; node rejects it, so a failing
    JavaScript file with JSX in it is parsed again as JSX by esbuild. Without esbuild
    such a file is "not checked": node's failure may only mean "this is JSX"."""
    again = [
        i
        for i, r in enumerate(results)
        if r is not None
        and r.checker == "node"
        and r.status == "fail"
        and _JSX_HINT.search(files[i][2])
    ]
    if not again:
        return
    as_jsx = [(files[i][0], "jsx", files[i][2]) for i in again]
    for i, check in zip(
        again, _run_group("esbuild", as_jsx, [-1 - i for i in again], work), strict=True
    ):
        if check.status != "fail":
            results[i] = check.model_copy(
                update={"language": "javascript", "checker": "esbuild (jsx)"}
            )


def _result(label: str, language: str, checker: str, problem: str | None) -> FileCheck:
    status = "pass" if problem is None else "fail"
    reason = "" if problem is None else " ".join(problem.split())[:200]
    return FileCheck(path=label, language=language, checker=checker, status=status, reason=reason)


def _run_group(
    kind: str, files: list[tuple[str, str, str]], indexes: list[int], work: Path
) -> list[FileCheck]:
    tool = _tool(kind)
    if tool is None:
        reason = f"{kind} is not installed" + (
            " (run scripts/install-runners in the project)" if kind == "esbuild" else ""
        )
        return [
            FileCheck(path=f[0], language=f[1], status="not checked", reason=reason) for f in files
        ]
    written: list[Path] = []
    for index, (label, language, code) in zip(indexes, files, strict=True):
        target = work / _file_name(index, language, label if "/" in label or "." in label else None)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
        written.append(target)
    try:
        problems = _RUNNERS[kind](tool, written, [f[1] for f in files], work)
    except (CheckerBroken, OSError) as exc:
        return [
            FileCheck(path=f[0], language=f[1], status="not checked", reason=str(exc)[:200])
            for f in files
        ]
    return [_result(f[0], f[1], kind, p) for f, p in zip(files, problems, strict=True)]
