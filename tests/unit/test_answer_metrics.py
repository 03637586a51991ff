"""Per-answer code metrics: the workspace of an answer, similarity, GCI change,
executability, and the sandbox the checkers run in."""

from __future__ import annotations

import json
import socket
import sys
from difflib import SequenceMatcher
from pathlib import Path

import pytest

from pytest_llmbench.formats.dataset import Dataset, SourceFile, load_dataset
from pytest_llmbench.formats.render import inline_files
from pytest_llmbench.formats.workspace import answer_workspace, safe_path
from pytest_llmbench.metrics import syntax
from pytest_llmbench.metrics.answer_metrics import code_text, measure_answer, normalised, similarity
from pytest_llmbench.metrics.complexity import measure
from pytest_llmbench.schema.code import FileCheck
from pytest_llmbench.toolchain import confine, sandbox
from tests.conftest import REPO

MULTI_FILE = """Here is the app.

### src/App.jsx
```jsx
export default function App({ items }) {
  return <ul>{items.length > 0 && items.map((i) => <li key={i}>{i}</li>)}</ul>;
}
```

**src/api.js**
```javascript
export async function load(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(r.statusText);
  return r.json();
}
```

```js
// /etc/passwd
const stolen = 1;
```

```python title="../../outside.py"
print("hi")
```
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/App.tsx", ("src/App.tsx", None)),
        ("./src//a/../App.tsx", ("src/App.tsx", None)),
        ("src\\\\App.tsx", ("src/App.tsx", None)),
        ("/etc/passwd", (None, "absolute path")),
        ("C:\\\\x.js", (None, "absolute path")),
        ("~/x.js", (None, "absolute path")),
        ("../x.js", (None, "climbs out of the workspace with '..'")),
        ("a/../../x.js", (None, "climbs out of the workspace with '..'")),
    ],
)
def test_safe_path(path: str, expected: tuple[str | None, str | None]) -> None:
    assert safe_path(path.replace("\\\\", "\\")) == expected


def test_workspace_names_files_and_rejects_escapes(tmp_path: Path) -> None:
    workspace = answer_workspace(MULTI_FILE)
    assert [f.label for f in workspace.files] == [
        "src/App.jsx",
        "src/api.js",
        "block 3 (javascript)",
        "block 4 (python)",
    ]
    assert workspace.rejected == (
        ("/etc/passwd", "absolute path"),
        ("../../outside.py", "climbs out of the workspace with '..'"),
    )
    assert workspace.paths == {"src/App.jsx", "src/api.js"}  # the named, safe files only


def test_a_path_given_twice_is_the_later_block() -> None:
    answer = "`a.py`:\n```python\nx = 1\n```\nFixed:\n\n`a.py`:\n```python\nx = 2\n```\n"
    (only,) = answer_workspace(answer).files
    assert (only.path, only.code) == ("a.py", "x = 2")


def test_similarity_pins_argument_order_and_autojunk() -> None:
    reference, answer = "abcd" * 60 + "xyz", "xyz" + "abce" * 40
    # cydifflib computes it; the figures are the standard library's, to the last bit.
    assert similarity(reference, answer) == (
        SequenceMatcher(None, reference, answer, autojunk=False).ratio()
    )
    code = Path(__file__).read_text()
    assert similarity(code, code[::-1]) == (
        SequenceMatcher(None, code, code[::-1], autojunk=False).ratio()
    )
    # Both pins matter: the default autojunk and the swapped order give other figures.
    long_ref = "\n".join(f"line {i % 7} value" for i in range(400))
    long_ans = "\n".join(f"line {i % 5} value" for i in range(300))
    assert similarity(long_ref, long_ans) != SequenceMatcher(None, long_ref, long_ans).ratio()
    assert similarity("abcde", "eabcd") == pytest.approx(0.8)
    assert normalised(0.8, 0.5) == pytest.approx(0.6)
    assert normalised(0.4, 0.5) == pytest.approx(-0.2)
    assert normalised(0.9, 1.0) is None


def test_cydifflib_gives_difflibs_figures_on_real_pairs() -> None:
    """The ModifyReactApp reference against its do-nothing answer (the input as the prompt
    inlines it), both argument orders: the same ratio to the last bit, and autojunk's
    default would have given another figure (0.18 instead of 0.49)."""
    reference = code_text(
        (REPO / "scenarios/generation/references/ModifyReactApp/ReactFetchAPI.md").read_text()
    )
    unchanged = code_text(inline_files(load_dataset(REPO / "datasets/javascript/ReactFetchAPI")))
    assert reference and unchanged
    for a, b in ((reference, unchanged), (unchanged, reference)):
        expected = SequenceMatcher(None, a, b, autojunk=False).ratio()
        assert similarity(a, b) == expected
        assert abs(SequenceMatcher(None, a, b).ratio() - expected) > 0.1
    assert similarity(reference, unchanged) != similarity(unchanged, reference)


def _dataset(code: str) -> Dataset:
    return Dataset("Mini", "javascript", Path("."), "JS", "d", (SourceFile("src/app.js", code),))


def test_measure_answer_compares_code_against_the_do_nothing_answer() -> None:
    original = "export function add(a, b) {\n  return a + b;\n}\n"
    dataset = _dataset(original)
    reference = (
        "```js\nexport function add(a, b) {\n  return a + b;\n}\n"
        "export function greet(name) {\n  return name ? `Hello ${name}` : 'Hello';\n}\n```"
    )
    metrics = measure_answer(reference, reference, dataset, measure(dataset.files))
    assert metrics.similarity == 1.0 and metrics.similarity_normalised == 1.0
    echo = measure_answer(f"```js\n{original}```", reference, dataset, measure(dataset.files))
    assert echo.similarity == echo.similarity_baseline
    assert echo.similarity_normalised == 0.0
    # Input: CI 1 over 3 lines; reference: CI 1 + 2 over 6 lines.
    assert (metrics.ci, metrics.loc, metrics.gci, metrics.input_gci) == (3, 6, 0.5, 0.3333)
    assert metrics.gci_change == pytest.approx(0.1667)
    assert metrics.executability == 1.0 and [c.status for c in metrics.syntax] == ["pass"]


def test_measure_answer_without_reference_or_code_is_unscored_not_zero() -> None:
    metrics = measure_answer("Just prose, no code.", None, None, None)
    assert metrics.similarity is None and metrics.similarity_normalised is None
    assert metrics.similarity_reason == "the scenario has no reference answer for this dataset"
    assert (metrics.ci, metrics.gci, metrics.gci_change, metrics.executability) == (
        None,
        None,
        None,
        None,
    )
    assert metrics.executability_reason == "no checkable code"


def test_prose_reference_compares_whole_texts_against_empty_baseline() -> None:
    metrics = measure_answer("The app adds numbers.", "The app adds two numbers.", None, None)
    assert metrics.similarity_baseline == 0.0
    assert metrics.similarity == metrics.similarity_normalised
    assert metrics.similarity == round(
        similarity("The app adds two numbers.", "The app adds numbers."), 4
    )


def test_executability_counts_checked_files_only(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = MULTI_FILE + "\n```ts\nconst a: number = ;\n```\n"
    metrics = measure_answer(answer, None, None, None)
    statuses = {c.path: c.status for c in metrics.syntax}
    assert statuses == {
        "src/App.jsx": "pass",
        "src/api.js": "pass",
        "block 3 (javascript)": "pass",
        "block 4 (python)": "pass",
        "block 5 (typescript)": "fail",
    }
    assert metrics.executability == pytest.approx(4 / 5)
    assert metrics.rejected_paths == [
        "/etc/passwd: absolute path",
        "../../outside.py: climbs out of the workspace with '..'",
    ]
    # Without esbuild the JSX and TypeScript files are not checked and leave the fraction.
    real_tool = syntax._tool
    monkeypatch.setattr(
        syntax, "_tool", lambda kind: None if kind == "esbuild" else real_tool(kind)
    )
    syntax._check_cached.cache_clear()
    metrics = measure_answer(answer, None, None, None)
    syntax._check_cached.cache_clear()
    assert metrics.executability == 1.0
    assert sum(c.status == "not checked" for c in metrics.syntax) == 2


def test_sandbox_limits_time_memory_and_folder(tmp_path: Path) -> None:
    slow = sandbox.run([sys.executable, "-c", "import time; time.sleep(5)"], tmp_path, timeout=0.5)
    assert slow.timed_out
    hungry = sandbox.run(
        [sys.executable, "-c", "x = bytearray(400 * 1024 * 1024)"], tmp_path, memory_mb=200
    )
    assert hungry.returncode != 0 and "MemoryError" in hungry.stderr
    where = sandbox.run([sys.executable, "-c", "import os; print(os.getcwd())"], tmp_path)
    assert Path(where.stdout.strip()).resolve() == tmp_path.resolve()


_CONNECT = """
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5).close()
    print("connected")
except OSError as exc:
    print(type(exc).__name__)
"""


@pytest.mark.parametrize("isolation", ["bubblewrap", "unshare", "seccomp"])
def test_sandbox_has_no_network(
    isolation: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if isolation == "bubblewrap":
        if confine.bubblewrap() is None:
            pytest.skip("bubblewrap cannot run here")
    else:  # the fallback of the checkers that only parse
        if not sandbox._works(sandbox.ISOLATIONS[isolation]):
            pytest.skip(f"{isolation} cannot isolate on this machine")
        monkeypatch.setattr(confine, "bubblewrap", lambda: None)
        monkeypatch.setattr(sandbox, "network_isolation", lambda: isolation)
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = str(server.getsockname()[1])
        # The test process itself reaches the server; the sandboxed child does not.
        socket.create_connection(("127.0.0.1", int(port)), timeout=5).close()
        probe = sandbox.run(
            [sys.executable, "-c", _CONNECT, port], tmp_path, runs_answer_code=False
        )
    # bubblewrap: its own loopback, where nothing listens; unshare: the namespace's loopback
    # is down (network unreachable); seccomp: refused.
    expected = {
        "bubblewrap": "ConnectionRefusedError", "unshare": "OSError", "seccomp": "PermissionError"
    }[isolation]  # fmt: skip
    assert probe.stdout.strip() == expected, probe.stderr
    if isolation != "seccomp":  # an empty namespace: its own loopback only
        probe = "import socket; print(socket.if_nameindex())"
        interfaces = sandbox.run([sys.executable, "-c", probe], tmp_path, runs_answer_code=False)
        assert interfaces.stdout.strip() == "[(1, 'lo')]"
    # The checkers work inside: each tool that is installed passes good code, fails bad.
    syntax._check_cached.cache_clear()
    try:
        checks = syntax.check_files(
            (
                ("a.js", "javascript", "const a = 1;"),
                ("b.tsx", "tsx", "export const B = (): JSX.Element => <p />;"),
                ("C.java", "java", "class C {}"),
                ("d.py", "python", "x = 1"),
                ("e.js", "javascript", "const = ;"),
            )
        )
    finally:
        syntax._check_cached.cache_clear()
    statuses = [c.status for c in checks]
    assert statuses[-1] == "fail" and "fail" not in statuses[:-1], checks
    assert statuses[0] == statuses[3] == "pass"


def test_the_prepared_baseline_is_the_one_each_attempt_uses() -> None:
    from pytest_llmbench.metrics.answer_metrics import prepare_baseline

    original = "export function add(a, b) {\n  return a + b;\n}\n"
    dataset = _dataset(original)
    reference = "```js\nexport function add(a, b) {\n  return a + b + 0;\n}\n```"
    baseline = prepare_baseline(reference, dataset)
    assert baseline == similarity(code_text(reference), code_text(inline_files(dataset)))
    assert prepare_baseline(None, dataset) is None
    answer = "```js\nexport const add = (a, b) => a + b;\n```"
    given = measure_answer(answer, reference, dataset, None, 0.5)
    assert given.similarity_baseline == 0.5
    assert given.similarity_normalised == pytest.approx((given.similarity - 0.5) / 0.5, abs=2e-4)
    assert measure_answer(answer, reference, dataset, None).similarity_baseline == round(
        baseline, 4
    )


def test_the_do_nothing_answer_scores_its_baseline_without_comparing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """llmbench/echo's answer is the do-nothing answer itself: its similarity is the
    baseline the item prepared, not a second run of the quadratic ratio."""
    from pytest_llmbench.metrics import answer_metrics

    original = "export function add(a, b) {\n  return a + b;\n}\n"
    dataset = _dataset(original)
    reference = "```js\nexport function add(a, b) {\n  return a + b + 0;\n}\n```"
    baseline = answer_metrics.prepare_baseline(reference, dataset)
    compared: list[tuple[str, str]] = []
    monkeypatch.setattr(
        answer_metrics, "similarity", lambda ref, answer: compared.append((ref, answer)) or 0.25
    )
    echo = measure_answer(inline_files(dataset), reference, dataset, None, baseline)
    assert echo.similarity == round(baseline or 0, 4) and echo.similarity_normalised == 0.0
    assert compared == []
    other = measure_answer("```js\nexport const add = 1;\n```", reference, dataset, None, baseline)
    assert other.similarity == 0.25 and len(compared) == 1


def test_a_baseline_kept_in_the_cache_folder_is_read_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The baseline is kept under the cache folder by the texts compared: a later run (a
    new process: the in-memory cache is cleared) reads it without comparing; a change of
    the dataset is another key; a damaged file is computed again and rewritten."""
    from pytest_llmbench.metrics import answer_metrics

    original = "export function add(a, b) {\n  return a + b;\n}\n"
    reference = "```js\nexport function add(a, b) {\n  return a + b + 0;\n}\n```"
    first = answer_metrics.prepare_baseline(reference, _dataset(original), tmp_path)
    assert first == answer_metrics.prepare_baseline(reference, _dataset(original))
    (kept,) = (tmp_path / "similarity").iterdir()
    compared: list[str] = []
    monkeypatch.setattr(
        answer_metrics, "similarity", lambda ref, answer: compared.append(answer) or 0.25
    )
    assert answer_metrics.prepare_baseline(reference, _dataset(original), tmp_path) == first
    assert compared == []
    changed = _dataset(original.replace("a + b", "b + a"))
    assert answer_metrics.prepare_baseline(reference, changed, tmp_path) == 0.25
    assert len(compared) == 1 and len(list((tmp_path / "similarity").iterdir())) == 2
    kept.write_text("{not json", encoding="utf-8")
    assert answer_metrics.prepare_baseline(reference, _dataset(original), tmp_path) == 0.25
    assert json.loads(kept.read_text(encoding="utf-8")) == {"baseline": 0.25}


def test_syntax_checks_kept_in_the_cache_folder_are_read_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked files' results are kept under the cache folder by the files (labels,
    languages, code) and the checks' recipe: another process (the in-memory cache is
    cleared) reads them without running a checker; other files are checked; results that
    depend on the moment (a checker missing or timed out) and damaged files are not reused."""
    files = (("a.py", "python", "x = 1"), ("b.py", "python", "x = = 1"))
    syntax._check_cached.cache_clear()
    first = syntax.check_files(files, tmp_path)
    assert [c.status for c in first] == ["pass", "fail"]
    (kept,) = (tmp_path / "syntax").iterdir()
    ran: list[str] = []
    real = syntax._run_group

    def counted(kind: str, *args: object) -> object:
        ran.append(kind)
        return real(kind, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(syntax, "_run_group", counted)
    syntax._check_cached.cache_clear()
    assert syntax.check_files(files, tmp_path) == first and ran == []
    relabelled = (("c.py", "python", "x = 1"), ("b.py", "python", "x = = 1"))
    assert [c.path for c in syntax.check_files(relabelled, tmp_path)] == ["c.py", "b.py"]
    assert ran == ["python"]
    kept.write_text("[{not json", encoding="utf-8")
    syntax._check_cached.cache_clear()
    assert syntax.check_files(files, tmp_path) == first and ran == ["python", "python"]
    assert json.loads(kept.read_text(encoding="utf-8"))[1]["status"] == "fail"
    # a checker that ran out of time, or is not installed: checked again next time
    monkeypatch.setattr(syntax, "_tool", lambda kind: None)
    syntax._check_cached.cache_clear()
    syntax._recipe.cache_clear()
    try:
        unchecked = syntax.check_files((("d.py", "python", "y = 2"),), tmp_path)
        assert unchecked[0].status == "not checked"
        timed_out = FileCheck(
            path="e.py", language="python", status="fail", reason=syntax._TIMED_OUT
        )
        assert not syntax._kept([timed_out])
    finally:
        syntax._recipe.cache_clear()
        syntax._check_cached.cache_clear()
    assert len(list((tmp_path / "syntax").iterdir())) == 2


def test_a_lone_surrogate_in_an_answers_code_is_measured_and_checked_not_raised(
    tmp_path: Path,
) -> None:
    """A model's reply is JSON, which can carry a lone surrogate that UTF-8 cannot hold:
    the answer's files hold "?" in its place (formats/workspace.py), so the metrics and
    checks run on it, a string still parsing and a name still failing."""
    from pytest_llmbench.formats.criteria import Check
    from pytest_llmbench.judging.checks import run_check

    answer = (
        "```python\nx = '\udcff'\n```\n"
        "```javascript\nconst s = '\ud800';\n```\n"
        "```typescript\nconst t: string = '\udcfe';\n```\n"
    )
    assert [f.code for f in answer_workspace(answer).files][0] == "x = '?'"
    syntax._check_cached.cache_clear()
    try:
        metrics = measure_answer(answer, None, None, None, cache_dir=tmp_path)
        assert [c.status for c in metrics.syntax] == ["pass", "pass", "pass"], metrics.syntax
        assert metrics.executability == 1.0 and metrics.loc == 3
        bad_name = run_check(Check(parses=True), "```python\nx\udcff = 1\n```\n", tmp_path)
        assert bad_name is not None and not bad_name.passed
    finally:
        syntax._check_cached.cache_clear()
