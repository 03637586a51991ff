"""Running one collected item: build its models once per process and run the pipeline,
whose result says "error" with the reason when a call failed."""

from __future__ import annotations

import asyncio

import pytest

from .evaluation.judging import JudgeSetup
from .evaluation.pipeline import Case, Generation, run_item
from .models.base import Model
from .results import ItemResult
from .settings import Settings

_MODELS_KEY = pytest.StashKey["dict[str, Model]"]()


def model_for(config: pytest.Config, name: str, settings: Settings) -> Model:
    cache = config.stash.setdefault(_MODELS_KEY, {})
    if name not in cache:
        cache[name] = config.hook.pytest_llmbench_make_model(name=name, settings=settings)
    return cache[name]


def run(config: pytest.Config, settings: Settings, case: Case, model_name: str) -> ItemResult:
    model = model_for(config, model_name, settings)
    setup = JudgeSetup(
        judges=tuple(model_for(config, j, settings) for j in settings.judges),
        grader=model_for(config, settings.grader, settings) if settings.grader else None,
        grader_samples=settings.grader_samples,
        timeout=settings.timeout,
    )
    gen = Generation(settings.attempts, settings.temperature, settings.max_tokens, settings.timeout)
    return asyncio.run(run_item(case, model, gen, setup))
