"""Every bad file of the corpus (files.py) in one project, collected once: each case ends
in one line naming its file and field, or is a documented tolerance; the run shows no
traceback, no INTERNALERROR, and nothing from outside the project (environment, passwd)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.cli.datasets import dataset_rows, render
from pytest_llmbench.errors import FormatError
from pytest_llmbench.formats.dataset import load_dataset
from tests.bad_inputs.files import CANARY, CASES, PASSWD_LINE, dataset
from tests.conftest import write_project


def _case_ids() -> dict[str, str]:
    return {kind: f"B{n:03d}" for n, kind in enumerate(CASES, start=1)}


@pytest.mark.timeout(300)
def test_every_bad_file_is_one_line_or_a_documented_tolerance(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_project(pytester.path, {})
    ids = _case_ids()
    for kind, sid in ids.items():
        CASES[kind].build(root, sid)
    monkeypatch.setenv(CANARY, CANARY)  # what /proc/self/environ would show
    # A subprocess with a time limit: a case that hangs fails the test instead of freezing it.
    result = pytester.runpytest_subprocess("--collect-only", "-q", "-p", "no:randomly", timeout=240)
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output
    assert "INTERNALERROR" not in output
    assert CANARY not in output and PASSWD_LINE not in output
    lines = output.splitlines()
    wrong = []
    for kind, sid in ids.items():
        bad = CASES[kind]
        collected = any(f"/{sid}.yaml::" in line for line in lines)
        if bad.accepted:
            if not collected:
                wrong.append(f"{kind}: a documented tolerance but not collected")
            continue
        patterns = [p.replace("{id}", sid) for p in bad.expect]
        found = [
            line
            for line in lines
            if all(p in line for p in patterns) and (sid in line or not bad.named)
        ]
        if collected:
            wrong.append(f"{kind}: silently accepted (collected)")
        elif not found:
            wrong.append(f"{kind}: no line with {patterns}")
    assert not wrong, "\n".join(wrong) + "\n\n" + output[-6000:]


def _load(tmp_path: Path, kind: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """The files of a tolerated dataset case as loaded: {path: text}, and its Latin-1 list."""
    CASES[kind].build(tmp_path, "X")
    loaded = load_dataset(tmp_path / "datasets" / "javascript" / "DX")
    return {f.path: f.text for f in loaded.files}, loaded.latin1


def test_tolerated_dataset_files_are_read_as_documented(tmp_path: Path) -> None:
    files, latin1 = _load(tmp_path / "a", "file-latin1")
    assert files["old.txt"] == "café\n" and latin1 == ("old.txt",)
    listed = render(dataset_rows(tmp_path / "a", use_cache=False))
    assert "read as Latin-1 (not UTF-8): DX/old.txt" in listed
    files, _ = _load(tmp_path / "b", "link-inside")
    assert files["again.txt"] == files["notes.txt"] == "hello\n"
    files, _ = _load(tmp_path / "c", "link-folder-inside")
    assert set(files) == {"sub/a.txt"}  # the folder link to it is skipped
    for kind in ("file-binary", "file-large-excluded", "file-large-binary"):
        files, latin1 = _load(tmp_path / kind, kind)
        assert set(files) == {"a.txt"} and not latin1, kind
    files, _ = _load(tmp_path / "fifo", "file-fifo")
    assert set(files) == {"notes.txt"}  # the FIFO is neither read (no hang) nor listed


def test_a_link_to_the_environment_is_refused_by_the_loader(tmp_path: Path) -> None:
    dataset(links={"notes2.txt": "/proc/self/environ"})(tmp_path, "E")
    with pytest.raises(FormatError, match="notes2.txt: is a symbolic link that resolves"):
        load_dataset(tmp_path / "datasets" / "javascript" / "DE")
