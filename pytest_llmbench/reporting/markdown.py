"""The leaderboard as Markdown tables (leaderboard.md and the terminal summary)."""

from __future__ import annotations

from collections.abc import Callable

from ..schema.leaderboard import Calibration, CodeFigure, Leaderboard, McNemar, Pair, Row
from .leaderboard import CODE_METRICS


def _num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _cost(value: float | None) -> str:
    return "–" if value is None else f"${value:.4f}"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} x{n}" for name, n in sorted(counts.items()))


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table's lines (cells as given: no `|` is escaped)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def _ci(interval: list[float] | None) -> str:
    return "–" if not interval else f"{interval[0]:.3f}–{interval[1]:.3f}"


def _cells(row: Row) -> list[str]:
    return [
        _num(row.score, 3),
        _ci(row.score_ci),
        _num(row.accuracy),
        _num(row.completeness),
        _num(row.pass_rate),
        _num(row.pass_at_1),
        _num(row.generation_rate, 1),
        _num(row.attempt),
        f"{row.scored}/{row.items}",
    ]


COLUMNS = [
    "Score",
    "95% CI",
    "Accuracy",
    "Completeness",
    "Pass rate",
    "pass@1",
    "Tok/s",
    "Attempt",
    "Scored",
]


def _functional_cell(row: Row) -> str:
    return (
        "–"
        if row.functional_rate is None
        else f"{row.functional_rate:.2f} ({row.functional_items})"
    )


FUNCTIONAL_NOTE = (
    "Functional: mean over the items with hidden tests (n of them) of hidden tests passed / "
    "tests (mutation mode: mutants killed / mutants), each item's mean over its attempts. "
    "Tests pass@1: share of those items whose first attempt passed every hidden test; "
    "tests pass after feedback (--llm-feedback): share where some attempt did, the later "
    "ones told what failed. Tampered: items with an attempt that attacked the verdict "
    "(wrote a test tool's or the harness's file, or set off a tripwire); their runs count "
    "0 and pass nothing. – : no item of the row has hidden tests."
)


def functional_columns(board: Leaderboard) -> list[tuple[str, Callable[[Row], str]]]:
    """The hidden tests' columns, when some item had hidden tests: the functional rate
    with its item count, tests pass@1, pass after feedback when some item had it, and
    the items tampered with."""
    rows = [*board.models, *board.categories]
    if not any(r.functional_items for r in rows):
        return []
    columns: list[tuple[str, Callable[[Row], str]]] = [
        ("Functional (n)", _functional_cell),
        ("Tests pass@1", lambda r: _share(r.functional_pass_at_1)),
    ]
    if any(r.functional_pass_after_feedback is not None for r in rows):
        columns.append(
            ("Tests pass after feedback", lambda r: _share(r.functional_pass_after_feedback))
        )
    columns.append(("Tampered", lambda r: str(r.tampered)))
    return columns


def _others(row: Row) -> str:
    """How many items were unscored, errors or skipped: '1 unscored, 1 error', or ''."""
    counts = ((row.unscored, "unscored"), (row.errors, "error"), (row.skipped, "skipped"))
    return ", ".join(f"{n} {word}" for n, word in counts if n)


def _outcomes(row: Row) -> str:
    """'2/3', then how many items were unscored, errors or skipped (model rows only)."""
    others = _others(row)
    return f"{row.scored}/{row.items}" + (f" ({others})" if others else "")


def _pass_at(board: Leaderboard) -> str:
    """'pass@1', or 'pass@1 and pass@3' when there is more than one attempt."""
    k = board.attempts
    return "pass@1" if k == 1 else f"pass@1 and pass@{k}"


def _sources(board: Leaderboard, r: Row) -> str:
    """One model's note on where its figures come from."""
    if not r.metric_sources:
        others = f" ({_others(r)})" if _others(r) else ""
        return f"- {r.model}: nothing scored of {r.items} items{others}"
    pass_at_k = f"pass@{board.attempts} {_num(r.pass_at_k)}; " if board.attempts > 1 else ""
    return (
        f"- {r.model}: metrics from {_counts(r.metric_sources)}; grade distributions by "
        f"{_counts(r.grade_methods) or 'no grader (checks only)'}; judges agree on "
        f"{_share(r.judge_exact_agreement)} of grades (Krippendorff's alpha "
        f"{_num(r.judge_alpha)}); checks agree with judges on "
        f"{_share(r.check_judge_agreement)} of steps; {pass_at_k}per item median/p95: "
        f"tokens {_num(r.tokens.median, 0)}/{_num(r.tokens.p95, 0)}, latency "
        f"{_num(r.latency_s.median)}/{_num(r.latency_s.p95)} s, cost "
        f"{_cost(r.cost_usd.median)}/{_cost(r.cost_usd.p95)}"
    )


def model_table(board: Leaderboard) -> list[str]:
    tests = functional_columns(board)
    # The prompt cache's column only when some provider read from its cache.
    cached = any(r.candidate_cached_tokens or r.judge_cached_tokens for r in board.models)
    rows = [
        [
            r.rank or "–",
            r.model + (f" [{'; '.join(r.marks)}]" if r.marks else ""),
            *_cells(r)[:-1],
            _outcomes(r),
            *(cell(r) for _, cell in tests),
            str(r.judge_tokens),
            *([f"{r.candidate_cached_tokens} / {r.judge_cached_tokens}"] if cached else []),
            _cost(r.candidate_cost_usd),
            _cost(r.judge_cost_usd),
        ]
        for r in board.models
    ]
    headers = ["#", "Model", *COLUMNS, *(name for name, _ in tests), "Judge tokens"]
    headers += ["Cached in (cand. / judges)"] if cached else []
    return table([*headers, "Cost", "Judge cost"], rows)


def _calibration_row(c: Calibration) -> list[str]:
    return [
        c.verifier,
        c.kind,
        str(c.n),
        _share(c.agreement),
        _num(c.kappa),
        str(c.pass_tests_fail),
        str(c.fail_tests_pass),
        str(c.both_pass),
        str(c.both_fail),
    ]


def calibration_section(board: Leaderboard) -> list[str]:
    """Judges (and checks) against the hidden tests, when any step had a test verdict."""
    if not board.calibration:
        return []
    lines = [
        "",
        "## Judges against the hidden tests",
        "",
        "Over every attempt's functional criteria (criteria that name hidden tests): a "
        "verdict agrees when its Pass/Fail equals whether every named test passed. "
        "κ: Cohen's kappa (0 = chance). Over-trust: Pass while a test failed.",
        "",
    ]
    headers = ["Verifier", "Kind", "Steps", "Agreement", "κ", "Over-trust (Pass, tests fail)"]
    headers += ["Fail, tests pass", "Both pass", "Both fail"]
    return lines + table(headers, [_calibration_row(c) for c in board.calibration])


def ranking_text(board: Leaderboard) -> str:
    """What the ranks mean: the test and level behind them."""
    if board.ranking is None:
        return "#: rank by score."
    r = board.ranking
    return (
        f"#: the ranks a model may hold. Two models differ when the {r.test} gives a "
        f"p-value below {1 - r.level:.2f} after {r.adjustment} (every sign pattern when at "
        f"most {r.exact_up_to} scenarios differ, else up to {r.permutations} random ones, "
        f"stopping at {r.stop_hits} that reach the observed difference); models that do not "
        'differ share a rank range ("1-2").'
    )


def ranks_line(board: Leaderboard) -> str | None:
    """Under a model table: what a shared rank range means, when some model has one."""
    if board.ranking is None or not any(r.rank and "-" in r.rank for r in board.models):
        return None
    return (
        f"#: a range such as 1-2 is shared by models the paired tests cannot tell apart "
        f"(p >= {1 - board.ranking.level:.2f} after Holm); the pairs are in leaderboard.md"
    )


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _mcnemar(m: McNemar) -> str:
    return "–" if not m.items else f"{m.a_only}/{m.b_only}, p {_p(m.p_holm)}"


def _pair_row(p: Pair) -> list[str]:
    ci = "–" if not p.difference_ci else "{:+.3f} to {:+.3f}".format(*p.difference_ci)
    return [
        p.a,
        p.b,
        f"{p.items} ({p.scenarios})",
        "–" if p.difference is None else f"{p.difference:+.3f}",
        ci,
        _p(p.p),
        _p(p.p_holm) + (" *" if p.significant else ""),
        _num(p.detectable, 3),
        _mcnemar(p.pass_at_1),
        _mcnemar(p.tests_pass_at_1),
    ]


PAIRS_NOTE = (
    "Over the items both models scored: Difference = mean score of A - B, its 95% interval "
    "from a bootstrap that resamples whole scenarios (an item's two scores stay together), "
    "p from the paired permutation test, then Holm-adjusted over all pairs (* = the models "
    "differ). Detectable: the smallest difference these items find with 80% power. "
    "pass@1 and tests pass@1: items passed by A only / by B only (attempt 1, judged "
    "quality; hidden tests), with the exact McNemar p, Holm-adjusted."
)


def pairs_section(board: Leaderboard) -> list[str]:
    """Every pair of models, when the board has two or more with a score."""
    if not board.pairs:
        return []
    headers = ["A", "B", "Items (scenarios)", "Difference", "95% CI", "p", "p Holm"]
    headers += ["Detectable", "pass@1 A/B only", "Tests pass@1 A/B only"]
    rows = [_pair_row(p) for p in board.pairs]
    return ["", "## Pairwise comparisons", "", PAIRS_NOTE, "", *table(headers, rows)]


def render(board: Leaderboard) -> str:
    lines = ["# pytest-llmbench leaderboard", ""]
    lines += [
        f"Score formula `{board.formula}`: "
        + "; ".join(f"{name} = {text}" for name, text in board.formulas.items())
        + f" (A = {board.attempts}); MaxRate = {_num(board.max_rate, 1)} tok/s.",
        f"95% CI: percentile bootstrap over items; {_pass_at(board)}: an attempt passes when "
        f"its quality (Acc + Compl)/8 reaches the pass threshold {board.pass_threshold}. "
        "Scored: items scored / items, then "
        "how many were unscored (ran, but nothing could score them), errors (could not run) "
        "or skipped.",
        "Accuracy and completeness are 1-4: judged (mean of the judges' weighted grades) or, "
        "with no judge, 1 + 3 x the weighted pass rate of the deterministic checks.",
        ranking_text(board),
    ]
    if functional_columns(board):
        lines.append(FUNCTIONAL_NOTE)
    lines += ["", *model_table(board)]
    notes = [f"- {r.model}: {'; '.join(r.notes)}" for r in board.models if r.notes]
    sources = [_sources(board, r) for r in board.models]
    lines += ["", "Notes:", *notes, *sources, *pairs_section(board), "", "## By category", ""]
    tests = functional_columns(board)
    rows = [
        [r.model, str(r.category), r.formula, r.rank or "–", *_cells(r)]
        + [cell(r) for _, cell in tests]
        for r in board.categories
    ]
    headers = ["Model", "Category", "Formula", "# in category", *COLUMNS]
    lines += table([*headers, *(n for n, _ in tests)], rows)
    lines += calibration_section(board)
    lines += ["", "## Code metrics (means over best attempts; n in parentheses)", ""]
    rows = [
        [r.model, r.category or "all", *map(_code_cell, r.code.by_name().values())]
        for r in [*board.models, *board.categories]
    ]
    lines += table(["Model", "Category", *CODE_METRICS], rows)
    return "\n".join(lines) + "\n"


def _code_cell(figure: CodeFigure) -> str:
    return "–" if figure.mean is None else f"{figure.mean:.3f} ({figure.n})"
