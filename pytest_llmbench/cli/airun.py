"""`llmbench import-airun` and `llmbench import-airun-grades`: the public AIRUN benchmark.

import-airun BENCHMARK_DIR [--criteria DIR] -o OUT converts a clone of the benchmark
(scenario prompts, system prompts, datasets, criteria) into our layout, so that
`pytest OUT --llm-model=...` runs it. import-airun-grades RESULTS_DIR -o OUT reads the
published grades (every grading.csv and evaluator report) into one report dir per
published set, OUT/<Output folder>/<lang folder> (Output/JS, Output_v1/JS, ...): the
versions of the benchmark graded different criteria, so a model published in two of
them gets a row on each board, never one row mixing both. Each dir holds results.jsonl
(with texts.jsonl), leaderboard.json/.md and report.html, written by the same code as
`llmbench merge`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from ..airun.criteria import CRITERIA_SETS
from ..airun.grades import evaluators, import_grades
from ..airun.importer import check_outside_checkout, import_benchmark
from ..airun.names import SINGLE_PROMPT
from ..airun.published import by_set
from ..errors import FormatError
from ..reporting import markdown
from ..reporting.writer import publish, write_results


def _mapping(text: str) -> tuple[str, str]:
    public, sep, ours = text.partition("=")
    if not sep or not public.strip() or ours.strip() not in SINGLE_PROMPT:
        raise argparse.ArgumentTypeError(
            f"expected PUBLIC=OURS with OURS one of {', '.join(sorted(SINGLE_PROMPT))} "
            f"(dialog scenarios need turns), got {text!r}"
        )
    return public.strip(), ours.strip()


def add_parser(subparsers: Any) -> None:
    bench = subparsers.add_parser(
        "import-airun",
        help="convert a clone of the public AIRUN benchmark into a scenario folder",
        description="Convert Scenarios/Tasks, Dataset and criteria YAML files of a clone of "
        "the public AIRUN-LLM-Benchmark into OUT/scenarios and OUT/datasets.",
    )
    bench.add_argument("benchmark", type=Path, metavar="BENCHMARK_DIR")
    bench.add_argument(
        "--criteria",
        type=Path,
        default=None,
        metavar="DIR",
        help="a results clone (its --criteria-set folder is read) or a folder of "
        "<stem>_criteria.yaml files",
    )
    bench.add_argument(
        "--criteria-set",
        choices=CRITERIA_SETS,
        default=CRITERIA_SETS[0],
        help="which criteria of a results clone: Criteria (current, default) or Criteria_v1 "
        "(older; old dataset names are read as the current ones)",
    )
    bench.add_argument(
        "--category-map",
        type=_mapping,
        action="append",
        default=[],
        metavar="PUBLIC=OURS",
        help="map a public category folder onto one of our categories; repeatable",
    )
    bench.add_argument("-o", "--output", type=Path, required=True, metavar="OUT_DIR")
    bench.set_defaults(handler=run_import)
    grades = subparsers.add_parser(
        "import-airun-grades",
        help="read the published grades of an AIRUN results clone into a report dir",
        description="Read every grading.csv and evaluator report of a clone of the public "
        "AIRUN results into one report dir per published set, OUT/<Output folder>/<lang "
        "folder> (results.jsonl, leaderboard.json/.md, report.html): a model published in "
        "two versions of the benchmark gets a row on each board.",
    )
    grades.add_argument("results", type=Path, metavar="RESULTS_DIR")
    grades.add_argument("-o", "--output", type=Path, required=True, metavar="OUT_DIR")
    grades.set_defaults(handler=run_grades)


def run_import(args: argparse.Namespace) -> int:
    summary = import_benchmark(
        args.benchmark, args.output, args.criteria, dict(args.category_map), args.criteria_set
    )
    print(f"imported {args.benchmark} into {args.output}")
    for line in summary.lines():
        print(line)
    print(f"run it with: pytest {args.output} --llm-model=...")
    return 0


def run_grades(args: argparse.Namespace) -> int:
    results: Path = args.results
    if not results.is_dir():
        raise FormatError(results, "", "is not a folder; give a clone of the AIRUN results")
    check_outside_checkout(args.output)
    items, summary = import_grades(results)
    for line in summary.lines():
        print(line)
    if not items:
        raise FormatError(results, "", "holds no readable grading.csv rows")
    print(f"evaluators: {', '.join(evaluators(items))}")
    for name, members in by_set(items).items():
        folder = args.output / name
        settings: dict[str, JsonValue] = {
            "imported_from": str(results / name),
            "attempts": 1,
            "score_formula": None,
        }
        write_results(folder, members)
        document = publish(folder, members, 1, None, settings, Path.cwd())
        print(f"\n{name}: {len(members)} items -> {folder}")
        for line in markdown.model_table(document.leaderboard):
            print(line)
    return 0
