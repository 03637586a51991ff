"""Deterministic checks: syntax checks per language (real tools, structural checks for
markup) and the check kinds."""

from __future__ import annotations

import shutil

import pytest

from pytest_llmbench.formats.criteria import Check
from pytest_llmbench.formats.languages import language_of
from pytest_llmbench.judging.checks import run_check
from pytest_llmbench.metrics import syntax
from pytest_llmbench.metrics.syntax import check_files
from pytest_llmbench.schema.results import Verdict

needs_javac = pytest.mark.skipif(shutil.which("javac") is None, reason="javac not installed")


def problem(language: str, code: str) -> str | None:
    (result,) = check_files((("x", language_of(language, None), code),))
    assert result.status != "not checked", result.reason
    return result.reason if result.status == "fail" else None


def verdict_of(check: Check, answer: str) -> Verdict:
    verdict = run_check(check, answer)
    assert verdict is not None
    return verdict


JSX_WITH_APOSTROPHES = """\
export default function Notice({ user }) {
  return (
    <div className="notice">
      <p>Don't worry, it's saved.</p>
      <p>Rock 'n' roll, {user.name}'s list</p>
      <p>He said "hi</p>
      <ul>Don't miss {items.map((i) => (<li key={i}>{i}'s</li>))}</ul>
    </div>
  );
}
"""


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("jsx", JSX_WITH_APOSTROPHES),
        ("js", "const s = `a ${b ? `in ${c + `x${d}`}` : '}'} z`;\n"),
        ("js", "const quote = /['\"]/g;\nconst parts = s.split(/[{(]/);\n"),
        ("js", "const half = total / 2 / count; // don't {\n/* } */\n"),
        ("tsx", "type A = 'a' | 'b';\nconst f = (x: A): string => (x === 'a' ? '{' : '}');\n"),
        (
            "ts",
            "const el = <T,>(v: T) => v;\nswitch (k) { case '(': break; default: k = 'x'; }\n",
        ),
        ("javascript", "#!/usr/bin/env node\nconst re = x => /\\//.test(x);\n"),
        ("python", "def f(x):\n    return {'a': [x]}\n"),
        ("json", '{"a": [1, {"b": null}]}'),
        ("yaml", "a: 1\n---\nb: !Ref Bucket\n"),
        ("html", "<!doctype html>\n<p>Don't</p>\n<script>if (a < b) { go('</p>'); }</script>\n"),
        ("css", "a { content: '}'; }\n/* { */\nb { color: red; }\n"),
        ("scss", ".a { background: url(//cdn.example/x.png); // a { comment\n}\n"),
        pytest.param(
            "java",
            "class A {\n  char c = '{';\n  String s = \"}\"; // }\n"
            '  String t = """\n  (\n  """;\n}\n',
            marks=needs_javac,
        ),
    ],
)
def test_valid_code_parses(language: str, code: str) -> None:
    assert problem(language, code) is None


@pytest.mark.parametrize(
    ("language", "code", "reason"),
    [
        (
            "jsx",
            "function A() {\n  return (\n    <p>Don't</p>\n  );\n",
            "line 5: Unexpected end of file",
        ),
        ("js", "foo(a, [b)\n", "line 1: SyntaxError: Unexpected token ')'"),
        ("js", "x();\n}\n", "line 2: SyntaxError: Unexpected token '}'"),
        (
            "js",
            "import x from 'y';\nexport const a = x +;\n",
            "line 2: SyntaxError: Unexpected token ';'",
        ),
        ("ts", "const a: number = ;\n", 'line 1: Unexpected ";"'),
        ("python", "def f(:\n    pass\n", "line 1: invalid syntax"),
        ("css", "a {\n  color: red;\nb { }\n", "unbalanced '{' opened on line 1"),
        pytest.param(
            "java",
            "class A {\n  void f() {\n  }\n",
            "line 3: reached end of file while parsing",
            marks=needs_javac,
        ),
    ],
)
def test_broken_code_is_reported_with_its_line(language: str, code: str, reason: str) -> None:
    assert problem(language, code) == reason


def test_jsx_in_a_js_file_is_parsed_as_jsx() -> None:
    code = "export default function App() {\n  return <p>{a && <b />}</p>;\n}\n"
    (result,) = check_files((("src/App.js", "javascript", code),))
    assert (result.status, result.checker) == ("pass", "esbuild (jsx)")


def test_a_missing_checker_is_not_checked_never_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syntax, "_tool", lambda kind: None)
    syntax._check_cached.cache_clear()  # results of the real tools must not be reused
    code = "const a: number = 1;\n"
    try:
        (result,) = check_files((("a.ts", "typescript", code),))
        assert result.status == "not checked" and "install-runners" in result.reason
        # A parses check over files no checker could read gives no verdict: unscored.
        assert run_check(Check(parses=True), f"```ts\n{code}```") is None
    finally:
        syntax._check_cached.cache_clear()


def test_jsx_in_a_js_file_without_esbuild_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    real = syntax._tool
    monkeypatch.setattr(syntax, "_tool", lambda kind: None if kind == "esbuild" else real(kind))
    if real("node") is None:
        pytest.skip("node is not installed")
    syntax._check_cached.cache_clear()
    try:
        jsx, broken = check_files(
            (
                ("src/App.js", "javascript", "export const App = () => <p>hi</p>;\n"),
                ("src/util.js", "javascript", "export function f( {\n"),
            )
        )
        # node's failure on JSX only means "this is JSX": no verdict without esbuild.
        assert (jsx.status, jsx.checker) == ("not checked", "esbuild (jsx)")
        assert "esbuild is not installed" in jsx.reason
        assert (broken.status, broken.checker) == ("fail", "node")
    finally:
        syntax._check_cached.cache_clear()


def test_unknown_languages_have_no_checker() -> None:
    (result,) = check_files((("run.sh", "bash", "echo {"),))
    assert (result.status, result.checker) == ("not checked", None)


def test_json_and_yaml_errors_name_the_line() -> None:
    assert (
        problem("json", '{\n  "a": 1,\n}')
        == "line 3: Expecting property name enclosed in double quotes"
    )
    assert (problem("yaml", "a: [1, 2\nb: 3") or "").startswith("line 2:")


def test_html_reports_unclosed_script_and_broken_inline_script() -> None:
    assert (
        problem("html", "<body>\n<script>\nlet a = 1;\n")
        == "<script> opened on line 2 is never closed"
    )
    broken = "<body>\n<script>\nfunction f() {\n</script>\n</body>"
    assert problem("html", broken) == "<script> on line 2: unbalanced '{' opened on line 3"
    assert problem("html", "<p>a</p>\n</script>") == "</script> on line 2 has no opening <script>"


def test_vue_checks_its_script_with_file_line_numbers() -> None:
    sfc = (
        "<template>\n  <p>Don't</p>\n</template>\n<script>\nexport default { data() {\n</script>\n"
    )
    assert problem("vue", sfc) == "<script>: unbalanced '{' opened on line 5"


def test_contains_lists_what_is_missing() -> None:
    verdict = verdict_of(
        Check(contains=["useState", "useEffect"]), "import { useState } from 'react'"
    )
    assert not verdict.passed and verdict.reason == "missing: 'useEffect'"
    assert verdict.confidence is None


def test_contains_ignore_case() -> None:
    assert not verdict_of(Check(contains="USESTATE"), "useState").passed
    assert verdict_of(Check(contains="USESTATE", ignore_case=True), "useState").passed


def test_not_contains_names_what_was_found() -> None:
    verdict = verdict_of(Check(not_contains=["jquery", "var "]), "import $ from 'jquery'")
    assert not verdict.passed and verdict.reason == "found: 'jquery'"
    assert verdict_of(Check(not_contains="class "), "const App = () => null").passed


def test_regex_is_multiline_and_optionally_case_blind() -> None:
    answer = "intro\nexport default App;\n"
    assert verdict_of(Check(regex=r"^export default \w+;$"), answer).passed
    assert not verdict_of(Check(regex=r"^EXPORT"), answer).passed
    verdict = verdict_of(Check(regex=r"^EXPORT", ignore_case=True), answer)
    assert verdict.passed and "line 2" in verdict.reason


def test_parses_true_needs_a_checkable_block() -> None:
    assert verdict_of(Check(parses=True), "No code here.").reason == "no code block to check"
    verdict = verdict_of(Check(parses=True), "```bash\nnpm i\n```")
    assert not verdict.passed and verdict.reason == "no code block to check"


def test_parses_names_the_failing_file_and_line() -> None:
    answer = (
        "### src/App.jsx\n```jsx\nfunction App() {\n  return <p>Hi</p>;\n\n```\n```css\na {}\n```"
    )
    verdict = verdict_of(Check(parses=True), answer)
    assert not verdict.passed
    assert verdict.reason == "src/App.jsx: line 3: Unexpected end of file"


def test_parses_language_family_selects_blocks() -> None:
    answer = "```jsx\nconst a = <p>ok</p>;\n```\n```python\ndef broken(:\n```"
    assert verdict_of(Check(parses="javascript"), answer).passed
    verdict = verdict_of(Check(parses="python"), answer)
    assert not verdict.passed and verdict.reason.startswith("block 2 (python): line 1")
    assert not verdict_of(Check(parses="any"), answer).passed
    assert (
        verdict_of(Check(parses="typescript"), answer).reason == "no typescript code block to check"
    )


def test_parses_typescript_family_covers_tsx() -> None:
    assert verdict_of(Check(parses="typescript"), "```tsx\nconst a: number = 1;\n```").passed


def test_reasons_stay_short() -> None:
    verdict = verdict_of(Check(contains=[f"needle-{i}" * 5 for i in range(20)]), "")
    assert not verdict.passed and len(verdict.reason) <= 200


def test_file_check_uses_the_paths_the_answer_names() -> None:
    answer = '### src/App.tsx\n```tsx\nexport const A = 1;\n```\n```ts title="./src/api.ts"\nexport {};\n```'
    assert verdict_of(Check(file=["src/App.tsx", "src/api.ts"]), answer).passed
    verdict = verdict_of(Check(file="src/index.tsx"), answer)
    assert not verdict.passed
    assert verdict.reason == "missing: src/index.tsx (answer names: src/App.tsx, src/api.ts)"
