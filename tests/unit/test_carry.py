"""The carry folder of a suite's runs (functional/carry.py): what a run wrote is copied
only as folders and regular files, within limits, and never hangs on a FIFO."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_llmbench.functional import carry


def test_only_folders_and_regular_files_are_copied(tmp_path: Path) -> None:
    source, target = tmp_path / "cache", tmp_path / "copy"
    (source / "deep").mkdir(parents=True)
    (source / "deep" / "entry").write_text("transformed")
    (source / "secret").symlink_to("/etc/passwd")
    (source / "outside").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(source / "pipe")  # copying it would block on its reader
    assert carry.copy_folder(source, target)
    found = sorted(p.relative_to(target).as_posix() for p in target.rglob("*"))
    assert found == ["deep", "deep/entry"]
    assert (target / "deep" / "entry").read_text() == "transformed"


@pytest.mark.parametrize("limit", ["MAX_FILES", "MAX_BYTES"])
def test_a_folder_past_a_limit_is_not_carried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str
) -> None:
    monkeypatch.setattr(carry, limit, 3)
    source = tmp_path / "cache"
    source.mkdir()
    for n in range(4):
        (source / f"f{n}").write_text("x")
    assert not carry.copy_folder(source, tmp_path / "copy")
    assert not (tmp_path / "copy").exists()


def test_a_missing_folder_or_a_link_to_one_is_not_carried(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert not carry.copy_folder(tmp_path / "link", tmp_path / "copy")
    assert not carry.copy_folder(tmp_path / "absent", tmp_path / "copy")
    assert not (tmp_path / "copy").exists()
