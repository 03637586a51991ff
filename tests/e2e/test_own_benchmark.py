"""A user's own benchmark, outside the catalogue: one scenario per acceptance runner
(pytest, JUnit, node), scored by checks alone (no judge), whose criteria name hidden
tests (`tests:`). The hidden tests then give the criteria their verdicts, so the board
ranks by execution: the do-nothing echo model ranks below the reference."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.conftest import read_leaderboard, read_results

pytestmark = pytest.mark.timeout(600)

FILES = {
    "datasets/python/Shelf/shelf.py": """\
        def count(items):
            return len(items)


        def heaviest(weights):
            raise NotImplementedError
        """,
    "datasets/python/Shelf/dataset.yaml": "technology: Python 3\ndescription: a shelf\n",
    "scenarios/generation/functional/Heaviest/Shelf/test_shelf.py": """\
        from shelf import count, heaviest


        def test_counts_the_items():
            assert count([1, 2]) == 2


        def test_heaviest_of_three():
            assert heaviest([3, 9, 4]) == 9


        def test_heaviest_of_none_is_zero():
            assert heaviest([]) == 0
        """,
    "scenarios/generation/Heaviest.yaml": """\
        id: Heaviest
        category: generation
        datasets: [Shelf]
        prompt: |
          Write `heaviest(weights)` in shelf.py: the largest weight, 0 for none.
          {{ dataset | inline_files }}
        references:
          Shelf: |
            ### shelf.py
            ```python
            def count(items):
                return len(items)


            def heaviest(weights):
                return max(weights, default=0)
            ```
        criteria:
          accuracy:
            - criterion: heaviest gives the largest weight
              tests: ["*heaviest_of_three"]
            - criterion: heaviest of nothing is 0
              tests: ["*heaviest_of_none*"]
          completeness:
            - criterion: count still counts
              tests: ["*counts_the_items"]
        functional:
          Shelf:
            runner: pytest
            tests: functional/Heaviest/Shelf
        """,
    "datasets/java/Span/dataset.yaml": "technology: Java 17\ndescription: a span\n",
    "datasets/java/Span/src/main/java/span/Span.java": """\
        package span;

        public final class Span {
            private Span() {
            }

            public static int width(int from, int to) {
                throw new UnsupportedOperationException("not yet");
            }
        }
        """,
    "scenarios/generation/functional/SpanWidth/Span/span/SpanTest.java": """\
        package span;

        import static org.junit.jupiter.api.Assertions.assertEquals;

        import org.junit.jupiter.api.Test;

        class SpanTest {
            @Test
            void widthOfAnOrderedSpan() {
                assertEquals(4, Span.width(3, 7));
            }

            @Test
            void widthOfAReversedSpan() {
                assertEquals(4, Span.width(7, 3));
            }
        }
        """,
    "scenarios/generation/SpanWidth.yaml": """\
        id: SpanWidth
        category: generation
        datasets: [Span]
        prompt: |
          Write `Span.width(from, to)`: the distance between the two, whatever their order.
          {{ dataset | inline_files }}
        references:
          Span: |
            ### src/main/java/span/Span.java
            ```java
            package span;

            public final class Span {
                private Span() {
                }

                public static int width(int from, int to) {
                    return Math.abs(to - from);
                }
            }
            ```
        criteria:
          accuracy:
            - criterion: the width of an ordered span
              tests: ["*widthOfAnOrderedSpan"]
          completeness:
            - criterion: a reversed span has the same width
              tests: ["*widthOfAReversedSpan"]
        functional:
          Span:
            runner: junit
            tests: functional/SpanWidth/Span
        """,
}


def _write(root: Path) -> None:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_criteria_linked_to_hidden_tests_rank_by_execution(pytester: pytest.Pytester) -> None:
    _write(pytester.path)
    result = pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo", "--llm-attempts=1")
    result.assert_outcomes(passed=4)  # scored (no gate): echo's items pass too
    items = {(r["scenario"], r["model"]): r for r in read_results(pytester.path)}
    assert len(items) == 4
    for scenario in ("Heaviest", "SpanWidth"):
        reference, echo = (
            items[(scenario, "llmbench/reference")],
            items[(scenario, "llmbench/echo")],
        )
        assert reference["functional_rate"] == 1.0 and echo["functional_rate"] < 0.5
        assert (reference["accuracy"], reference["completeness"]) == (4.0, 4.0)
        assert echo["accuracy"] == 1.0  # its accuracy criteria's tests all fail
        (attempt,) = echo["attempts"]
        assert attempt["accuracy"]["source"] == "checks"
        assert all(
            s["tests_passed"] is False for s in attempt["steps"] if s["metric"] == "accuracy"
        )
    # echo keeps count() working: its completeness criterion passes on Heaviest
    assert items[("Heaviest", "llmbench/echo")]["completeness"] == 4.0
    board = read_leaderboard(pytester.path)["leaderboard"]["models"]  # best first
    assert [r["model"] for r in board] == ["llmbench/reference", "llmbench/echo"]
    assert board[1]["score"] < board[0]["score"]
