"""Every error pytest-llmbench raises on purpose.

LLMBenchError
├── ConfigError        a wrong option or ini value; becomes one pytest.UsageError line
├── FormatError        a malformed scenario, dataset or criteria file; names file and field
└── RunError           a failure while running an item (the item becomes an error)
    ├── ModelError     a model call failed (network, provider, timeout, bad reply)
    ├── BudgetExhausted  --llm-budget-usd is spent; the item is skipped
    └── JudgeError     an evaluator or grader reply could not be used

Messages are one line that says what was wrong, where, and what is accepted.
"""

from __future__ import annotations

from pathlib import Path

from .redaction import redact


class LLMBenchError(Exception):
    """Base class of every error raised on purpose by pytest-llmbench."""


class ConfigError(LLMBenchError):
    """A command-line option, environment variable or ini value is wrong."""


class FormatError(LLMBenchError):
    """A scenario, dataset or criteria file does not follow docs/formats.md."""

    def __init__(self, path: Path | str, field: str, problem: str) -> None:
        self.path = str(path)
        self.field = field
        self.problem = problem
        where = f"{self.path}: {field}" if field else self.path
        super().__init__(f"{where}: {problem}")


class RunError(LLMBenchError):
    """Running an item failed for a reason outside the model's answer quality."""


class ModelError(RunError):
    """A model call failed: provider error, network error, timeout, empty reply.

    `retryable` marks failures worth another try (429, 5xx, timeouts, dropped
    connections); `status` is the HTTP status when there was one, and `retry_after`
    the seconds the provider asked us to wait.
    """

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = False,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(redact(message))  # provider error text may echo a key
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after


class BudgetExhausted(RunError):
    """--llm-budget-usd is spent: no new call starts, remaining items are skipped."""


class JudgeError(RunError):
    """An evaluator or grader reply could not be turned into a verdict or grade."""
