"""Deterministic checks of an answer: contains, not_contains, regex, parses, file.

`parses` is the portable form of executability (method.md section 7): every file the
answer's code blocks make (workspace.py) gets its language's syntax check (syntax.py,
the same checks the executability metric uses). When a needed checker is not installed
and nothing failed, the check gives no verdict, so its step is unscored, never passed.
`file` passes when the answer names each given path for one of its code blocks.

A `regex` runs on the `regex` package (the `re` syntax) with a time limit: a pattern that
backtracks without end on some answer fails its step with a "check error" reason after
REGEX_TIME_LIMIT_S instead of freezing the run. The matcher releases the GIL, and the
pipeline runs checks in a worker thread, so model calls go on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import regex

from ..formats.criteria import Check
from ..formats.paths import safe_path
from ..formats.workspace import answer_workspace
from ..metrics.syntax import TOOL_KINDS, check_files
from ..schema.results import Verdict

REASON_LIMIT = 200
REGEX_TIME_LIMIT_S = 2.0
# `parses: <family>` picks the files of these languages.
FAMILIES = {
    "javascript": {"javascript", "jsx"},
    "typescript": {"typescript", "tsx"},
    "css": {"css", "scss", "less"},
}


def _short(text: str) -> str:
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 1] + "…"


def _quote(needle: str) -> str:
    return repr(needle if len(needle) <= 40 else needle[:39] + "…")


def _strings(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _check_contains(needles: list[str], answer: str, ignore_case: bool, want: bool) -> Verdict:
    fold: Callable[[str], str] = str.casefold if ignore_case else str
    haystack = fold(answer)
    wrong = [s for s in needles if (fold(s) in haystack) != want]
    if wrong:
        label = "missing" if want else "found"
        return Verdict(
            passed=False, reason=_short(f"{label}: {', '.join(_quote(s) for s in wrong)}")
        )
    label = "contains" if want else "does not contain"
    return Verdict(passed=True, reason=_short(f"{label} {', '.join(_quote(s) for s in needles)}"))


def _check_regex(pattern: str, answer: str, ignore_case: bool) -> Verdict:
    flags = regex.MULTILINE | (regex.IGNORECASE if ignore_case else 0)
    try:
        match = regex.search(pattern, answer, flags, timeout=REGEX_TIME_LIMIT_S, concurrent=True)
    except TimeoutError:
        return Verdict(
            passed=False,
            reason=_short(
                f"check error: /{pattern}/ exceeded the {REGEX_TIME_LIMIT_S:g} s time limit on "
                f"this answer ({len(answer)} characters)"
            ),
        )
    if match is None:
        return Verdict(passed=False, reason=_short(f"no match for /{pattern}/"))
    line = answer.count("\n", 0, match.start()) + 1
    return Verdict(passed=True, reason=_short(f"matched {_quote(match.group(0))} on line {line}"))


def _check_parses(wanted: bool | str, answer: str, cache_dir: Path | None) -> Verdict | None:
    everything = wanted is True or wanted == "any"
    family = FAMILIES.get(str(wanted), {str(wanted)})
    chosen = [
        f
        for f in answer_workspace(answer).files
        if f.language in TOOL_KINDS and (everything or f.language in family)
    ]
    if not chosen:
        what = "code block" if everything else f"{wanted} code block"
        return Verdict(passed=False, reason=f"no {what} to check")
    results = check_files(tuple((f.label, f.language, f.code) for f in chosen), cache_dir)
    failures = [f"{r.path}: {r.reason}" for r in results if r.status == "fail"]
    if failures:
        more = f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""
        return Verdict(passed=False, reason=_short(failures[0][: REASON_LIMIT - len(more)] + more))
    if any(r.status == "not checked" for r in results):
        return None
    languages = sorted({f.language for f in chosen})
    count = len(chosen)
    return Verdict(
        passed=True, reason=f"{count} file{'s' * (count != 1)} parse ({', '.join(languages)})"
    )


def _check_file(paths: list[str], answer: str) -> Verdict:
    workspace = answer_workspace(answer)
    missing = [p for p in paths if safe_path(p)[0] not in workspace.paths]
    if missing:
        named = ", ".join(sorted(workspace.paths)) or "none"
        return Verdict(
            passed=False, reason=_short(f"missing: {', '.join(missing)} (answer names: {named})")
        )
    return Verdict(passed=True, reason=_short(f"names {', '.join(paths)}"))


def run_check(check: Check, answer: str, cache_dir: Path | None = None) -> Verdict | None:
    """Pass or fail of one deterministic check, the reason saying what was found or missing;
    None when the check could not be made (a syntax checker that is not installed).
    `cache_dir`: where syntax checks keep their results (syntax.check_files)."""
    if check.contains is not None:
        return _check_contains(_strings(check.contains), answer, check.ignore_case, want=True)
    if check.not_contains is not None:
        return _check_contains(_strings(check.not_contains), answer, check.ignore_case, want=False)
    if check.regex is not None:
        return _check_regex(check.regex, answer, check.ignore_case)
    if check.parses is not None:
        return _check_parses(check.parses, answer, cache_dir)
    if check.file is not None:
        return _check_file(_strings(check.file), answer)
    raise ValueError("a check needs one of contains, not_contains, regex, parses, file")
