"""Code metrics of one answer: output CI/LoC/GCI and its change against the input,
similarity to the reference answer, syntax validity and executability.

Similarity (method.md section 7) is exactly
`difflib.SequenceMatcher(None, reference, answer, autojunk=False).ratio()`, with that
argument order. It compares the extracted code, the code blocks joined in order, because
the prose around the code differs between any two answers and says nothing about the
code; when the reference answer has no code block (explanations, documentation), the
whole texts are compared instead. The baseline is the do-nothing answer, read the same
way: the unchanged input code as the prompt inlines it (each file a fenced block headed by
its path, which is what llmbench/echo answers) for a scenario with a dataset, the empty
answer without one. normalised = (s - s_base) / (1 - s_base).

The ratio is computed by cydifflib, a compiled port of difflib's algorithm that gives the
same figures (a test compares them) about 15 times faster: without autojunk the pure-Python
matcher took 15 s for one 50 kB migration answer. The compiled matcher keeps the GIL for
its whole run, so the metrics run in worker processes (cpu.off_process), never in the
run's own process.
"""

from __future__ import annotations

import functools
import hashlib
import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from cydifflib import SequenceMatcher

from ..folders import keep
from ..formats.codeblocks import EXTENSION_LANGUAGES, extract_code_blocks
from ..formats.dataset import Dataset, SourceFile
from ..formats.render import inline_files
from ..formats.workspace import AnswerFile, answer_workspace
from ..schema.code import CodeMetrics
from .complexity import Complexity, measure_files, total
from .syntax import TOOL_KINDS, check_files

# A block without a path is measured as a file of its language's usual extension.
_EXTENSION_OF = {language: extension for extension, language in EXTENSION_LANGUAGES.items()}
_EXTENSION_OF.update({"javascript": "js", "typescript": "ts", "python": "py", "html": "html"})


@functools.cache
def _matcher_version() -> str:
    """cydifflib's version, which names the baselines kept on disk (another version
    computes them again); looked up once, when a baseline is first kept or read."""
    try:
        return version("cydifflib")
    except PackageNotFoundError:  # installed without its metadata
        return "unknown"


@functools.lru_cache(maxsize=512)
def similarity(reference: str, answer: str) -> float:
    """The method's ratio. Without autojunk it is quadratic in the worst case, so results
    are kept: the baseline is the same for every model and attempt."""
    if reference == answer:
        return 1.0  # 2 * matches / total with every character matching
    return float(SequenceMatcher(None, reference, answer, autojunk=False).ratio())


def code_text(text: str) -> str:
    """The code blocks of a text, joined in order."""
    return "\n".join(block.code for block in extract_code_blocks(text))


def normalised(score: float, baseline: float) -> float | None:
    return None if baseline >= 1.0 else (score - baseline) / (1.0 - baseline)


def _file_name(f: AnswerFile) -> str:
    return f.path or f"block{f.number}.{_EXTENSION_OF.get(f.language, f.language or 'txt')}"


def _reference_text(reference: str) -> tuple[str, bool]:
    """(what is compared of the reference, whether that is its code only)."""
    code = code_text(reference)
    return (code, True) if code else (reference, False)


def _do_nothing(code_only: bool, dataset: Dataset | None) -> str:
    """The do-nothing answer as it is compared: the input as the prompt shows it (what
    llmbench/echo says), its code only when the reference's is."""
    text = inline_files(dataset)
    return code_text(text) if code_only else text


def _baseline(reference_text: str, code_only: bool, dataset: Dataset | None) -> float:
    """The reference against the do-nothing answer, read the same way."""
    return similarity(reference_text, _do_nothing(code_only, dataset))


def prepare_baseline(
    reference: str | None, dataset: Dataset | None, cache_dir: Path | None = None
) -> float | None:
    """The answer-independent similarity (seconds for a large dataset), computed ahead so
    it overlaps an item's first calls and given to each attempt's `measure_answer`; None
    without a reference. With `cache_dir` it is kept there under a hash of the two texts
    compared and the matcher's version, and a later run reads it instead (a file that is
    not one is computed again)."""
    if reference is None:
        return None
    text, code_only = _reference_text(reference)
    if cache_dir is None:
        return _baseline(text, code_only, dataset)
    do_nothing = _do_nothing(code_only, dataset)
    digest = hashlib.sha256()
    for part in (text, do_nothing):
        digest.update(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest())
    target = (
        cache_dir / "similarity" / f"{digest.hexdigest()[:32]}-cydifflib{_matcher_version()}.json"
    )
    try:
        kept = json.loads(target.read_text(encoding="utf-8"))["baseline"]
        if isinstance(kept, float) and 0.0 <= kept <= 1.0:
            return kept
    except (OSError, ValueError, KeyError, TypeError):
        pass
    baseline = similarity(text, do_nothing)
    keep(cache_dir, target, json.dumps({"baseline": baseline}))
    return baseline


def _similarity_fields(
    answer: str, reference: str | None, dataset: Dataset | None, baseline: float | None
) -> dict[str, object]:
    if reference is None:
        return {"similarity_reason": "the scenario has no reference answer for this dataset"}
    ref, code_only = _reference_text(reference)
    compared = code_text(answer) if code_only else answer
    do_nothing = _do_nothing(code_only, dataset)
    if baseline is None:  # not prepared: the dataset is read here
        baseline = similarity(ref, do_nothing)
    # the do-nothing answer itself (llmbench/echo's) scores the baseline it was given
    score = baseline if compared == do_nothing else similarity(ref, compared)
    return {
        "similarity": round(score, 4),
        "similarity_baseline": round(baseline, 4),
        "similarity_normalised": None
        if (n := normalised(score, baseline)) is None
        else round(n, 4),
    }


def measure_answer(
    answer: str,
    reference: str | None,
    dataset: Dataset | None,
    input_complexity: Complexity | None,
    baseline: float | None = None,
    cache_dir: Path | None = None,
) -> CodeMetrics:
    """Every code metric of one answer; unscored figures are null with a reason.
    `baseline`: prepare_baseline's figure for this reference and dataset, if known;
    `cache_dir`: where the syntax checks' results are kept (syntax.check_files)."""
    workspace = answer_workspace(answer)
    output = total(measure_files([SourceFile(_file_name(f), f.code) for f in workspace.files]))
    has_code = output.loc > 0
    input_gci = input_complexity.gci if input_complexity else None
    checkable = [f for f in workspace.files if f.language in TOOL_KINDS]
    checks = check_files(tuple((f.label, f.language, f.code) for f in checkable), cache_dir)
    checked = [c for c in checks if c.status != "not checked"]
    if checked:
        executability: float | None = sum(c.status == "pass" for c in checked) / len(checked)
        reason = None
    else:
        executability = None
        reason = "no checkable code" if not checks else "no checker installed for its files"
    gci = output.gci if has_code else None
    return CodeMetrics(
        files=len(workspace.files),
        paths=sorted(workspace.paths),
        rejected_paths=[f"{path}: {why}" for path, why in workspace.rejected],
        ci=output.ci if has_code else None,
        loc=output.loc if has_code else None,
        gci=gci,
        input_gci=input_gci,
        gci_change=None if gci is None or input_gci is None else round(gci - input_gci, 4),
        syntax=checks,
        executability=executability,
        executability_reason=reason,
        **_similarity_fields(answer, reference, dataset, baseline),
    )
