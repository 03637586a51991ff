"""`llmbench view` without a browser: what the server answers, and user mistakes as one line."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from pytest_llmbench.cli import main, view
from pytest_llmbench.reporting import viewdata
from tests.unit.test_leaderboard import _item


def _report_dir(folder: Path, acc: float) -> Path:
    folder.mkdir()
    items = [_item("m", "analysis", acc, 4, None, 1), _item("n", "analysis", 2, 2, None, 1)]
    for n, item in enumerate(items):
        item.attempts[0].answer, item.attempts[0].steps, item.attempts[0].reports = "x", [], []
        item.scenario, item.dataset, item.nodeid = "S", None, f"s.yaml::t[{n}]"
    (folder / "results.jsonl").write_text("".join(i.model_dump_json() + "\n" for i in items))
    return folder


def test_serves_the_page_and_the_data_and_nothing_else(tmp_path: Path) -> None:
    base, new = _report_dir(tmp_path / "base", 4), _report_dir(tmp_path / "new", 1)
    bundle = view.bundle([base, new])
    # NEW against BASE as `llmbench compare` has it: model m dropped from 4 to 1.
    (row,) = [r for r in bundle.comparisons["1"] if r["model"] == "m" and r["category"] == "(all)"]
    assert row["change"] is not None and row["change"] < 0
    httpd = view.server(bundle.files(), 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        with urllib.request.urlopen(url) as reply:
            assert 'data-source="data/"' in reply.read().decode()
        with urllib.request.urlopen(url + "data/index.json.gz") as reply:
            index = viewdata.unpack(reply.read())
        assert [r["name"] for r in index["runs"]] == ["base", "new"]
        for missing in ("data/../results.jsonl", "data/nothing.json.gz", "results.jsonl"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(url + missing)
            assert caught.value.code == 404
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_mistakes_end_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path / "nowhere"), "--no-browser"]) == 2
    assert "nowhere: no results.jsonl here" in capsys.readouterr().err
    folder = _report_dir(tmp_path / "run", 4)
    assert main(["view", str(folder), "--no-browser", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--port 70000: expected 0 (any free port) to 65535" in err
    busy = view.server({}, 0)
    try:
        port = busy.server_address[1]
        assert main(["view", str(folder), "--no-browser", "--port", str(port)]) == 2
        assert f"--port {port}: cannot listen on 127.0.0.1" in capsys.readouterr().err
    finally:
        busy.server_close()
