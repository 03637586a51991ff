"""Every exception pytest-llmbench defines: what each means, where it is raised and what
becomes of it. Messages are one line that says what was wrong, where, and what is
accepted. Modules import these from here; no other module defines an exception.

Errors of a run or of a command, meant for the person running it:

LLMBenchError      the base; the `llmbench` command prints any of them as one line
│                  "llmbench: error: ..." and exits with 2 (cli/__init__.py)
├── ConfigError    a wrong argument of an `llmbench` command: a missing folder or file, a
│                  document without its marked block (cli/); a real model whose API key is
│                  not set (models/litellm_model.py; runner.py stops the run before the
│                  first call). A bad --llm-* option is not one: settings.py raises
│                  pytest.UsageError for it.
├── FormatError    a malformed scenario, dataset, dialog script, image, criteria file or
│                  report dir, naming the file and field (formats/, reporting/runs.py,
│                  reporting/reader.py, cli/airun.py). At collection it is the scenario's
│                  one-line error (collection.py); airun/criteria.py lists it and reads on.
└── RunError       running an item failed; tasks/pipeline.py makes the item an error
    ├── ModelError       a model call failed: provider, network, timeout, no reply, a
    │                    replay or cache miss (models/, airun/replay.py, execution/managed.py).
    │                    execution/retry.py tries a retryable one again, then raises it
    │                    saying how many retries it gave up after; tasks/dialog.py switches
    │                    to the text tool protocol when a provider rejects native tools.
    │   └── ContextWindowError  the prompt does not fit the model's context window
    │                    (models/litellm_model.py); a dialog ends on it as on a limit
    ├── AttemptFailed    an attempt stopped by a RunError after some calls were paid
    │                    (tasks/pipeline.py, tasks/dialog.py); the item's error keeps the calls
    ├── BudgetExhausted  --llm-budget-usd is spent (execution/managed.py); the engine
    │                    reports the item as skipped (execution/engine.py)
    └── RunStopped       pytest stopped the run (-x, --maxfail, Ctrl-C): no new call
                         starts (execution/managed.py); pending items are cancelled

Input that one reader rejects and its caller handles, each a ValueError (the message says
why; the caller names the file or line and reads on):

ResultError        a results.jsonl line that is not a result (reporting/reader.py); the
                   reader skips it and reports its number
ReportParseError   an evaluator reply with no usable verdict (judging/parsing.py); the
                   judge records the report as unparsed (judging/judge.py, airun/grades.py)
AnswerFileError    a published answer file without its parts (airun/answers.py); the replay
                   model makes it a ModelError (airun/replay.py)
RowError           a grading.csv row that cannot be used (airun/grading.py); the row is
                   skipped and counted
MutantsError       a mutants file that does not apply to its dataset (formats/mutants.py);
                   a FormatError of the scenario at collection (formats/functional.py)

A tool that could not measure, so its figure is missing, never a zero:

NotAnalysable      lizard or the Python parser could not read a file (metrics/lizard_ci.py,
                   metrics/python_metrics.py); the file is listed as not analysed
                   (metrics/complexity.py)
EslintBroken       node or ESLint failed (metrics/eslint_ci.py); lizard counts instead
                   (metrics/complexity.py)
CheckerBroken      a syntax checker failed (metrics/syntax.py); its files are "not checked"

Control flow inside one module:

DialogEnded        a dialog limit was reached (tasks/dialog.py); the dialog ends with
                   that kind and reason
NotAFile           the request cache or budget database path is a folder
                   (execution/store.py); the store sets it aside like a damaged file

Warnings:

StoreWarning       a damaged cache or ledger database was set aside and a fresh one made
                   (execution/store.py)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from .redaction import redact

if TYPE_CHECKING:
    from .schema.results import CallRecord
    from .schema.vocabulary import DialogEnd


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


class AttemptFailed(RunError):
    """An attempt stopped by an error after some of its calls were paid: they go with it,
    so the usage and cost count them."""

    def __init__(self, error: RunError, calls: list[CallRecord]) -> None:
        super().__init__(str(error))
        self.calls = calls


class ResultError(ValueError):
    """A line that is not a result this code can read; the message says why."""


class ReportParseError(ValueError):
    """An evaluator reply with no usable verdict; the message says what was missing."""


class AnswerFileError(ValueError):
    """An answer file without the parts the format promises; the message says which."""


class RowError(ValueError):
    """Why one row of a grading.csv cannot be used."""


class MutantsError(ValueError):
    """A mutants file that is not a list of mutants applying to the dataset."""


class NotAnalysable(Exception):
    """lizard (or the Python parser) could not read the file; the message says why."""


class EslintBroken(Exception):
    """node or ESLint itself failed; the message says how."""


class CheckerBroken(Exception):
    """A syntax checker itself failed, so its files are not checked."""


class DialogEnded(Exception):
    """A dialog limit was reached: the dialog stops here."""

    def __init__(self, kind: DialogEnd, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class NotAFile(sqlite3.DatabaseError):
    """A store's database path is a folder."""


class StoreWarning(UserWarning):
    """A damaged database was set aside and a fresh one is used."""
