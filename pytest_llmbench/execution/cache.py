"""The on-disk request cache: one sqlite3 file shared by every process of a run.

The key is a sha256 over a canonical JSON of what decides the reply: model, api base,
messages, tools offered, generation parameters, attempt index and sample index (so attempts and grader
samples stay independent). Headers and API keys are never part of a request here, so
they are never stored. An image part's data URL enters the key as the sha256 of the URL
(so of the image's bytes and type), digested once per distinct URL: the key stays small
and only replies are stored. A row that cannot be read back is deleted and fetched again;
a damaged file is set aside and a fresh one used.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..models.base import ModelReply, ModelRequest, ToolCall
from .store import SqliteStore

CACHE_FILE = "requests.sqlite3"
# Bump when the stored reply's shape changes: old rows then simply miss.
FORMAT = 1


@lru_cache(maxsize=256)
def _url_digest(url: str) -> str:
    # Every item and attempt sends the same str object (encoded once at load), whose
    # hash Python keeps, so the cache lookup is cheap and each image is digested once.
    return hashlib.sha256(url.encode()).hexdigest()


def _keyed_content(content: Any) -> Any:
    """Message content for the key: data URLs of image parts replaced by their digest."""
    if not isinstance(content, list):
        return content
    parts = []
    for part in content:
        url = (part.get("image_url") or {}).get("url") if isinstance(part, dict) else None
        if isinstance(url, str) and url.startswith("data:"):
            part = {**part, "image_url": {**part["image_url"], "url": _url_digest(url)}}
        parts.append(part)
    return parts


def request_key(model: str, api_base: str | None, request: ModelRequest) -> str:
    messages = [
        {**m, "content": _keyed_content(m["content"])} if isinstance(m.get("content"), list) else m
        for m in request.messages
    ]
    fields = {
        "format": FORMAT,
        "model": model,
        "api_base": api_base,
        "messages": messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "top_logprobs": request.top_logprobs,
        "attempt": request.attempt,
        "sample": request.sample,
    }
    if request.tools:  # only when offered, so keys of requests without tools stay as they were
        fields["tools"] = list(request.tools)
    if request.response_schema:  # likewise
        fields["response_schema"] = request.response_schema
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _encode(reply: ModelReply) -> str:
    data = asdict(reply)
    data.pop("extra", None)
    return json.dumps(data, ensure_ascii=False)


def _decode(text: str) -> ModelReply:
    data: dict[str, Any] = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise ValueError("not a stored reply")
    pairs = data.get("first_token_logprobs")
    if pairs is not None:
        data["first_token_logprobs"] = [(str(t), float(p)) for t, p in pairs]
    data["tool_calls"] = tuple(ToolCall(**call) for call in data.get("tool_calls") or ())
    return ModelReply(**data)


class RequestCache:
    """Thread-safe: the background loop and the main thread may both touch it. A damaged
    file is set aside and replaced (execution/store.py)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / CACHE_FILE
        # Opened on first use, so a run of offline models leaves no cache folder behind.
        self._store = SqliteStore(
            self.path,
            ["CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)"],
            "SELECT key, reply FROM replies LIMIT 1",
        )

    def get(self, key: str) -> ModelReply | None:
        return self._store.run(lambda db: self._get(db, key))

    @staticmethod
    def _get(db: sqlite3.Connection, key: str) -> ModelReply | None:
        row = db.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return _decode(row[0])
        except (ValueError, TypeError, KeyError):
            # A corrupt row: forget it; the caller fetches the reply again.
            db.execute("DELETE FROM replies WHERE key = ?", (key,))
            db.commit()
            return None

    def put(self, key: str, reply: ModelReply) -> None:
        text = _encode(reply)

        def insert(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO replies (key, reply) VALUES (?, ?)", (key, text))
            db.commit()

        self._store.run(insert)

    def forget(self, key: str) -> None:
        """Drop a stored reply (a judge reply that could not be read is asked again)."""

        def delete(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM replies WHERE key = ?", (key,))
            db.commit()

        self._store.run(delete)

    def close(self) -> None:
        self._store.close()
