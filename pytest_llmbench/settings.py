"""Every --llm-* option, its ini twin and environment variable, declared once and resolved once.

Each Settings field declares its option (`option(...)`): name, parser, default and help.
From that one declaration come the command-line options and ini names (`add_options`),
the values (`resolve`) and the README's table of options (`options_table`).

Precedence: command line > environment (LLMBENCH_<NAME>) > ini ([tool.pytest.ini_options]
llm_<name>) > default. `resolve` returns an immutable Settings; any bad value is one
pytest.UsageError line that names the option and the accepted form.

A renamed option keeps its former name (`was=`) in all three places, each read just after
the current one of the same place; `deprecations` gives one line per former name used.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

import pytest

from .folders import DEFAULT_CACHE_DIR
from .models.registry import builtin_names
from .option_values import (
    boolean,
    choice,
    context_window,
    float_between,
    formula_name,
    int_at_least,
    model_name,
    price,
    structured_output,
    text,
    tool_protocol,
)
from .schema.vocabulary import CACHE_MODES, FORMULA_NAMES, CacheMode

DEFAULT_MODEL = "llmbench/reference"


@dataclass(frozen=True)
class OptionSpec:
    """One option: its names, how its text is read, its default and what it means."""

    name: str  # "model" -> --llm-model, llm_model, LLMBENCH_MODEL
    parse: Callable[[str], Any]
    default: Any  # as `parse` (or a list of its values when `many`) would give it
    help: str  # Markdown: the README's "meaning" column; --help drops the backquotes
    shown: str | None = None  # the default in words, when `default` does not say it
    many: bool = False  # repeatable, and each value may be a comma list
    switch: bool = False  # a switch on the command line (--llm-resume); true/false elsewhere
    # A folder: an ini value is relative to the rootdir (as pytest's ini paths are), a
    # command-line or environment value to the directory pytest was invoked from.
    path: bool = False
    convert: Callable[[Any], Any] = lambda value: value  # the parsed value as Settings holds it
    was: str | None = None  # the option's former name, still read but deprecated

    @property
    def former(self) -> OptionSpec | None:
        """The option under its former name, if it was renamed."""
        return None if self.was is None else replace(self, name=self.was, was=None)

    @property
    def flag(self) -> str:
        return f"--llm-{self.name.replace('_', '-')}"

    @property
    def dest(self) -> str:
        return f"llm_{self.name}"

    @property
    def env(self) -> str:
        return f"LLMBENCH_{self.name.upper()}"

    @property
    def sources(self) -> tuple[str, str, str]:
        """Where the option may be given, by name, in order of precedence."""
        return self.flag, self.env, f"ini {self.dest}"

    @property
    def shown_default(self) -> str:
        if self.shown is not None:
            return self.shown
        value = self.default[0] if isinstance(self.default, list) and self.default else self.default
        if value in (None, []):
            return "none"
        if isinstance(value, bool):
            return "on" if value else "off"
        return f"`{value}`" if isinstance(value, str) else f"{value:g}"


def option(name: str, parse: Callable[[str], Any], default: Any, **spec: Any) -> Any:
    """A Settings field declared as the option `name` (see OptionSpec for `spec`)."""
    return field(metadata={"option": OptionSpec(name, parse, default, **spec)})


def _price_table(prices: list[tuple[str, float, float]]) -> dict[str, tuple[float, float]]:
    return {model: (per_in, per_out) for model, per_in, per_out in prices}


def _code(words: list[str]) -> str:
    return ", ".join(f"`{word}`" for word in words)


@dataclass(frozen=True)
class Settings:
    """The resolved options; the field order is the order of the leaderboard's settings."""

    models: tuple[str, ...] = option(
        "model", model_name, [DEFAULT_MODEL], many=True, convert=tuple,
        help=f"models to benchmark: litellm names or the built-in {_code(builtin_names())}; "
        "repeat or comma-separate")  # fmt: skip
    judges: tuple[str, ...] = option(
        "judge", model_name, [], many=True, convert=tuple,
        help="evaluator models; repeat or comma-separate. Without one, only the deterministic "
        "checks score")  # fmt: skip
    grader: str | None = option(
        "grader", model_name, None, shown="the first judge",
        help="the model that grades each evaluator report")  # fmt: skip
    api_base: str | None = option(
        "api_base", text, None, shown="provider's",
        help="API base URL passed to litellm for every model (local OpenAI-compatible servers)")  # fmt: skip
    attempts: int = option("attempts", int_at_least(1), 3, help="attempts per item; the best counts")  # fmt: skip
    temperature: float | None = option(
        "temperature", float_between(0.0, 2.0), None, shown="provider's",
        help="candidate sampling temperature, 0-2")  # fmt: skip
    max_tokens: int | None = option(
        "max_tokens", int_at_least(1), None, shown="provider's",
        help="maximum completion tokens per candidate reply")  # fmt: skip
    timeout: float = option(
        "timeout", float_between(0.0, None, open_low=True), 600.0,
        help="seconds per model call")  # fmt: skip
    grader_samples: int = option(
        "grader_samples", int_at_least(1), 5,
        help="grader samples when the provider gives no logprobs")  # fmt: skip
    report_dir: Path = option(
        "report_dir", text, "reports", path=True,
        help="folder for leaderboard.json/.md, report.html, results.jsonl and report.json")  # fmt: skip
    score_formula: str | None = option(
        "score_formula", formula_name, None,
        shown="per category: `multimodal` for multimodal, else `weighted`",
        help=f"leaderboard score formula for every category: {_code(list(FORMULA_NAMES))}")  # fmt: skip
    min_quality: float | None = option(
        "min_quality", float_between(0.25, 1.0), None, was="min_score",
        help="fail items whose quality (Acc + Compl)/8, 0.25-1, is below this; quality does not "
        "depend on the other models, unlike the score")  # fmt: skip
    concurrency: int = option(
        "concurrency", int_at_least(1), 16,
        help="model calls in flight at once per model, over all xdist workers together")  # fmt: skip
    max_retries: int = option(
        "max_retries", int_at_least(0), 5,
        help="retries of a call that failed with 429, 5xx, a timeout or a dropped connection")  # fmt: skip
    retry_backoff: float = option(
        "retry_backoff", float_between(0.0, 60.0, open_low=True), 1.0,
        help="seconds before the first retry; doubles per retry (at most 60), with jitter")  # fmt: skip
    cache: CacheMode = option(
        "cache", choice(*CACHE_MODES), "on",
        help="request cache: `on` (read and write), `off`, `refresh` (write only) or `replay` "
        "(read only, no network; a miss is an error)")  # fmt: skip
    cache_dir: Path = option(
        "cache_dir", text, DEFAULT_CACHE_DIR, path=True,
        help="folder of the request and complexity caches")  # fmt: skip
    resume: bool = option(
        "resume", boolean, False, switch=True,
        help="skip items already finished in the report dir's results.jsonl; re-run errored ones")  # fmt: skip
    budget_usd: float | None = option(
        "budget_usd", float_between(0.0, None, open_low=True), None,
        help="a run whose low cost estimate is over this many USD does not start; stop "
        "starting model calls once it is spent; remaining items are skipped")  # fmt: skip
    prices: dict[str, tuple[float, float]] = option(
        "price", price, [], many=True, convert=_price_table, shown="litellm's table",
        help="price of a model litellm does not know: `MODEL=IN/OUT` in USD per million "
        "input/output tokens; repeat or comma-separate")  # fmt: skip
    replay_dir: Path | None = option(
        "replay_dir", text, None, path=True,
        help="results clone whose `Output/<Model>/` answers `llmbench/replay/<Model>` replays "
        "(the public AIRUN results layout)")  # fmt: skip
    # model -> auto | native | text; the key "" is the default for every other model
    tool_protocols: dict[str, str] = option(
        "tool_protocol", tool_protocol, [], many=True, convert=dict, shown="`auto`",
        help="how dialog scenarios offer their tools: `native` (function calling), `text` (JSON "
        "commands) or `auto` (native, text when the provider rejects tools); `MODE` or "
        "`MODEL=MODE`, repeat or comma-separate")  # fmt: skip
    scenario_roots: tuple[Path, ...] = option(
        "scenarios", text, ["scenarios"], many=True, convert=tuple,
        help="folders holding scenarios (`<folder>/<category>/<Id>.yaml`), relative to the "
        "rootdir; a YAML file outside them is never read. Repeat or comma-separate")  # fmt: skip
    judge_max_tokens: int = option(
        "judge_max_tokens", int_at_least(1), 2048,
        help="maximum completion tokens per evaluator reply; a reply cut there is recorded "
        "as cut and repaired once")  # fmt: skip
    grader_max_tokens: int = option(
        "grader_max_tokens", int_at_least(1), 512,
        help="maximum completion tokens per sampled grader reply (the logprob call asks for "
        "at most 16)")  # fmt: skip
    context_windows: dict[str, int] = option(
        "context_window", context_window, [], many=True, convert=dict,
        shown="litellm's model table, else not checked",
        help="context window of a model litellm does not know (local servers): `MODEL=N` "
        "tokens; repeat or comma-separate")  # fmt: skip
    structured_outputs: dict[str, str] = option(
        "structured_output", structured_output, [], many=True, convert=dict, shown="`auto`",
        help="how judges are asked for their report: `schema` (a JSON schema as response_format, "
        "falling back to json_object + schema, then text, when the server refuses it), `text` "
        "(read leniently) or `auto` (schema when litellm knows the model supports it or the "
        "model is at --llm-api-base); `MODE` or `MODEL=MODE`, repeat or comma-separate")  # fmt: skip
    functional: bool = option(
        "functional", boolean, True,
        help="run the scenario's hidden acceptance tests on each answer (the `functional:` "
        "section; sandboxed, in a pool sized to the cores): `on` or `off`")  # fmt: skip
    feedback: bool = option(
        "feedback", boolean, False, switch=True,
        help="when an attempt fails hidden tests, the next attempt continues its conversation "
        "with the failing tests' names and messages (never their code); attempts then stop at "
        "the first that passes every hidden test")  # fmt: skip
    min_functional: float | None = option(
        "min_functional", float_between(0.0, 1.0), None,
        help="fail items whose functional rate, 0-1 (hidden tests passed, or mutants killed, "
        "by the best attempt), is below this; items without hidden tests are not gated")  # fmt: skip
    estimate: bool = option(
        "estimate", boolean, False, switch=True,
        help="print the selected items' calls, tokens and cost per model and role (low / "
        "expected / high) and exit without calling a model")  # fmt: skip
    batch: bool = option(
        "batch", boolean, False, switch=True,
        help="single-shot items' calls go through the provider's batch API (OpenAI, Anthropic; may "
        "take hours) at its batch rates; pending batches resume from --llm-cache-dir")  # fmt: skip

    def structured_output(self, model: str) -> str:
        return self.structured_outputs.get(model, self.structured_outputs.get("", "auto"))

    def tool_protocol(self, model: str) -> str:
        return self.tool_protocols.get(model, self.tool_protocols.get("", "auto"))


_DECLARED: tuple[tuple[str, OptionSpec], ...] = tuple(
    (f.name, f.metadata["option"]) for f in fields(Settings)
)
OPTIONS: tuple[OptionSpec, ...] = tuple(spec for _, spec in _DECLARED)

SETTINGS_KEY = pytest.StashKey[Settings]()


def settings_of(config: pytest.Config) -> Settings:
    """The settings `pytest_configure` resolved for this run."""
    return config.stash[SETTINGS_KEY]


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("llmbench", "LLM benchmark (pytest-llmbench)")
    for spec in OPTIONS:
        text = f"{spec.help}. Default: {spec.shown_default}".replace("`", "")
        how: dict[str, Any] = (
            {"action": "append"}
            if spec.many
            else {"action": "store_const", "const": "true"}
            if spec.switch
            else {}
        )
        where = f" [env {spec.env}, ini {spec.dest}]"
        group.addoption(spec.flag, dest=spec.dest, default=None, help=text + where, **how)
        kind: Literal["args", "string"] = "args" if spec.many else "string"
        parser.addini(spec.dest, help=text, type=kind, default=None)
        if (old := spec.former) is not None:
            note = f"deprecated: use {spec.flag} [env {spec.env}, ini {spec.dest}]"
            group.addoption(old.flag, dest=old.dest, default=None, help=note, **how)
            parser.addini(old.dest, help=note, type=kind, default=None)


def _formerly(spec: OptionSpec) -> str:
    old = spec.former
    return "" if old is None else f" (formerly `{old.flag}`, still read, deprecated)"


def options_table() -> str:
    """The README's table of options (regenerate it with `python -m pytest_llmbench.settings`)."""
    rows = ["| option | env / ini | default | meaning |", "|---|---|---|---|"]
    rows += [
        f"| `{s.flag}` | `{s.env}` / `{s.dest}` | {s.shown_default} | {s.help}{_formerly(s)} |"
        for s in OPTIONS
    ]
    return "\n".join(rows) + "\n"


def _split(values: list[str] | str) -> list[str]:
    items = [values] if isinstance(values, str) else values
    return [part.strip() for item in items for part in str(item).split(",") if part.strip()]


def _given(config: pytest.Config, spec: OptionSpec) -> list[tuple[Any, str]]:
    """(value, the name of where) for each of `spec.sources`."""
    values = (config.getoption(spec.dest), os.environ.get(spec.env), config.getini(spec.dest))
    return list(zip(values, spec.sources, strict=True))


def _raw_value(config: pytest.Config, spec: OptionSpec) -> tuple[Any, str] | None:
    """The first value given, with the name of where it came from (a former name just
    after the current one in each place)."""
    current, old = _given(config, spec), _given(config, spec.former) if spec.former else []
    for place, found in enumerate(current):
        for value, source in (found, *old[place : place + 1]):
            if value not in (None, "", []):
                return value, source
    return None


def deprecations(config: pytest.Config) -> list[str]:
    """One line per option given under its former name."""
    lines = []
    for spec in OPTIONS:
        old = spec.former
        found = _raw_value(config, spec) if old is not None else None
        renamed = dict(zip(old.sources, spec.sources, strict=True)) if old is not None else {}
        if found is not None and found[1] in renamed:
            lines.append(f"{found[1]} is deprecated: use {renamed[found[1]]} (same values)")
    return lines


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


def estimate_only(config: pytest.Config) -> bool:
    """Whether --llm-estimate is set (read before pytest_configure, to keep xdist off); a
    bad value is reported when the settings are resolved."""
    spec = dict(_DECLARED)["estimate"]
    try:
        return bool(_value(config, spec))
    except pytest.UsageError:
        return False


def _settled(config: pytest.Config, spec: OptionSpec, value: Any) -> Any:
    """A parsed value as Settings holds it; a relative folder is taken from the rootdir
    (an ini value) or from the invocation dir (any other)."""
    if value is None:
        return None
    if not spec.path:
        return spec.convert(value)
    found = _raw_value(config, spec)
    from_ini = found is not None and found[1].startswith("ini ")
    base = config.rootpath if from_ini else Path(config.invocation_params.dir)
    return base / value  # an absolute path stays as it is


def _check_judges(judges: tuple[str, ...], grader: str | None) -> None:
    from .models.registry import OFFLINE_PREFIX, is_offline

    for judge in [*judges, *([grader] if grader is not None else [])]:
        if is_offline(judge):
            raise pytest.UsageError(
                f"--llm-judge/--llm-grader: {judge!r} is an offline model and cannot judge; "
                f"give a litellm model (models starting with {OFFLINE_PREFIX!r} only answer tasks)"
            )
    if grader is not None and not judges:
        raise pytest.UsageError(
            "--llm-grader: needs at least one --llm-judge to grade the reports of"
        )


def _check_feedback(functional: bool, feedback: bool) -> None:
    if feedback and not functional:
        raise pytest.UsageError(
            "--llm-feedback: needs the hidden tests, which --llm-functional=off turns off"
        )


def _grader(grader: str | None, judges: tuple[str, ...]) -> str | None:
    """The grader given, else the first judge."""
    return grader or (judges[0] if judges else None)


def resolve(config: pytest.Config) -> Settings:
    values = {name: _settled(config, spec, _value(config, spec)) for name, spec in _DECLARED}
    _check_judges(values["judges"], values["grader"])
    _check_feedback(values["functional"], values["feedback"])
    values["scenario_roots"] = tuple(config.rootpath / r for r in values["scenario_roots"])
    return Settings(**{**values, "grader": _grader(values["grader"], values["judges"])})


if __name__ == "__main__":
    print(options_table(), end="")
