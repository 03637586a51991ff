"""The package root and the model interface a plugin author uses."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import pytest_llmbench
from pytest_llmbench.errors import ConfigError
from pytest_llmbench.execution.managed import ManagedModel, Services
from pytest_llmbench.execution.retry import RetryPolicy
from pytest_llmbench.models.base import Model, ModelReply, ModelRequest
from tests.conftest import REPO

REQUEST = ModelRequest(messages=({"role": "user", "content": "hi"},), role="candidate")


class _Plain(Model):
    """A model that writes only what it must."""

    name = "mine/plain"

    async def complete(self, request: ModelRequest) -> ModelReply:
        return ModelReply(model=self.name, text="ok", latency_s=0.0)


class _Keyless(_Plain):
    def check_credentials(self) -> None:
        raise ConfigError(f"{self.name}: no API key; set MINE_KEY")

    def takes_response_schema(self) -> bool:
        return True


def test_a_model_needs_only_complete_and_gets_the_other_capabilities_as_defaults() -> None:
    model = _Plain()
    assert (model.offline, model.api_base, model.takes_response_schema()) == (False, None, False)
    model.check_credentials()  # nothing to check
    model.forget(REQUEST)  # nothing stored
    assert asyncio.run(model.complete(REQUEST)).text == "ok"
    with pytest.raises(TypeError, match="abstract"):
        Model()  # type: ignore[abstract]


def test_the_managed_model_passes_the_capabilities_of_the_model_it_wraps() -> None:
    services = Services(concurrency=1, retry=RetryPolicy(), cache_mode="off")
    managed = ManagedModel(_Keyless(), services)
    assert managed.takes_response_schema() is True
    with pytest.raises(ConfigError, match="MINE_KEY"):
        managed.check_credentials()
    assert ManagedModel(_Plain(), services).takes_response_schema() is False


def test_the_root_exports_the_public_names_without_loading_them_at_import() -> None:
    for name in pytest_llmbench.__all__:
        assert getattr(pytest_llmbench, name) is not None
    assert pytest_llmbench.Model is Model
    with pytest.raises(AttributeError, match="no attribute 'Engine'"):
        pytest_llmbench.Engine  # noqa: B018
    probe = (
        "import sys, pytest_llmbench.plugin; "
        "print(sorted(m for m in ('pydantic', 'litellm', 'pytest_llmbench.schema.results') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
