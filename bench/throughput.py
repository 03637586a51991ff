"""Throughput of the real plugin against the test suite's local OpenAI-compatible server.

Builds a project of N scenario items (each: 1 candidate + 1 evaluator + 2 grader calls,
all to one model so they share one concurrency limit), serves it with latency L per
request, and prints calls made, the peak of calls in flight per model (the server counts
them), wall time, the ideal time (calls x L / concurrency) and
their ratio, with and without `-n 2`; a second, cached run's wall time and calls; the
per-call overhead at L = 0 against plain httpx calls to the same server; and a run
against a server that answers 30% of requests with 429 (Retry-After) or 500. The `peaks`
part runs two candidate models whose items alternate (so under `-n 2` each model's items
all land on one worker) and prints each model's peak of calls in flight, without xdist
and with `-n 2`: both should reach --llm-concurrency.

The overhead at L = 0 is measured twice: for the call layer alone (the plugin's
ManagedModel over LiteLLMModel, cache off, one call at a time, in this process, against
the same calls made with plain httpx: wall and CPU time per call; CPU time is the figure
a loaded machine disturbs least), and for the whole plugin as the marginal wall time per
call of a big run over a small one (which also counts each item's evaluation work:
code metrics, syntax checks, report).

    python bench/throughput.py [--items 120] [--latency 0.5] [--concurrency 32]
                               [--only throughput|overhead|faults|peaks|catalogue|slow|stop ...]

`catalogue` runs the real catalogue's single-shot items (every scenario but the dialogs,
31 items) with a judge and its grader through the server at 1 s latency, 3 attempts,
concurrency 32: the items' real checks (regexes, syntax-check subprocesses) and code
metrics run between the calls, so its span/ideal shows what that work costs the calls.
`slow` is a fault run: 15% of replies trickle their body (far past --llm-timeout=2) and
15% come back as a 200 with empty choices. `stop` is what -x buys and costs: with a judge
that fails every step (--llm-min-score=0.9), the calls of a full run and of a -x run; with
one that passes them all, the calls span of a run in the default order and of a -x run
(items one at a time, in pytest's order).

"wall" is the whole pytest process (start-up, litellm import, collection included);
"calls span" is from the server's first request received to its last reply sent. The
default of 120 items (480 calls) keeps the fixed ramp-up and tail of a run small against
its calls; `--items 60` (240 calls) shows them larger.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.conftest import EXPLAIN_SCENARIO, report_lines, write_project  # noqa: E402
from tests.llm_server import FakeLLMServer  # noqa: E402

MODEL = "openai/bench"


def make_project(root: Path, items: int) -> Path:
    # Distinct prompts: identical requests would be answered once and then from the cache.
    scenarios = {
        f"explanation/Explain{i}.yaml": EXPLAIN_SCENARIO.replace(
            "id: ExplainMini", f"id: Explain{i}"
        ).replace("Explain this code.", f"Explain this code (variant {i}).")
        for i in range(items)
    }
    return write_project(root, scenarios)


def run_plugin(
    project: Path, server: FakeLLMServer, concurrency: int, *extra: str, models: str = MODEL
) -> tuple[float, int, float | None, dict]:
    """(wall s, server calls, calls span s, leaderboard summary) of one pytest run."""
    before = server.total_calls()
    server.first_at = server.last_at = None
    server.peak_in_flight.clear()
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project),
        f"--llm-model={models}", f"--llm-judge={MODEL}", f"--llm-api-base={server.base_url}",
        "--llm-attempts=1", f"--llm-concurrency={concurrency}",
        f"--llm-cache-dir={project / 'cache'}", f"--llm-report-dir={project / 'reports'}",
        *extra,
    ]  # fmt: skip
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if out.returncode not in (0, 1):
        raise SystemExit(
            f"pytest failed ({out.returncode}):\n{out.stdout[-3000:]}{out.stderr[-3000:]}"
        )
    span = (server.last_at - server.first_at) if server.first_at and server.last_at else None
    board = json.loads((project / "reports" / "leaderboard.json").read_text())
    return wall, server.total_calls() - before, span, board["leaderboard"]["models"][0]


async def plain_httpx(base_url: str, calls: int, concurrency: int) -> float:
    import httpx

    body = {"model": MODEL, "messages": [{"role": "user", "content": "Explain this code."}]}
    limit = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:

        async def one() -> None:
            async with limit:
                (await client.post("/chat/completions", json=body)).raise_for_status()

        start = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(calls)))
        return time.perf_counter() - start


async def per_call(base_url: str, calls: int) -> tuple[float, float, float, float]:
    """(plugin wall, plugin CPU, httpx wall, httpx CPU) ms per call, one call at a time.

    CPU time is this process's, so it includes the server's thread for both paths.
    """
    import httpx

    from pytest_llmbench.execution.managed import ManagedModel, Services
    from pytest_llmbench.execution.retry import RetryPolicy
    from pytest_llmbench.models.base import ModelRequest
    from pytest_llmbench.models.litellm_model import LiteLLMModel, litellm_module

    litellm_module()  # the import is start-up, not per-call cost
    messages = ({"role": "user", "content": "Explain this code."},)
    model = ManagedModel(
        LiteLLMModel(MODEL, base_url), Services(concurrency=1, retry=RetryPolicy(max_retries=0))
    )
    request = ModelRequest(messages=messages, role="candidate")
    body = {"model": MODEL, "messages": list(messages)}
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:

        async def plugin_call() -> None:
            await model.complete(request)

        async def httpx_call() -> None:
            (await client.post("/chat/completions", json=body)).raise_for_status()

        figures: list[float] = []
        for call in (plugin_call, httpx_call):
            for _ in range(5):  # warm up connections and caches
                await call()
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                await call()
            figures += [
                1000 * (time.perf_counter() - wall) / calls,
                1000 * (time.process_time() - cpu) / calls,
            ]
    return figures[0], figures[1], figures[2], figures[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=120)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3, help="repeats of the L = 0 figures")
    parser.add_argument(
        "--only",
        choices=("throughput", "overhead", "faults", "peaks", "catalogue", "slow", "stop"),
        action="append",
        help="run only these parts (repeatable); default: all",
    )
    args = parser.parse_args()
    parts = set(args.only or ("throughput", "overhead", "faults", "peaks"))
    server = FakeLLMServer().start()
    # Each item's answer names its prompt, so no two items send the judge the same request.
    server.policy.candidate = lambda body: (
        f"```js\n// {body['messages'][-1]['content'].splitlines()[0]}\nconsole.log('hi');\n```\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        server.policy.latency = args.latency
        throughput_runs = (("no xdist", ()), ("-n 2", ("-n", "2")))
        for label, extra in throughput_runs if "throughput" in parts else ():
            project = make_project(Path(tmp) / label.replace(" ", "_"), args.items)
            wall, calls, span, summary = run_plugin(project, server, args.concurrency, *extra)
            ideal = calls * args.latency / args.concurrency
            print(
                f"[{label}] L={args.latency}s concurrency={args.concurrency} items={args.items}: "
                f"calls {calls}, wall {wall:.2f} s, calls span {span or 0:.2f} s, "
                f"ideal {ideal:.2f} s, span/ideal {(span or 0) / ideal:.2f}, wall/ideal {wall / ideal:.2f}, "
                f"items scored {summary.get('scored')} of {summary.get('items')}, "
                f"peak in flight per model {dict(server.peak_in_flight)}"
            )
            wall2, calls2, _, _ = run_plugin(project, server, args.concurrency, *extra)
            print(f"[{label}] second run, cache on: calls {calls2}, wall {wall2:.2f} s")

        if "peaks" in parts:
            peaks(server, Path(tmp), args.items, args.concurrency)
        server.policy.latency = 0.0
        if "overhead" in parts:
            overhead_at_zero(server, Path(tmp), args.items, args.concurrency, args.repeat)
        if "faults" in parts:
            faults(server, Path(tmp), args.items, args.concurrency)
        if "slow" in parts:
            slow_faults(server, Path(tmp), 40, args.concurrency)
        server.policy.latency = args.latency
        if "stop" in parts:
            exitfirst(server, Path(tmp), args.items, args.concurrency)
    if "catalogue" in parts:
        catalogue(server, args.concurrency)
    server.stop()


def catalogue(server: FakeLLMServer, concurrency: int, latency: float = 1.0) -> None:
    """The real catalogue's single-shot items, judged and graded, at 1 s per call."""
    server.policy = type(server.policy)()  # default answers: a JS block, all steps pass
    server.policy.latency = latency
    server.policy.status = lambda role, n: 200
    for label, extra in (("no xdist", ()), ("-n 2", ("-n", "2"))):
        with tempfile.TemporaryDirectory() as tmp:
            server.first_at = server.last_at = None
            before = server.total_calls()
            cmd = [
                sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not dialog",
                f"--llm-model={MODEL}", f"--llm-judge={MODEL}", f"--llm-api-base={server.base_url}",
                "--llm-attempts=3", f"--llm-concurrency={concurrency}", "--llm-cache=off",
                f"--llm-report-dir={tmp}", *extra,
            ]  # fmt: skip
            env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
            start = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - start
            calls = server.total_calls() - before
            span = (server.last_at or 0) - (server.first_at or 0)
            ideal = calls * latency / concurrency
            items = (Path(tmp) / "results.jsonl").read_text().count("\n")
        print(
            f"[catalogue {label}] items {items}, calls {calls}, calls span {span:.2f} s, ideal "
            f"{ideal:.2f} s, span/ideal {span / ideal:.2f}, wall {wall:.2f} s"
        )


def slow_faults(server: FakeLLMServer, tmp: Path, items: int, concurrency: int) -> None:
    """15% of replies trickle (0.05 s a byte: ~20 s a body) and 15% have empty choices,
    with --llm-timeout=2."""
    rng = random.Random(5)
    server.policy.latency = 0.05
    server.policy.status = lambda role, n: 200
    server.policy.trickle = lambda role, n: 0.05 if rng.random() < 0.15 else 0.0
    server.policy.empty_choices = lambda role, n: rng.random() < 0.15
    project = make_project(tmp / "slow", items)
    wall, calls, _, summary = run_plugin(
        project, server, concurrency, "--llm-timeout=2", "--llm-retry-backoff=0.1",
        "--llm-max-retries=8",
    )  # fmt: skip
    print(
        f"[15% trickled, 15% empty choices, --llm-timeout=2] calls {calls} (incl. failed), "
        f"wall {wall:.2f} s, items {summary.get('items')}: scored {summary.get('scored')}, "
        f"errors {summary.get('errors')}"
    )
    reasons: dict[str, int] = {}
    for item in report_lines(project / "reports"):
        if item["status"] != "scored":
            key = str(item.get("reason"))[:90]
            reasons[key] = reasons.get(key, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {count} x {reason}")
    server.policy.trickle = lambda role, n: 0.0
    server.policy.empty_choices = lambda role, n: False


def overhead_at_zero(
    server: FakeLLMServer, tmp: Path, items: int, concurrency: int, repeat: int
) -> None:
    """Overhead per call at L = 0: the whole plugin's marginal cost of one more call
    (a big run minus a small one, so start-up cancels out), then the call layer alone."""
    small = make_project(tmp / "small", 2)
    big = make_project(tmp / "big", items)
    figures = []
    for _ in range(repeat):  # the machine is shared: take the median of a few
        w_small, c_small, _, _ = run_plugin(small, server, concurrency, "--llm-cache=off")
        w_big, c_big, _, _ = run_plugin(big, server, concurrency, "--llm-cache=off")
        plugin_ms = 1000 * (w_big - w_small) / (c_big - c_small)
        httpx_ms = 1000 * asyncio.run(plain_httpx(server.base_url, c_big, concurrency)) / c_big
        figures.append((plugin_ms - httpx_ms, plugin_ms, httpx_ms))
    overhead, plugin_ms, httpx_ms = statistics.median(figures)
    print(
        f"[L=0 whole plugin] {plugin_ms:.2f} ms per call (marginal over {c_big - c_small} "
        f"calls, incl. evaluation work), plain httpx {httpx_ms:.2f} ms per call "
        f"({concurrency} at once), difference {overhead:.2f} ms (median of {repeat}; all: "
        f"{', '.join(f'{f[0]:.2f}' for f in figures)})"
    )
    layer = [asyncio.run(per_call(server.base_url, 200)) for _ in range(repeat)]
    walls = [p_wall - h_wall for p_wall, _, h_wall, _ in layer]
    cpus = [p_cpu - h_cpu for _, p_cpu, _, h_cpu in layer]
    p_wall, p_cpu, h_wall, h_cpu = (statistics.median(f[i] for f in layer) for i in range(4))
    print(
        f"[L=0 call layer] plugin {p_wall:.2f} ms wall / {p_cpu:.2f} ms CPU per call, plain "
        f"httpx {h_wall:.2f} ms wall / {h_cpu:.2f} ms CPU, overhead {statistics.median(walls):.2f}"
        f" ms wall, {statistics.median(cpus):.2f} ms CPU (200 calls one at a time, median of "
        f"{repeat}; all wall: {', '.join(f'{w:.2f}' for w in walls)}; all CPU: "
        f"{', '.join(f'{c:.2f}' for c in cpus)})"
    )


def peaks(server: FakeLLMServer, tmp: Path, items: int, concurrency: int) -> None:
    """Peak calls in flight per model, two candidate models, without xdist and with -n 2."""
    models = "openai/bench-a,openai/bench-b"
    for label, extra in (("no xdist", ()), ("-n 2", ("-n", "2"))):
        project = make_project(tmp / f"peaks_{label.replace(' ', '_')}", items)
        wall, calls, _, _ = run_plugin(
            project, server, concurrency, "--llm-cache=off", *extra, models=models
        )
        print(
            f"[peaks, {label}] 2 models x {items} items, concurrency {concurrency}: "
            f"calls {calls}, wall {wall:.2f} s, peak in flight per model "
            f"{dict(sorted(server.peak_in_flight.items()))}"
        )


def faults(server: FakeLLMServer, tmp: Path, items: int, concurrency: int) -> None:
    """30% of requests fail with 429 (Retry-After) or 500: the leaderboard is still complete."""
    rng = random.Random(3)
    server.policy.latency = 0.05
    server.policy.retry_after = "0.2"
    server.policy.status = lambda role, n: 200 if rng.random() >= 0.3 else rng.choice((429, 500))
    faulty = make_project(tmp / "faulty", items)
    wall, calls, _, summary = run_plugin(
        faulty, server, concurrency, "--llm-retry-backoff=0.1", "--llm-max-retries=8"
    )
    print(
        f"[30% 429/500] calls {calls} (incl. failed), wall {wall:.2f} s, items "
        f"{summary.get('items')}: scored {summary.get('scored')}, errors {summary.get('errors')}"
    )
    for item in report_lines(faulty / "reports"):
        if item["status"] != "scored":
            print(f"  {item['scenario']}: {item['status']}: {item.get('reason')}")


def exitfirst(server: FakeLLMServer, tmp: Path, items: int, concurrency: int) -> None:
    """-x: the calls it saves when the first item fails, the time it costs when none does."""
    gate = "--llm-min-score=0.9"
    server.policy.verdict = lambda step_id, criterion, answer: False
    for label, extra in (("default order", ()), ("-x", ("-x",))):
        project = make_project(tmp / f"stop-fail-{label[:2]}", items)
        _, calls, _, _ = run_plugin(project, server, concurrency, gate, "--llm-cache=off", *extra)
        print(f"[stop, every item fails, {label}] items {items}: calls {calls}")
    server.policy.verdict = lambda step_id, criterion, answer: True
    for label, extra in (("default order", ()), ("-x", ("-x",))):
        project = make_project(tmp / f"stop-pass-{label[:2]}", items)
        _, calls, span, _ = run_plugin(
            project, server, concurrency, gate, "--llm-cache=off", *extra
        )
        ideal = calls * server.policy.latency / concurrency
        print(
            f"[stop, every item passes, {label}] items {items}: calls {calls}, calls span "
            f"{span or 0:.2f} s, ideal {ideal:.2f} s, span/ideal {(span or 0) / ideal:.2f}"
        )


if __name__ == "__main__":
    main()
