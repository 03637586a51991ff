"""The node the checkers and runners run under (toolchain/node_packages.node_program): the
build package-lock.json pins, where it is installed, else the PATH's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pytest_llmbench.toolchain.node_packages import PINNED, node_missing, node_program


def _pinned(modules: Path, mode: int = 0o755) -> Path:
    program = modules / PINNED / "bin" / "node"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(mode)
    return program


def test_the_pinned_build_in_the_packages_folder_is_the_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = _pinned(tmp_path)
    monkeypatch.setenv("LLMBENCH_NODE_MODULES", str(tmp_path))
    assert node_program() == str(program.resolve())
    assert node_missing(tmp_path, "node's test", "scripts/install-runners") is None


@pytest.mark.parametrize("mode", [None, 0o644])
def test_without_an_executable_pinned_build_the_paths_node_runs(
    mode: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if mode is not None:
        _pinned(tmp_path, mode)
    monkeypatch.setenv("LLMBENCH_NODE_MODULES", str(tmp_path))
    assert node_program() == "node"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert "Node.js 18 or newer must be on the PATH" in str(
        node_missing(tmp_path, "node's test", "scripts/install-runners")
    )


@pytest.mark.skipif(sys.platform != "linux", reason="the pinned builds are Linux's")
def test_this_checkouts_runners_run_the_pinned_build() -> None:
    """scripts/install-runners installed package-lock.json's build into the project."""
    if not (Path(__file__).resolve().parents[2] / "node_modules" / "esbuild").is_dir():
        pytest.skip("scripts/install-runners was not run here")
    assert node_program().endswith(f"node_modules/{PINNED}/bin/node")
