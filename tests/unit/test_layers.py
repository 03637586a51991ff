"""The package's layout holds: each part imports only parts below it (docs/architecture.md),
no two modules import each other, and modules and functions stay small."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "pytest_llmbench"

# Lowest first; a part may import the parts before it, never one after it.
LAYERS: tuple[str, ...] = (
    "redaction",
    "folders",
    "cpu",
    "schema",
    "errors",
    "formats",
    "models",
    "__init__",  # the package's face: re-exports the model interface, results and errors
    "toolchain",
    "metrics",
    "functional",
    "judging",
    "tasks",
    "option_values",
    "settings",
    "reporting",
    "execution",
    "collection",
    "runner",
    "fixtures",
    "hookspecs",
    "airun",  # an adapter of the public AIRUN layout: at the edge, nothing below imports it
    "polyglot",  # an adapter of Aider's polyglot benchmark: at the edge, like airun
    "cli",
    "plugin",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _target(module: str, path: Path, node: ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    """Package-relative names of the modules one `from ... import` statement loads."""
    if node.level:
        base = module.split(".") if module else []
        if path.name != "__init__.py":
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    elif node.module and node.module.startswith("pytest_llmbench"):
        prefix = node.module.removeprefix("pytest_llmbench").lstrip(".")
    else:
        return []
    names = [f"{prefix}.{a.name}".lstrip(".") for a in node.names]
    found = [n for n in names if n in known]
    return found or [prefix]


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                targets.update(_target(module, path, node, known))
            elif isinstance(node, ast.Import):
                targets.update(
                    a.name.removeprefix("pytest_llmbench.")
                    for a in node.names
                    if a.name.startswith("pytest_llmbench.")
                )
        graph[module] = {t for t in targets if t != module}
    return graph


def _part(module: str) -> str:
    return module.split(".")[0] if module else "__init__"


def test_every_part_has_a_layer() -> None:
    assert {_part(m) for m in _modules()} <= set(LAYERS)


def test_no_import_runs_up_a_layer() -> None:
    rank = {part: index for index, part in enumerate(LAYERS)}
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if rank[_part(target)] > rank[_part(module)]
    )
    assert upward == []


def test_no_import_cycles_between_modules() -> None:
    graph = import_graph()
    state: dict[str, int] = {}  # 1 on the path, 2 done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_the_layer_test_sees_an_upward_import(tmp_path: Path) -> None:
    # The graph reader itself: a relative import two levels up is resolved to its module.
    tree = ast.parse("from ..reporting.leaderboard import build\n")
    node = tree.body[0]
    assert isinstance(node, ast.ImportFrom)
    known = {"code.checks": PACKAGE / "code" / "checks.py", "reporting.leaderboard": Path()}
    assert _target("code.checks", known["code.checks"], node, known) == ["reporting.leaderboard"]


def test_modules_and_functions_stay_small() -> None:
    """Modules under 400 lines, functions under 60 (docs/architecture.md)."""
    too_long: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) >= 400:
            too_long.append(f"{path.relative_to(REPO)}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 60:
                    too_long.append(f"{path.relative_to(REPO)}:{node.name}: {length} lines")
    assert too_long == []


def test_exceptions_are_defined_in_errors_py() -> None:
    """One exception tree, documented at the top of errors.py (docs/architecture.md)."""
    elsewhere = sorted(
        f"{path.relative_to(REPO)}:{node.name}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "errors.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and any(
            (base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")).endswith(
                ("Error", "Exception", "Warning", "Exhausted", "Stopped", "Failed", "Broken")
            )
            for base in node.bases
        )
    )
    assert elsewhere == []


def test_the_longest_import_chain_between_parts_has_at_most_ten_floors() -> None:
    """A house, not a tower: a part stands one floor above the highest part it imports."""
    below: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        below.setdefault(_part(module), set()).update(
            _part(t) for t in targets if _part(t) != _part(module)
        )
    floors: dict[str, int] = {}

    def floor(part: str) -> int:
        if part not in floors:
            floors[part] = 1 + max((floor(p) for p in below.get(part, ())), default=0)
        return floors[part]

    assert max(floor(part) for part in below) <= 10, sorted(floors.items(), key=lambda f: -f[1])
