"""Where a run writes: ini folders relative to the rootdir, one cache folder, .gitignore
in folders the plugin creates, --json-report-file alone, and the `llmbench` command's
--version, broken pipes and merge onto its own input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_llmbench import __version__
from pytest_llmbench.cli import main


def test_ini_report_dir_is_relative_to_the_rootdir(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\nllm_report_dir = out/bench\n")
    elsewhere = pytester.mkdir("sub")
    monkeypatch.chdir(elsewhere)
    result = pytester.runpytest(str(project), f"--rootdir={project}")
    result.assert_outcomes(passed=2)
    assert (project / "out" / "bench" / "leaderboard.json").is_file()
    assert not (elsewhere / "out").exists()
    # The command line's value is the user's own path: relative to where they are.
    result = pytester.runpytest(str(project), f"--rootdir={project}", "--llm-report-dir=here")
    assert (elsewhere / "here" / "leaderboard.json").is_file()


def test_one_cache_folder_and_gitignores_in_created_folders(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest("--llm-cache-dir=c", "--llm-report-dir=r")
    result.assert_outcomes(passed=2)
    assert list((project / "c" / "complexity").glob("*.json"))  # the complexity cache too
    assert not (project / ".llmbench_cache").exists()
    for folder in ("c", "r"):
        assert (project / folder / ".gitignore").read_text().splitlines()[-1] == "*"


def test_json_report_file_alone_is_honoured(pytester: pytest.Pytester, project: Path) -> None:
    pytester.runpytest("--json-report-file=mine.json").assert_outcomes(passed=2)
    assert "llmbench" in (project / "mine.json").read_text()
    assert not (project / "reports" / "report.json").exists()


def test_llmbench_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"llmbench {__version__}"


def test_merge_refuses_to_write_over_one_of_its_inputs(
    pytester: pytest.Pytester, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytester.runpytest().assert_outcomes(passed=2)
    before = (project / "reports" / "results.jsonl").read_text()
    assert main(["merge", str(project / "reports"), "-o", str(project / "reports")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is one of the report dirs merged" in err
    assert (project / "reports" / "results.jsonl").read_text() == before


def test_output_into_a_closed_pipe_ends_quietly(project: Path) -> None:
    code = "import sys; from pytest_llmbench.cli import main; sys.exit(main(sys.argv[1:]))"
    command = f"{sys.executable} -c '{code}' datasets --json {project} | head -1"
    out = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, cwd=project
    )
    assert out.stdout.strip() == "["
    assert "Traceback" not in out.stderr and "BrokenPipeError" not in out.stderr
