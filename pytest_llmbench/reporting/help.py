"""What each figure of the report measures and on which scale: the tooltips of the
viewer's column headers (static/viewer.js), keyed by the leaderboard row's field name
(or a code metric's name); `short` is the header on narrow screens. The score's floor per formula is added by the page from
the summary's `floors` (viewdata.floor), so it is written nowhere by hand.
"""

from __future__ import annotations

COLUMNS: dict[str, dict[str, str]] = {
    "rank": {
        "label": "#",
        "help": "The ranks a model may hold: models whose scores do not differ "
        "significantly (paired permutation test over the items both scored, Holm-adjusted "
        "over all pairs) share a range such as 1-2.",
    },
    "model": {"label": "Model", "help": "The candidate model."},
    "score": {
        "label": "Score",
        "help": "Mean of the scored items' scores, 0..1, each item by its formula. The bar "
        "shows the 95% bootstrap interval over items.",
    },
    "accuracy": {
        "label": "Accuracy",
        "short": "Acc",
        "help": "Mean accuracy grade, 1 (wrong) to 4 (accurate): from judges, the graders' "
        "weighted grade; from checks alone, 1 + 3 x the weighted pass rate of the steps.",
    },
    "completeness": {
        "label": "Completeness",
        "short": "Compl",
        "help": "Mean completeness grade, 1 (nothing done) to 4 (complete), as accuracy.",
    },
    "pass_rate": {
        "label": "Pass rate",
        "short": "Pass",
        "help": "Mean weighted share of an item's criteria steps that passed (judges' "
        "majority, else the check), 0..1, best attempt.",
    },
    "pass_at_1": {
        "label": "pass@1",
        "short": "p@1",
        "help": "Chance that one attempt passes: quality (Acc + Compl)/8 of at least the "
        "pass threshold (a mean grade of 3). Unbiased estimate over the attempts run, 0..1.",
    },
    "pass_at_k": {
        "label": "pass@k",
        "short": "p@k",
        "help": "Chance that at least one of k attempts (k = attempts allowed) passes, 0..1.",
    },
    "functional_rate": {
        "label": "Functional",
        "short": "Func.",
        "help": "Mean functional rate over the items with hidden tests (their count in "
        "brackets): hidden tests passed / tests (mutation mode: mutants killed / mutants), "
        "each item's mean over its attempts, 0..1; – when no item of the row has hidden tests.",
    },
    "functional_pass_at_1": {
        "label": "Tests pass@1",
        "short": "T p@1",
        "help": "Share of the items with hidden tests whose first attempt passed every hidden "
        "test, 0..1 (execution, unlike pass@1, which is the judged quality).",
    },
    "functional_pass_after_feedback": {
        "label": "Tests after feedback",
        "short": "T fb",
        "help": "--llm-feedback: share of the items with hidden tests where some attempt "
        "passed every hidden test, each later attempt told which tests failed and why.",
    },
    "tampered": {
        "label": "Tampered",
        "short": "Tamp.",
        "help": "Items with an attempt that attacked the hidden tests' verdict: it wrote a "
        "reserved path (a test tool's or the harness's file) or set off a tripwire (a canary "
        "test, an exit status or a count that does not add up, tests that tell an equivalent "
        "mutant apart). Such a run counts 0 and passes nothing; the item shows the evidence.",
    },
    "attempt": {
        "label": "Attempt",
        "short": "Att.",
        "help": "Mean number of the best attempt (1 = the first); lower is better. The "
        "weighted formula's attempt term is (A - Attempt)/(A - 1).",
    },
    "generation_rate": {
        "label": "Tok/s",
        "short": "Tok/s",
        "help": "Mean generation rate: completion tokens per second of generation, as each "
        "attempt's basis says: the server's generation time, the span of a streamed reply "
        "from its first token to its last, else the whole call. The weighted formula's rate "
        "term is Rate/MaxRate; offline models have no rate, so their rate term is 0.",
    },
    "judge_alpha": {
        "label": "Judge α",
        "short": "Judge α",
        "help": "Krippendorff's alpha (ordinal) of the judges' grades: 1 full agreement, "
        "0 chance, below 0 systematic disagreement; – with fewer than two judges.",
    },
    "judge_exact_agreement": {
        "label": "Judges agree",
        "short": "J. agree",
        "help": "Share of judge pairs giving the same grade, over scored items and metrics.",
    },
    "check_judge_agreement": {
        "label": "Checks agree",
        "short": "C. agree",
        "help": "Share of steps with both a check and judges where the check's verdict "
        "equals the judges' majority.",
    },
    "checkers": {
        "label": "Checkers",
        "short": "Checkers",
        "help": "Where the metrics came from: judges (LLM graders) or checks (programs "
        "run on the answer), counted over scored items x metrics.",
    },
    "tokens": {
        "label": "Tokens med / p95",
        "short": "Tokens",
        "help": "Candidate tokens (prompt + completion) per item: median and 95th percentile.",
    },
    "latency_s": {
        "label": "Latency med / p95",
        "short": "Latency",
        "help": "Seconds of the best attempt's answer per item: median and 95th percentile.",
    },
    "cached_tokens": {
        "label": "Cached in",
        "short": "Cached",
        "help": "Prompt tokens the provider read from its prompt cache (priced at its cache "
        "read rate), summed over all items: the candidate's / the judges' and grader's.",
    },
    "candidate_cost_usd": {
        "label": "Cost",
        "short": "Cost",
        "help": "Candidate cost in USD over all items; – when no price is known (offline "
        "or unpriced models).",
    },
    "scored": {
        "label": "Scored",
        "help": "Scored items / all items; the rest were unscored, errors or skipped.",
    },
    "gci": {
        "label": "GCI",
        "help": "Global complexity index of the answer's code: ESLint complexity count / lines.",
    },
    "gci_change": {
        "label": "gci_change",
        "help": "GCI of the answer minus GCI of the input dataset: negative means the answer's "
        "code is simpler than the input.",
    },
    "similarity": {
        "label": "similarity",
        "help": "Similarity of the answer's code to the reference answer's, 0..1 "
        "(SequenceMatcher ratio).",
    },
    "similarity_normalised": {
        "label": "similarity_normalised",
        "help": "(s - s_base) / (1 - s_base) with s_base the similarity of doing nothing "
        "(the input itself): 1 identical to the reference, 0 no better than doing nothing, "
        "below 0 worse.",
    },
    "executability": {
        "label": "executability",
        "help": "Share of the answer's code files whose syntax check passed, 0..1.",
    },
}
