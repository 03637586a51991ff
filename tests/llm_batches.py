"""The files and batches endpoints of the local test server (tests/llm_server.py), as
OpenAI's batch API has them: `POST /v1/files` (a multipart upload of a JSONL file),
`POST /v1/batches`, `GET /v1/batches/{id}` and `GET /v1/files/{id}/content`.

Each line of a batch is answered by the server's own role policies (FakeLLMServer.reply,
recorded in `requests` with `_batch` set to the batch id) when the batch completes; lines
are never counted as chat calls. Policy (on the desk):
  polls_in_progress   how many polls of a batch answer "in_progress" before it completes
  hold                while set, every batch stays "in_progress" (a test kills its run then)
  end_state           the state a batch ends in: "completed" (default), "failed", "expired"
  hold_create         while set, a batch is created (counted in `created`) but the reply to
                      its creation waits (a test kills the client before it learns the id)
`GET /v1/batches` lists every batch with its metadata, newest first.
Counters: `created` (batch ids in order of creation), `polls` per batch id, `uploads`.

Anthropic's Message Batches take the same policies: `POST .../messages/batches` with
`{"requests": [{"custom_id", "params"}]}` (ids `msgbatch_N`, its headers kept under
`headers`), `GET .../messages/batches/{id}` (`processing_status` in_progress, then
ended, with its `results_url`) and that URL: JSONL of `{"custom_id", "result"}`, each
`succeeded` with the message answering its params by the server's Anthropic policies;
`expired` for end_state "expired", `errored` for "failed" (an Anthropic batch itself
always ends "ended").
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Reply = Callable[[dict[str, Any], str], dict[str, Any]]


@dataclass
class BatchDesk:
    polls_in_progress: int = 1
    hold: bool = False
    end_state: str = "completed"
    hold_create: bool = False
    created: list[str] = field(default_factory=list)
    polls: dict[str, int] = field(default_factory=dict)
    uploads: int = 0
    files: dict[str, bytes] = field(default_factory=dict)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self.released = threading.Event()  # set: held creations are answered

    def polled(self, batch_id: str) -> int:
        with self._lock:
            return self.polls.get(batch_id, 0)

    def upload(self, content_type: str, data: bytes) -> tuple[int, dict[str, Any]]:
        """POST /files: the multipart form's `file` part stored as a new file."""
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + data)
        parts = {p.get_param("name", header="content-disposition"): p for p in message.iter_parts()}
        if "file" not in parts:
            return 400, {"error": {"message": "no file part", "type": "invalid_request_error"}}
        with self._lock:
            self.uploads += 1
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = parts["file"].get_payload(decode=True) or b""
        return 200, _file(file_id, len(self.files[file_id]))

    def create(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """POST /batches for an uploaded file."""
        file_id = str(body.get("input_file_id"))
        with self._lock:
            if file_id not in self.files:
                return 404, {"error": {"message": f"no file {file_id}", "type": "not_found"}}
            batch_id = f"batch_{len(self.batches) + 1}"
            lines = [json.loads(x) for x in self.files[file_id].decode().splitlines() if x.strip()]
            self.batches[batch_id] = {
                "input": file_id,
                "lines": lines,
                "status": "in_progress",
                "metadata": body.get("metadata"),
            }
            self.created.append(batch_id)
        if self.hold_create:
            self.released.wait(60)
        with self._lock:
            return 200, self._view(batch_id)

    def create_messages(
        self, body: dict[str, Any], headers: dict[str, str]
    ) -> tuple[int, dict[str, Any]]:
        """POST /messages/batches: Anthropic's batch of Messages requests."""
        requests = body.get("requests")
        if not isinstance(requests, list) or not requests:
            return 400, _anthropic_error("invalid_request_error", "requests: a non-empty list")
        with self._lock:
            batch_id = f"msgbatch_{len(self.batches) + 1}"
            self.batches[batch_id] = {
                "input": None,
                "lines": requests,
                "status": "in_progress",
                "headers": headers,
            }
            self.created.append(batch_id)
        if self.hold_create:
            self.released.wait(60)
        with self._lock:
            return 200, self._message_batch(batch_id, None)

    def retrieve_messages(
        self, batch_id: str, url: str, reply: Reply
    ) -> tuple[int, dict[str, Any]]:
        """GET /messages/batches/{id} (at `url`): in progress for the policy's polls, then
        ended, its lines answered by `reply` (params, batch id) -> Anthropic's message."""
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch is None:
                return 404, _anthropic_error("not_found_error", f"no batch {batch_id}")
            self.polls[batch_id] = self.polls.get(batch_id, 0) + 1
            due = not self.hold and self.polls[batch_id] > self.polls_in_progress
            answer = due and batch["status"] == "in_progress"
            if answer:
                batch["status"] = "ended"
        if answer:
            results = [self._result(line, batch_id, reply) for line in batch["lines"]]
            with self._lock:
                batch["results"] = "".join(json.dumps(r) + "\n" for r in results).encode()
        with self._lock:
            return 200, self._message_batch(batch_id, f"{url}/results")

    def _result(self, line: dict[str, Any], batch_id: str, reply: Reply) -> dict[str, Any]:
        custom_id = line.get("custom_id")
        if self.end_state == "expired":
            return {"custom_id": custom_id, "result": {"type": "expired"}}
        if self.end_state == "failed":
            error = {"type": "error", "error": {"type": "api_error", "message": "scripted"}}
            return {"custom_id": custom_id, "result": {"type": "errored", "error": error}}
        message = reply(dict(line.get("params") or {}), batch_id)
        return {"custom_id": custom_id, "result": {"type": "succeeded", "message": message}}

    def results(self, batch_id: str) -> bytes | None:
        """The results URL's JSONL, once the batch has ended."""
        with self._lock:
            return self.batches.get(batch_id, {}).get("results")

    def _message_batch(self, batch_id: str, results_url: str | None) -> dict[str, Any]:
        batch = self.batches[batch_id]
        total, ended = len(batch["lines"]), batch["status"] == "ended"
        kind = {"expired": "expired", "failed": "errored"}.get(self.end_state, "succeeded")
        counts = {"processing": 0 if ended else total, "succeeded": 0, "errored": 0}
        counts.update({"canceled": 0, "expired": 0})
        if ended:
            counts[kind] = total
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": batch["status"],
            "request_counts": counts,
            "created_at": stamp,
            "expires_at": stamp,
            "ended_at": stamp if ended else None,
            "cancel_initiated_at": None,
            "archived_at": None,
            "results_url": results_url if ended else None,
        }

    def listed(self) -> tuple[int, dict[str, Any]]:
        """GET /batches: every batch, newest first."""
        with self._lock:
            data = [self._view(b) for b in reversed(self.created)]
        return 200, {"object": "list", "data": data, "has_more": False}

    def retrieve(self, batch_id: str, reply: Reply) -> tuple[int, dict[str, Any]]:
        """GET /batches/{id}: in progress for the policy's polls, then done (answered)."""
        lines = None
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch is None:
                return 404, {"error": {"message": f"no batch {batch_id}", "type": "not_found"}}
            self.polls[batch_id] = self.polls.get(batch_id, 0) + 1
            due = not self.hold and self.polls[batch_id] > self.polls_in_progress
            if due and batch["status"] == "in_progress":
                batch["status"] = self.end_state
                if self.end_state == "completed":
                    lines = batch["lines"]
        if lines is not None:
            answered = "".join(json.dumps(_answer(line, batch_id, reply)) + "\n" for line in lines)
            with self._lock:
                output = f"file-{len(self.files) + 1}"
                self.files[output] = answered.encode()
                batch["output"] = output
        with self._lock:
            return 200, self._view(batch_id)

    def content(self, file_id: str) -> bytes | None:
        with self._lock:
            return self.files.get(file_id)

    def _view(self, batch_id: str) -> dict[str, Any]:
        batch = self.batches[batch_id]
        total = len(batch["lines"])
        done = total if batch["status"] == "completed" else 0
        return {
            "id": batch_id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "errors": None,
            "input_file_id": batch["input"],
            "completion_window": "24h",
            "status": batch["status"],
            "output_file_id": batch.get("output"),
            "error_file_id": None,
            "created_at": int(time.time()),
            "request_counts": {"total": total, "completed": done, "failed": 0},
            "metadata": batch.get("metadata"),
        }


def _anthropic_error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _file(file_id: str, size: int) -> dict[str, Any]:
    return {
        "id": file_id,
        "object": "file",
        "bytes": size,
        "created_at": int(time.time()),
        "filename": "batch.jsonl",
        "purpose": "batch",
        "status": "processed",
    }


def _answer(line: dict[str, Any], batch_id: str, reply: Reply) -> dict[str, Any]:
    body = reply(dict(line.get("body") or {}), batch_id)
    return {
        "id": f"batch_req_{line.get('custom_id')}",
        "custom_id": line.get("custom_id"),
        "response": {"status_code": 200, "request_id": "req", "body": body},
        "error": None,
    }
