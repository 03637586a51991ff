"""Per-function cyclomatic complexity of JavaScript, TypeScript, JSX, TSX, Vue, HTML and
Java through lizard, counted the way ESLint's `complexity` rule (v9) counts.

ESLint gives every function 1, plus 1 for each: `if` (so `else if` too), ternary `?:`,
`&&`, `||`, `??` (and the logical assignments `&&=`, `||=`, `??=`), `for`, `for-in`,
`for-of`, `while`, `do-while`, `case` with a test (not `default`), `catch`, each optional
chaining `?.`, and each default value of a parameter or a destructuring pattern
(`f(a = 1)`, `const {b = 2} = o`). A nested function is counted on its own; its branches
do not add to the enclosing function. Code outside any function is not counted.

How: lizard finds the functions and tracks which one each token belongs to (nested and
arrow functions, class methods, default values); we replace only its per-token decision
rule (`condition_counter`) with ESLint's set, which adds `?.` and a ternary written
without spaces (`a?b:c`, where lizard's tokenizer glues `a?` into one token), and leaves
out a keyword used as a property name (`promise.catch(...)` is no `catch` clause).
lizard gaps worked around (each has a test in tests/unit/test_complexity.py):
- a method named `get(...)`/`set(...)` is read as an accessor prefix and hides the class's
  other methods: such a token is renamed before lizard's reader sees it;
- a .vue file whose template has `>` in an attribute yields no functions: the <script>
  part is analysed on its own, with everything else blanked so line numbers stay;
- inline <script> in HTML is analysed the same way;
- a generic function `function f<T>(...)` is lost (in a .ts file often with every function
  after it): its type parameter list is dropped before lizard reads it;
- at `x = (` or `{(` lizard opens a function on a guess (arrow parameters may follow) and
  drops the decisions inside when no `=>` comes (`x = (a || b) ? 1 : 2` counted 0): they
  go to the enclosing function.
The typed arrow component `const X: React.FC<P> = () => ...`, a gap of older lizard, is
found by lizard 1.24.3 itself; a test keeps it that way.
For JavaScript and TypeScript this count is the fallback where node or ESLint is missing,
so it may stay a little under ESLint's; scripts/compare-with-eslint prints both totals
and every file where they differ. Known differences: ESLint 9 also counts each class field
initializer as a unit of 1 (`handle = () => {...}` is 1 for the arrow and 1 for the field);
an arrow function in an attribute of a long JSX element can be missed; `&&`, `||` and `?` in
JSX text or in TypeScript conditional types are counted (ESLint does not count them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import NotAnalysable

ESLINT_DECISIONS = frozenset({"if", "for", "while", "catch", "case", "?", "&&", "||", "??", "?."})
_ACCESSOR_SENTINEL = "$llmbench_plain"
# Tokens after a glued `name?` that mark an optional name (`x?: T`, `m?()`), not a ternary.
_OPTIONAL_FOLLOWERS = frozenset({":", ",", ")", "(", ";", "=", "}"})
_JS_FAMILY = {
    ".js": ".js",
    ".mjs": ".js",
    ".cjs": ".js",
    ".jsx": ".jsx",
    ".ts": ".ts",
    ".mts": ".ts",
    ".cts": ".ts",
    ".tsx": ".tsx",
}
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_LANG = re.compile(r"""\blang\s*=\s*["']?(\w+)""", re.I)
_FUNCTION_HINT = re.compile(r"\bfunction\b|=>")


@dataclass(frozen=True)
class FunctionCI:
    name: str
    line: int
    ci: int


def _significant(token: str) -> bool:
    return not token.isspace() and not token.startswith(("//", "/*"))


def _plain_accessor_names(tokens: Iterable[str], reader: Any) -> Iterator[str]:
    """Rename `get`/`set` followed by `(` (a method or call, not an accessor prefix)."""
    pending: str | None = None
    held: list[str] = []
    for token in tokens:
        if pending is not None:
            if not _significant(token):
                held.append(token)
                continue
            yield pending + _ACCESSOR_SENTINEL if token == "(" else pending
            yield from held
            pending, held = None, []
        if token in ("get", "set"):
            pending = token
            continue
        yield token
    if pending is not None:
        yield pending
        yield from held


def _drop_function_type_parameters(tokens: Iterable[str], reader: Any) -> Iterator[str]:
    """Drop the `<T = string>` of `function name<T = string>(`: lizard's TypeScript reader
    loses a generic function (its branches then count towards nothing or the next
    function) and, in a .ts file, often every function after it. Newlines inside the
    list are kept so line numbers stay."""
    state = "code"  # code -> after `function` -> after its name -> inside <...>
    depth = 0
    for token in tokens:
        if state == "inside":
            if token == "<":
                depth += 1
            elif token.startswith(">") and set(token) == {">"}:  # `>`, or `>>` closing two
                depth -= len(token)
                if depth <= 0:
                    state = "code"
            if "\n" in token:
                yield "\n" * token.count("\n")
            continue
        if not _significant(token):
            yield token
            continue
        if state == "function" and token == "*":
            pass
        elif state in ("function", "name") and token == "<":
            state, depth = "inside", 1
            continue
        elif state == "function" and token.replace("$", "_").isidentifier():
            state = "name"
        else:
            state = "code"
        if token == "function":
            state = "function"
        yield token


def _keep_conditions_of_abandoned_functions(context: Any) -> None:
    """lizard's JavaScript reader opens a function on a guess at `x = (` or `{(` (an arrow
    function's parameters may follow) and abandons it when no `=>` comes; the decisions
    counted meanwhile (`x = (a || b) ? 1 : 2`, `{(a || b) && <p/>}`) went with it. Here
    the abandoned guess's decisions go to the function it was opened in. Only this
    context object is changed, not lizard's classes."""
    end_of_function = context.end_of_function

    def end_keeping_conditions() -> None:
        abandoned = context.forgive  # set for a guess (and for a `#lizard forgive` comment)
        extra = context.current_function.cyclomatic_complexity - 1
        end_of_function()
        if abandoned and extra > 0:
            context.add_condition(extra)

    context.end_of_function = end_keeping_conditions


def _eslint_counter(tokens: Iterable[str], reader: Any) -> Iterator[str]:
    """lizard's condition_counter with ESLint's decision points (see the module doc)."""
    _keep_conditions_of_abandoned_functions(reader.context)
    glued: str | None = None  # a held `name?` token, decided by the next significant token
    held: list[str] = []
    previous = ""  # the last significant token
    for token in tokens:
        if _significant(token):
            previous, before = token, previous
        else:
            before = previous
        if glued is not None:
            if not _significant(token):
                held.append(token)
                continue
            if token not in _OPTIONAL_FOLLOWERS:
                reader.context.add_condition()
            yield glued
            yield from held
            glued, held = None, []
        if len(token) > 1 and token.endswith("?") and token[:-1].replace("$", "_").isidentifier():
            glued = token
            continue
        # `promise.catch(`, `obj.for`: a property named like a keyword is no decision.
        if token in ESLINT_DECISIONS and not (token.isalpha() and before in (".", "?.")):
            reader.context.add_condition()
        yield token
    if glued is not None:
        yield glued
        yield from held


def _analyser(java: bool) -> Any:
    from lizard_core.file_analyzer import (
        FileAnalyzer,
        comment_counter,
        condition_counter,
        line_counter,
        preprocessing,
        token_counter,
    )

    if java:  # lizard's Java decisions already are ESLint's set for Java's syntax
        return FileAnalyzer(
            [preprocessing, comment_counter, line_counter, token_counter, condition_counter]
        )
    return FileAnalyzer(
        [
            _plain_accessor_names,
            _drop_function_type_parameters,
            preprocessing,
            comment_counter,
            line_counter,
            token_counter,
            _eslint_counter,
        ]
    )


def _blank_outside_scripts(text: str) -> tuple[str, str]:
    """The <script> bodies at their own line numbers, everything else blank; and the
    extension to read them as (from `lang="ts"` and the like)."""
    pieces: list[str] = []
    last = 0
    suffix = ".js"
    for match in _SCRIPT.finditer(text):
        attributes = match.group(1)
        if re.search(r"\bsrc\s*=", attributes, re.I):
            continue
        lang = _LANG.search(attributes)
        if lang and lang.group(1).lower() in ("ts", "tsx", "jsx"):
            suffix = "." + lang.group(1).lower()
        pieces.append("\n" * text.count("\n", last, match.start(2)))
        pieces.append(match.group(2))
        last = match.end(2)
    return "".join(pieces), suffix


def function_complexity(path: str, text: str) -> list[FunctionCI]:
    """Functions of one file with their ESLint-style complexity; NotAnalysable on failure.

    A file with `function` or `=>` in its code where lizard finds no function at all is
    reported as not analysable rather than as 0.
    """
    suffix = "." + path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix in (".vue", ".html", ".htm"):
        code, read_as = _blank_outside_scripts(text)
    elif suffix == ".java":
        code, read_as = text, ".java"
    elif suffix in _JS_FAMILY:
        code, read_as = text, _JS_FAMILY[suffix]
    else:
        raise NotAnalysable(f"no complexity reader for {suffix or 'files without extension'}")
    try:
        info = _analyser(read_as == ".java").analyze_source_code("code" + read_as, code)
    except Exception as exc:  # lizard raises IndexError and others on input it cannot read
        raise NotAnalysable(f"lizard failed: {type(exc).__name__}: {exc}") from None
    functions = [
        FunctionCI(fn.name.replace(_ACCESSOR_SENTINEL, ""), fn.start_line, fn.cyclomatic_complexity)
        for fn in info.function_list
    ]
    if not functions and read_as != ".java":
        plain = _strip_comments_and_strings(code)
        if read_as in (".ts", ".tsx"):
            plain = _strip_type_declarations(plain)
        hints = len(_FUNCTION_HINT.findall(plain))
        if hints:
            raise NotAnalysable(
                f"lizard found no function, but the code has {hints} function syntax"
            )
    return functions


_TYPE_DECLARATION = re.compile(r"\b(?:interface\s+\w+[^{]*\{|type\s+\w+(?:<[^=]*>)?\s*=)")


def _strip_type_declarations(code: str) -> str:
    """TypeScript `interface X {...}` and `type X = ...;` removed: the `=>` of a function
    type there is no function for lizard to find."""
    out, pos = [], 0
    for match in _TYPE_DECLARATION.finditer(code):
        if match.start() < pos:
            continue
        out.append(code[pos : match.start()])
        depth, i = (1, match.end()) if match.group().endswith("{") else (0, match.end())
        while i < len(code):
            char = code[i]
            if char in "{([<":
                depth += 1
            elif char in "})]>" and code[i - 1 : i + 1] != "=>":
                depth -= 1
                if depth == 0 and match.group().endswith("{"):
                    i += 1
                    break
            elif char in ";\n" and depth == 0:
                break
            i += 1
        pos = i
    out.append(code[pos:])
    return "".join(out)


def _strip_comments_and_strings(code: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/|'[^'\n]*'|\"[^\"\n]*\"", "", code, flags=re.S)
