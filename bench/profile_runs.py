"""Print where the CPU time of one catalogue item's hidden-test runs goes: V8's CPU profiles
of the node processes that run them, summed by package and by function.

    python bench/profile_runs.py --only NAME [--dataset KEY] [--which reference|echo]
                                 [--top N] [--keep DIR]

The item runs as bench/functional.py runs it, with node's `--cpu-prof` added where node
starts: the command of each run of its own (node's acceptance runs, whose test-file
processes inherit the flag from `node --test`; the step that makes the app's bundles), the
served runners' servers (Jest's tests run in its server's process) and Vitest's test
processes (a flag of the server's forks pool, in the copy of the server the workspace
gets). Every sandbox sees the folder of profiles (--keep DIR, else a temporary folder that
is removed), writable; a process writes its profile as it exits, so served ones are ended
by closing their input, not killed, and Vitest's test processes exit on the pool's
SIGTERM.

For each group of profiles (a run's command, a server, Vitest's test processes) it prints
the milliseconds sampled, self time by package (node_modules' package, else the file or
node's internals; `(idle)` and `(garbage collector)` are V8's own), the functions with the
most self time, and the most inclusive time (each function counted once per sample).
JVM runs (JUnit) are not profiled here. The profiler itself costs some time; read the
figures as shares, not as the runs' times (bench/functional.py gives those).

Nothing here is used by a run: it patches the runner modules in its own process only.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import functional as bench  # noqa: E402
from pytest_llmbench.functional import launch, vitest  # noqa: E402
from pytest_llmbench.toolchain import confine, served  # noqa: E402
from pytest_llmbench.toolchain.node_packages import node_program  # noqa: E402

INSIDE = "/llmbench-cpu-profiles"  # where the sandboxes see the folder of profiles
# node's process.exit as it was before Vitest's worker replaced it (it throws there)
EXIT_ON_TERM = (
    "data:text/javascript,const exit = process.exit.bind(process);"
    "process.on('SIGTERM', () => exit(0));"
)


def _flags(group: str) -> list[str]:
    return ["--cpu-prof", f"--cpu-prof-dir={INSIDE}/{group}"]


def instrument(keep: Path) -> None:
    """Patch the runner modules of this process: every sandbox sees `keep` (writable) at
    INSIDE, and node starts with --cpu-prof writing there, a folder per group."""
    keep.chmod(0o777)  # the sandboxes' users are not this one
    own_view = confine.view

    def view(work: Path, reads: Sequence[Path], protect: Sequence[Path]) -> list[str]:
        arguments = own_view(work, reads, protect)  # ends with --chdir WORK
        return [*arguments[:-2], "--bind", str(keep), INSIDE, *arguments[-2:]]

    confine.view = view

    own_run = launch.RunnerSandbox.run

    def run(
        self: launch.RunnerSandbox,
        command: list[str],
        workspace: Path,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        if command[:1] == [node_program()]:
            script = next((Path(c).name for c in command[1:] if not c.startswith("-")), "node")
            command = [command[0], *_flags(f"run of its own, {script}"), *command[1:]]
        return own_run(self, command, workspace, *args, **kwargs)

    launch.RunnerSandbox.run = run  # type: ignore[method-assign]

    own_serve, own_end = served.serve, served.end
    profiled: set[int] = set()  # the node servers' processes

    def serve(command: list[str], cwd: Path, **kwargs: Any) -> Any:
        if command[:1] != [node_program()]:
            return own_serve(command, cwd, **kwargs)
        command = [command[0], *_flags(f"server, {Path(command[-1]).name}"), *command[1:]]
        started = own_serve(command, cwd, **kwargs)
        if isinstance(started, tuple):
            profiled.add(started[0].pid)
        return started

    def end(process: subprocess.Popen[bytes]) -> None:
        if process.pid in profiled and process.stdin is not None:
            profiled.discard(process.pid)  # a node server ends at its input's end, and
            try:  # writes its profile as it exits
                process.stdin.close()
                process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        own_end(process)

    served.serve, served.end = serve, end

    own_server = vitest._server

    def vitest_server(workspace: Path, modules: Path, share: Path | None) -> list[str]:
        command = own_server(workspace, modules, share)
        server = Path(command[-1])
        text = server.read_text(encoding="utf-8")
        pool = "test.poolOptions.vmForks.execArgv = "
        if pool not in text:
            print("vitest_server.mjs has changed: its test processes are not profiled")
            return command
        extra = [*_flags("Vitest's test processes"), "--import", EXIT_ON_TERM]
        # Vitest passes the server's own flags on after the pool's: not its profile folder
        own = "process.execArgv = process.execArgv.filter((a) => !a.startsWith('--cpu-prof'));\n"
        text = text.replace(pool, f"{own}{pool}{json.dumps(extra)}.concat(", 1)
        line_end = text.index(";\n", text.index(pool))
        server.write_text(text[:line_end] + ")" + text[line_end:], encoding="utf-8")
        return command

    vitest._server = vitest_server


def summary(profiles: Sequence[Path], top: int) -> list[str]:
    """Self time by package, the top functions by self and by inclusive time."""
    total = 0.0
    by_package: collections.Counter[str] = collections.Counter()
    by_self: collections.Counter[str] = collections.Counter()
    by_total: collections.Counter[str] = collections.Counter()
    for path in profiles:
        profile = json.loads(path.read_text(encoding="utf-8"))
        nodes = {n["id"]: n for n in profile["nodes"]}
        parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
        sampled: collections.Counter[int] = collections.Counter()
        for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=False):
            sampled[sample] += delta / 1000
        for node, ms in sampled.items():
            total += ms
            frame = nodes[node]["callFrame"]
            by_package[_package(frame)] += ms
            by_self[_name(frame)] += ms
            seen: set[str] = set()
            at: int | None = node
            while at is not None:
                name = _name(nodes[at]["callFrame"])
                if name not in seen:
                    seen.add(name)
                    by_total[name] += ms
                at = parent.get(at)
    lines = [f"  {len(profiles)} profiles, {total:,.0f} ms sampled", "  self time by package:"]
    lines += [
        f"  {ms:9,.0f} ms {ms / total:6.1%}  {name}" for name, ms in by_package.most_common(top)
    ]
    lines.append("  functions, self time:")
    lines += [f"  {ms:9,.0f} ms  {name}" for name, ms in by_self.most_common(top)]
    lines.append("  functions, inclusive time:")
    inclusive = [(n, ms) for n, ms in by_total.most_common(top + 3) if not n.startswith("(root)")]
    lines += [f"  {ms:9,.0f} ms  {name}" for name, ms in inclusive[:top]]
    return lines


def _package(frame: dict[str, Any]) -> str:
    url: str = frame["url"]
    if not url:
        return frame["functionName"] if frame["functionName"].startswith("(") else "(native)"
    if "/node_modules/" in url:
        parts = url.rsplit("/node_modules/", 1)[1].split("/")
        return "/".join(parts[:2]) if parts[0].startswith("@") else parts[0]
    if url.startswith("node:"):
        return "node's internals"
    return url.rsplit("/", 1)[-1]


def _name(frame: dict[str, Any]) -> str:
    where = frame["url"].rsplit("/", 1)[-1]
    name = frame["functionName"] or "(anonymous)"
    return f"{name} ({where}:{frame['lineNumber'] + 1})" if where else name


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", required=True, help="a scenario's name, or part of it")
    parser.add_argument("--dataset", help="one dataset of it (default: each)")
    parser.add_argument("--which", choices=("reference", "echo"), default="reference")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--keep", type=Path, help="keep the profiles in this folder")
    args = parser.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="llmbench-profiles-"))
    keep.mkdir(parents=True, exist_ok=True)
    instrument(keep)
    items = bench.catalogue(REPO / "scenarios", REPO / "datasets", args.only)
    items = [(s, k) for s, k in items if args.dataset in (None, k)]
    if not items:
        print(f"no catalogue item with hidden tests matches --only {args.only!r}")
        return
    for scenario, key in items:
        result, seconds = await bench.one(scenario, key, bench.answer_of(scenario, key, args.which))
        print(f"{scenario.id} {key} {args.which}: rate {result.rate:.2f}, {seconds:.1f} s")
    for group in sorted(p for p in keep.iterdir() if p.is_dir()):
        print(f"{group.name}:")
        print("\n".join(summary(sorted(group.glob("*.cpuprofile")), args.top)))
    if args.keep is None:
        shutil.rmtree(keep, ignore_errors=True)
    else:
        print(f"profiles kept in {keep}")


if __name__ == "__main__":
    asyncio.run(main())
