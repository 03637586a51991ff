"""The pytest runner's driver (pytest_runner.py), started as

    python -I -B driver.py WORKSPACE PYTEST-ARGUMENTS...

pytest is imported first, from the interpreter's own installation (`-I`: no PYTHONPATH,
no user site-packages, neither the working folder nor this folder on the path), and only
then is the workspace APPENDED to sys.path: no file of the answer (a `pytest.py`, a
`sitecustomize.py`, a module named like one pytest loads) can stand in for pytest or
anything of the standard library. The folder holds this file alone: the sandbox shows it
read-only to the run."""

import sys

import pytest  # before the workspace is on the path


def main() -> int:
    workspace, *arguments = sys.argv[1:]
    sys.path.append(workspace)
    return int(pytest.main(arguments))


if __name__ == "__main__":
    raise SystemExit(main())
