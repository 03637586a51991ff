"""Regex checks are bounded: a time limit per search (a timeout is a recorded check error),
and every catalogue pattern gives a verdict, not that error, on answers built to make a
backtracking pattern slow. Patterns rewritten for linear time keep their verdicts.

No wall clock here: the check's own limit (checks.REGEX_TIME_LIMIT_S) decides, and what a
pattern costs as answers grow is measured by bench/regex_scaling.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import regex

from pytest_llmbench.formats.criteria import Check
from pytest_llmbench.judging import checks
from pytest_llmbench.judging.checks import run_check
from pytest_llmbench.models.base import MAX_REPLY_CHARS
from tests.adversarial import adversarial_answers, catalogue_regexes
from tests.conftest import REPO

CATALOGUE = catalogue_regexes(REPO / "scenarios")


def test_a_catastrophic_pattern_is_a_recorded_check_error_not_a_hang(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checks, "REGEX_TIME_LIMIT_S", 0.5)
    answer = "x" * 5000  # the search tries every way to split the x's between the two x+
    verdict = run_check(Check(regex=r"(x+x+)+y"), answer)
    assert verdict is not None and not verdict.passed
    assert verdict.reason.startswith("check error: /(x+x+)+y/ exceeded the 0.5 s time limit")


def test_the_catalogue_has_regex_checks() -> None:
    assert len(CATALOGUE) > 300


# At the reply cap, the shapes that find a pattern quadratic in one line's length (tried
# from every occurrence of its first word) or in the number of lines (a literal searched
# past the line's end from every line): at 50 KB these still end in under a second.
AT_THE_CAP = ("first word on one line", "first word per line", "table rows")


def _answers(pattern: str) -> Iterator[tuple[str, str]]:
    yield from adversarial_answers(pattern)
    for name, answer in adversarial_answers(pattern, MAX_REPLY_CHARS):
        if name in AT_THE_CAP:
            yield f"{name} ({len(answer)} characters)", answer


@pytest.mark.parametrize(
    ("where", "pattern", "ignore_case"),
    CATALOGUE,
    ids=[f"{w}:{i}" for i, (w, _, _) in enumerate(CATALOGUE)],
)
def test_catalogue_regex_gives_a_verdict_on_adversarial_answers(
    where: str, pattern: str, ignore_case: bool
) -> None:
    # A quadratic pattern takes seconds here, past the check's limit: a check error (the old
    # `querySelector[^\n]*(ref|DOM)|direct DOM` took 8 s on the 50 KB single line).
    check = Check(regex=pattern, ignore_case=ignore_case)
    errors = []
    for name, answer in _answers(pattern):
        verdict = run_check(check, answer)
        assert verdict is not None
        if verdict.reason.startswith("check error"):
            errors.append(name)
    assert not errors, f"{where}: /{pattern}/ gave a check error on: {', '.join(errors)}"


def _catalogue_pattern(where: str, fragment: str) -> str:
    found = {p for w, p, _ in CATALOGUE if w == where and fragment in p}
    assert len(found) == 1, f"{where}: {len(found)} patterns hold {fragment!r}"
    return found.pop()


# Rewritten for linear time: (file, a fragment naming the pattern there, the old pattern,
# answers its criterion accepts, answers it refuses, words to build random answers from).
_ECQ = "analysis/criteria/EvaluateCodeQuality/"
_BF = "documentation/criteria/BusinessFunctionality/"
REWRITTEN = {
    "unguarded JSON.parse": (
        _ECQ + "ToDoApp_ReactJS.yaml",
        "JSON\\.parse(?:",
        r"(?i)JSON\.parse[^\n]*(try|catch|corrupt|invalid|malformed|crash|throw)|(corrupt|malformed|invalid)[^\n]*JSON",
        ["- `JSON.parse(localStorage.getItem('todos'))` in loadTodos has no try/catch.",
         "Corrupt or malformed stored JSON crashes the app on mount.",
         "| F2 | High | loadTodos: JSON.parse will throw on bad data |"],
        ["loadTodos reads the list with JSON.parse.",
         "JSON.parse reads the list.\nWrap rendering in an error boundary to catch errors.",
         "Invalid input is ignored when adding a to-do."],
        ["JSON.parse", "JSON", "try", "catch", "corrupt", "invalid", "crash", "throw", "x"],
    ),
    "deprecated React APIs": (
        _ECQ + "ToDoApp_ReactJS.yaml",
        "findDOMNode",
        r"(?i)(deprecated|legacy|unsafe)[^\n]*(findDOMNode|string ref|componentWillReceiveProps)"
        r"|(findDOMNode|string ref|componentWillReceiveProps)[^\n]*(deprecated|legacy|unsafe)",
        ["ReactDOM.findDOMNode is deprecated and fails in strict mode.",
         "Legacy API: the string ref `editField`; use useRef.",
         "componentWillReceiveProps is unsafe (UNSAFE_ since 16.3): derive state instead."],
        ["TodoItem calls ReactDOM.findDOMNode(this.refs.editField).",
         "Some of this code is legacy.\nTodoItem uses componentWillReceiveProps.",
         "Deprecated: nothing found."],
        ["findDOMNode", "string ref", "componentWillReceiveProps", "deprecated", "legacy",
         "unsafe", "x"],
    ),
    "inconsistent 140 limit": (
        _ECQ + "ToDoApp_ReactJS.yaml",
        "\\b140\\b",
        r"(?i)\b140\b[^\n]*(edit|inconsisten)|edit[^\n]*\b140\b",
        ["New titles are cut to 140 characters but edited titles are not.",
         "The 140-character limit is applied inconsistently.",
         "Editing a to-do bypasses the 140 limit."],
        ["Titles are cut to 140 characters.",
         "Editing saves on Enter.\nNew titles are cut to 140 characters.",
         "Edited titles are cut to 1400 characters."],
        ["140", "1400", "edit", "inconsisten", " ", "x"],
    ),
    "direct DOM access": (
        _ECQ + "ToDoApp_ReactJS.yaml",
        "querySelector",
        r"(?i)querySelector[^\n]*(\bref\b|refs?\b|DOM)|direct DOM",
        ["clearCompleted calls document.querySelector('.new-todo'); use a ref.",
         "Direct DOM access in clearCompleted bypasses React.",
         "`querySelector` reaches into the DOM; replace it with useRef."],
        ["clearCompleted calls document.querySelector('.new-todo').",
         "document.querySelector('.new-todo') is called.\nUse a ref for the input.",
         "Use useRef for the input field."],
        ["querySelector", "ref", "refs", "useRef", "DOM", "direct DOM", "x"],
    ),
    "password in the console": (
        _ECQ + "ReactSignUp.yaml",
        "console\\.log(?:",
        r"(?i)console\.log[^\n]*password|password[^\n]*(console|logged|\blogs?\b)",
        ["console.log('user signed up', values) prints the password.",
         "The password is logged to the browser console in submitSignUp."],
        ["console.log('user signed up', values) should be removed.",
         "The password is checked twice.\nconsole output is noisy.",
         "A password field is missing its label."],
        ["console.log", "console", "password", "logged", "logs", "blogs", "x"],
    ),
    "narrow-screen media query": (
        "multimodal/MatchScreenshot.yaml",
        "@media",
        r"@media[^{]*max-width",
        ["@media (max-width: 720px) {\n  .plans { flex-direction: column; }\n}",
         "@media screen and\n  (max-width:720px){"],
        ["@media (min-width: 720px) {\n  .plans { max-width: 100%; }\n}",
         ".plans { max-width: 720px; }"],
        ["@media", "max-width", "{", "}", "\n", "x"],
    ),
    "traceability row for TodoItem": (
        _BF + "ToDoApp_ReactJS.yaml",
        "TodoItem",
        r"(?m)^(?>[^\n]*?(?:^\|))(?>[^\n]*?(?:TodoItem))",
        ["| Feature | File |\n|---|---|\n| Edit a to-do | src/TodoItem.jsx |"],
        ["TodoItem handles editing.", "| Feature | File |\n\nTodoItem edits a to-do.",
         " | Edit | TodoItem |"],
        ["| ", "TodoItem", "\n", " ", "x"],
    ),
    "traceability row for validators.js": (
        _BF + "ReactSignUp.yaml",
        "validators",
        r"(?m)^(?>[^\n]*?(?:^\|))(?>[^\n]*?(?:validators\.js))",
        ["| Field rules | src/validators.js |"],
        ["validators.js holds the rules.", "| Rules | validators_js |"],
        ["| ", "validators.js", "validators_js", "\n", " ", "x"],
    ),
    "non-atomic save rated high": (
        _ECQ + "AngularCosmoPage.yaml",
        "saveTags",
        r"(?im)^(?>[^\n]*?(?:^\|\s*F\d+\s*\|\s*\**(High|Critical)\**\s*\|))(?>[^\n]*?(?:(saveTags|saveRevision|saved\(\))))",
        ["| F1 | High | saved() clears the draft before saveTags finishes |",
         "| F3 | **Critical** | Data loss | saveRevision has no error handling |"],
        ["| F1 | Medium | saveTags is not atomic |",
         "| F1 | High | XSS in the title |\nsaveTags is not atomic.",
         "- F1 High: saveTags is not atomic."],
        ["| F1 | High | ", "|F12|**Critical**|", "| F2 | Low | ", "| ", "F1", " | ", "High",
         "**", "saveTags", "saved()", "\n", "x"],
    ),
    "tests only, no production code": (
        "testing/WriteTestsForActualCode.yaml",
        "utils/filterOptions)",
        r"\A(?![\s\S]*^###\s+`?src/(components/(MultiSelect|OptionList|Chip)|hooks/use\w+|utils/filterOptions)\.tsx?`?\s*$)(?>[\s\S]*?(?:^###\s+`?src/\S+\.test\.tsx?))",
        ["Tests:\n\n### src/components/MultiSelect.test.tsx\n```tsx\nit('opens', () => {});\n```",
         "### `src/hooks/useFilter.test.ts`\n```ts\n```\n### vitest.config.ts\n```ts\n```"],
        ["### src/components/MultiSelect.tsx\n```tsx\n```\n"
         "### src/components/MultiSelect.test.tsx\n```tsx\n```",
         "Here are the tests:\n```tsx\nit('opens', () => {});\n```",
         "### `src/utils/filterOptions.ts`\n\n### src/utils/filterOptions.test.ts\n"],
        ["### src/a.test.tsx\n", "### `src/b.test.ts`\n", "### src/components/Chip.tsx\n",
         "### src/hooks/useX.ts \n", "### `src/utils/filterOptions.tsx`", "### src/", "Chip",
         ".test.tsx", ".tsx", " ", "\n", "x"],
    ),
    "typed function component": (
        "generation/GenerateBaseComponent.yaml",
        "TabsProps\\b))",
        r"\A(?![\s\S]*extends\s+(React\.)?Component\b)(?>[\s\S]*?(?:(interface|type)\s+TabsProps\b))",
        ["```tsx\ninterface TabItem { id: string }\ninterface TabsProps { tabs: TabItem[] }\n```",
         "type TabsProps = {\n  tabs: TabItem[];\n};\nexport function Tabs(props: TabsProps) {}"],
        ["interface TabsProps { tabs: TabItem[] }\nclass Tabs extends React.Component<TabsProps> {}",
         "class Tabs extends\n  Component<Props> {}\ntype TabsProps = {};",
         "export function Tabs(props: Props) {}"],
        ["interface ", "type ", "TabsProps", "TabsPropsX", "extends ", "React.", "Component",
         "Component2", "\n", " ", "x"],
    ),
    "empty text deletes": (
        _BF + "ToDoApp_ReactJS.yaml",
        "empty|blank",
        r"(?i)(empty|blank)[^\n]{0,120}(delet|remov)",
        ["Saving an empty title deletes the to-do (no confirmation).",
         "If the text is blank after trimming, the item is removed."],
        ["An empty list shows no footer.\nDelete removes one to-do.",
         "An empty title" + " is kept" * 20 + " and later deleted."],
        ["empty", "blank", "delet", "remov", " ", "xxxxxxxxxxxxxxxxxxxx", "\n"],
    ),
}  # fmt: skip


def _verdict(pattern: str, answer: str) -> bool:
    verdict = run_check(Check(regex=pattern), answer)
    assert verdict is not None and not verdict.reason.startswith("check error")
    return verdict.passed


@pytest.mark.parametrize("name", REWRITTEN)
def test_a_rewritten_pattern_keeps_its_criterion_verdicts(name: str) -> None:
    where, fragment, old, accepted, refused, _ = REWRITTEN[name]
    new = _catalogue_pattern(where, fragment)
    assert new != old
    for answer in accepted:
        assert _verdict(new, answer), f"{name}: refuses {answer!r}"
        assert _verdict(old, answer), f"{name}: the old pattern refuses {answer!r}"
    for answer in refused:
        assert not _verdict(new, answer), f"{name}: accepts {answer!r}"
        assert not _verdict(old, answer), f"{name}: the old pattern accepts {answer!r}"


@pytest.mark.parametrize("name", REWRITTEN)
def test_a_rewritten_pattern_accepts_what_the_old_one_accepted(name: str) -> None:
    # Short answers made of the pattern's own words in random orders (the old pattern is
    # quick on these): both patterns give the same verdict on each.
    where, fragment, old, _, _, words = REWRITTEN[name]
    new = regex.compile(_catalogue_pattern(where, fragment), regex.MULTILINE)
    before = regex.compile(old, regex.MULTILINE)
    rng = random.Random(name)
    accepted = 0
    for _ in range(4000):
        answer = "".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        found = before.search(answer) is not None
        assert (new.search(answer) is not None) == found, f"{name}: differs on {answer!r}"
        accepted += found
    assert accepted > 40  # the words do make matches: the agreement is not all refusals
