"""Hidden Rust tests (Cargo's integration tests, `tests/*.rs`) run by `cargo test
--offline` in the sandbox, with Debian's Rust (rustc and cargo from /usr/bin; a rustup
proxy earlier on the PATH is not used). Crates come from Debian's librust-*-dev
packages: the run's own CARGO_HOME replaces crates.io with the directory source
/usr/share/cargo/registry, so `rand = "0.8"` resolves with no registry reachable.

The test files are laid over the workspace (overlay.py) and protected; only they run
(`--test <name>` each, not the answer's own unit tests nor doc tests), every one to its
end (`--no-fail-fast`). Outcomes are libtest's lines, named `<test file>::<test>`, with
the first lines of a failure's panic; a crate that does not build is one line of the
compiler's first errors."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path, PurePosixPath

from ..schema.functional import Status, TestOutcome
from ..toolchain import sandbox
from .outcome import Run
from .overlay import overlay
from .workspace import HIDDEN, OUT

DEBIAN_REGISTRY = Path("/usr/share/cargo/registry")
DEBIAN_CARGO = Path("/usr/bin/cargo")
MEMORY_MB = 2048
PROCESS_LIMIT = 256  # cargo, rustc's threads, the linker, the tests' threads
MAX_ERROR_LINES = 6
CONFIG = f"""\
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "{DEBIAN_REGISTRY}"

[net]
offline = true

[term]
color = "never"
"""
_RUNNING = re.compile(r"^\s*Running (?:unittests )?(\S+)")
_RESULT = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored)\b")
_SECTION = re.compile(r"^---- (.+?) stdout ----$")
_STATUS: dict[str, Status] = {"ok": "passed", "FAILED": "failed", "ignored": "skipped"}


def _cargo() -> Path | None:
    """$LLMBENCH_CARGO, else Debian's cargo, else the one on the PATH."""
    written = os.environ.get("LLMBENCH_CARGO")
    if written:
        return Path(written)
    if DEBIAN_CARGO.is_file():
        return DEBIAN_CARGO
    found = shutil.which("cargo")
    return Path(found) if found else None


def missing() -> str | None:
    """Why this machine cannot run Rust tests, or None."""
    cargo = _cargo()
    if cargo is None or not cargo.is_file():
        return (
            "cargo is not installed (Debian: cargo, rustc; scripts/install-runners installs them)"
        )
    return None


def read_output(text: str) -> list[TestOutcome]:
    """libtest's per-test lines of every test binary, each named after its test file,
    with the first lines of its panic."""
    target = ""
    results: dict[str, Status] = {}
    messages: dict[str, list[str]] = {}
    section: str | None = None
    for line in text.splitlines():
        if running := _RUNNING.match(line):
            target, section = PurePosixPath(running.group(1)).stem, None
        elif result := _RESULT.match(line):
            results[f"{target}::{result.group(1)}"] = _STATUS[result.group(2)]
        elif found := _SECTION.match(line):
            section = f"{target}::{found.group(1)}"
        elif section is not None and line.strip() and not line.startswith("note: run with"):
            if line.startswith(("failures:", "test result:")):
                section = None
            else:
                messages.setdefault(section, []).append(line.strip())
    return [
        TestOutcome(
            name=name[:300],
            passed=status == "passed",
            message="\n".join(messages.get(name, [])[:MAX_ERROR_LINES])[:600],
            status=status,
        )
        for name, status in results.items()
    ]


def _build_errors(text: str, returncode: int | None) -> str:
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("error")]
    shown = [lines[j].strip() for i in starts[:2] for j in range(i, min(i + 3, len(lines)))]
    return " | ".join(shown or lines[-MAX_ERROR_LINES:])[:800] or f"cargo exit {returncode}"


def hidden(
    workspace: Path, hidden_folder: Path, timeout_s: float, *, processes: int | None = None
) -> Run:
    """The hidden integration tests, laid over the workspace's crate, by `cargo test`."""
    cargo = _cargo()
    if cargo is None:
        return Run.broken(missing() or "cargo is not installed")
    placed = overlay(workspace, hidden_folder)
    targets = sorted(
        PurePosixPath(p).stem
        for p in placed
        if PurePosixPath(p).parent.as_posix() == "tests" and p.endswith(".rs")
    )
    if not targets:
        return Run.broken("the hidden tests folder has no tests/*.rs file")  # (tests/x/ are data)
    if not (workspace / "Cargo.toml").is_file():
        return Run.broken("the workspace has no Cargo.toml (the dataset's manifest)")
    home, tmp = workspace / OUT / "cargo-home", workspace / OUT / "tmp"
    for folder in (home, tmp):
        folder.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(CONFIG, encoding="utf-8")
    rustc = cargo.with_name("rustc")
    env = {
        "CARGO_HOME": str(home.resolve()),
        "CARGO_TARGET_DIR": str((workspace / OUT / "target").resolve()),
        "CARGO_TERM_COLOR": "never",
        "TMPDIR": str(
            tmp.resolve()
        ),  # rustc's temporary files; the sandbox's /tmp is not the run's
        **({"RUSTC": str(rustc)} if rustc.is_file() else {}),
    }
    # one stream, so that each result line follows the `Running tests/x.rs` it belongs to
    command = [
        "sh", "-c", 'exec "$0" "$@" 2>&1', str(cargo), "test", "--offline", "--no-fail-fast",
        *(f"--test={t}" for t in targets), "--", "--test-threads=2",
    ]  # fmt: skip
    outcome = sandbox.run(
        command,
        workspace,
        timeout=timeout_s,
        memory_mb=MEMORY_MB,
        processes=processes or PROCESS_LIMIT,
        env=env,
        reads=[DEBIAN_REGISTRY] if DEBIAN_REGISTRY.is_dir() else [],
        protect=[workspace / HIDDEN, *(workspace / p for p in placed)],
    )
    tests = read_output(outcome.stdout)
    if not tests and not outcome.killed:
        why = _build_errors(
            outcome.stdout.replace(str(workspace.resolve()), "."), outcome.returncode
        )
        return Run.broken(f"the crate does not build with its tests: {why}")
    return Run.of(tests, outcome)
