"""report.html and the pages of `llmbench view`: one shell around the viewer app.

The shell carries the viewer's script and style inline (static/viewer.js, viewer.css,
built from viewer/ by scripts/build-viewer) and either embeds the data (report.html:
every file of `viewdata.Bundle` gzip-compressed and base64-encoded, decoded in the page
by the browser's DecompressionStream) or names the URL the files are served from.
Nothing is loaded from the network. The app writes every model answer, judge report
and name as text (textContent), never as markup; only the charts' SVG, escaped in
`charts.py`, and highlight.js's escaped output are inserted as markup.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import JsonValue

from ..schema.leaderboard import LeaderboardDocument
from ..schema.results import ItemResult
from . import viewdata

STATIC = Path(__file__).parent / "static"
_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
_DATA_TAG = re.compile(
    r'<script type="application/gzip-base64" data-name="([^"]+)">([^<]*)</script>'
)


@cache
def _asset(name: str) -> str:
    text = (STATIC / name).read_text(encoding="utf-8")
    # Inline in a <script>/<style>: a closing tag inside a string must not end it.
    return re.sub(r"</(script|style)", r"<\\/\1", text, flags=re.IGNORECASE)


def page(title: str, files: dict[str, bytes] | None = None, data_url: str = "") -> str:
    """The shell: with `files` embedded (report.html), else reading them from `data_url`."""
    return _ENV.get_template("report.html.j2").render(
        title=title,
        css=Markup(_asset("viewer.css")),
        js=Markup(_asset("viewer.js")),
        files=viewdata.embedded(files or {}),
        first=viewdata.INDEX,
        data_url=data_url,
    )


def render(
    document: LeaderboardDocument,
    items: Sequence[ItemResult],
    scores: Sequence[float | None],
    refs: dict[tuple[str, str], str] | None = None,
    history: dict[str, JsonValue] | None = None,
) -> str:
    """report.html of one run, every part embedded; `history`: its trend (history.py)."""
    run = viewdata.run_data(document, items, scores, refs or {}, history=history)
    return page("pytest-llmbench report", viewdata.Bundle([run]).files())


def embedded_files(html: str) -> dict[str, Any]:
    """The data a page embeds, decoded: file name -> JSON value (for tests and tools)."""
    return {name: viewdata.unpack(base64.b64decode(text)) for name, text in _DATA_TAG.findall(html)}
