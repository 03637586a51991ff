"""The plugin as a good pytest citizen (issue 14): in other people's repositories, with the
everyday options (--lf, --ff, --nf, --sw, --deselect, -x, --maxfail) and the ecosystem's
plugins (pytest-rerunfailures, pytest-timeout, pytest-html, JUnit XML). Runs on pytest 8
and 9 (.ci/run runs this file under the other major version too)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import read_results, write_project
from tests.llm_server import FakeLLMServer

OFFLINE = "--llm-model=llmbench/reference,llmbench/echo"
GATE = "--llm-min-quality=0.9"  # echo fails it on both scenarios, reference passes
ECHO_ADD = "scenarios/generation/AddGreeting.yaml::test_scenario[AddGreeting-Mini-llmbench/echo]"

# A model the conftest makes: answers after `delay` seconds, counts its calls in calls.txt,
# and behaves as the file behaviour.txt says (bad first answer, raise, ...).
MODEL_CONFTEST = """
import asyncio, importlib, pathlib
import pytest
from pytest_llmbench import Model, ModelReply

HERE = pathlib.Path(__file__).parent
GOOD = "### src/app.js\\n```javascript\\nexport function add(a, b) {\\n  return a + b;\\n}\\n" \\
    "export function greet(name) {\\n  return `Hello, ${name}!`;\\n}\\n```\\n"

class Mine(Model):
    offline = False

    def __init__(self, name):
        self.name = name

    async def complete(self, request):
        log = HERE / "calls.txt"
        calls = (log.read_text() if log.exists() else "") + self.name + "\\n"
        log.write_text(calls)
        behaviour = (HERE / "behaviour.txt").read_text().strip() if (HERE / "behaviour.txt").exists() else ""
        delay = float((HERE / "delay.txt").read_text()) if (HERE / "delay.txt").exists() else 0
        if (HERE / "fake-clock.txt").exists():  # the engine's clock is the fake one below
            importlib.import_module("pytest_llmbench.execution.engine").clock.advance(delay)
        else:
            await asyncio.sleep(delay)
        if behaviour == "raise":
            raise RuntimeError("the deployment is gone")
        bad = behaviour == "bad" or (behaviour == "bad-first" and calls.count(self.name) == 1)
        return ModelReply(model=self.name, text="nothing" if bad else GOOD, latency_s=0.1,
                          prompt_tokens=5, completion_tokens=7)

def pytest_llmbench_make_model(name, settings):
    return Mine(name) if name.startswith("mine/") else None

class FakeClock:
    # the engine's clock (an item's own pipeline time): it moves only when Mine says
    def __init__(self):
        self.now = 1000.0
    def __call__(self):
        return self.now
    def advance(self, seconds):
        self.now += seconds

def pytest_configure(config):
    if (HERE / "fake-clock.txt").exists():
        engine = importlib.import_module("pytest_llmbench.execution.engine")
        config.stash[SAVED] = engine.clock
        engine.clock = FakeClock()

def pytest_unconfigure(config):
    if SAVED in config.stash:
        importlib.import_module("pytest_llmbench.execution.engine").clock = config.stash[SAVED]

SAVED = pytest.StashKey()
"""


def _calls(root: Path) -> list[str]:
    log = root / "calls.txt"
    return log.read_text().split() if log.exists() else []


# 1. Scenario roots --------------------------------------------------------------------


def _files(root: Path) -> set[str]:
    return {
        str(p.relative_to(root))
        for p in root.rglob("*")
        if not {".pytest_cache", "__pycache__"} & set(p.parts)
        # pytester's own: temporary dirs and the subprocess's captured output
        and not p.parts[len(root.parts)].startswith("runpytest-")
        and p.name not in ("stdout", "stderr")
    }


def test_a_suite_without_scenarios_is_unchanged_by_the_plugin(pytester: pytest.Pytester) -> None:
    own = pytester.path / "tests" / "scenarios" / "login" / "happy_path.yaml"
    own.parent.mkdir(parents=True)
    own.write_text("user: alice\npassword: secret\nexpect: welcome\n")  # the project's test data
    pytester.makepyfile(**{"tests/test_login": "def test_login():\n    assert True\n"})
    before = _files(pytester.path)
    plain = pytester.runpytest_subprocess("-p", "no:llmbench", "-p", "no:randomly")
    after_plain = _files(pytester.path)
    with_plugin = pytester.runpytest_subprocess("-p", "no:randomly")
    assert plain.ret == with_plugin.ret == 0
    with_plugin.assert_outcomes(passed=1)
    assert _files(pytester.path) == after_plain == before  # no reports/, no cache folder
    assert _output(with_plugin) == _output(plain)


def _output(result: pytest.RunResult) -> list[str]:
    """The run's output without what differs by nature: the plugin list and the timing."""
    return [
        re.sub(r" in [0-9.]+s", "", line)
        for line in result.stdout.lines
        if not line.startswith("plugins:")
    ]


def test_scenarios_come_from_the_configured_roots_only(pytester: pytest.Pytester) -> None:
    write_project(pytester.path / "bench")
    write_project(pytester.path)  # scenarios/ at the rootdir: not a root once ini names others
    pytester.makeini("[pytest]\nllm_scenarios = bench/scenarios\n")
    result = pytester.runpytest("--collect-only", "-q", OFFLINE)
    result.stdout.fnmatch_lines(["bench/scenarios/*AddGreeting*", "4 tests collected*"])
    assert "scenarios/generation/AddGreeting.yaml" not in result.stdout.str().replace(
        "bench/scenarios", ""
    )


# 2. Start-up --------------------------------------------------------------------------


def test_a_run_without_scenarios_imports_nothing_heavy(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_x="def test_x():\n    assert True\n")
    heavy = ["pydantic", "yaml", "lizard", "radon", "litellm", "pytest_llmbench.schema.results"]
    probe = (
        "import sys, pytest\n"
        "code = pytest.main(['-q', '-p', 'no:cacheprovider', '-p', 'no:html', 'test_x.py'])\n"
        f"print('HEAVY', sorted(m for m in {heavy!r} if m in sys.modules), code)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=pytester.path, env=env, capture_output=True, text=True
    )
    assert "HEAVY [] 0" in out.stdout, out.stdout + out.stderr


# 3. Node ids: --lf, --ff, --nf, --sw, --deselect, node-id arguments --------------------


def test_last_failed_and_failed_first_select_scenario_items(
    pytester: pytest.Pytester,
) -> None:
    write_project(pytester.path)
    pytester.runpytest(OFFLINE, GATE).assert_outcomes(passed=2, failed=2)
    last = pytester.runpytest(OFFLINE, GATE, "--lf")
    last.assert_outcomes(failed=2)
    last.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures*"])
    first = pytester.runpytest(OFFLINE, GATE, "--ff", "-v")
    first.assert_outcomes(passed=2, failed=2)
    ran = [line for line in first.stdout.lines if "::test_scenario[" in line]
    assert all("llmbench/echo" in line for line in ran[:2]), ran


def test_new_first_stepwise_deselect_and_node_id_arguments(pytester: pytest.Pytester) -> None:
    write_project(pytester.path)
    pytester.runpytest(OFFLINE, GATE).assert_outcomes(passed=2, failed=2)
    pytester.runpytest(ECHO_ADD, OFFLINE, GATE).assert_outcomes(failed=1)
    pytester.runpytest(OFFLINE, GATE, "--deselect", ECHO_ADD).assert_outcomes(passed=2, failed=1)
    # --sw: stop at the first failure, start there next time.
    pytester.runpytest(OFFLINE, GATE, "--sw", "-p", "no:randomly").assert_outcomes(
        passed=1, failed=1
    )
    again = pytester.runpytest(OFFLINE, GATE, "--sw", "-p", "no:randomly")
    again.stdout.fnmatch_lines(["*skipping 1 already passed items*"])
    # --nf: a new item runs first.
    write_project(pytester.path / "more")  # a second root, added to the run
    pytester.makeini("[pytest]\nllm_scenarios = scenarios, more/scenarios\n")
    newest = pytester.runpytest(OFFLINE, GATE, "--nf", "-v", "-p", "no:randomly")
    ran = [line for line in newest.stdout.lines if "::test_scenario[" in line]
    assert ran[0].startswith("more/scenarios/"), ran


# 4. -x and --maxfail stop the calls ----------------------------------------------------


def test_exitfirst_and_maxfail_cancel_the_pending_calls(pytester: pytest.Pytester) -> None:
    write_project(pytester.path, _greetings(6))
    pytester.makeconftest(MODEL_CONFTEST)
    (pytester.path / "behaviour.txt").write_text("bad")
    (pytester.path / "delay.txt").write_text("1.0")
    args = ["--llm-model=mine/a", GATE, "--llm-concurrency=1", "--llm-attempts=1"]
    result = pytester.runpytest(*args, "-x", "-p", "no:randomly")
    result.assert_outcomes(failed=1)
    assert len(_calls(pytester.path)) <= 2  # without the stop: 6, one per item
    result.stdout.fnmatch_lines(["*llmbench: run stopped*cancelled*not made*"])
    (pytester.path / "calls.txt").unlink()
    pytester.runpytest(*args, "--maxfail=2", "-p", "no:randomly").assert_outcomes(failed=2)
    assert len(_calls(pytester.path)) <= 3


# 5. Every reported item is recorded with pytest's outcome -------------------------------


def test_a_rerun_asks_the_model_again_and_its_result_counts(pytester: pytest.Pytester) -> None:
    write_project(pytester.path, {"generation/AddGreeting.yaml": _add_greeting()})
    pytester.makeconftest(MODEL_CONFTEST)
    (pytester.path / "behaviour.txt").write_text("bad-first")
    result = pytester.runpytest("--llm-model=mine/a", GATE, "--llm-attempts=1", "--reruns=1")
    outcomes = result.parseoutcomes()
    # In-process runs may warn that the plugin was imported before rewriting: not ours.
    outcomes.pop("warnings", None)
    assert outcomes == {"passed": 1, "rerun": 1}
    assert _calls(pytester.path) == ["mine/a", "mine/a"]  # the cache was not read back
    (item,) = read_results(pytester.path)
    assert item["outcome"] == "passed" and item["accuracy"] == 4.0
    board = json.loads((pytester.path / "reports" / "leaderboard.json").read_text())
    assert board["leaderboard"]["models"][0]["accuracy"] == 4.0


def test_a_timed_out_item_is_recorded_as_an_error(pytester: pytest.Pytester) -> None:
    write_project(pytester.path, {"generation/AddGreeting.yaml": _add_greeting()})
    pytester.makeconftest(MODEL_CONFTEST)
    (pytester.path / "delay.txt").write_text("5")
    result = pytester.runpytest("--llm-model=mine/slow", "--llm-attempts=1", "--timeout=1")
    result.assert_outcomes(errors=1)
    (item,) = read_results(pytester.path)
    assert item["status"] == "error" and item["outcome"] == "error"
    assert "Timeout" in item["reason"]


def test_a_model_that_raises_is_an_item_error_with_its_message(
    pytester: pytest.Pytester,
) -> None:
    write_project(pytester.path, {"generation/AddGreeting.yaml": _add_greeting()})
    pytester.makeconftest(MODEL_CONFTEST)
    (pytester.path / "behaviour.txt").write_text("raise")
    result = pytester.runpytest("--llm-model=mine/broken,llmbench/reference", "--llm-attempts=1")
    result.assert_outcomes(passed=1, errors=1)
    out = result.stdout.str()
    assert "Traceback" not in out and "engine.py" not in out and "runner.py" not in out
    result.stdout.fnmatch_lines(["*RuntimeError: the deployment is gone*"])
    items = {r["model"]: r for r in read_results(pytester.path)}
    assert items["mine/broken"]["status"] == "error"
    assert "the deployment is gone" in items["mine/broken"]["reason"]


def _add_greeting() -> str:
    from tests.conftest import MINI_SCENARIO

    return MINI_SCENARIO


# 7. JUnit XML, pytest-html, short summary, --durations ---------------------------------


def _greetings(count: int) -> dict[str, str]:
    """`count` scenarios asking for the same function in different words."""
    return {
        f"generation/AddGreeting{n}.yaml": _add_greeting()
        .replace("id: AddGreeting", f"id: AddGreeting{n}")
        .replace("Add a function", f"Add function number {n}")
        for n in range(count)
    }


def test_reports_of_the_ecosystem_show_the_scores(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # room for the reason after the long node id
    write_project(pytester.path, _greetings(2))
    pytester.makeconftest(MODEL_CONFTEST)
    (pytester.path / "delay.txt").write_text("0.4")
    (pytester.path / "fake-clock.txt").write_text("")
    result = pytester.runpytest(
        "--llm-model=mine/a,llmbench/echo",
        GATE,
        "--llm-attempts=1",
        "--junitxml=junit.xml",
        "--html=report.html",
        "--durations=0",
        "-rA",
    )
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["FAILED *llmbench/echo* - *below --llm-min-quality*"])
    cases = ET.parse(pytester.path / "junit.xml").getroot().findall(".//testcase")
    props = {p.get("name"): p.get("value") for p in cases[0].findall("properties/property")}
    for name in ("model", "scenario", "dataset", "category", "accuracy", "completeness"):
        assert props[name], name
    assert {"quality", "tokens", "cost_usd"} <= set(props)
    assert json.loads(props["llmbench"] or "")["model"] == props["model"]
    html = (pytester.path / "report.html").read_text()
    assert "<th>Quality</th>" in html or "&lt;th&gt;Quality&lt;/th&gt;" in html
    # Each item's own pipeline time on the engine's clock, made fake by the conftest
    # (fake-clock.txt): each mine/a call moves it by 0.4 s. Both mine/a items show it,
    # not only the first, whose setup used to wait for every pipeline started with it.
    durations = [line for line in result.stdout.lines if "setup" in line and "[" in line]
    slow = [float(line.split("s")[0]) for line in durations if "mine/a" in line]
    assert len(slow) == 2 and min(slow) >= 0.4, durations


# 8. Fixtures for ordinary tests ---------------------------------------------------------

ORDINARY = """
def test_asks_and_judges(llm_complete, llm_judge):
    reply = llm_complete("Write a greeting function", model="openai/cand")
    assert "console.log" in reply.text
    judged = llm_judge(
        reply.text,
        accuracy=["The code is valid JavaScript"],
        completeness=["It prints something"],
        task="Write a greeting function",
    )
    assert judged.accuracy >= 3
    assert judged.verdicts == {"The code is valid JavaScript": True, "It prints something": True}

def test_result_is_for_scenarios(llmbench_result):
    pass
"""


def test_fixtures_for_ordinary_tests(pytester: pytest.Pytester, llm_server: FakeLLMServer) -> None:
    pytester.makepyfile(test_ordinary=ORDINARY)
    result = pytester.runpytest(
        "--llm-judge=openai/judge", f"--llm-api-base={llm_server.base_url}", "-p", "no:randomly"
    )
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*llmbench_result belongs to scenario items*llm_complete or llm_judge*",
            "*llmbench usage*",
            "openai/cand *1 *",
            "openai/judge *",
        ]
    )
    assert "KeyError" not in result.stdout.str()
    assert llm_server.calls["candidate"] == 1 and llm_server.calls["evaluator"] == 1
