"""Deterministic checks: syntax checks per language and the four check kinds."""

from __future__ import annotations

import pytest

from pytest_llmbench.evaluation.checks import parse_problem, run_check
from pytest_llmbench.evaluation.codeblocks import CodeBlock
from pytest_llmbench.formats.scenario import Check


def problem(language: str, code: str) -> str | None:
    return parse_problem(CodeBlock(language, None, code))


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
            "const el = <T,>(v: T) => v;\nswitch (k) { case '(': break; default: return 'x'; }\n",
        ),
        ("javascript", "#!/usr/bin/env node\nconst re = x => /\\//.test(x);\n"),
        ("python", "def f(x):\n    return {'a': [x]}\n"),
        ("json", '{"a": [1, {"b": null}]}'),
        ("yaml", "a: 1\n---\nb: !Ref Bucket\n"),
        ("html", "<!doctype html>\n<p>Don't</p>\n<script>if (a < b) { go('</p>'); }</script>\n"),
        ("css", "a { content: '}'; }\n/* { */\nb { color: red; }\n"),
        ("scss", ".a { background: url(//cdn.example/x.png); // a { comment\n}\n"),
        (
            "java",
            "class A {\n  char c = '{';\n  String s = \"}\"; // }\n"
            '  String t = """\n  (\n  """;\n}\n',
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
            "unbalanced '{' opened on line 1",
        ),
        ("js", "foo(a, [b)\n", "')' on line 1 does not close '[' opened on line 1"),
        ("js", "x();\n}\n", "unexpected '}' on line 2"),
        (
            "js",
            "const s = `total: ${sum(a, b}`;\n",
            "'}' on line 1 does not close '(' opened on line 1",
        ),
        ("js", "const s = `never closed\n\n", "unterminated template literal opened on line 1"),
        ("js", "a();\n/* open comment\n", "unterminated comment opened on line 2"),
        ("python", "def f(:\n    pass\n", "line 1: invalid syntax"),
        ("css", "a {\n  color: red;\nb { }\n", "unbalanced '{' opened on line 1"),
        ("java", "class A {\n  void f() {\n  }\n", "unbalanced '{' opened on line 1"),
    ],
)
def test_broken_code_is_reported_with_its_line(language: str, code: str, reason: str) -> None:
    assert problem(language, code) == reason


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


@pytest.mark.parametrize("language", ["markdown", "text", "bash", ""])
def test_unknown_languages_are_not_checked(language: str) -> None:
    assert problem(language, "{ ( [ definitely not balanced") is None


def test_contains_lists_what_is_missing() -> None:
    verdict = run_check(
        Check(contains=["useState", "useEffect"]), "import { useState } from 'react'"
    )
    assert not verdict.passed and verdict.reason == "missing: 'useEffect'"
    assert verdict.confidence is None


def test_contains_ignore_case() -> None:
    assert not run_check(Check(contains="USESTATE"), "useState").passed
    assert run_check(Check(contains="USESTATE", ignore_case=True), "useState").passed


def test_not_contains_names_what_was_found() -> None:
    verdict = run_check(Check(not_contains=["jquery", "var "]), "import $ from 'jquery'")
    assert not verdict.passed and verdict.reason == "found: 'jquery'"
    assert run_check(Check(not_contains="class "), "const App = () => null").passed


def test_regex_is_multiline_and_optionally_case_blind() -> None:
    answer = "intro\nexport default App;\n"
    assert run_check(Check(regex=r"^export default \w+;$"), answer).passed
    assert not run_check(Check(regex=r"^EXPORT"), answer).passed
    verdict = run_check(Check(regex=r"^EXPORT", ignore_case=True), answer)
    assert verdict.passed and "line 2" in verdict.reason


def test_parses_true_needs_a_checkable_block() -> None:
    assert run_check(Check(parses=True), "No code here.").reason == "no code block to check"
    verdict = run_check(Check(parses=True), "```bash\nnpm i\n```")
    assert not verdict.passed and verdict.reason == "no code block to check"


def test_parses_names_the_failing_file_and_line() -> None:
    answer = (
        "### src/App.jsx\n```jsx\nfunction App() {\n  return <p>Hi</p>;\n\n```\n```css\na {}\n```"
    )
    verdict = run_check(Check(parses=True), answer)
    assert not verdict.passed
    assert verdict.reason == "src/App.jsx: unbalanced '{' opened on line 1"


def test_parses_language_family_selects_blocks() -> None:
    answer = "```jsx\nconst a = <p>ok</p>;\n```\n```python\ndef broken(:\n```"
    assert run_check(Check(parses="javascript"), answer).passed
    verdict = run_check(Check(parses="python"), answer)
    assert not verdict.passed and verdict.reason.startswith("block 2 (python): line 1")
    assert not run_check(Check(parses="any"), answer).passed
    assert (
        run_check(Check(parses="typescript"), answer).reason == "no typescript code block to check"
    )


def test_parses_typescript_family_covers_tsx() -> None:
    assert run_check(Check(parses="typescript"), "```tsx\nconst a: number = 1;\n```").passed


def test_reasons_stay_short() -> None:
    verdict = run_check(Check(contains=[f"needle-{i}" * 5 for i in range(20)]), "")
    assert not verdict.passed and len(verdict.reason) <= 200
