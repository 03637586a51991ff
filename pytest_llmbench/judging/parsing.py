"""Reading what judges write: evaluator reports (JSON or Markdown) and grader grades.

Evaluators are asked for JSON, but real replies wrap it in fences or prose, or fall back
to the public Markdown form (method.md section 5), so both are read leniently. Verdicts
are then matched to our steps by id first and by text second, because judges echo ids
less reliably than they paraphrase criteria.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ReportParseError
from ..formats.criteria import CriterionStep
from ..schema.vocabulary import ReportForm

GRADES = (1, 2, 3, 4)
FUZZY_RATIO = 0.8
CONTAINED_MIN_CHARS = 20
_MAX_JSON_STARTS = 200  # prose full of brackets must not make the search quadratic

_LIST_KEYS = ("steps", "evaluation", "results", "criteria")
_TEXT_KEYS = ("criterion", "criteria", "step", "text")
_VERDICT_KEYS = ("passed", "verdict", "result", "pass", "status")
_REASON_KEYS = ("explanation", "reason", "rationale", "justification")
_TRUE = frozenset({"pass", "passed", "yes", "true", "y", "ok", "met"})
_FALSE = frozenset({"fail", "failed", "no", "false", "n", "not met"})

_STEP_ID = r"[A-Za-z]\d{1,3}"
_ID_PREFIX = re.compile(
    rf"^(?:\[(?P<a>{_STEP_ID})\]|\((?P<b>{_STEP_ID})\)|(?P<c>{_STEP_ID})"
    r"(?:\s*\((?:accuracy|completeness)\))?\s*[:.)\-–])\s*",
    re.IGNORECASE,
)
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_EMOJI = re.compile("[\u2705\u274c\u2714\u2716\u2611\u2713\u2717\u274e\ufe0f]")
_MD_VERDICT = re.compile(r"^(?P<v>pass(?:ed)?|fail(?:ed)?)\b(?P<tail>.*)$", re.IGNORECASE)
_MD_TAIL = re.compile(
    r"^\s*(?:\(\s*(?:confidence\s*[:=]?\s*)?(?P<c1>\d{1,3}(?:\.\d+)?)\s*%?\s*(?:confidence\s*)?\)"
    r"|(?P<c2>\d{1,3}(?:\.\d+)?)\s*%)?"
    r"\s*(?P<sep>[:\-–—])?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
# Bold that holds only the verdict and maybe its confidence: **Pass**, **Fail (80%):**.
_BOLD_VERDICT = re.compile(r"\*\*\s*(?:pass|fail)(?:ed)?\b[\s\d.%():]*\*\*", re.IGNORECASE)
_TOTALS_REST = re.compile(
    r"^\d+(?:\s*(?:/|of|out of)\s*\d+)?\s*(?:steps?)?\s*(?:\(.*\))?\.?$", re.IGNORECASE
)
_REASON_LABEL = re.compile(r"^(?:explanation|reason|rationale|justification)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedStep:
    key: str  # the step id the judge gave ("A1", "C3"), '' if none
    criterion: str  # the criterion text as the judge echoed it
    passed: bool
    confidence: float | None  # 0..100
    reason: str


@dataclass(frozen=True)
class ParsedReport:
    form: ReportForm
    steps: list[ParsedStep]


def split_step_id(text: str) -> tuple[str, str]:
    """("A2", rest) for a criterion written as "[A2] rest" or "A2: rest", else ("", text)."""
    text = text.strip()
    match = _ID_PREFIX.match(text)
    if not match:
        return "", text
    key = match.group("a") or match.group("b") or match.group("c")
    return key.upper(), text[match.end() :]


# -- JSON ------------------------------------------------------------------------------


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%?)\s*", value)
        if not match:
            return None
        number = float(match.group(1))
        return min(number, 100.0) if match.group(2) or number > 1 else number * 100
    if isinstance(value, int | float) and math.isfinite(value) and value >= 0:
        # Judges use both scales; a value up to 1 can only be a fraction.
        return float(value) * 100 if value <= 1 else min(float(value), 100.0)
    return None


def _verdict(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = _EMOJI.sub("", value).strip().strip("*").strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def _json_step(item: Any) -> ParsedStep | None:
    if not isinstance(item, dict):
        return None
    passed = next(
        (v for v in (_verdict(item.get(k)) for k in _VERDICT_KEYS) if v is not None), None
    )
    text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), "")
    key, text = split_step_id(text)
    given = item.get("id", item.get("step_id"))
    if isinstance(given, str | int) and not isinstance(given, bool) and str(given).strip():
        key = str(given).strip()
    if re.fullmatch(_STEP_ID, text) and not key:  # {"step": "A1"} names the step, not its text
        key, text = text.upper(), ""
    if passed is None or not (key or text):
        return None
    reason = next((str(item[k]) for k in _REASON_KEYS if item.get(k) not in (None, "")), "")
    return ParsedStep(key, text, passed, _confidence(item.get("confidence")), reason.strip())


def _json_steps(data: Any) -> list[ParsedStep]:
    if isinstance(data, list):
        return [s for s in map(_json_step, data) if s is not None]
    if not isinstance(data, dict):
        return []
    for key in _LIST_KEYS:
        if isinstance(data.get(key), list | dict):
            found = _json_steps(data[key])
            if found:
                return found
    single = _json_step(data)
    if single is not None:
        return [single]
    # {"accuracy": [...], "completeness": [...]}: every list of step objects, in order.
    return [s for value in data.values() if isinstance(value, list) for s in _json_steps(value)]


def _from_json(text: str) -> list[ParsedStep]:
    """Steps of the first JSON value in the text that has any, wherever it sits."""
    decoder = json.JSONDecoder()
    starts = [m.start() for m in re.finditer(r"[\[{]", text)][:_MAX_JSON_STARTS]
    for start in starts:
        try:
            data, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        steps = _json_steps(data)
        if steps:
            return steps
    return []


# -- Markdown --------------------------------------------------------------------------


def _md_step(line: str) -> ParsedStep | None:
    original = line.strip()
    text = _EMOJI.sub("", _LIST_MARKER.sub("", original)).replace("**", "").strip()
    key, text = split_step_id(text)
    match = _MD_VERDICT.match(text)
    if not match:
        return None
    tail = _MD_TAIL.match(match.group("tail"))
    if tail is None:  # cannot happen, every part of the pattern is optional; keeps mypy sure
        return None
    confidence = tail.group("c1") or tail.group("c2")
    marked = bool(_EMOJI.search(original) or _BOLD_VERDICT.search(original))
    # Without markup, a confidence or a separator must show this is a verdict, not prose.
    if not (marked or confidence or tail.group("sep") or key):
        return None
    rest = tail.group("rest").strip()
    if _TOTALS_REST.match(rest) or not (rest or key):
        return None
    inner_key, criterion = split_step_id(rest)
    passed = match.group("v").lower().startswith("pass")
    value = min(float(confidence), 100.0) if confidence else None
    return ParsedStep(key or inner_key, criterion, passed, value, "")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _from_markdown(text: str) -> list[ParsedStep]:
    steps: list[ParsedStep] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        step = _md_step(lines[i])
        if step is None:
            i += 1
            continue
        base, reason = _indent(lines[i]), []
        i += 1
        # Explanation lines are indented under their step; a blank line may sit between.
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
            if lines[i].strip() and _md_step(lines[i]) is not None:
                break
            if lines[i].strip():
                reason.append(_REASON_LABEL.sub("", _LIST_MARKER.sub("", lines[i].strip())))
            i += 1
        steps.append(
            ParsedStep(step.key, step.criterion, step.passed, step.confidence, " ".join(reason))
        )
    return steps


def parse_evaluator_reply(text: str) -> ParsedReport:
    """The judge's per-step verdicts, from JSON if there is any, else from Markdown lines."""
    steps = _from_json(text)
    if steps:
        return ParsedReport("json", steps)
    steps = _from_markdown(text)
    if steps:
        return ParsedReport("markdown", steps)
    if not text.strip():
        raise ReportParseError("the reply is empty")
    raise ReportParseError(
        "found neither JSON steps with a pass/fail verdict nor '- **Pass** (90%): ...' lines"
    )


# -- matching verdicts to our steps ----------------------------------------------------


def normalise(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def _fuzzy(ours: str, theirs: str) -> float:
    """Similarity of two normalised texts; containment of a long enough text counts as a match."""
    ratio = difflib.SequenceMatcher(None, ours, theirs, autojunk=False).ratio()
    shorter, longer = sorted((ours, theirs), key=len)
    if len(shorter) >= CONTAINED_MIN_CHARS and shorter in longer:
        return max(ratio, FUZZY_RATIO)
    return ratio


def match_steps(parsed: list[ParsedStep], steps: Sequence[CriterionStep]) -> dict[str, ParsedStep]:
    """Our step id -> the judge's verdict on it; each verdict is used at most once."""
    matched: dict[str, ParsedStep] = {}
    free = list(range(len(parsed)))
    by_id = {s.id.lower(): s.id for s in steps}
    for index in list(free):
        step_id = by_id.get(parsed[index].key.lower())
        if step_id is not None and step_id not in matched:
            matched[step_id] = parsed[index]
            free.remove(index)
    texts = {i: normalise(parsed[i].criterion) for i in free}
    ours = [normalise(step.text) for step in steps]
    for order, step in enumerate(steps):
        exact = next((i for i in free if step.id not in matched and texts[i] == ours[order]), None)
        if exact is not None:
            matched[step.id] = parsed[exact]
            free.remove(exact)
    # Best pairs first, so a verdict goes to the step it fits most, not the first it fits.
    pairs = sorted(
        (-ratio, order, index)
        for order, step in enumerate(steps)
        if step.id not in matched
        for index in free
        if texts[index] and (ratio := _fuzzy(ours[order], texts[index])) >= FUZZY_RATIO
    )
    for _, order, index in pairs:
        step_id = steps[order].id
        if step_id not in matched and index in free:
            matched[step_id] = parsed[index]
            free.remove(index)
    return matched


# -- grades ----------------------------------------------------------------------------


# The grade tokens 1-4 must carry at least this share of the probability of all the
# first-token alternatives the provider listed (its top 5), or the grader is sampled:
# a "1" at 4% behind "The" and "You" is a word beginning, not a grade (README "Grades").
MIN_GRADE_SHARE = 0.5
# Token decorations around a grade digit: spaces, quotes, bold marks, and the word-start
# marks of byte-level (Ġ) and SentencePiece (▁) vocabularies.
_TOKEN_DECORATION = " \t\n'\"`*Ġ▁"


def grade_token(token: str) -> int | None:
    """The grade a first token stands for (" 3", "'3", '"3' and "3" all mean 3), else None."""
    text = token.strip(_TOKEN_DECORATION)
    return int(text) if text in {str(k) for k in GRADES} else None


def grade_distribution_from_logprobs(
    top: list[tuple[str, float]],
) -> tuple[dict[int, float] | None, str | None]:
    """(p_k renormalised over the grades 1-4, None) from the first token's top
    alternatives when the grade tokens carry at least MIN_GRADE_SHARE of their listed
    probability; else (None, why the grader must be sampled instead)."""
    if not top:
        return None, "the provider gave no logprobs"
    mass = dict.fromkeys(GRADES, 0.0)
    for token, logprob in top:
        grade = grade_token(token)
        if grade is not None:
            mass[grade] += math.exp(logprob)
    listed = sum(math.exp(logprob) for _, logprob in top)
    total = sum(mass.values())
    shown = ", ".join(f"{token!r} {logprob:.2f}" for token, logprob in top[:5])
    if total <= 0:
        return None, f"no grade 1-4 among the first token's top {len(top)} ({shown})"
    if total < MIN_GRADE_SHARE * listed:
        return None, (
            f"grade tokens carry {total / listed:.0%} of the first token's top-{len(top)} "
            f"probability, below {MIN_GRADE_SHARE:.0%} ({shown})"
        )
    return {k: p / total for k, p in mass.items()}, None


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")


def grade_from_text(text: str) -> int | None:
    """The grade in a grader reply: its first standalone number, when that is 1-4.

    Numbers inside words (A1) or ranges (1-4) are skipped; a first number that is not a
    whole 1-4 (10, 3.5) gives None rather than a guess.
    """
    for match in _NUMBER.finditer(text):
        before, after = text[: match.start()].rstrip(), text[match.end() :].lstrip()
        if re.match(r"[-–]\s*\d", after) or re.search(r"\d\s*[-–]$", before):
            continue
        value = match.group(0)
        return int(value) if value in {str(k) for k in GRADES} else None
    return None


def distribution_from_samples(grades: list[int]) -> dict[int, float]:
    """Empirical distribution over 1-4 of sampled grades; grades outside 1-4 are dropped."""
    valid = [g for g in grades if g in GRADES]
    if not valid:
        return {}
    return {k: valid.count(k) / len(valid) for k in GRADES}


def summarise_distribution(dist: dict[int, float]) -> tuple[int, float, bool]:
    """(argmax grade, lowest on ties; weighted grade sum k*p_k; confident = max p > 0.9)."""
    total = sum(p for k, p in dist.items() if k in GRADES)
    if total <= 0:
        raise ValueError("an empty grade distribution has no summary")
    probs = {k: dist.get(k, 0.0) / total for k in GRADES}
    best = max(GRADES, key=lambda k: (probs[k], -k))
    weighted = sum(k * p for k, p in probs.items())
    return best, weighted, probs[best] > 0.9
