"""Every error pytest-llmbench raises on purpose: what each means, where it is raised and
what becomes of it. Messages are one line that says what was wrong, where, and what is
accepted.

LLMBenchError      the base; the `llmbench` command prints any of them as one line
│                  "llmbench: error: ..." and exits with 2 (cli/__init__.py)
├── ConfigError    a wrong argument of an `llmbench` command: a missing folder or file, a
│                  document without its marked block (cli/datasets.py, cli/complexity.py,
│                  cli/catalogue.py). A bad --llm-* option is not one: settings.py raises
│                  pytest.UsageError for it.
├── FormatError    a malformed scenario, dataset, dialog script, image, criteria file or
│                  report dir, naming the file and field (formats/, reporting/runs.py,
│                  cli/airun.py). At collection it is the scenario's one-line error
│                  (collection.py); airun/criteria.py lists it and reads the next file.
└── RunError       running an item failed; tasks/pipeline.py makes the item an error
    ├── ModelError       a model call failed: provider, network, timeout, no reply, a
    │                    replay or cache miss (models/, airun/replay.py, execution/managed.py).
    │                    execution/retry.py tries a retryable one again, then raises it
    │                    saying how many retries it gave up after; tasks/dialog.py switches
    │                    to the text tool protocol when a provider rejects native tools.
    │   └── ContextWindowError  the prompt does not fit the model's context window
    │                    (models/litellm_model.py); a dialog ends on it as on a limit
    ├── BudgetExhausted  --llm-budget-usd is spent (execution/managed.py); the engine
    │                    reports the item as skipped (execution/engine.py)
    └── RunStopped       pytest stopped the run (-x, --maxfail, Ctrl-C): no new call
                         starts (execution/managed.py); pending items are cancelled
"""

from __future__ import annotations

from pathlib import Path

from .redaction import redact


class LLMBenchError(Exception):
    """Base class of every error raised on purpose by pytest-llmbench."""


class ConfigError(LLMBenchError):
    """A wrong argument of an `llmbench` command (a bad --llm-* option is a pytest.UsageError)."""


class FormatError(LLMBenchError):
    """A scenario, dataset or criteria file does not follow docs/formats.md."""

    def __init__(self, path: Path | str, field: str, problem: str) -> None:
        self.path = str(path)
        self.field = field
        self.problem = " ".join(problem.splitlines())  # one line, whatever a parser said
        where = f"{self.path}: {field}" if field else self.path
        super().__init__(f"{where}: {self.problem}")


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


class ContextWindowError(ModelError):
    """The prompt does not fit the model's context window: counted before the call, or
    the provider said so. Never retried as it is; a dialog ends at it like at a limit."""


class BudgetExhausted(RunError):
    """--llm-budget-usd is spent: no new call starts, remaining items are skipped."""


class RunStopped(RunError):
    """pytest will run no more items (-x, --maxfail, Ctrl-C): no new model call starts."""
