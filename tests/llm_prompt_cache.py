"""The local test server's prompt cache (tests/llm_server.py, policy `prompt_cache`): what
it has seen, per model, to report cached prompt tokens the way providers do. Tokens are
words, as everywhere in the test server."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

Words = tuple[str, ...]


def _words(content: Any) -> list[str]:
    if isinstance(content, list):
        return [
            w for p in content if p.get("type") == "text" for w in str(p.get("text", "")).split()
        ]
    return str(content or "").split()


def _shared(words: Words, seen: Words) -> int:
    """How many words `words` and `seen` begin with alike."""
    for index, (a, b) in enumerate(zip(words, seen, strict=False)):
        if a != b:
            return index
    return min(len(words), len(seen))


@dataclass
class PromptCache:
    # (model, prompt words) of every chat request, and (model, prefix) of every marked prefix
    prompts: list[tuple[str, Words]] = field(default_factory=list)
    prefixes: set[tuple[str, Words]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def automatic(self, body: dict[str, Any]) -> int:
        """Prompt words an earlier chat request of the model began with too (as OpenAI
        caches, unasked)."""
        model = str(body.get("model", ""))
        words = tuple(w for m in body.get("messages", []) for w in _words(m.get("content")))
        with self._lock:
            earlier = [seen for name, seen in self.prompts if name == model]
            self.prompts.append((model, words))
        return max((_shared(words, seen) for seen in earlier), default=0)

    def marked(self, model: str, prefix: Words) -> bool:
        """Whether the model's marked `prefix` was written before (it is now)."""
        with self._lock:
            seen = (model, prefix) in self.prefixes
            self.prefixes.add((model, prefix))
        return seen
