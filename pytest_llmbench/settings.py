"""Every --llm-* option, its ini twin and environment variable, resolved once.

Precedence: command line > environment (LLMBENCH_<NAME>) > ini ([tool.pytest.ini_options]
llm_<name>) > default. `resolve` returns an immutable Settings; any bad value is one
pytest.UsageError line that names the option and the accepted form.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .airun.replay import REPLAY, is_replay, published_model
from .judging.formulas import FORMULAS
from .models.registry import OFFLINE_PREFIX, builtin_names, is_builtin, is_offline
from .schema.vocabulary import CACHE_MODES, CacheMode

DEFAULT_MODEL = "llmbench/reference"


def _int_at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number >= {low}, got {text!r}"
            ) from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {low}, got {value}")
        return value

    return parse


def _float_between(
    low: float, high: float | None, *, open_low: bool = False
) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        too_low = value <= low if open_low else value < low
        if too_low or (high is not None and value > high):
            bound = f"> {low}" if open_low else f">= {low}"
            raise argparse.ArgumentTypeError(
                f"expected a number {bound}{f' and <= {high}' if high is not None else ''}, got {value}"
            )
        return value

    return parse


def _builtin_names() -> list[str]:
    return sorted([*builtin_names(), f"{REPLAY}[/<Model>]"])


def _model_name(text: str) -> str:
    name = str(text).strip()
    if not name or any(c.isspace() for c in name):
        raise argparse.ArgumentTypeError(
            f"expected a model name such as openai/gpt-4o-mini, got {text!r}"
        )
    if is_offline(name) and not (is_builtin(name) or is_replay(name)):
        known = ", ".join(_builtin_names())
        raise argparse.ArgumentTypeError(
            f"unknown built-in model {name!r}; built-in models: {known}"
        )
    return name


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = str(text).strip().lower()
        if value not in choices:
            raise argparse.ArgumentTypeError(f"expected one of {'|'.join(choices)}, got {text!r}")
        return value

    return parse


def _bool(text: str) -> bool:
    value = str(text).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def _price(text: str) -> tuple[str, float, float]:
    """MODEL=IN/OUT in USD per million input/output tokens."""
    model, sep, rates = str(text).strip().rpartition("=")
    parts = rates.split("/")
    try:
        per_in, per_out = (float(p) for p in parts) if sep and len(parts) == 2 else ("", "")
        if not model or per_in < 0 or per_out < 0:  # type: ignore[operator]
            raise ValueError
    except (ValueError, TypeError):
        raise argparse.ArgumentTypeError(
            f"expected MODEL=IN/OUT in USD per million input/output tokens "
            f"(e.g. openai/my-model=0.15/0.60), got {text!r}"
        ) from None
    return model, float(per_in), float(per_out)


def _context_window(text: str) -> tuple[str, int]:
    """MODEL=N: the model's context window in tokens."""
    model, sep, size = str(text).strip().rpartition("=")
    try:
        if not sep or not model.strip() or int(size) < 1:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected MODEL=N with N the context window in tokens "
            f"(e.g. openai/my-model=8192), got {text!r}"
        ) from None
    return model.strip(), int(size)


STRUCTURED_OUTPUTS = ("auto", "schema", "text")


def _structured_output(text: str) -> tuple[str, str]:
    """MODE or MODEL=MODE; ("", MODE) is the default for every judge."""
    model, _, mode = str(text).strip().rpartition("=")
    mode = mode.strip().lower()
    if mode not in STRUCTURED_OUTPUTS:
        accepted = "|".join(STRUCTURED_OUTPUTS)
        raise argparse.ArgumentTypeError(f"expected {accepted} or MODEL={accepted}, got {text!r}")
    return model.strip(), mode


TOOL_PROTOCOLS = ("auto", "native", "text")


def _tool_protocol(text: str) -> tuple[str, str]:
    """MODE or MODEL=MODE; ("", MODE) is the default for every model."""
    model, _, mode = str(text).strip().rpartition("=")
    mode = mode.strip().lower()
    if mode not in TOOL_PROTOCOLS:
        raise argparse.ArgumentTypeError(
            f"expected {'|'.join(TOOL_PROTOCOLS)} or MODEL={'|'.join(TOOL_PROTOCOLS)}, got {text!r}"
        )
    return model.strip(), mode


def _text(text: str) -> str:
    value = str(text).strip()
    if not value:
        raise argparse.ArgumentTypeError("expected a non-empty value")
    return value


def _formula_name(text: str) -> str:
    name = str(text).strip()
    if name not in FORMULAS:
        raise argparse.ArgumentTypeError(
            f"unknown score formula {name!r}; accepted: {', '.join(FORMULAS)}"
        )
    return name


@dataclass(frozen=True)
class OptionSpec:
    name: str  # "model" -> --llm-model, llm_model, LLMBENCH_MODEL
    parse: Callable[[str], Any]
    default: Any
    help: str
    many: bool = False  # repeatable, and each value may be a comma list
    switch: bool = False  # a switch on the command line (--llm-resume); true/false elsewhere

    @property
    def flag(self) -> str:
        return f"--llm-{self.name.replace('_', '-')}"

    @property
    def dest(self) -> str:
        return f"llm_{self.name}"

    @property
    def env(self) -> str:
        return f"LLMBENCH_{self.name.upper()}"


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "model",
        _model_name,
        [DEFAULT_MODEL],
        "model(s) to benchmark; repeat or comma-separate "
        f"(litellm names, or built-in {', '.join(_builtin_names())}). Default: {DEFAULT_MODEL}",
        many=True,
    ),
    OptionSpec(
        "judge",
        _model_name,
        [],
        "evaluator model(s); repeat or comma-separate. Default: none "
        "(only deterministic checks score)",
        many=True,
    ),
    OptionSpec(
        "grader",
        _model_name,
        None,
        "grader model turning each evaluator report into a grade. Default: the first judge",
    ),
    OptionSpec(
        "api_base",
        _text,
        None,
        "API base URL passed to litellm for every model (local OpenAI-compatible servers)",
    ),
    OptionSpec(
        "attempts", _int_at_least(1), 3, "attempts per item, the best one counts. Default: 3"
    ),
    OptionSpec(
        "temperature",
        _float_between(0.0, 2.0),
        None,
        "candidate sampling temperature, 0-2. Default: provider's",
    ),
    OptionSpec(
        "max_tokens",
        _int_at_least(1),
        None,
        "maximum completion tokens per candidate reply. Default: provider's",
    ),
    OptionSpec(
        "timeout",
        _float_between(0.0, None, open_low=True),
        600.0,
        "seconds per model call. Default: 600",
    ),
    OptionSpec(
        "grader_samples",
        _int_at_least(1),
        5,
        "grader samples when the provider gives no logprobs. Default: 5",
    ),
    OptionSpec(
        "report_dir",
        _text,
        "reports",
        "folder for leaderboard.json/.md, report.html, results.jsonl and report.json. "
        "Default: reports",
    ),
    OptionSpec(
        "score_formula",
        _formula_name,
        None,
        f"leaderboard score formula for every category: {', '.join(FORMULAS)}. Default: "
        "each category's own (multimodal for the multimodal category, else weighted)",
    ),
    OptionSpec(
        "min_score",
        _float_between(0.0, 1.0),
        None,
        "fail items whose quality (Acc + Compl)/8, 0.25-1, is below this; quality does not "
        "depend on the other models, unlike the weighted score. Default: no gate",
    ),
    OptionSpec(
        "concurrency",
        _int_at_least(1),
        16,
        "model calls in flight at once per model, over all xdist workers together. Default: 16",
    ),
    OptionSpec(
        "max_retries",
        _int_at_least(0),
        5,
        "retries of a call that failed with 429, 5xx, a timeout or a dropped connection. Default: 5",
    ),
    # The first backoff; tests make it small. Each retry doubles it (capped at 60 s), with jitter.
    OptionSpec(
        "retry_backoff",
        _float_between(0.0, 60.0, open_low=True),
        1.0,
        "seconds before the first retry; doubles per retry, with jitter. Default: 1",
    ),
    OptionSpec(
        "cache",
        _choice(*CACHE_MODES),
        "on",
        "request cache: on (read and write), off, refresh (write only), "
        "replay (read only, no network; a miss is an error). Default: on",
    ),
    OptionSpec(
        "cache_dir",
        _text,
        ".llmbench_cache",
        "folder of the request cache. Default: .llmbench_cache",
    ),
    OptionSpec(
        "resume",
        _bool,
        False,
        "skip items already finished in the report dir's results.jsonl; re-run errored ones",
        switch=True,
    ),
    OptionSpec(
        "budget_usd",
        _float_between(0.0, None, open_low=True),
        None,
        "stop starting model calls once this many USD are spent; remaining items are skipped",
    ),
    OptionSpec(
        "price",
        _price,
        [],
        "price of a model litellm does not know: MODEL=IN/OUT in USD per million "
        "input/output tokens; repeat or comma-separate",
        many=True,
    ),
    OptionSpec(
        "tool_protocol",
        _tool_protocol,
        [],
        "how dialog scenarios offer their tools: native (function calling), text (JSON "
        "commands) or auto (native, text when the provider rejects tools); MODE or "
        "MODEL=MODE, repeat or comma-separate. Default: auto",
        many=True,
    ),
    # new option: judge_max_tokens
    OptionSpec(
        "judge_max_tokens",
        _int_at_least(1),
        2048,
        "maximum completion tokens per evaluator reply (a reply cut there is recorded as "
        "cut and repaired once). Default: 2048",
    ),
    # new option: grader_max_tokens
    OptionSpec(
        "grader_max_tokens",
        _int_at_least(1),
        512,
        "maximum completion tokens per sampled grader reply (the logprob call asks for at "
        "most 16). Default: 512",
    ),
    # new option: context_window
    OptionSpec(
        "context_window",
        _context_window,
        [],
        "context window of a model litellm does not know (local servers): MODEL=N tokens; "
        "repeat or comma-separate. Default: litellm's model table, else not checked",
        many=True,
    ),
    # new option: structured_output
    OptionSpec(
        "structured_output",
        _structured_output,
        [],
        "how judges are asked for their report: schema (response_format with a JSON "
        "schema), text (read leniently), or auto (schema when litellm knows the model "
        "supports it); MODE or MODEL=MODE, repeat or comma-separate. Default: auto",
        many=True,
    ),
    OptionSpec(
        "replay_dir",
        _text,
        None,
        "results clone whose Output/<Model>/ answers llmbench/replay/<Model> replays "
        "(the public AIRUN results layout)",
    ),
)


@dataclass(frozen=True)
class Settings:
    models: tuple[str, ...]
    judges: tuple[str, ...]
    grader: str | None
    api_base: str | None
    attempts: int
    temperature: float | None
    max_tokens: int | None
    timeout: float
    grader_samples: int
    report_dir: Path
    score_formula: str | None = None
    min_score: float | None = None
    concurrency: int = 16
    max_retries: int = 5
    retry_backoff: float = 1.0
    cache: CacheMode = "on"
    cache_dir: Path = Path(".llmbench_cache")
    resume: bool = False
    budget_usd: float | None = None
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    replay_dir: Path | None = None
    # model -> auto | native | text; the key "" is the default for every other model
    tool_protocols: dict[str, str] = field(default_factory=dict)
    judge_max_tokens: int = 2048  # new option: judge_max_tokens
    grader_max_tokens: int = 512  # new option: grader_max_tokens
    # new option: context_window; model -> tokens
    context_windows: dict[str, int] = field(default_factory=dict)
    # new option: structured_output; model -> auto | schema | text, "" the default
    structured_outputs: dict[str, str] = field(default_factory=dict)

    def structured_output(self, model: str) -> str:
        return self.structured_outputs.get(model, self.structured_outputs.get("", "auto"))

    def tool_protocol(self, model: str) -> str:
        return self.tool_protocols.get(model, self.tool_protocols.get("", "auto"))


SETTINGS_KEY = pytest.StashKey[Settings]()


def settings_of(config: pytest.Config) -> Settings:
    """The settings `pytest_configure` resolved for this run."""
    return config.stash[SETTINGS_KEY]


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("llmbench", "LLM benchmark (pytest-llmbench)")
    for spec in OPTIONS:
        extra = f" [env {spec.env}, ini {spec.dest}]"
        if spec.many:
            group.addoption(
                spec.flag, dest=spec.dest, action="append", default=None, help=spec.help + extra
            )
        elif spec.switch:
            group.addoption(
                spec.flag,
                dest=spec.dest,
                action="store_const",
                const="true",
                default=None,
                help=spec.help + extra,
            )
        else:
            group.addoption(spec.flag, dest=spec.dest, default=None, help=spec.help + extra)
        if spec.many:
            parser.addini(spec.dest, help=spec.help, type="args", default=None)
        else:
            parser.addini(spec.dest, help=spec.help, type="string", default=None)


def _split(values: list[str] | str) -> list[str]:
    items = [values] if isinstance(values, str) else values
    return [part.strip() for item in items for part in str(item).split(",") if part.strip()]


def _raw_value(config: pytest.Config, spec: OptionSpec) -> tuple[Any, str] | None:
    """The first value given, with the name of where it came from."""
    cli = config.getoption(spec.dest)
    if cli is not None:
        return cli, spec.flag
    env = os.environ.get(spec.env)
    if env not in (None, ""):
        return env, spec.env
    ini = config.getini(spec.dest)
    if ini not in (None, "", []):
        return ini, f"ini {spec.dest}"
    return None


def _value(config: pytest.Config, spec: OptionSpec) -> Any:
    found = _raw_value(config, spec)
    if found is None:
        return spec.default
    raw, source = found
    try:
        if spec.many:
            values = _split(raw)
            if not values:
                raise argparse.ArgumentTypeError("expected at least one value")
            return list(dict.fromkeys(spec.parse(v) for v in values))
        return spec.parse(raw)
    except argparse.ArgumentTypeError as exc:
        raise pytest.UsageError(f"{source}: {exc}") from None


def resolve(config: pytest.Config) -> Settings:
    values = {spec.name: _value(config, spec) for spec in OPTIONS}
    for judge in values["judge"] + [values["grader"]] * (values["grader"] is not None):
        if is_offline(judge):
            raise pytest.UsageError(
                f"--llm-judge/--llm-grader: {judge!r} is an offline model and cannot judge; "
                f"give a litellm model (models starting with {OFFLINE_PREFIX!r} only answer tasks)"
            )
    if values["grader"] is not None and not values["judge"]:
        raise pytest.UsageError(
            "--llm-grader: needs at least one --llm-judge to grade the reports of"
        )
    here = Path(config.invocation_params.dir)
    replay_dir = here / values["replay_dir"] if values["replay_dir"] else None
    for model in values["model"]:
        if is_replay(model):
            try:
                published_model(model, replay_dir)
            except ValueError as exc:
                raise pytest.UsageError(f"--llm-model: {exc}") from None
    report_dir = here / values["report_dir"]  # an absolute path stays as it is
    return Settings(
        models=tuple(values["model"]),
        judges=tuple(values["judge"]),
        grader=values["grader"] or (values["judge"][0] if values["judge"] else None),
        api_base=values["api_base"],
        attempts=values["attempts"],
        temperature=values["temperature"],
        max_tokens=values["max_tokens"],
        timeout=values["timeout"],
        grader_samples=values["grader_samples"],
        report_dir=report_dir,
        score_formula=values["score_formula"],
        min_score=values["min_score"],
        concurrency=values["concurrency"],
        max_retries=values["max_retries"],
        retry_backoff=values["retry_backoff"],
        cache=values["cache"],
        cache_dir=here / values["cache_dir"],
        resume=values["resume"],
        budget_usd=values["budget_usd"],
        prices={model: (per_in, per_out) for model, per_in, per_out in values["price"]},
        tool_protocols=dict(values["tool_protocol"]),
        replay_dir=replay_dir,
        judge_max_tokens=values["judge_max_tokens"],  # new option: judge_max_tokens
        grader_max_tokens=values["grader_max_tokens"],  # new option: grader_max_tokens
        context_windows=dict(values["context_window"]),  # new option: context_window
        structured_outputs=dict(values["structured_output"]),  # new option: structured_output
    )
