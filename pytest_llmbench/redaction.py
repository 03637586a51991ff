"""Secrets out of everything pytest-llmbench writes or prints: one function, `redact`.

Replaced by `[REDACTED]`:
  - the value of every environment variable whose name says it holds a credential:
    names ending in _API_KEY, _APIKEY, _KEY_ID, _TOKEN, _SECRET, _SECRET_KEY, _PASSWORD,
    _ACCESS_KEY, _AUTH, or starting with AWS_ and naming a key, secret or token (the
    provider keys litellm reads follow these forms: OPENAI_API_KEY, HF_TOKEN,
    AWS_SECRET_ACCESS_KEY, AZURE_AD_TOKEN, ...); values under 8 characters are left alone,
    as they cannot be told from ordinary text;
  - the value of an Authorization header (one echoed in a provider's error body), and a
    credential after `Bearer` or `Basic` anywhere (one that holds a digit, so that prose
    such as "Bearer authentication" stays);
  - the password of a URL (`http://user:password@host/` -> `http://user:[REDACTED]@host/`).

Applied at the boundaries: the message of every ModelError (errors.py), each item's
result as the plugin records it (so results.jsonl, report.json, report.html, the JUnit
XML properties and the terminal line of a failed item), and the settings written into
leaderboard.json and report.json.
"""

from __future__ import annotations

import os
import re
from typing import Any

MARK = "[REDACTED]"
_MIN_SECRET = 8
_SECRET_NAME = re.compile(
    r"(_API_KEY|_APIKEY|_KEY_ID|_TOKEN|_SECRET|_SECRET_KEY|_PASSWORD|_PASSWD|_ACCESS_KEY|_AUTH)$"
    r"|^AWS_\w*(KEY|SECRET|TOKEN)",
    re.IGNORECASE,
)
_PATTERNS = (
    # An Authorization header as echoed: its whole value.
    (
        re.compile(r"(?i)(authorization[\"']?\s*[:=]\s*[\"']?)[^\"'\s,;})]+(\s+[^\"'\s,;})]+)?"),
        rf"\1{MARK}",
    ),
    # A bearer or basic credential elsewhere (it holds a digit, unlike "Bearer tokens").
    (re.compile(r"\b([Bb]earer|Basic)(\s+)(?=[\w.~+/=-]*\d)[\w.~+/=-]{8,}"), rf"\1\2{MARK}"),
    # The password of a URL's user info.
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s/:@]*):[^\s/@]+@"), rf"\1:{MARK}@"),
)


def secret_values(environ: dict[str, str] | None = None) -> list[str]:
    """The credential values of the environment, longest first."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= _MIN_SECRET}
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with every credential it holds replaced by [REDACTED] (`secrets`: the
    environment's, read once by a caller that redacts many texts)."""
    for value in secret_values() if secrets is None else secrets:
        if value in text:
            text = text.replace(value, MARK)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_data(value: Any) -> Any:
    """A JSON-like value (dicts, lists, strings) with every string redacted; the
    environment is read once per value, not once per string (a result has thousands)."""
    return _redacted(value, secret_values())


def _redacted(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: _redacted(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(v, secrets) for v in value]
    return value
