"""Structural checks for the languages no installed tool parses for us here: HTML (its
inline scripts and styles too), CSS/SCSS/LESS and Vue single-file components.

They check delimiter balance, which catches the usual failure of a chat answer (code cut
off, braces lost) without false alarms on valid code. JavaScript inside HTML and Vue is
scanned the same way; standalone JavaScript, TypeScript, Python and Java go to real
parsers (syntax.py).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from html.parser import HTMLParser

_CLOSERS = {")": "(", "]": "[", "}": "{"}
# After these words an expression starts, so a quote or slash opens a literal.
_VALUE_KEYWORDS = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await "
    "from import export default as satisfies extends keyof".split()
)


class _Lines:
    """Line number of an offset, without rescanning the text each time."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect_right(self._starts, offset)


class _Stack:
    """Open delimiters with the line each opened on."""

    def __init__(self) -> None:
        self.items: list[tuple[str, int]] = []

    def top(self) -> str:
        return self.items[-1][0] if self.items else ""

    def push(self, opener: str, line: int) -> None:
        self.items.append((opener, line))

    def close(self, closer: str, line: int) -> str | None:
        if not self.items:
            return f"unexpected '{closer}' on line {line}"
        opener, opened = self.items[-1]
        if opener.endswith(_CLOSERS[closer]):  # '${' is closed by '}'
            self.items.pop()
            return None
        return f"'{closer}' on line {line} does not close '{opener}' opened on line {opened}"

    def leftover(self) -> str | None:
        if not self.items:
            return None
        opener, line = self.items[-1]
        if opener == "`":
            return f"unterminated template literal opened on line {line}"
        return f"unbalanced '{opener}' opened on line {line}"


def _line_end(code: str, start: int) -> int:
    end = code.find("\n", start)
    return len(code) if end < 0 else end


def _quoted_end(code: str, start: int, quote: str) -> int:
    """Index after the closing quote on the same line, or -1."""
    i = start + 1
    while i < len(code):
        ch = code[i]
        if ch == "\\":
            i += 2
            continue
        if ch == quote:
            return i + 1
        if ch == "\n":
            return -1
        i += 1
    return -1


def _regex_end(code: str, start: int) -> int:
    """Index after a regex literal's closing slash on the same line, or -1."""
    i, in_class = start + 1, False
    while i < len(code):
        ch = code[i]
        if ch == "\n":
            return -1
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            return i + 1
        i += 1
    return -1


def _expects_value(prev: str, word: str) -> bool:
    """Whether the previous token leaves an expression to start, so ' " / open literals.

    In JSX text the quote follows a letter (`Don't`) or a tag's `>`, where JS code could
    not start a literal; that is what keeps apostrophes in markup from opening strings.
    """
    if prev in ("", "=>"):
        return True
    if prev == "word":
        return word in _VALUE_KEYWORDS
    return prev not in ("value", ")", "]", "}", ">")


def _js_problem(code: str) -> str | None:
    line_of, stack = _Lines(code), _Stack()
    prev, word = "", ""
    i, n = 0, len(code)
    if code.startswith("#!"):
        i = _line_end(code, 0)
    while i < n:
        if stack.top() == "`":
            i, opened = _template_text(code, i, stack, line_of)
            prev = "{" if opened else "value"
            continue
        ch = code[i]
        if ch.isspace():
            i += 1
        elif code.startswith("//", i):
            i = _line_end(code, i)
        elif code.startswith("/*", i):
            end = code.find("*/", i + 2)
            if end < 0:
                return f"unterminated comment opened on line {line_of(i)}"
            i = end + 2
        elif ch in "'\"" or (ch == "/" and prev != "<"):
            # A literal only where an expression may start and if it closes on its line;
            # otherwise this is JSX text or division, and the character is plain.
            end = -1
            if _expects_value(prev, word):
                end = _quoted_end(code, i, ch) if ch != "/" else _regex_end(code, i)
            prev, i = ("value", end) if end > 0 else (("value" if ch != "/" else "/"), i + 1)
        elif ch == "`":
            stack.push("`", line_of(i))
            i += 1
        elif ch in "([{":
            stack.push(ch, line_of(i))
            prev, i = ch, i + 1
        elif ch in ")]}":
            problem = stack.close(ch, line_of(i))
            if problem:
                return problem
            prev, i = ch, i + 1
        elif ch.isalnum() or ch in "_$":
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_$"):
                j += 1
            prev, word, i = "word", code[i:j], j
        else:
            prev, i = ("=>" if ch == ">" and prev == "=" else ch), i + 1
    return stack.leftover()


def _template_text(code: str, i: int, stack: _Stack, line_of: _Lines) -> tuple[int, bool]:
    """Skip template text to its closing backtick or a `${`: (new index, `${` opened)."""
    while i < len(code):
        ch = code[i]
        if ch == "\\":
            i += 2
        elif ch == "`":
            stack.items.pop()
            return i + 1, False
        elif code.startswith("${", i):
            stack.push("${", line_of(i))
            return i + 2, True
        else:
            i += 1
    return i, False


def _clike_problem(
    code: str, *, line_comments: bool, text_blocks: bool = False, url_guard: bool = False
) -> str | None:
    """Delimiter balance for Java and CSS, where every quote opens a literal.

    With url_guard, `//` right after ':' or '(' is part of an unquoted url, as in SCSS's
    `url(//cdn...)` or `http://`, not a comment.
    """
    line_of, stack = _Lines(code), _Stack()
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if code.startswith("/*", i):
            end = code.find("*/", i + 2)
            if end < 0:
                return f"unterminated comment opened on line {line_of(i)}"
            i = end + 2
        elif (
            line_comments
            and code.startswith("//", i)
            and not (url_guard and code[i - 1 : i] in (":", "("))
        ):
            i = _line_end(code, i)
        elif text_blocks and code.startswith('"""', i):
            end = code.find('"""', i + 3)
            if end < 0:
                return f"unterminated text block opened on line {line_of(i)}"
            i = end + 3
        elif ch in "'\"":
            end = _quoted_end(code, i, ch)
            if end < 0:
                return f"unterminated string on line {line_of(i)}"
            i = end
        elif ch in "([{":
            stack.push(ch, line_of(i))
            i += 1
        elif ch in ")]}":
            problem = stack.close(ch, line_of(i))
            if problem:
                return problem
            i += 1
        else:
            i += 1
    return stack.leftover()


def _shift_lines(problem: str, offset: int) -> str:
    """Line numbers of an embedded piece, made line numbers of the whole file."""
    return re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + offset}", problem)


class _HtmlCheck(HTMLParser):
    """Balanced <script> tags, and the inline scripts and styles checked in their language."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open_scripts: list[int] = []
        self.problems: list[str] = []
        self._inline: tuple[str, int] | None = None  # (language, line) of the open script/style

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag == "script":
            self.open_scripts.append(line)
            kind = (dict(attrs).get("type") or "javascript").lower()
            is_js = "javascript" in kind or kind in ("module", "text/babel", "")
            self._inline = ("javascript", line) if is_js and "src" not in dict(attrs) else None
        elif tag == "style":
            self._inline = ("css", line)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            if not self.open_scripts:
                self.problems.append(
                    f"</script> on line {self.getpos()[0]} has no opening <script>"
                )
            else:
                self.open_scripts.pop()
        if tag in ("script", "style"):
            self._inline = None

    def handle_data(self, data: str) -> None:
        if self._inline is None or not data.strip():
            return
        language, line = self._inline
        problem = _CHECKERS[language](data)
        if problem:
            tag = "script" if language == "javascript" else "style"
            self.problems.append(f"<{tag}> on line {line}: {_shift_lines(problem, line - 1)}")


def _html_problem(code: str) -> str | None:
    checker = _HtmlCheck()
    try:
        checker.feed(code)
        checker.close()
    except Exception as exc:  # html.parser is lenient by design; any raise is a real defect
        return f"html does not parse: {exc}"
    if checker.open_scripts:
        checker.problems.insert(
            0, f"<script> opened on line {checker.open_scripts[-1]} is never closed"
        )
    return checker.problems[0] if checker.problems else None


def _vue_problem(code: str) -> str | None:
    """A single-file component: its template is markup, its <script> is the checkable code."""
    for match in re.finditer(r"<script\b[^>]*>(.*?)(?:</script>|$)", code, re.S):
        problem = _js_problem(match.group(1))
        if problem:
            return f"<script>: {_shift_lines(problem, code.count(chr(10), 0, match.start(1)))}"
    return None


_CHECKERS: dict[str, Callable[[str], str | None]] = {
    "javascript": _js_problem,
    "html": _html_problem,
    "css": lambda code: _clike_problem(code, line_comments=False),
    "scss": lambda code: _clike_problem(code, line_comments=True, url_guard=True),
    "less": lambda code: _clike_problem(code, line_comments=True, url_guard=True),
    "vue": _vue_problem,
}


def structure_problem(language: str, code: str) -> str | None:
    """None when the code is balanced, else a one-line reason with its line."""
    problem = _CHECKERS[language](code)
    return None if problem is None else " ".join(problem.split())
