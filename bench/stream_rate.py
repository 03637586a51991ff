"""The generation rate a streamed candidate call records, against the server's own rate.

The local test server (tests/llm_server.py) streams a reply of N tokens at R tokens/s
after a first-token delay D, on its own schedule; the call goes through the real
litellm path (LiteLLMModel) and the rate is computed as an attempt's is
(judging/scoring.py). Prints, per run, the recorded time to first token, the rate on the
"stream" basis, its error against R, and the rate the whole call would give ("call").

    python bench/stream_rate.py [--runs 5] [--delay 2] [--rate 25] [--tokens 80]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pytest_llmbench.judging.judge import call_record  # noqa: E402
from pytest_llmbench.judging.scoring import generation_rate  # noqa: E402
from pytest_llmbench.models.base import ModelRequest  # noqa: E402
from pytest_llmbench.models.litellm_model import LiteLLMModel, litellm_module  # noqa: E402
from tests.llm_server import FakeLLMServer  # noqa: E402


async def _measure(model: LiteLLMModel, runs: int) -> list[tuple[float, float, float]]:
    out = []
    for run in range(runs):
        request = ModelRequest(
            messages=({"role": "user", "content": f"write {run}"},), role="candidate"
        )
        record = call_record("candidate", await model.complete(request))
        rate, basis = generation_rate([record])
        whole = (record.completion_tokens or 0) / record.latency_s
        assert basis == "stream" and rate is not None and record.first_token_s is not None
        out.append((record.first_token_s, rate, whole))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=25.0)
    parser.add_argument("--tokens", type=int, default=80)
    args = parser.parse_args()
    litellm_module()
    server = FakeLLMServer()
    server.policy.stream.first_token_s = args.delay
    server.policy.stream.token_rate = args.rate
    server.policy.candidate = lambda body: " ".join(f"w{i}" for i in range(args.tokens))
    server.start()
    try:
        model = LiteLLMModel("openai/bench", server.base_url)
        results = asyncio.run(_measure(model, args.runs))
    finally:
        server.stop()
    print(f"server: {args.tokens} tokens at {args.rate:g}/s after {args.delay:g} s")
    print("run  first token s  stream tok/s  error   call tok/s")
    for number, (first, rate, whole) in enumerate(results, start=1):
        error = (rate - args.rate) / args.rate
        print(f"{number:>3}  {first:>13.3f}  {rate:>12.2f}  {error:>+6.1%}  {whole:>10.2f}")


if __name__ == "__main__":
    main()
