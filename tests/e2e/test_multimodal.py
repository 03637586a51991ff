"""The catalogue's multimodal scenario end to end: offline, and through litellm to the local
server, which decodes every image part so the bytes that arrived are compared with the file."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.reporting import html, viewdata
from tests.conftest import REPO, read_leaderboard, read_results
from tests.conftest import judged_args as _args
from tests.llm_server import FakeLLMServer

SCENARIO = Path("scenarios/multimodal/MatchScreenshot.yaml")
IMAGE = Path("scenarios/multimodal/MatchScreenshot_images/pricing_target.png")
REFERENCE = Path("scenarios/multimodal/references/MatchScreenshot/PricingPage_NativeJS.md")
DATASET = Path("datasets/javascript/PricingPage_NativeJS")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def multimodal(pytester: pytest.Pytester) -> Path:
    """The committed scenario (with its image and reference) and its dataset."""
    shutil.copytree(REPO / "scenarios/multimodal", pytester.path / "scenarios/multimodal")
    shutil.copytree(REPO / DATASET, pytester.path / DATASET)
    return pytester.path


def test_offline_run_records_the_images_by_name_and_scores_by_the_multimodal_formula(
    pytester: pytest.Pytester, multimodal: Path
) -> None:
    result = pytester.runpytest(
        "--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1", "-m", "multimodal"
    )
    result.assert_outcomes(passed=2)
    items = {r["model"]: r for r in read_results(multimodal)}
    committed = _digest(REPO / IMAGE)
    for item in items.values():
        (image,) = item["images"]
        assert image == {
            "file": "pricing_target.png",
            "media_type": "image/png",
            "size": (REPO / IMAGE).stat().st_size,
            "sha256": committed,
        }
        assert (
            f"[image pricing_target.png (image/png, {image['size']} bytes, sha256 "
            in (item["prompt"])
        )
        assert "base64" not in item["prompt"]
    reference, echo = items["llmbench/reference"], items["llmbench/echo"]
    assert reference["accuracy"] == reference["completeness"] == pytest.approx(4.0)
    assert echo["completeness"] == pytest.approx(1.0)
    board = read_leaderboard(multimodal)["leaderboard"]
    rows = {r["model"]: r for r in board["categories"]}
    assert {r["formula"] for r in rows.values()} == {"multimodal"}
    # multimodal = 0.9*Acc' + 0.1*Compl' on 0..1: the reference's 4/4 gives 1.
    assert rows["llmbench/reference"]["score"] == pytest.approx(1.0)
    echo_acc = (echo["accuracy"] - 1) / 3
    assert rows["llmbench/echo"]["score"] == pytest.approx(0.9 * echo_acc)
    page = (multimodal / "reports/report.html").read_text()
    data = html.embedded_files(page)
    (run,) = data["index.json.gz"]["runs"]
    shown = viewdata.resolved_details(data)
    assert {i["images"][0]["file"] for i in shown} == {"pricing_target.png"}
    assert shown[0]["images"][0]["media_type"] == "image/png"
    # The category table names the formula of each row.
    assert {(r["category"], r["formula"]) for r in run["board"]["categories"]} == {
        ("multimodal", "multimodal")
    }
    # No image bytes: neither in the data nor in the page around it.
    assert "base64" not in json.dumps(data)
    assert "data:image" not in page and "iVBORw0KGgo" not in page  # a PNG's first bytes
    assert "base64" not in (multimodal / "reports/results.jsonl").read_text()
    assert (
        "| llmbench/reference | multimodal | multimodal |"
        in (multimodal / "reports/leaderboard.md").read_text()
    )


def _images_by_role(server: FakeLLMServer) -> dict[str, list[list[str]]]:
    seen: dict[str, list[list[str]]] = {}
    for request in server.requests:
        seen.setdefault(request["_role"], []).append(request["_images"])
    return seen


@pytest.mark.parametrize("workers", ["0", "2"])
def test_images_reach_candidate_and_evaluator_intact_through_litellm(
    pytester: pytest.Pytester, multimodal: Path, llm_server: FakeLLMServer, workers: str
) -> None:
    answer = (REPO / REFERENCE).read_text()
    llm_server.policy.candidate = lambda body: answer
    result = pytester.runpytest(*_args(llm_server, "-n", workers))
    result.assert_outcomes(passed=1)
    committed = _digest(REPO / IMAGE)
    seen = _images_by_role(llm_server)
    assert seen["candidate"] == [[committed]]
    assert seen["evaluator"] == [[committed]]  # judge_images: true
    assert all(images == [] for images in seen["grader"]) and len(seen["grader"]) == 2
    (candidate,) = [r for r in llm_server.requests if r["_role"] == "candidate"]
    text, part = candidate["messages"][1]["content"]
    assert text["type"] == "text" and "{{" not in text["text"] and "### index.html" in text["text"]
    assert part["image_url"]["url"].startswith("data:image/png;base64,iVBORw0KGgo")
    (item,) = read_results(multimodal)
    assert item["status"] == "scored" and item["attempts"][0]["accuracy"]["source"] == "judges"
    # The server's judge passes every step: the deterministic checks agree on all 24.
    steps = item["attempts"][0]["steps"]
    assert len(steps) == 24 and all(s["check_agrees"] for s in steps)


def _set_judge_images(root: Path, value: bool) -> None:
    path = root / SCENARIO
    text = path.read_text()
    assert "judge_images: true" in text
    path.write_text(text.replace("judge_images: true", f"judge_images: {str(value).lower()}"))


def test_without_judge_images_only_the_candidate_sees_the_image(
    pytester: pytest.Pytester, multimodal: Path, llm_server: FakeLLMServer
) -> None:
    _set_judge_images(multimodal, False)
    pytester.runpytest(*_args(llm_server)).assert_outcomes(passed=1)
    seen = _images_by_role(llm_server)
    assert seen["candidate"] == [[_digest(REPO / IMAGE)]]
    assert seen["evaluator"] == [[]]
    (evaluator,) = [r for r in llm_server.requests if r["_role"] == "evaluator"]
    # The evaluator still reads the image's note in the task prompt, as text.
    assert "[image pricing_target.png (image/png" in evaluator["messages"][1]["content"]


def _called(server: FakeLLMServer, before: int) -> list[dict[str, Any]]:
    return server.requests[before:]


def test_the_request_cache_keys_image_content_and_stores_no_image(
    pytester: pytest.Pytester, multimodal: Path, llm_server: FakeLLMServer
) -> None:
    pytester.runpytest(*_args(llm_server)).assert_outcomes(passed=1)
    first = len(llm_server.requests)
    assert first == 4  # candidate, evaluator, two graders
    pytester.runpytest(*_args(llm_server)).assert_outcomes(passed=1)
    assert len(llm_server.requests) == first  # all four from the cache
    # Same file name, other pixels: candidate and evaluator are asked again; the graders'
    # requests (the evaluator's report on the same answer) are unchanged and stay cached.
    changed = multimodal / IMAGE
    data = bytearray(changed.read_bytes())
    data[-20] ^= 0xFF  # inside the last chunks: still a PNG by its magic bytes
    changed.write_bytes(bytes(data))
    pytester.runpytest(*_args(llm_server)).assert_outcomes(passed=1)
    again = _called(llm_server, first)
    assert sorted(r["_role"] for r in again) == ["candidate", "evaluator"]
    assert all(r["_images"] == [hashlib.sha256(data).hexdigest()] for r in again)
    database = (multimodal / ".llmbench_cache/requests.sqlite3").read_bytes()
    assert b"iVBORw0KGgo" not in database  # the base64 of a PNG's first bytes


def test_a_broken_image_stops_collection_with_one_line(
    pytester: pytest.Pytester, multimodal: Path
) -> None:
    (multimodal / IMAGE).write_bytes(b"GIF89a" + bytes(64))
    result = pytester.runpytest("--llm-model=llmbench/reference")
    result.assert_outcomes(errors=1)
    output = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in output and "Traceback" not in output
    result.stdout.fnmatch_lines(
        [
            "*MatchScreenshot.yaml: images.0.file: pricing_target.png is not a PNG or JPEG "
            "file (by its first bytes)"
        ]
    )
