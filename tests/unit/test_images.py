"""Images of a scenario: loading and checking, message parts, evaluator request, cache key."""

from __future__ import annotations

import base64
import hashlib
import struct
import zlib
from pathlib import Path

import pytest

from pytest_llmbench.errors import FormatError
from pytest_llmbench.execution.cache import request_key
from pytest_llmbench.formats import images
from pytest_llmbench.formats.dataset import DatasetIndex
from pytest_llmbench.formats.scenario import Scenario, load_scenario
from pytest_llmbench.judging.prompts import evaluator_messages
from pytest_llmbench.models.base import ModelRequest
from pytest_llmbench.tasks.case import Case
from tests.conftest import MINI_SCENARIO, write_project
from tests.llm_server import image_digests, text_of


def tiny_png(rgb: tuple[int, int, int] = (200, 30, 30), size: int = 2) -> bytes:
    """A real PNG of `size` x `size` pixels of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\0" + bytes(rgb) * size for _ in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(32) + b"\xff\xd9"
SCENARIO = "scenarios/generation/AddGreeting.yaml"


def _project(root: Path, images_yaml: str, files: dict[str, bytes]) -> Path:
    text = MINI_SCENARIO.replace("datasets: [Mini]\n", f"datasets: [Mini]\n{images_yaml}")
    write_project(root, {"generation/AddGreeting.yaml": text})
    for rel, data in files.items():
        target = root / "scenarios/generation" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root / SCENARIO


def _load(path: Path) -> Scenario:
    return load_scenario(path, DatasetIndex(path.parent.parent.parent / "datasets"))


def test_images_are_found_checked_and_encoded_once(tmp_path: Path) -> None:
    png = tiny_png()
    path = _project(
        tmp_path,
        "images:\n  - {file: shot.png, caption: the target}\n  - extra/photo.jpg\n"
        "judge_images: true\n",
        # A bare name is looked up in the sibling <stem>_images/ folder first.
        {"AddGreeting_images/shot.png": png, "shot.png": b"not this one", "extra/photo.jpg": JPEG},
    )
    scenario = _load(path)
    first, second = scenario.images
    assert (first.name, first.caption, first.media_type, first.size) == (
        "shot.png",
        "the target",
        "image/png",
        len(png),
    )
    assert first.sha256 == hashlib.sha256(png).hexdigest()
    assert first.data_url == "data:image/png;base64," + base64.b64encode(png).decode()
    assert (second.name, second.media_type) == ("extra/photo.jpg", "image/jpeg")
    assert scenario.judge_images is True


def test_a_bare_name_falls_back_to_the_scenario_folder(tmp_path: Path) -> None:
    png = tiny_png((1, 2, 3))
    (image,) = _load(_project(tmp_path, "images: [shot.png]\n", {"shot.png": png})).images
    assert image.sha256 == hashlib.sha256(png).hexdigest()


@pytest.mark.parametrize(
    ("images_yaml", "files", "message"),
    [
        (
            "images: [missing.png]\n",
            {},
            r"AddGreeting.yaml: images.0.file: missing.png does not exist \(looked in .*"
            r"generation or AddGreeting_images/\)",
        ),
        (
            "images: [ok.png, fake.png]\n",
            {"ok.png": tiny_png(), "fake.png": b"GIF89a" + bytes(20)},
            r"images.1.file: fake.png is not a PNG or JPEG file \(by its first bytes\)",
        ),
        (
            "images: [big.png]\n",
            {"big.png": b"\x89PNG\r\n\x1a\n" + bytes(images.MAX_IMAGE_BYTES)},
            r"images.0.file: big.png is \d+ bytes; images may have at most 5242880 bytes",
        ),
        (
            "images: [{file: ok.png, alt: x}]\n",
            {"ok.png": tiny_png()},
            r"images.0.alt: unknown field",
        ),
        (
            "judge_images: true\n",
            {},
            r"judge_images: is true but the scenario lists no images:",
        ),
    ],
    ids=["missing", "not-an-image", "too-large", "unknown-field", "judge-without-images"],
)
def test_image_mistakes_are_one_line_naming_file_and_field(
    tmp_path: Path, images_yaml: str, files: dict[str, bytes], message: str
) -> None:
    path = _project(tmp_path, images_yaml, files)
    with pytest.raises(FormatError, match=message) as info:
        _load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_the_user_message_carries_text_then_image_parts(tmp_path: Path) -> None:
    png = tiny_png()
    scenario = _load(_project(tmp_path, "images: [shot.png]\n", {"shot.png": png}))
    case = Case(scenario, scenario.datasets[0])
    system, user = case.messages()
    assert system == {"role": "system", "content": scenario.system}
    text, image = user["content"]
    assert text == {"type": "text", "text": scenario.prompt_for(scenario.datasets[0])}
    assert image["type"] == "image_url"
    assert base64.b64decode(image["image_url"]["url"].split(",", 1)[1]) == png
    # Every item and attempt shares the string encoded at load; nothing is encoded again.
    assert case.messages()[1]["content"][1]["image_url"]["url"] is scenario.images[0].data_url
    # The recorded prompt is readable: the image by name, size and digest, never base64.
    readable = case.prompt_text()
    digest = hashlib.sha256(png).hexdigest()
    assert readable.endswith(
        f"[image shot.png (image/png, {len(png)} bytes, sha256 {digest[:12]})]"
    )
    assert "base64" not in readable
    assert server_view(case) == [digest]


def server_view(case: Case) -> list[str]:
    """What the local test server makes of the candidate's messages."""
    assert text_of(case.messages()[1]["content"]) == case.scenario.prompt_for(case.dataset)
    return image_digests(case.messages())


def test_without_images_the_message_stays_a_string(tmp_path: Path) -> None:
    write_project(tmp_path)
    scenario = _load(tmp_path / SCENARIO)
    case = Case(scenario, scenario.datasets[0])
    assert case.messages()[1]["content"] == scenario.prompt_for(scenario.datasets[0])
    assert case.prompt_text() == scenario.prompt_for(scenario.datasets[0])


def test_the_evaluator_gets_images_only_when_given(tmp_path: Path) -> None:
    scenario = _load(_project(tmp_path, "images: [shot.png]\n", {"shot.png": tiny_png()}))
    steps = scenario.steps_for(scenario.datasets[0])
    plain = evaluator_messages("sys", "prompt [image shot.png]", "answer", steps)
    assert isinstance(plain[1]["content"], str)
    shown = evaluator_messages("sys", "prompt [image shot.png]", "answer", steps, scenario.images)
    text, image = shown[1]["content"]
    assert text["text"].startswith(plain[1]["content"])
    assert "images the model was given are attached" in text["text"]
    assert image == scenario.images[0].part()


def test_the_cache_key_follows_image_content_not_its_encoding_size() -> None:
    def request(png: bytes) -> ModelRequest:
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        parts = [{"type": "text", "text": "t"}, {"type": "image_url", "image_url": {"url": url}}]
        return ModelRequest(messages=({"role": "user", "content": parts},), role="candidate")

    red, blue = tiny_png((255, 0, 0)), tiny_png((0, 0, 255))
    key = request_key("m", None, request(red))
    assert key == request_key("m", None, request(bytes(red)))  # same bytes, new objects
    assert key != request_key("m", None, request(blue))
    text_only = ModelRequest(messages=({"role": "user", "content": "t"},), role="candidate")
    assert key != request_key("m", None, text_only)


def test_the_server_flags_an_image_part_that_is_not_base64_data() -> None:
    messages = [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,@@@"}},
                {"type": "image_url", "image_url": {"url": "https://example.invalid/x.png"}},
            ],
        }
    ]
    first, second = image_digests(messages)
    assert first.startswith("undecodable") and second.startswith("undecodable")
