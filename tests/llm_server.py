"""A local OpenAI-compatible chat server on 127.0.0.1 that plays candidate, evaluator and grader.

Tests start it in a thread; xdist workers of a pytester run reach it over HTTP, so the
real litellm path is exercised end to end. It tells the roles apart by the system prompt
pytest-llmbench sends (pytest_llmbench.judging.prompts), and records every request.

Policies (all replaceable per test):
  candidate(request) -> str | dict   the candidate's answer: its text, or a whole assistant
                                     message (e.g. with "tool_calls", for dialogs)
  verdict(step_id, criterion, answer) -> bool   the evaluator's verdict per criterion
  grade(report) -> int               the grader's grade; by default 1 + round(3 * passed / evaluated)
  logprobs                           whether grader replies carry top_logprobs
  evaluator_form                     "json", "markdown" or "garbage"
  status(role, n) -> int             HTTP status of the n-th call of a role (default 200)
  retry_after                        Retry-After header (seconds) sent with a 429, or None
  latency                            seconds each request takes before it is answered
  hold_until                         each model's first requests are held open until that
                                     many of the model are in flight at once (at most
                                     hold_cap_s), then none is held again: a test of a
                                     concurrency limit sees the limit reached whatever the
                                     machine's load, and never more than the client sends
  trickle(role, n) -> float          seconds between the bytes of the n-th reply of a role
                                     (0: sent at once); a slow body after prompt headers
  empty_choices(role, n) -> bool      the n-th reply of a role is a 200 with `choices: []`
  echo_authorization                 failures (status != 200) echo the request's
                                     Authorization header in their error body, as some
                                     providers do
  stream                             how a request with `stream: true` is paced
                                     (tests/llm_stream.py: first-token delay, tokens/s);
                                     it is answered with server-sent events either way
  prompt_cache                       usage reports cached prompt tokens: a chat request
                                     the longest word prefix it shares with an earlier
                                     request of its model (`prompt_tokens_details.
                                     cached_tokens`, as OpenAI caches by itself); an
                                     Anthropic request (below) its prefix marked with
                                     cache_control, read when seen before, else written

Batches: the files and batches endpoints (tests/llm_batches.py, policy on `batches`), and
Anthropic's Message Batches, answer each line of a batch by the same policies, recorded
with `_batch` (the batch id).

Besides chat completions the server takes Anthropic's Messages API (`.../messages`, where
litellm sends `anthropic/...` models given an api_base; tests/llm_anthropic.py): answered
by the same policies, each recorded with the body as it arrived under `_wire`.

Counters: `calls` per role (every request, failed ones too), `requests` (answered ones),
`peak_in_flight` per model name (the most requests of that model open at once: a request
counts until its reply is about to be written, or to the end of a streamed or trickled one),
`authorizations` (the Authorization header of every request, to check what was sent).
Each answered request records under `_images` the sha256 of every image part's decoded
data URL ("undecodable: ..." when it is not base64 data), so tests compare the bytes
that arrived with the image files.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pytest_llmbench.judging.prompts import EVALUATOR_SYSTEM
from tests import llm_anthropic
from tests.llm_batches import BatchDesk
from tests.llm_prompt_cache import PromptCache
from tests.llm_stream import StreamPacing, events, schedule, wait_until

_STEP_LINE = re.compile(r"^- ([AC]\d+) \((accuracy|completeness)\): (.*)$", re.M)


def text_of(content: Any) -> str:
    """A message content's text: the string itself, or its text parts joined."""
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if p.get("type") == "text")
    return str(content or "")


def image_digests(messages: list[dict[str, Any]]) -> list[str]:
    """sha256 of the bytes of every data-URL image part, in message and part order."""
    digests = []
    for message in messages:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            if part.get("type") != "image_url":
                continue
            url = str((part.get("image_url") or {}).get("url", ""))
            head, _, data = url.partition(",")
            try:
                if not (head.startswith("data:image/") and head.endswith(";base64")):
                    raise ValueError(f"not a base64 image data URL ({head[:40]!r})")
                digests.append(hashlib.sha256(base64.b64decode(data, validate=True)).hexdigest())
            except (ValueError, binascii.Error) as exc:
                digests.append(f"undecodable: {exc}")
    return digests


def default_grade(report: str) -> int:
    evaluated = re.search(r"Total steps evaluated: (\d+)", report)
    passed = re.search(r"Total steps passed: (\d+)", report)
    if not evaluated or not passed or int(evaluated.group(1)) == 0:
        return 1
    return 1 + round(3 * int(passed.group(1)) / int(evaluated.group(1)))


def grade_logprobs(grade: int) -> list[dict[str, Any]]:
    """The chosen grade at p = 0.8, the rest spread over its neighbours."""
    probs = {grade: 0.8}
    neighbours = [k for k in (grade - 1, grade + 1) if 1 <= k <= 4]
    for k in neighbours:
        probs[k] = 0.2 / len(neighbours)
    return [
        {"token": str(k), "logprob": math.log(p), "bytes": list(str(k).encode())}
        for k, p in probs.items()
    ]


@dataclass
class ServerPolicy:
    candidate: Callable[[dict[str, Any]], str | dict[str, Any]] = lambda request: (
        "```js\nconsole.log('hi');\n```\n"
    )
    verdict: Callable[[str, str, str], bool] = lambda step_id, criterion, answer: True
    grade: Callable[[str], int] = default_grade
    logprobs: bool = True
    evaluator_form: str = "json"
    status: Callable[[str, int], int] = lambda role, n: 200
    # When set, decides the status from the request body instead (None: ask `status`).
    status_of_request: Callable[[dict[str, Any]], int | None] = lambda body: None
    retry_after: str | None = None
    latency: float = 0.0
    hold_until: int = 0
    hold_cap_s: float = 20.0
    # How small local models misbehave (issue 19); see "real-model modes" below.
    real: RealModes = field(default_factory=lambda: RealModes())
    trickle: Callable[[str, int], float] = lambda role, n: 0.0
    # When true for the n-th reply of a role, it is a 200 whose `choices` is empty.
    empty_choices: Callable[[str, int], bool] = lambda role, n: False
    echo_authorization: bool = False
    stream: StreamPacing = field(default_factory=StreamPacing)
    prompt_cache: bool = False


@dataclass
class FakeLLMServer:
    policy: ServerPolicy = field(default_factory=ServerPolicy)
    requests: list[dict[str, Any]] = field(default_factory=list)
    calls: dict[str, int] = field(default_factory=dict)
    in_flight: dict[str, int] = field(default_factory=dict)
    peak_in_flight: dict[str, int] = field(default_factory=dict)
    authorizations: list[str | None] = field(default_factory=list)
    # Trickled replies whose client hung up before the last byte (its timeout fired).
    abandoned: int = 0
    # time.monotonic() of the first request received and of the last reply sent
    first_at: float | None = None
    last_at: float | None = None
    # What the policy's prompt_cache has seen (tests/llm_prompt_cache.py).
    prompt_cache: PromptCache = field(default_factory=PromptCache)
    # The files and batches endpoints (tests/llm_batches.py).
    batches: BatchDesk = field(default_factory=BatchDesk)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._entered = threading.Condition(self._lock)
        self._opened: set[str] = set()  # models whose requests are no longer held
        handler = _handler_for(self)
        self._httpd = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def total_calls(self) -> int:
        with self._lock:
            return sum(self.calls.values())

    def enter(self, model: str) -> None:
        with self._lock:
            self.first_at = self.first_at or time.monotonic()
            self.in_flight[model] = self.in_flight.get(model, 0) + 1
            self.peak_in_flight[model] = max(
                self.peak_in_flight.get(model, 0), self.in_flight[model]
            )
            self._entered.notify_all()

    def hold(self, model: str) -> None:
        """policy.hold_until: wait until that many requests of `model` are open at once."""
        target, deadline = self.policy.hold_until, time.monotonic() + self.policy.hold_cap_s
        with self._entered:
            while target and model not in self._opened and self.in_flight[model] < target:
                if not self._entered.wait(max(0.0, deadline - time.monotonic())):
                    break
            self._opened.add(model)
            self._entered.notify_all()

    def leave(self, model: str) -> None:
        with self._lock:
            self.in_flight[model] -= 1
            self.last_at = time.monotonic()

    def roles(self) -> list[str]:
        with self._lock:
            return [r["_role"] for r in self.requests]

    # -- replies -------------------------------------------------------------------------
    @staticmethod
    def role_of(body: dict[str, Any]) -> str:
        system = next(
            (text_of(m["content"]) for m in body.get("messages", []) if m.get("role") == "system"),
            "",
        )
        if system == EVALUATOR_SYSTEM:
            return "evaluator"
        return "grader" if system.startswith("You grade the") else "candidate"

    def status_for(self, body: dict[str, Any]) -> int:
        """Counts the call and returns the HTTP status the policy gives it."""
        role = self.role_of(body)
        with self._lock:
            self.calls[role] = self.calls.get(role, 0) + 1
            n = self.calls[role]
        by_body = self.policy.status_of_request(body)
        return by_body if by_body is not None else self.policy.status(role, n)

    def reply(
        self, body: dict[str, Any], wire: dict[str, Any] | None = None, batch: str | None = None
    ) -> dict[str, Any]:
        """A chat.completion answering `body`; `wire`: the Anthropic request it stands for;
        `batch`: the batch whose line it is."""
        messages = body.get("messages", [])
        role = self.role_of(body)
        message: dict[str, Any] | None = None
        played = play_real_mode(self, role, body)
        if played is not None:
            text, logprobs = played
        elif role == "evaluator":
            text, logprobs = self._evaluate(messages), None
        elif role == "grader":
            grade = self.policy.grade(messages[-1]["content"])
            text = str(grade)
            logprobs = None
            if self.policy.logprobs and body.get("logprobs"):
                top = grade_logprobs(grade)
                logprobs = {
                    "content": [
                        {
                            "token": text,
                            "logprob": math.log(0.8),
                            "bytes": list(text.encode()),
                            "top_logprobs": top[: int(body.get("top_logprobs") or 5)],
                        }
                    ]
                }
        else:
            answer, logprobs = self.policy.candidate(body), None
            message = answer if isinstance(answer, dict) else None
            text = answer if isinstance(answer, str) else str(answer.get("content") or "")
        with self._lock:
            seen = {**body, "_role": role, "_images": image_digests(messages)}
            if batch is not None:
                seen["_batch"] = batch
            self.requests.append({**seen, "_wire": wire} if wire is not None else seen)
        prompt_tokens = prompt_size(self.policy.real, messages)
        calls = (message or {}).get("tool_calls") or []
        text, cut = cut_at_max_tokens(text, body)
        written = text + " ".join(c["function"]["arguments"] for c in calls)
        completion_tokens = max(1, len(written.split()))
        choice: dict[str, Any] = {
            "index": 0,
            "message": message or {"role": "assistant", "content": text},
            "finish_reason": "length" if cut else "tool_calls" if calls else "stop",
        }
        if logprobs is not None:
            choice["logprobs"] = logprobs
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if self.policy.prompt_cache and wire is None:
            usage["prompt_tokens_details"] = {"cached_tokens": self.prompt_cache.automatic(body)}
        return with_timings(
            self.policy.real,
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [choice],
                "usage": usage,
            },
        )

    def messages(self, wire: dict[str, Any], batch: str | None = None) -> dict[str, Any]:
        """Anthropic's message answering the Messages request `wire` (a batch's line)."""
        reply = self.reply(llm_anthropic.as_chat(wire), wire, batch)
        output = reply["usage"]["completion_tokens"]
        cache = self.prompt_cache.marked if self.policy.prompt_cache else None
        return llm_anthropic.message(reply, llm_anthropic.cache_usage(wire, output, cache))

    def _evaluate(self, messages: list[dict[str, Any]]) -> str:
        user = text_of(messages[1]["content"])
        answer_match = re.search(r"<answer>\n(.*)\n</answer>", user, re.S)
        answer = answer_match.group(1) if answer_match else ""
        steps = _STEP_LINE.findall(user)
        verdicts = [
            (sid, text, self.policy.verdict(sid, text, answer)) for sid, _metric, text in steps
        ]
        if self.policy.evaluator_form == "markdown":
            lines = [
                f"- **{'Pass' if ok else 'Fail'}** (85%): {text}\n    because the server said so"
                for _sid, text, ok in verdicts
            ]
            return "\n".join(lines) + f"\n\nTotal steps evaluated: {len(verdicts)}\n"
        if self.policy.evaluator_form == "garbage":
            return "I cannot evaluate this."
        return json.dumps(
            {
                "steps": [
                    {
                        "id": sid,
                        "criterion": text,
                        "passed": ok,
                        "confidence": 90,
                        # Names the answer, so reports on different answers differ.
                        "explanation": f"server verdict on answer {zlib.crc32(answer.encode()):08x}",
                    }
                    for sid, text, ok in verdicts
                ]
            }
        )


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many concurrent clients connect at once


def _handler_for(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real providers do
        # The headers and the body go out in two writes: with Nagle's algorithm on, the
        # body waits for the client's delayed ACK of the headers (about 40 ms on Linux),
        # which every reply's latency would carry on top of policy.latency.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def _json(self, status: int, payload: dict[str, Any] | bytes) -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client went away (a killed run)
                self.close_connection = True

        def do_GET(self) -> None:
            parts = self.path.split("?")[0].rstrip("/").split("/")
            if parts[-3:-1] == ["messages", "batches"]:  # Anthropic's batch
                url = server.base_url.split("/v1")[0] + self.path.split("?")[0].rstrip("/")
                self._json(*server.batches.retrieve_messages(parts[-1], url, server.messages))
                return
            if parts[-4:-2] == ["messages", "batches"] and parts[-1] == "results":
                results = server.batches.results(parts[-2])
                if results is None:
                    self.send_error(404)
                    return
                self._json(200, results)
                return
            if parts[-1] == "batches":
                self._json(*server.batches.listed())
                return
            if len(parts) >= 2 and parts[-2] == "batches":
                self._json(
                    *server.batches.retrieve(parts[-1], lambda b, i: server.reply(b, batch=i))
                )
                return
            content = server.batches.content(parts[-2]) if parts[-1] == "content" else None
            if content is None:
                self.send_error(404)
                return
            self._json(200, content)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            path = self.path.rstrip("/")
            if path.endswith("/files"):
                self._json(*server.batches.upload(self.headers.get("Content-Type", ""), raw))
                return
            body = json.loads(raw or b"{}")
            if path.endswith("/messages/batches"):
                self._json(*server.batches.create_messages(body, dict(self.headers.items())))
                return
            if path.endswith("/batches"):
                self._json(*server.batches.create(body))
                return
            wire = None
            if path.endswith("/messages"):
                wire, body = body, llm_anthropic.as_chat(body)
            elif not path.endswith("/chat/completions"):
                self.send_error(404)
                return
            model = str(body.get("model", ""))
            with server._lock:
                server.authorizations.append(self.headers.get("Authorization"))
            server.enter(model)
            left: list[bool] = []

            def answered() -> None:  # once: before the reply's last bytes, or at the end
                if not left:
                    left.append(True)
                    server.leave(model)

            self._answered = answered
            try:
                server.hold(model)
                if server.policy.latency:
                    time.sleep(server.policy.latency)
                self._answer(body, wire)
            finally:
                answered()

        def _answer(self, body: dict[str, Any], wire: dict[str, Any] | None) -> None:
            status = server.status_for(body)
            rejected = rejection(server.policy.real, body)
            if rejected is not None:
                status = rejected[0]
            if status != 200:
                message = f"scripted failure {status}"
                if server.policy.echo_authorization:
                    message += f" (request had Authorization: {self.headers.get('Authorization')})"
                error = json.dumps(
                    rejected[1] if rejected else {"error": {"message": message, "type": "test"}}
                ).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if status == 429 and server.policy.retry_after is not None:
                    self.send_header("Retry-After", server.policy.retry_after)
                self.send_header("Content-Length", str(len(error)))
                self.end_headers()
                self._answered()  # no longer in flight once the client can have its reply
                self.wfile.write(error)
                return
            role = server.role_of(body)
            number = server.calls.get(role, 0)
            pause = server.policy.trickle(role, number)
            reply: dict[str, Any] = server.reply(body, wire)
            if server.policy.empty_choices(role, number):
                reply["choices"] = []
            stream = events(reply, body)
            if wire is not None:
                output = reply["usage"]["completion_tokens"]
                cache = server.prompt_cache.marked if server.policy.prompt_cache else None
                reply = llm_anthropic.message(reply, llm_anthropic.cache_usage(wire, output, cache))
                stream = llm_anthropic.events(reply)
            if body.get("stream"):
                self._stream(stream, pause)
                return
            payload = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if not pause:
                self._answered()  # no longer in flight once the client can have its reply
            try:
                self._send(payload, pause)
            except OSError:
                pass  # the client gave up: _send noted it

        def _send(self, data: bytes, pause: float) -> None:
            """`data` at once, or one byte at a time `pause` s apart (the client keeps
            receiving, so no read timeout fires)."""
            try:
                if not pause:
                    self.wfile.write(data)
                    return
                for offset in range(len(data)):
                    self.wfile.write(data[offset : offset + 1])
                    self.wfile.flush()
                    time.sleep(pause)
            except OSError:  # the client went away (its timeout, or a stopped run)
                self.close_connection = True
                if pause:
                    with server._lock:
                        server.abandoned += 1
                raise

        def _stream(self, stream: Iterator[tuple[bool, bytes]], pause: float) -> None:
            """The reply's server-sent events, chunked, paced by policy.stream (and
            trickled byte by byte when `pause`)."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            # Events wait in `pending` until a token is due later: an unpaced stream goes
            # out in one write, as from a server or proxy that buffers the reply.
            start, token, pending = time.monotonic(), 0, b""
            try:
                for carries_token, event in stream:
                    if carries_token:
                        moment = schedule(server.policy.stream, start, token)
                        if moment > time.monotonic():
                            self._send(pending, pause)
                            pending = b""
                            wait_until(moment)
                        token += 1
                    pending += f"{len(event):x}\r\n".encode() + event + b"\r\n"
                self._send(pending + b"0\r\n\r\n", pause)
            except OSError:
                pass  # the client gave up: _send noted it

    return Handler


# -- real-model modes (issue 19) ---------------------------------------------------------
# How small models behind local servers misbehave; each is off by default. Kept in one
# block apart from the other modes. Tokens are words here, as in `reply`.

IMAGE_TOKENS = 765  # what one image part costs a server that reads it (a 512 px tile)


@dataclass
class RealModes:
    # evaluator: writes prose of this many words (never JSON), unless max_tokens cuts it
    ramble_words: int = 0
    # evaluator: readable JSON only when the request carries a JSON-schema response_format
    json_schema_only: bool = False
    # grader: the first token's top alternatives are mostly words, the grade "1" at ~4%
    grader_words_first: bool = False
    # a text-only server: a message whose content is a list of parts (text and images)
    # never reaches the model, as with llama.cpp without a vision projector
    drop_images: bool = False
    # tools offered are ignored: the candidate answers in plain text, never with a tool call
    ignore_tools: bool = False
    # a prompt over this many tokens is rejected with a 400 context-length error
    context_window: int | None = None
    # llama.cpp's server timings: each reply says it took this many ms to generate
    predicted_ms: float | None = None
    # llama-cpp-python 0.3.x's server: response_format `text` or `json_object` (whose
    # optional `schema` key constrains the reply); `json_schema` is answered with HTTP 500
    # and pydantic's validation error. Its evaluator writes JSON only when constrained.
    llama_cpp_python: bool = False
    # a server that does not stream: a request with `stream: true` gets a 400 saying so
    no_streaming: bool = False


def with_timings(modes: RealModes, response: dict[str, Any]) -> dict[str, Any]:
    if modes.predicted_ms is not None:
        response["timings"] = {"prompt_ms": 1.0, "predicted_ms": modes.predicted_ms}
    return response


def prompt_size(modes: RealModes, messages: list[dict[str, Any]]) -> int:
    if modes.drop_images:
        messages = [m for m in messages if not isinstance(m.get("content"), list)]
    words = sum(len(text_of(m.get("content")).split()) for m in messages)
    return words + len(image_digests(messages)) * IMAGE_TOKENS


def cut_at_max_tokens(text: str, body: dict[str, Any]) -> tuple[str, bool]:
    """The reply cut to max_tokens words when the request set it; whether it was cut."""
    limit = body.get("max_tokens") or body.get("max_completion_tokens")
    words = text.split(" ")
    if not limit or len(text.split()) <= int(limit):
        return text, False
    return " ".join(words[: int(limit)]), True


def rejection(modes: RealModes, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """(HTTP status, error body) when a real-model mode refuses the request, else None."""
    kind = (body.get("response_format") or {}).get("type")
    if modes.llama_cpp_python and kind not in (None, "text", "json_object"):
        return 500, {"error": {"message": pydantic_format_error(kind), "type": "server_error"}}
    if modes.no_streaming and body.get("stream"):
        message = "stream: streaming is not supported for this model"
        return 400, {"error": {"message": message, "type": "invalid_request_error"}}
    refused = context_rejection(modes, body)
    return (400, refused) if refused is not None else None


def pydantic_format_error(kind: str) -> str:
    """The message llama-cpp-python's server sends for a response_format it has no model for."""
    return (
        "1 validation error for CreateChatCompletionRequest\n"
        "response_format.type\n"
        f"  Input should be 'text' or 'json_object' [type=literal_error, input_value={kind!r}, "
        "input_type=str]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/literal_error"
    )


def context_rejection(modes: RealModes, body: dict[str, Any]) -> dict[str, Any] | None:
    """The 400 body a server with a small context window sends for an oversize prompt."""
    if modes.context_window is None:
        return None
    asked = prompt_size(modes, body.get("messages", [])) + int(body.get("max_tokens") or 0)
    if asked <= modes.context_window:
        return None
    return {
        "error": {
            "message": f"This model's maximum context length is {modes.context_window} tokens. "
            f"However, you requested {asked} tokens. Please reduce the length of the messages.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    }


def _wants_schema(body: dict[str, Any]) -> bool:
    return (body.get("response_format") or {}).get("type") == "json_schema"


def _constrained(body: dict[str, Any]) -> bool:
    """A llama-cpp-python request whose reply a JSON schema constrains (json_object + schema)."""
    form = body.get("response_format") or {}
    return form.get("type") == "json_object" and isinstance(form.get("schema"), dict)


def play_real_mode(
    server: FakeLLMServer, role: str, body: dict[str, Any]
) -> tuple[str, dict[str, Any] | None] | None:
    """(text, logprobs) when a real-model mode decides this reply, else None."""
    modes = server.policy.real
    if role == "evaluator" and modes.ramble_words:
        return " ".join(["hmm,"] * modes.ramble_words), None
    if role == "evaluator" and modes.json_schema_only and not _wants_schema(body):
        return "Sure! The answer looks fine to me overall, I would say it passes.", None
    if role == "evaluator" and modes.llama_cpp_python and not _constrained(body):
        return "Looks good to me: every step passes, I think.", None
    if role == "grader" and modes.grader_words_first:
        words = [("The", -2.17), ("You", -2.70), ("Your", -2.83), ("1", -3.20), ("A", -3.26)]
        top = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in words]
        first = {"token": "The", "logprob": -2.17, "bytes": list(b"The"), "top_logprobs": top}
        return ("The evaluation shows 3", {"content": [first]} if body.get("logprobs") else None)
    if role == "candidate" and modes.ignore_tools and body.get("tools"):
        return "I would look at the files first and then change them.", None
    return None


if (
    __name__ == "__main__"
):  # python -m tests.llm_server: serve until interrupted, for trying the plugin by hand
    fake = FakeLLMServer().start()
    print(fake.base_url, flush=True)
    try:
        fake._thread.join()
    except KeyboardInterrupt:
        fake.stop()
