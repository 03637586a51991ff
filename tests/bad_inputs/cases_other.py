"""Corpus cases: templates, category system prompts, dialog scripts and datasets."""

from __future__ import annotations

from pytest_llmbench.formats.dataset import MAX_DATASET_BYTES, MAX_FILE_BYTES
from tests.bad_inputs.builders import (
    OUT,
    PNG,
    TXT,
    Bad,
    bad_system,
    dataset,
    dialog_case,
    fifo,
    prompt,
    script_text,
)

OTHER_CASES: list[Bad] = [
    # -- templates
    Bad(
        "template-zero-division",
        prompt("{{ 1/0 }}"),
        ("{id}.yaml: prompt", "ZeroDivisionError"),
    ),
    Bad(
        "template-recursive-macro",
        prompt("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}"),
        ("{id}.yaml: prompt", "recursion too deep"),
    ),
    Bad(
        "template-huge-repeat",
        prompt("{{ 'x' * 4000000000 }}"),
        ("{id}.yaml: prompt", "builds a value of 4000000000"),
    ),
    Bad(
        "template-huge-list",
        prompt("{{ [0] * 4000000000 }}"),
        ("{id}.yaml: prompt", "builds a value"),
    ),
    Bad("template-huge-power", prompt("{{ 7 ** 100000000 }}"), ("{id}.yaml: prompt", "power")),
    Bad(
        "template-huge-center",
        prompt("{{ 'x' | center(1000000000) }}"),
        ("{id}.yaml: prompt", "builds a value"),
    ),
    Bad(
        "template-huge-method",
        prompt("{{ 'x'.ljust(1000000000) }}"),
        ("{id}.yaml: prompt", "builds a value"),
    ),
    Bad(
        "template-huge-range",
        prompt("{% for i in range(10**9) %}{% endfor %}"),
        ("{id}.yaml: prompt", "builds a value"),
    ),
    Bad(
        "template-huge-output",
        prompt("{% for i in range(90000) %}{{ 'x' * 100 }}{% endfor %}"),
        ("{id}.yaml: prompt", "builds a value"),
    ),
    Bad(
        "template-deep-nesting",
        prompt("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}"),
        ("{id}.yaml: prompt", "nested too deeply"),
    ),
    Bad(
        "template-dunder",
        prompt("{{ ''.__class__.__mro__ }}"),
        ("{id}.yaml: prompt", "unsafe"),
    ),
    Bad(
        "template-format-escape",
        prompt("{{ '{0.__class__}'.format(1) }}"),
        ("{id}.yaml: prompt", "unsafe"),
    ),
    Bad(
        "template-type-error",
        prompt("{{ 'x' | float + 'y' }}"),
        ("{id}.yaml: prompt", "TypeError"),
    ),
    Bad(
        "template-unknown-filter",
        prompt("{{ 'x' | nofilter }}"),
        ("{id}.yaml: prompt", "No filter named"),
    ),
    Bad(
        "template-missing-file",
        prompt("{{ dataset.files[999].text }}"),
        ("{id}.yaml: prompt", "template error"),
    ),
    # -- category system prompts
    Bad(
        "system-latin1",
        bad_system(b"Be caf\xe9.", None),
        ("documentation/system.md", "is not UTF-8"),
        named=False,
    ),
    Bad(
        "system-link-out",
        bad_system(None, "/etc/passwd"),
        ("testing/system.md", "outside"),
        named=False,
    ),
    # -- dialog reference scripts
    Bad(
        "script-missing",
        dialog_case({"script": "references/none.yaml"}),
        ("{id}.yaml: references.Mini.script", "does not exist"),
    ),
    Bad(
        "script-absolute",
        dialog_case({"script": "/etc/passwd"}),
        ("{id}.yaml: references.Mini.script", "absolute path"),
    ),
    Bad(
        "script-latin1",
        dialog_case({"script": "references/{id}/s.yaml"}, {"s.yaml": b"turns: [caf\xe9]"}),
        ("s.yaml", "is not UTF-8"),
    ),
    Bad(
        "script-from-climbs",
        dialog_case(
            {"script": "references/{id}/s.yaml"},
            {"s.yaml": script_text([{"tool": "write_file", "path": "a.js", "from": OUT}])},
        ),
        ("s.yaml: turns.0.0.from", "outside"),
    ),
    Bad(
        "script-from-latin1",
        dialog_case(
            {"script": "references/{id}/s.yaml"},
            {
                "s.yaml": script_text([{"tool": "write_file", "path": "a.js", "from": "b.md"}]),
                "b.md": b"caf\xe9",
            },
        ),
        ("b.md", "is not UTF-8"),
    ),
    Bad(
        "dialog-file-reference",
        dialog_case({"file": "x.md"}),
        ("{id}.yaml: references.Mini", "{script: file.yaml}"),
    ),
    # -- dataset shapes, links, encodings and sizes
    Bad("manifest-missing", dataset(manifest=None), ("{id}.yaml: datasets.0", "not found")),
    Bad(
        "manifest-latin1",
        dataset(manifest=b"technology: caf\xe9\n"),
        ("dataset.yaml", "is not UTF-8"),
    ),
    Bad(
        "manifest-bad-yaml",
        dataset(manifest="technology: [\n"),
        ("dataset.yaml: line", "not valid YAML"),
    ),
    Bad("manifest-list", dataset(manifest="- a\n"), ("dataset.yaml", "must be a YAML mapping")),
    Bad(
        "manifest-no-technology",
        dataset(manifest="description: d\n"),
        ("dataset.yaml: technology", "required"),
    ),
    Bad(
        "manifest-unknown-field",
        dataset(manifest=TXT + "owner: me\n"),
        ("dataset.yaml: owner", "unknown field"),
    ),
    Bad(
        "manifest-exclude-number",
        dataset(manifest=TXT + "exclude: 5\n"),
        ("dataset.yaml: exclude", "valid list"),
    ),
    Bad(
        "manifest-link-out",
        dataset(manifest=None, links={"dataset.yaml": "/etc/passwd"}),
        ("dataset.yaml", "outside"),
    ),
    Bad("dataset-no-files", dataset(files={}), ("D{id}", "holds no source files")),
    Bad(
        "dataset-only-excluded",
        dataset(manifest=TXT + "exclude: ['*.txt']\n"),
        ("D{id}", "holds no source files"),
    ),
    Bad(
        "dataset-only-binary",
        dataset(files={"a.bin": b"\x00\x01"}),
        ("D{id}", "holds no source files"),
    ),
    Bad(
        "link-proc-environ",
        dataset(links={"notes2.txt": "/proc/self/environ"}),
        ("notes2.txt", "outside"),
    ),
    Bad(
        "link-etc-passwd",
        dataset(links={"passwd.txt": "/etc/passwd"}),
        ("passwd.txt", "outside"),
    ),
    Bad("link-folder-out", dataset(links={"lib": "/etc"}), ("D{id}/lib", "outside")),
    Bad(
        "link-dangling",
        dataset(links={"gone.txt": "{folder}/nothing.txt"}),
        ("gone.txt", "to nothing"),
    ),
    Bad(
        "link-loop",
        dataset(links={"a.txt": "b.txt", "b.txt": "a.txt"}),
        ("D{id}/a.txt", "cannot be resolved"),
    ),
    Bad(
        "link-other-dataset",
        dataset(links={"app.js": "../Mini/src/app.js"}),
        ("app.js", "outside"),
    ),
    Bad(
        "file-too-large",
        dataset(files={"big.txt": "x" * (MAX_FILE_BYTES + 1)}),
        ("big.txt", f"at most {MAX_FILE_BYTES}"),
    ),
    Bad(
        "dataset-too-large",
        dataset(
            files={
                f"f{i}.txt": "x" * MAX_FILE_BYTES
                for i in range(MAX_DATASET_BYTES // MAX_FILE_BYTES + 1)
            }
        ),
        ("D{id}", f"over {MAX_DATASET_BYTES} bytes"),
    ),
    Bad("link-inside", dataset(links={"again.txt": "notes.txt"}), accepted=True),
    Bad(
        "link-folder-inside",
        dataset(files={"sub/a.txt": "a\n"}, links={"alias": "sub"}),
        accepted=True,
    ),
    Bad("file-latin1", dataset(files={"old.txt": b"caf\xe9\n"}), accepted=True),
    Bad("file-binary", dataset(files={"a.txt": "a\n", "logo.png": PNG}), accepted=True),
    Bad("file-fifo", dataset(extra=fifo), accepted=True),
    Bad("file-odd-names", dataset(files={"a b/ü ñ.txt": "a\n", "-rf.txt": "b\n"}), accepted=True),
    Bad(
        "file-large-excluded",
        dataset(
            files={"a.txt": "a\n", "big.txt": "x" * (MAX_FILE_BYTES + 1)},
            manifest=TXT + "exclude: [big.txt]\n",
        ),
        accepted=True,
    ),
    Bad(
        "file-large-binary",
        dataset(files={"a.txt": "a\n", "big.bin": bytes(MAX_FILE_BYTES + 1)}),
        accepted=True,
    ),
]
