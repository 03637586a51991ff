"""A scenario with hidden tests on the Mini dataset of tests/conftest.py (and the dialog of
tests/dialog_project.py with the same tests), for the functional step of the pipeline."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import write_project
from tests.dialog_project import GREET_DIALOG, GREET_SCRIPT

# The entry the hidden test bundles: the answer's greet, written into the page.
ENTRY = "import { greet } from './src/app.js'; document.body.textContent = greet('Ada');"
TEST_NAME = "greets Ada by name"
TEST_MESSAGE = "greet must end with an exclamation mark"
HIDDEN_TEST = f"""\
import {{ test }} from 'node:test';
import assert from 'node:assert/strict';
import {{ openApp }} from './harness.mjs';

test('{TEST_NAME}', async () => {{
  const app = await openApp({{ source: "{ENTRY}" }});
  assert.equal(app.document.body.textContent, 'Hello, Ada!', '{TEST_MESSAGE}');
}});
"""

GREET_TESTED = """\
id: GreetTested
category: generation
datasets: [Mini]
prompt: |
  Add a function `greet(name)` to src/app.js that returns "Hello, <name>!".
  Return the whole file as a fenced block headed by its path.

  {{ dataset | inline_files }}
references:
  Mini: |
    ### src/app.js
    ```javascript
    export function add(a, b) {
      return a + b;
    }

    export function greet(name) {
      return `Hello, ${name}!`;
    }
    ```
criteria:
  accuracy:
    - criterion: greet greets by name
      check: {contains: "function greet"}
      tests: ["greets *"]
  completeness:
    - criterion: Keeps add
      check: {contains: "function add"}
functional:
  Mini:
    runner: node
    tests: functional/GreetTested/Mini
"""


def answer(greeting: str) -> str:
    """A single-shot answer whose greet returns `greeting` (a JS template literal body)."""
    return (
        "### src/app.js\n```javascript\nexport function add(a, b) {\n  return a + b;\n}\n\n"
        f"export function greet(name) {{\n  return `{greeting}`;\n}}\n```\n"
    )


def _dialog() -> str:
    """GREET_DIALOG with the same hidden tests, turn 1's first criterion a functional one."""
    text = GREET_DIALOG.replace(
        "          check: {path: src/app.js, parses: true}\n",
        "          check: {path: src/app.js, parses: true}\n          tests: ['greets *']\n",
        1,
    )
    return text + "functional:\n  Mini:\n    tests: functional/GreetInSteps/Mini\n"


def write_functional_project(root: Path, *, dialog: bool = False) -> Path:
    scenarios = {
        "generation/GreetTested.yaml": GREET_TESTED,
        "generation/functional/GreetTested/Mini/greet.test.mjs": HIDDEN_TEST,
    }
    if dialog:
        scenarios["dialog/GreetInSteps.yaml"] = _dialog()
        scenarios["dialog/functional/GreetInSteps/Mini/greet.test.mjs"] = HIDDEN_TEST
        scenarios["dialog/references/GreetInSteps/Mini.yaml"] = GREET_SCRIPT
    return write_project(root, scenarios)
