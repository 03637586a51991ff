"""Small stand-ins for clones of the public AIRUN benchmark and its results, written by
the tests (method.md section 6 formats; every text here is ours, nothing is copied)."""

from __future__ import annotations

import textwrap
from pathlib import Path

MODEL = "Model-X"
OTHER_MODEL = "Model-Y"
RUN = "run_2025_01"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def make_benchmark(root: Path) -> Path:
    """Datasets, prompts (with the odd cases) and system prompts, as the public layout has them."""
    write(root / "Dataset/JS/ToDoList/src/App.js", "export const App = () => null;\n")
    write(root / "Dataset/JS/ToDoList/src/store.js", "export function load() {\n  return [];\n}\n")
    write(root / "Dataset/JS/Todo_Legacy/index.js", "function count(a) {\n  return a.length;\n}\n")
    tasks = root / "Scenarios/Tasks/JS"
    write(tasks / "component_generation/system.txt", "You write small React components.\n")
    write(tasks / "component_generation/GenerateButton.md", "Write a button that counts clicks.\n")
    write(tasks / "code_explanation/system.txt", "You explain code.\n")
    write(
        tasks / "code_explanation/ExplainCode_Todo_Legacy_high_low.md",
        """
        Explain what this code does. Keep JSX such as style={{ color: 'red' }} and {% raw %} as text.

        <place_code_here repo="Todo_Legacy"/>

        A second tag stays as text: <place_code_here repo="ToDoList"/>
        """,
    )
    write(
        tasks / "code_explanation/ExplainCode_ToDoList_avg_low_2.md",
        "Explain the store.\n<place_code_here repo='ToDoList' />\n",
    )
    write(
        tasks / "code_explanation/ExplainCode_Missing_low_low.md",
        '<place_code_here repo="Gone"/>\n',
    )
    write(tasks / "image_to_code/ScreenToCode.md", "Build the page in the screenshot.\n")
    (tasks / "image_to_code/ScreenToCode_images").mkdir(parents=True)
    (tasks / "image_to_code/ScreenToCode_images/page.png").write_bytes(b"\x89PNG\r\n\x1a\n....")
    write(tasks / "poetry_writing/Poem.md", "Write a poem.\n")
    (tasks / "code_analysis").mkdir(parents=True)
    (tasks / "code_analysis/Latin1_ToDoList_low_low.md").write_bytes(
        b"caf\xe9 <place_code_here repo='ToDoList'/>"
    )
    return root


def make_criteria(results: Path) -> Path:
    """Criteria/ and Criteria_v1/ of a results clone, in the public layout
    (`<set>/JS/<category folder>/<prompt stem>_criteria.yaml`, metadata whose scenario_id
    is a number and whose repository is a snake_case id): plain steps (the public form),
    a weighted form (ours), a broken file, a file that fits no prompt, and an older set
    that names a renamed dataset by its old name."""
    current = results / "Criteria" / "JS"
    write(
        current / "code_explanation" / "ExplainCode_Todo_Legacy_high_low_criteria.yaml",
        """
        evaluation_steps:
          accuracy:
            - Names the count function
            - Says it returns the length
          completeness:
            - criteria: Mentions the argument
              weight: 2
        metadata:
          category: ExplainCode_Todo_Legacy_high_low
          experiment: code_explanation
          repository: todo_legacy
          scenario_id: 7
        """,
    )
    write(
        current / "component_generation" / "GenerateButton_criteria.yaml",
        """
        evaluation_steps:
          accuracy:
            - criterion: Uses a React hook for the count
              weight: 3
          completeness:
            - criterion: Shows the count
              weight: 1
        metadata: {category: GenerateButton, experiment: component_generation, scenario_id: '08'}
        """,
    )
    write(
        current / "code_explanation" / "Broken_criteria.yaml",
        "evaluation_steps:\n  accuracy:\n    - criterion: x\n      weight: -1\n",
    )
    write(
        current / "code_analysis" / "NoSuchThing_criteria.yaml",
        "evaluation_steps: {accuracy: [a], completeness: [b]}\nmetadata: {scenario_id: 3}\n",
    )
    write(
        results
        / "Criteria_v1"
        / "JS"
        / "code_analysis"
        / "Review_AngularCosmoPage_avg_high_criteria.yaml",
        "evaluation_steps: {accuracy: [Finds the bug], completeness: [Lists every file]}\n"
        "metadata: {category: Review_AngularCosmoPage_avg_high, repository: angular_cosmo_page, "
        "scenario_id: 3}\n",
    )
    return results


def answer_report(
    run: int, answer: str, *, thoughts: str | None = None, tokens: str, seconds: str
) -> str:
    parts = [
        "# The prompt\nExplain this code.\n### Answer: (asked in the prompt)\n",
        f"## Run {run}:\n",
    ]
    if thoughts is not None:
        parts.append(f"### Thoughts:\n{thoughts}\n")
    parts += [
        f"### Answer:\n{answer}\n",
        f"### Tokens: {tokens}\n",
        f"### Execution time: {seconds}\n",
    ]
    return "\n".join(parts)


def make_results(root: Path) -> Path:
    """Published answers of MODEL, and grading.csv files of two evaluators."""
    explain = "ExplainCode_Todo_Legacy_high_low"
    folder = root / "Output" / MODEL / "JS" / "code_explanation" / RUN / explain
    write(
        folder / f"{explain}_report_1.md",
        answer_report(
            1,
            "The count function returns the length of its argument a.\n### Details\nIt is pure.",
            thoughts="Read the file first.",
            tokens="{'input_tokens': 313, 'output_tokens': 500}",
            seconds="10.0",
        ),
    )
    button = root / "Output" / MODEL / "JS" / "component_generation" / RUN / "GenerateButton"
    write(
        button / "GenerateButton_report_1.md",
        answer_report(
            1,
            "```jsx\nexport const B = () => <button/>;\n```",
            tokens="{'input_tokens': 50, 'output_tokens': 100}",
            seconds="4",
        ),
    )
    return root
