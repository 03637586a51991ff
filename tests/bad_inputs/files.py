"""Bad scenario files, datasets, links, encodings, templates and sizes: one case each.

Every case writes its own scenario file `scenarios/<category>/<ID>.yaml` (and, when it
needs one, its own dataset `datasets/javascript/D<ID>`) into one project, so a single
`--collect-only` run checks them all (test_collection_corpus.py). A case either expects
one output line holding all of `expect` ("{id}" is the case id), or is a documented
tolerance (`accepted`: the scenario is collected; docs/formats.md says why).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pytest_llmbench.formats.dataset import MAX_DATASET_BYTES, MAX_FILE_BYTES
from pytest_llmbench.formats.images import MAX_IMAGE_BYTES

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
CANARY = "LLMBENCH_CANARY_7f3a9c"  # put in the environment of the run; must never be printed
PASSWD_LINE = "root:x:0:0"  # the first line of /etc/passwd; must never be printed


@dataclass(frozen=True)
class Bad:
    kind: str
    build: Callable[[Path, str], None]
    expect: tuple[str, ...] = ()
    accepted: bool = False  # a documented tolerance: collected without error
    named: bool = True  # the error line names the case's own file (not a shared one)


def _base(sid: str, category: str = "explanation") -> dict[str, Any]:
    return {
        "id": sid,
        "category": category,
        "datasets": ["Mini"],
        "prompt": "Explain.\n{{ dataset | inline_files }}\n",
        "criteria": {"accuracy": ["Names add"], "completeness": ["Says it sums"]},
    }


def write(root: Path, rel: str, data: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def link(root: Path, rel: str, target: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)


def scenario(category: str = "explanation", **fields: Any) -> Callable[[Path, str], None]:
    """A case whose scenario file is the base one with `fields` changed (None removes one)."""

    def build(root: Path, sid: str) -> None:
        data = _base(sid, category)
        for key, value in fields.items():
            value = _named(value, sid)
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        write(root, f"scenarios/{category}/{sid}.yaml", yaml.safe_dump(data, sort_keys=False))

    return build


def _named(value: Any, sid: str) -> Any:
    """`value` with "{id}" replaced by the case id in every string inside it."""
    if isinstance(value, str):
        return value.replace("{id}", sid)
    if isinstance(value, list):
        return [_named(v, sid) for v in value]
    if isinstance(value, dict):
        return {_named(k, sid): _named(v, sid) for k, v in value.items()}
    return value


def raw(data: str | bytes, category: str = "explanation") -> Callable[[Path, str], None]:
    def build(root: Path, sid: str) -> None:
        write(root, f"scenarios/{category}/{sid}.yaml", data)

    return build


def with_files(files: Callable[[Path, str], None], **fields: Any) -> Callable[[Path, str], None]:
    """A scenario (base with `fields`) plus other files the case writes first."""

    def build(root: Path, sid: str) -> None:
        files(root, sid)
        scenario(**fields)(root, sid)

    return build


def dataset(
    files: dict[str, str | bytes] | None = None,
    manifest: str | bytes | None = "technology: text\ndescription: a case\n",
    links: dict[str, str] | None = None,
    extra: Callable[[Path], None] | None = None,
) -> Callable[[Path, str], None]:
    """A case whose scenario runs on its own dataset `D<id>`, shaped as given."""

    def build(root: Path, sid: str) -> None:
        folder = root / "datasets" / "javascript" / f"D{sid}"
        folder.mkdir(parents=True)
        if manifest is not None:
            write(folder, "dataset.yaml", manifest)
        for rel, data in (files if files is not None else {"notes.txt": "hello\n"}).items():
            write(folder, rel, data)
        for rel, target in (links or {}).items():
            link(folder, rel, target.replace("{folder}", str(folder)))
        if extra is not None:
            extra(folder)
        scenario(datasets=[f"D{sid}"])(root, sid)

    return build


def _step(**check: Any) -> dict[str, Any]:
    return {"accuracy": [{"criterion": "x", **check}], "completeness": ["y"]}


def _with_check(**check: Any) -> Callable[[Path, str], None]:
    return scenario(criteria=_step(check=check))


def _ref(rel: str, data: str | bytes) -> Callable[[Path, str], None]:
    return lambda root, sid: write(root, f"scenarios/explanation/{_named(rel, sid)}", data)


def _big_png(root: Path, sid: str) -> None:
    write(root, f"scenarios/explanation/img/{sid}.png", PNG + bytes(MAX_IMAGE_BYTES))


def _fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe.txt")


def _dialog(reference: dict[str, Any], script: dict[str, str | bytes] | None = None) -> Any:
    """A dialog scenario whose reference is `reference`, with script files written first."""

    def build(root: Path, sid: str) -> None:
        for rel, data in (script or {}).items():
            write(root, f"scenarios/dialog/references/{sid}/{rel}", data)
        data = {
            "id": sid,
            "category": "dialog",
            "datasets": ["Mini"],
            "references": {"Mini": _named(reference, sid)},
            "turns": [
                {
                    "prompt": "Add greet.",
                    "criteria": {"accuracy": ["a"], "completeness": ["b"]},
                }
            ],
        }
        write(root, f"scenarios/dialog/{sid}.yaml", yaml.safe_dump(data))

    return build


def _script(calls: list[dict[str, Any]]) -> str:
    return yaml.safe_dump({"turns": [[*calls, {"tool": "finish_step"}]]})


_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)
_OUT = "../../../../../../../../../../etc/passwd"

_LATIN1 = "id: {id}\ndescription: caf\xe9\n".encode("latin-1")
_TXT = "technology: text\ndescription: a case\n"


def _outside_png(root: Path, sid: str) -> None:
    write(root.parent, f"outside-{sid}.png", PNG)
    link(root, f"scenarios/explanation/img/{sid}.png", str(root.parent / f"outside-{sid}.png"))


def _absolute_png(root: Path, sid: str) -> None:
    png = write(root.parent, f"abs-{sid}.png", PNG)
    scenario(images=[str(png)])(root, sid)


def _outside_dataset(root: Path, sid: str) -> None:
    outside = root.parent / f"outside-{sid}"
    write(outside, "dataset.yaml", _TXT)
    write(outside, "secret.txt", "a file outside the project\n")
    link(root, f"datasets/javascript/D{sid}", str(outside))


def _twins(root: Path, sid: str) -> None:
    for language in ("javascript", "python"):
        write(root, f"datasets/{language}/T{sid}/dataset.yaml", _TXT)
        write(root, f"datasets/{language}/T{sid}/a.txt", "a\n")


def _bad_system(data: bytes | None, target: str | None) -> Callable[[Path, str], None]:
    category = "documentation" if data is not None else "testing"

    def build(root: Path, sid: str) -> None:
        if data is not None:
            write(root, f"scenarios/{category}/system.md", data)
        if target is not None:
            link(root, f"scenarios/{category}/system.md", target)
        scenario(category=category)(root, sid)

    return build


def _prompt(text: str) -> Callable[[Path, str], None]:
    return scenario(prompt=text)


CASES: dict[str, Bad] = {
    bad.kind: bad
    for bad in [
        # -- the scenario file itself: encodings and YAML shapes
        Bad("scenario-latin1", raw(_LATIN1), ("{id}.yaml", "is not UTF-8")),
        Bad("scenario-utf16", raw("id: x\n".encode("utf-16")), ("{id}.yaml", "is not UTF-8")),
        Bad("scenario-nul-byte", raw("id: a\x00b\n"), ("{id}.yaml", "not valid YAML")),
        Bad("scenario-tab-indent", raw("id: x\n\tprompt: y\n"), ("{id}.yaml: line 2", "tab")),
        Bad("scenario-list", raw("- id: x\n"), ("{id}.yaml", "must be a YAML mapping")),
        Bad("scenario-scalar", raw("just words\n"), ("{id}.yaml", "must be a YAML mapping")),
        Bad("scenario-empty", raw(""), ("{id}.yaml", "must be a YAML mapping")),
        Bad("scenario-deep-nesting", raw("id: " + "[" * 5000), ("{id}.yaml", "not valid YAML")),
        Bad(
            "scenario-billion-laughs",
            raw(_LAUGHS + "id: {id}\ndescription: *i\n"),
            ("{id}.yaml: a", "unknown field"),
        ),
        Bad("scenario-bom", raw("\ufeff" + yaml.safe_dump(_base("BOM"))), accepted=True),
        Bad(
            "scenario-crlf", raw(yaml.safe_dump(_base("CRLF")).replace("\n", "\r\n")), accepted=True
        ),
        # -- fields
        Bad("id-number", scenario(id=42), ("{id}.yaml: id", "valid string")),
        Bad("id-spaces", scenario(id="bad id"), ("{id}.yaml: id", "should match pattern")),
        Bad("id-missing", scenario(id=None), ("{id}.yaml: id", "required field is missing")),
        Bad("prompt-empty", scenario(prompt=""), ("{id}.yaml: prompt", "at least 1 character")),
        Bad("prompt-list", scenario(prompt=["a"]), ("{id}.yaml: prompt", "valid string")),
        Bad("datasets-string", scenario(datasets="Mini"), ("{id}.yaml: datasets", "valid list")),
        Bad("description-list", scenario(description=["a"]), ("{id}.yaml: description", "string")),
        Bad("title-mapping", scenario(title={"a": 1}), ("{id}.yaml: title", "valid string")),
        Bad("criteria-list", scenario(criteria=["a"]), ("{id}.yaml: criteria", "valid dictionary")),
        Bad(
            "criteria-no-accuracy",
            scenario(criteria={"accuracy": [], "completeness": ["y"]}),
            ("{id}.yaml: criteria.accuracy", "no accuracy steps"),
        ),
        Bad(
            "weight-word",
            scenario(criteria=_step(weight="heavy")),
            ("{id}.yaml: criteria.accuracy.0.weight", "valid number"),
        ),
        Bad(
            "weight-nan",
            scenario(criteria=_step(weight=float("nan"))),
            ("{id}.yaml: criteria.accuracy.0.weight", "greater than 0"),
        ),
        Bad(
            "criterion-empty",
            scenario(criteria={"accuracy": [{"criterion": ""}], "completeness": ["y"]}),
            ("{id}.yaml: criteria.accuracy.0.criterion", "at least 1 character"),
        ),
        Bad(
            "criterion-and-criteria",
            scenario(
                criteria={"accuracy": [{"criterion": "a", "criteria": "b"}], "completeness": ["y"]}
            ),
            ("{id}.yaml: criteria.accuracy.0", "not both"),
        ),
        Bad("check-no-kind", _with_check(ignore_case=True), ("{id}.yaml", "exactly one of")),
        Bad("check-regex-broken", _with_check(regex="("), ("{id}.yaml", "regex does not compile")),
        Bad("check-parses-cobol", _with_check(parses="cobol"), ("{id}.yaml", "parses takes true")),
        Bad("check-parses-false", _with_check(parses=False), ("{id}.yaml", "not false")),
        Bad(
            "check-path-single-shot",
            _with_check(contains="a", path="a.js"),
            ("{id}.yaml: criteria.accuracy.0.check.path", "dialog turns only"),
        ),
        Bad(
            "check-unknown-field",
            _with_check(contains="a", bogus=1),
            ("check.bogus", "unknown field"),
        ),
        Bad("check-contains-number", _with_check(contains=5), ("{id}.yaml: criteria", "string")),
        Bad(
            "judge-images-alone",
            scenario(judge_images=True),
            ("{id}.yaml: judge_images", "no images"),
        ),
        Bad(
            "limits-in-single-shot",
            scenario(limits={"max_rounds": 0}),
            ("{id}.yaml: limits", "greater"),
        ),
        # -- datasets named by a scenario
        Bad(
            "dataset-climbs",
            scenario(datasets=["python/../../outside/Evil"]),
            ("{id}.yaml: datasets.0", "not a dataset name"),
        ),
        Bad(
            "dataset-absolute",
            scenario(datasets=["/etc"]),
            ("{id}.yaml: datasets.0", "not a dataset name"),
        ),
        Bad(
            "dataset-three-parts",
            scenario(datasets=["a/b/c"]),
            ("{id}.yaml: datasets.0", "not a dataset name"),
        ),
        Bad(
            "dataset-empty-name",
            scenario(datasets=[""]),
            ("{id}.yaml: datasets.0", "not a dataset name"),
        ),
        Bad(
            "dataset-dot",
            scenario(datasets=["javascript/."]),
            ("{id}.yaml: datasets.0", "not a dataset name"),
        ),
        Bad(
            "dataset-ambiguous",
            with_files(_twins, datasets=["T{id}"]),
            ("{id}.yaml: datasets.0", "ambiguous"),
        ),
        Bad(
            "dataset-folder-links-out",
            with_files(_outside_dataset, datasets=["D{id}"]),
            ("{id}.yaml: datasets.0", "outside"),
        ),
        # -- reference files
        Bad(
            "reference-absolute",
            scenario(references={"Mini": {"file": "/etc/passwd"}}),
            ("{id}.yaml: references.Mini.file", "absolute path"),
        ),
        Bad(
            "reference-home",
            scenario(references={"Mini": {"file": "~/.ssh/id_rsa"}}),
            ("{id}.yaml: references.Mini.file", "absolute path"),
        ),
        Bad(
            "reference-climbs",
            scenario(references={"Mini": {"file": _OUT}}),
            ("{id}.yaml: references.Mini.file", "outside"),
        ),
        Bad(
            "reference-missing",
            scenario(references={"Mini": {"file": "references/none.md"}}),
            ("{id}.yaml: references.Mini.file", "does not exist"),
        ),
        Bad(
            "reference-link-out",
            with_files(
                lambda r, s: link(r, f"scenarios/explanation/references/{s}.md", "/etc/passwd"),
                references={"Mini": {"file": "references/{id}.md"}},
            ),
            ("{id}.yaml: references.Mini.file", "outside"),
        ),
        Bad(
            "reference-latin1",
            with_files(
                _ref("references/{id}.md", b"caf\xe9"),
                references={"Mini": {"file": "references/{id}.md"}},
            ),
            ("{id}.md", "is not UTF-8"),
        ),
        Bad(
            "reference-folder",
            with_files(
                _ref("references/{id}/x.md", "x"), references={"Mini": {"file": "references/{id}"}}
            ),
            ("{id}.yaml: references.Mini.file", "is a folder"),
        ),
        Bad(
            "reference-list",
            scenario(references={"Mini": [1]}),
            ("{id}.yaml: references.Mini", "valid"),
        ),
        Bad(
            "reference-unknown-key",
            scenario(references={"Other": "x"}),
            ("{id}.yaml: references.Other", "is not one of"),
        ),
        Bad(
            "reference-script-single-shot",
            scenario(references={"Mini": {"script": "x.yaml"}}),
            ("{id}.yaml: references.Mini", "dialog scenarios only"),
        ),
        Bad(
            "reference-inside-via-dots",
            with_files(
                _ref("references/{id}.md", "ok"),
                references={"Mini": {"file": "../explanation/references/{id}.md"}},
            ),
            accepted=True,
        ),
        Bad(
            "reference-link-inside",
            with_files(
                lambda r, s: (
                    _ref(f"references/{s}-real.md", "ok")(r, s),
                    link(r, f"scenarios/explanation/references/{s}.md", f"{s}-real.md"),
                ),
                references={"Mini": {"file": "references/{id}.md"}},
            ),
            accepted=True,
        ),
        # -- per-dataset criteria files
        Bad(
            "criteria-file-absolute",
            scenario(dataset_criteria={"Mini": {"file": "/etc/hostname"}}),
            ("dataset_criteria.Mini.file", "absolute path"),
        ),
        Bad(
            "criteria-file-climbs",
            scenario(dataset_criteria={"Mini": {"file": _OUT}}),
            ("dataset_criteria.Mini.file", "outside"),
        ),
        Bad(
            "criteria-file-missing",
            scenario(dataset_criteria={"Mini": {"file": "criteria/none.yaml"}}),
            ("dataset_criteria.Mini.file", "does not exist"),
        ),
        Bad(
            "criteria-file-bad-yaml",
            with_files(
                _ref("criteria/{id}.yaml", "accuracy: [\n"),
                dataset_criteria={"Mini": {"file": "criteria/{id}.yaml"}},
            ),
            ("{id}.yaml: line", "not valid YAML"),
        ),
        Bad(
            "criteria-file-latin1",
            with_files(
                _ref("criteria/{id}.yaml", b"accuracy: [caf\xe9]"),
                dataset_criteria={"Mini": {"file": "criteria/{id}.yaml"}},
            ),
            ("{id}.yaml", "is not UTF-8"),
        ),
        Bad(
            "criteria-file-unknown-key",
            scenario(dataset_criteria={"Nope": {"accuracy": ["a"]}}),
            ("dataset_criteria.Nope", "is not one of"),
        ),
        # -- images
        Bad("image-absolute", _absolute_png, ("{id}.yaml: images.0.file", "absolute path")),
        Bad(
            "image-climbs",
            scenario(images=["../../../../../../../../tmp/x.png"]),
            ("{id}.yaml: images.0.file", "outside"),
        ),
        Bad(
            "image-link-out",
            with_files(_outside_png, images=["img/{id}.png"]),
            ("{id}.yaml: images.0.file", "outside"),
        ),
        Bad(
            "image-missing",
            scenario(images=["img/none.png"]),
            ("{id}.yaml: images.0.file", "does not exist"),
        ),
        Bad(
            "image-not-png",
            with_files(_ref("img/{id}.png", "text"), images=["img/{id}.png"]),
            ("images.0.file", "not a PNG or JPEG"),
        ),
        Bad(
            "image-too-large",
            with_files(_big_png, images=["img/{id}.png"]),
            ("images.0.file", "at most"),
        ),
        Bad(
            "image-inside-via-dots",
            with_files(_ref("img/{id}.png", PNG), images=["../explanation/img/{id}.png"]),
            accepted=True,
        ),
        # -- templates
        Bad(
            "template-zero-division",
            _prompt("{{ 1/0 }}"),
            ("{id}.yaml: prompt", "ZeroDivisionError"),
        ),
        Bad(
            "template-recursive-macro",
            _prompt("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}"),
            ("{id}.yaml: prompt", "recursion too deep"),
        ),
        Bad(
            "template-huge-repeat",
            _prompt("{{ 'x' * 4000000000 }}"),
            ("{id}.yaml: prompt", "builds a value of 4000000000"),
        ),
        Bad(
            "template-huge-list",
            _prompt("{{ [0] * 4000000000 }}"),
            ("{id}.yaml: prompt", "builds a value"),
        ),
        Bad("template-huge-power", _prompt("{{ 7 ** 100000000 }}"), ("{id}.yaml: prompt", "power")),
        Bad(
            "template-huge-center",
            _prompt("{{ 'x' | center(1000000000) }}"),
            ("{id}.yaml: prompt", "builds a value"),
        ),
        Bad(
            "template-huge-method",
            _prompt("{{ 'x'.ljust(1000000000) }}"),
            ("{id}.yaml: prompt", "builds a value"),
        ),
        Bad(
            "template-huge-range",
            _prompt("{% for i in range(10**9) %}{% endfor %}"),
            ("{id}.yaml: prompt", "builds a value"),
        ),
        Bad(
            "template-huge-output",
            _prompt("{% for i in range(90000) %}{{ 'x' * 100 }}{% endfor %}"),
            ("{id}.yaml: prompt", "builds a value"),
        ),
        Bad(
            "template-deep-nesting",
            _prompt("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}"),
            ("{id}.yaml: prompt", "nested too deeply"),
        ),
        Bad(
            "template-dunder",
            _prompt("{{ ''.__class__.__mro__ }}"),
            ("{id}.yaml: prompt", "unsafe"),
        ),
        Bad(
            "template-format-escape",
            _prompt("{{ '{0.__class__}'.format(1) }}"),
            ("{id}.yaml: prompt", "unsafe"),
        ),
        Bad(
            "template-type-error",
            _prompt("{{ 'x' | float + 'y' }}"),
            ("{id}.yaml: prompt", "TypeError"),
        ),
        Bad(
            "template-unknown-filter",
            _prompt("{{ 'x' | nofilter }}"),
            ("{id}.yaml: prompt", "No filter named"),
        ),
        Bad(
            "template-missing-file",
            _prompt("{{ dataset.files[999].text }}"),
            ("{id}.yaml: prompt", "template error"),
        ),
        # -- category system prompts
        Bad(
            "system-latin1",
            _bad_system(b"Be caf\xe9.", None),
            ("documentation/system.md", "is not UTF-8"),
            named=False,
        ),
        Bad(
            "system-link-out",
            _bad_system(None, "/etc/passwd"),
            ("testing/system.md", "outside"),
            named=False,
        ),
        # -- dialog reference scripts
        Bad(
            "script-missing",
            _dialog({"script": "references/none.yaml"}),
            ("{id}.yaml: references.Mini.script", "does not exist"),
        ),
        Bad(
            "script-absolute",
            _dialog({"script": "/etc/passwd"}),
            ("{id}.yaml: references.Mini.script", "absolute path"),
        ),
        Bad(
            "script-latin1",
            _dialog({"script": "references/{id}/s.yaml"}, {"s.yaml": b"turns: [caf\xe9]"}),
            ("s.yaml", "is not UTF-8"),
        ),
        Bad(
            "script-from-climbs",
            _dialog(
                {"script": "references/{id}/s.yaml"},
                {"s.yaml": _script([{"tool": "write_file", "path": "a.js", "from": _OUT}])},
            ),
            ("s.yaml: turns.0.0.from", "outside"),
        ),
        Bad(
            "script-from-latin1",
            _dialog(
                {"script": "references/{id}/s.yaml"},
                {
                    "s.yaml": _script([{"tool": "write_file", "path": "a.js", "from": "b.md"}]),
                    "b.md": b"caf\xe9",
                },
            ),
            ("b.md", "is not UTF-8"),
        ),
        Bad(
            "dialog-file-reference",
            _dialog({"file": "x.md"}),
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
            dataset(manifest=_TXT + "owner: me\n"),
            ("dataset.yaml: owner", "unknown field"),
        ),
        Bad(
            "manifest-exclude-number",
            dataset(manifest=_TXT + "exclude: 5\n"),
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
            dataset(manifest=_TXT + "exclude: ['*.txt']\n"),
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
        Bad("file-fifo", dataset(extra=_fifo), accepted=True),
        Bad(
            "file-odd-names", dataset(files={"a b/ü ñ.txt": "a\n", "-rf.txt": "b\n"}), accepted=True
        ),
        Bad(
            "file-large-excluded",
            dataset(
                files={"a.txt": "a\n", "big.txt": "x" * (MAX_FILE_BYTES + 1)},
                manifest=_TXT + "exclude: [big.txt]\n",
            ),
            accepted=True,
        ),
        Bad(
            "file-large-binary",
            dataset(files={"a.txt": "a\n", "big.bin": bytes(MAX_FILE_BYTES + 1)}),
            accepted=True,
        ),
    ]
}
