"""Images a scenario attaches to its prompt (PNG or JPEG), checked and encoded once at load.

A scenario lists them under `images:` as `{file: PATH, caption: TEXT}` (or just PATH).
PATH is relative to the scenario file's folder; a bare file name is looked up first in
the sibling folder `<scenario file stem>_images/`, the public layout's home for a
multimodal scenario's screenshots. Each image is read, checked (exists, PNG or JPEG by
its magic bytes, at most MAX_IMAGE_BYTES) and turned into a base64 data URL here, so
items and attempts share one string instead of reading and encoding the file again.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import FormatError
from .paths import resolve_inside, scenarios_root

# Providers accept larger images (OpenAI 20 MB, Anthropic 5 MB); 5 MB fits all of them.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
IMAGES_FOLDER_SUFFIX = "_images"
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"))


class ImageSpec(BaseModel):
    """One entry of a scenario's `images:` list, as written."""

    model_config = ConfigDict(extra="forbid")
    file: str = Field(min_length=1)
    caption: str = ""

    @model_validator(mode="before")
    @classmethod
    def _accept_plain_path(cls, value: Any) -> Any:
        return {"file": value} if isinstance(value, str) else value


@dataclass(frozen=True)
class ScenarioImage:
    """A checked image: where it came from, what it is, and its data URL."""

    name: str  # the path as written in the scenario
    caption: str
    media_type: str  # image/png or image/jpeg
    size: int  # bytes
    sha256: str  # of the file's bytes
    data_url: str = field(repr=False)

    def part(self) -> dict[str, Any]:
        """The OpenAI chat content part litellm passes on to vision models."""
        return {"type": "image_url", "image_url": {"url": self.data_url}}

    def note(self) -> str:
        """How the image is named in readable text (recorded prompts, evaluator text)."""
        caption = f": {self.caption}" if self.caption else ""
        return (
            f"[image {self.name} ({self.media_type}, {self.size} bytes, "
            f"sha256 {self.sha256[:12]}){caption}]"
        )


def media_type(data: bytes) -> str | None:
    """image/png or image/jpeg from the file's magic bytes, else None."""
    return next((kind for magic, kind in _MAGIC if data.startswith(magic)), None)


def _locate(scenario: Path, field_name: str, written: str) -> Path | None:
    """The image file, which must resolve inside scenarios/ (formats/paths.py)."""
    folder = scenario.parent
    bases = [folder]
    if "/" not in written and "\\" not in written:
        bases.insert(0, folder / f"{scenario.stem}{IMAGES_FOLDER_SUFFIX}")
    for base in bases:
        target, why = resolve_inside(scenarios_root(scenario), base, written)
        if target is None:
            raise FormatError(scenario, field_name, f"{written!r} is refused: {why}")
        if target.is_file():
            return target
    return None


def load_image(scenario: Path, index: int, spec: ImageSpec) -> ScenarioImage:
    """Read and check one image; a problem is a FormatError naming `images.<index>.file`."""
    field_name = f"images.{index}.file"
    path = _locate(scenario, field_name, spec.file)
    if path is None:
        where = scenario.parent.as_posix()
        if "/" not in spec.file:
            where += f" or {scenario.stem}{IMAGES_FOLDER_SUFFIX}/"
        raise FormatError(scenario, field_name, f"{spec.file} does not exist (looked in {where})")
    size = path.stat().st_size
    if size > MAX_IMAGE_BYTES:
        raise FormatError(
            scenario,
            field_name,
            f"{spec.file} is {size} bytes; images may have at most {MAX_IMAGE_BYTES} bytes",
        )
    data = path.read_bytes()
    kind = media_type(data)
    if kind is None:
        raise FormatError(
            scenario, field_name, f"{spec.file} is not a PNG or JPEG file (by its first bytes)"
        )
    return ScenarioImage(
        name=spec.file,
        caption=spec.caption.strip(),
        media_type=kind,
        size=size,
        sha256=hashlib.sha256(data).hexdigest(),
        data_url=f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}",
    )


def load_images(scenario: Path, specs: list[ImageSpec]) -> tuple[ScenarioImage, ...]:
    return tuple(load_image(scenario, i, spec) for i, spec in enumerate(specs))


def user_content(text: str, images: tuple[ScenarioImage, ...]) -> str | list[dict[str, Any]]:
    """A user message's content: the text alone, or a text part followed by image parts."""
    if not images:
        return text
    return [{"type": "text", "text": text}, *(image.part() for image in images)]
