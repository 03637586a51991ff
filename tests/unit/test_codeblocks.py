"""Extracting fenced code blocks and their file paths from chat answers."""

from __future__ import annotations

import pytest

from pytest_llmbench.formats.codeblocks import CodeBlock, extract_code_blocks, looks_like_path


def test_prose_around_a_fence_stays_out_of_the_code() -> None:
    answer = "Here is the component:\n```jsx\nconst a = 1;\nconst b = 2;\n```\nThat's all, enjoy!"
    assert extract_code_blocks(answer) == [CodeBlock("jsx", None, "const a = 1;\nconst b = 2;")]


def test_fence_glued_to_prose_on_the_same_line_keeps_the_code() -> None:
    # CommonMark reads `Here it is:```js` as text; the code after it must not be lost.
    assert extract_code_blocks("Here it is:```js\nx()\ny()\n```\nDone.") == [
        CodeBlock("js", None, "x()\ny()")
    ]
    (block,) = extract_code_blocks("**src/App.jsx**```jsx\nA\n```")
    assert (block.path, block.language, block.code) == ("src/App.jsx", "jsx", "A")


def test_glued_backticks_without_a_language_or_closed_inline_open_no_block() -> None:
    answer = "Wrap it as ```js code``` here.\nOr end a line with ```\nplain text"
    assert extract_code_blocks(answer) == []


def test_no_fences_gives_no_blocks() -> None:
    assert extract_code_blocks("Just prose, with `inline code` and ```inline``` spans.") == []


def test_nested_fences_stay_inside_a_longer_fence() -> None:
    answer = "````markdown\n# Readme\n```js\nnpm start\n```\nmore\n````\n```css\na {}\n```"
    blocks = extract_code_blocks(answer)
    assert [b.language for b in blocks] == ["markdown", "css"]
    assert blocks[0].code == "# Readme\n```js\nnpm start\n```\nmore"


def test_tilde_fence_is_not_closed_by_backticks() -> None:
    blocks = extract_code_blocks("~~~python\nx = '''\n```\n'''\n~~~")
    assert blocks == [CodeBlock("python", None, "x = '''\n```\n'''")]


def test_unterminated_last_block_runs_to_the_end() -> None:
    blocks = extract_code_blocks("Intro\n```js\nfunction f() {\n  return 1;\n\n")
    assert blocks == [CodeBlock("js", None, "function f() {\n  return 1;")]


def test_several_files_of_one_language_keep_order_and_paths() -> None:
    answer = "### src/App.jsx\n```jsx\nA\n```\n\n### src/List.jsx\n```jsx\nB\n```\n"
    assert [(b.path, b.code) for b in extract_code_blocks(answer)] == [
        ("src/App.jsx", "A"),
        ("src/List.jsx", "B"),
    ]


@pytest.mark.parametrize(
    "label",
    [
        "### src/App.jsx",
        "#### File: src/App.jsx",
        "**src/App.jsx**",
        "`src/App.jsx`",
        "**File: src/App.jsx**",
        "1. **`src/App.jsx`**:",
        "Update `src/App.jsx`:",
    ],
)
def test_path_from_the_line_before_the_fence(label: str) -> None:
    (block,) = extract_code_blocks(f"Intro.\n\n{label}\n\n```\nx\n```")
    assert block.path == "src/App.jsx"
    assert block.language == "jsx"  # inferred from the extension when the fence has none


@pytest.mark.parametrize(
    "line", ["Here is the updated component for you:", "**src/App.jsx** was rewritten as follows"]
)
def test_prose_line_before_the_fence_names_no_path(line: str) -> None:
    (block,) = extract_code_blocks(f"{line}\n```js\nx\n```")
    assert block.path is None


def test_label_may_carry_a_note_in_parentheses() -> None:
    (block,) = extract_code_blocks("**src/App.jsx** (new file)\n```\nx\n```")
    assert block.path == "src/App.jsx"


@pytest.mark.parametrize(
    ("fence", "language", "path"),
    [
        ('```tsx title="src/App.tsx"', "tsx", "src/App.tsx"),
        ("```src/App.tsx", "tsx", "src/App.tsx"),
        ("```tsx src/App.tsx", "tsx", "src/App.tsx"),
        ("```js:src/api.js", "js", "src/api.js"),
        ("```JavaScript", "javascript", None),
    ],
)
def test_path_and_language_from_the_info_string(
    fence: str, language: str, path: str | None
) -> None:
    (block,) = extract_code_blocks(f"{fence}\ncode\n```")
    assert (block.language, block.path) == (language, path)


@pytest.mark.parametrize(
    ("first_line", "path", "language"),
    [
        ("// src/App.tsx", "src/App.tsx", "tsx"),
        ("# app/main.py", "app/main.py", "python"),
        ("<!-- index.html -->", "index.html", "html"),
        ("/* styles.css */", "styles.css", "css"),
        ("// File: src/api.js", "src/api.js", "javascript"),
    ],
)
def test_path_from_a_first_line_comment(first_line: str, path: str, language: str) -> None:
    (block,) = extract_code_blocks(f"```\n{first_line}\nbody\n```")
    assert (block.path, block.language) == (path, language)
    assert block.code.startswith(first_line)  # the comment is code and stays in it


def test_ordinary_first_line_comment_is_not_a_path() -> None:
    (block,) = extract_code_blocks("```python\n# compute the total\nx = 1\n```")
    assert block.path is None


def test_info_string_path_wins_over_the_heading() -> None:
    (block,) = extract_code_blocks("### src/Old.jsx\n```jsx src/New.jsx\nx\n```")
    assert block.path == "src/New.jsx"


def test_indented_fence_in_a_list_item_is_dedented() -> None:
    answer = "1. Install:\n    ```bash\n    npm i\n      --save\n    ```\n2. Done"
    assert extract_code_blocks(answer) == [CodeBlock("bash", None, "npm i\n  --save")]


def test_paths_are_not_urls_or_numbers() -> None:
    assert looks_like_path("src/App.jsx") and looks_like_path("package.json")
    assert not looks_like_path("https://example.com/a.js")
    assert not looks_like_path("3.5")
    assert not looks_like_path("Here:")
