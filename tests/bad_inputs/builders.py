"""Builders of the bad-file corpus (files.py): scenario files, datasets, links, images.

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

from pytest_llmbench.formats.images import MAX_IMAGE_BYTES

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
CANARY = "LLMBENCH_CANARY_7f3a9c"  # put in the environment of the run; must never be printed
PASSWD_LINE = "root:x:0:0"  # the first line of /etc/passwd; must never be printed


Build = Callable[[Path, str], object]  # writes a case's files, given the project and case id


@dataclass(frozen=True)
class Bad:
    kind: str
    build: Build
    expect: tuple[str, ...] = ()
    accepted: bool = False  # a documented tolerance: collected without error
    named: bool = True  # the error line names the case's own file (not a shared one)


def base(sid: str, category: str = "explanation") -> dict[str, Any]:
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


def scenario(category: str = "explanation", **fields: Any) -> Build:
    """A case whose scenario file is the base one with `fields` changed (None removes one)."""

    def build(root: Path, sid: str) -> None:
        data = base(sid, category)
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


def raw(data: str | bytes, category: str = "explanation") -> Build:
    def build(root: Path, sid: str) -> None:
        write(root, f"scenarios/{category}/{sid}.yaml", data)

    return build


def with_files(files: Build, **fields: Any) -> Build:
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
) -> Build:
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


def step(**check: Any) -> dict[str, Any]:
    return {"accuracy": [{"criterion": "x", **check}], "completeness": ["y"]}


def with_check(**check: Any) -> Build:
    return scenario(criteria=step(check=check))


def ref_file(rel: str, data: str | bytes) -> Build:
    return lambda root, sid: write(root, f"scenarios/explanation/{_named(rel, sid)}", data)


def big_png(root: Path, sid: str) -> None:
    write(root, f"scenarios/explanation/img/{sid}.png", PNG + bytes(MAX_IMAGE_BYTES))


def fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe.txt")


def dialog_case(reference: dict[str, Any], script: dict[str, str | bytes] | None = None) -> Any:
    """A dialog scenario whose reference is `reference`, with script files written first."""

    def build(root: Path, sid: str) -> None:
        for rel, data in (script or {}).items():
            write(root, f"scenarios/dialog/references/{sid}/{rel}", data)
        spec = {
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
        write(root, f"scenarios/dialog/{sid}.yaml", yaml.safe_dump(spec))

    return build


def script_text(calls: list[dict[str, Any]]) -> str:
    return yaml.safe_dump({"turns": [[*calls, {"tool": "finish_step"}]]})


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)
OUT = "../../../../../../../../../../etc/passwd"

LATIN1 = "id: {id}\ndescription: caf\xe9\n".encode("latin-1")
TXT = "technology: text\ndescription: a case\n"


def outside_png(root: Path, sid: str) -> None:
    write(root.parent, f"outside-{sid}.png", PNG)
    link(root, f"scenarios/explanation/img/{sid}.png", str(root.parent / f"outside-{sid}.png"))


def inside_link(root: Path, sid: str) -> None:
    write(root, f"scenarios/explanation/references/{sid}-real.md", "ok")
    link(root, f"scenarios/explanation/references/{sid}.md", f"{sid}-real.md")


def absolute_png(root: Path, sid: str) -> None:
    png = write(root.parent, f"abs-{sid}.png", PNG)
    scenario(images=[str(png)])(root, sid)


def outside_dataset(root: Path, sid: str) -> None:
    outside = root.parent / f"outside-{sid}"
    write(outside, "dataset.yaml", TXT)
    write(outside, "secret.txt", "a file outside the project\n")
    link(root, f"datasets/javascript/D{sid}", str(outside))


def twins(root: Path, sid: str) -> None:
    for language in ("javascript", "python"):
        write(root, f"datasets/{language}/T{sid}/dataset.yaml", TXT)
        write(root, f"datasets/{language}/T{sid}/a.txt", "a\n")


def bad_system(data: bytes | None, target: str | None) -> Build:
    category = "documentation" if data is not None else "testing"

    def build(root: Path, sid: str) -> None:
        if data is not None:
            write(root, f"scenarios/{category}/system.md", data)
        if target is not None:
            link(root, f"scenarios/{category}/system.md", target)
        scenario(category=category)(root, sid)

    return build


def prompt(text: str) -> Build:
    return scenario(prompt=text)
