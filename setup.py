"""Build hook: the wheel carries the built-in catalogue (scenarios/ and datasets/ of this
repository, copied at build time to pytest_llmbench/catalogue/), so `llmbench run` works
from an installed wheel. Everything else is configured in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
CATALOGUE = ("scenarios", "datasets")


class BuildWithCatalogue(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "pytest_llmbench" / "catalogue"
        for name in CATALOGUE:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, target / name, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithCatalogue})
