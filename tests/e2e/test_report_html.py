"""report.html in a real headless Chromium: self-contained, charts drawn, text never executed.

Needs Debian's chromium (`apt-get install -y chromium`) and the `playwright` package of
the test extra; Playwright only drives the system browser (no `playwright install`).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import MINI_SCENARIO, write_project

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOSTILE = (
    '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">'
    "</pre><b>bold?</b>"
)
SCREENSHOT = Path(tempfile.gettempdir()) / "llmbench-report.png"


@contextmanager
def chromium() -> Iterator[Any]:
    """A fresh headless Chromium context. Started only after the pytester run: Playwright's
    sync API keeps an event loop running, under which the plugin's asyncio.run would fail."""
    if not Path(CHROMIUM).exists():
        pytest.fail("no chromium: install Debian's browser with `apt-get install -y chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        try:
            yield context
        finally:
            # Before the profile dir is removed: a live browser still writes to it.
            context.close()


def _hostile_project(root: Path) -> None:
    # The reference model answers with the scenario's reference: make it hostile HTML.
    scenario = MINI_SCENARIO.replace(
        "    ### src/app.js\n", f"    {HOSTILE}\n    ### src/app.js\n", 1
    ).replace("title: Add a greeting function", "title: Add a greeting <i>function</i>")
    write_project(root)
    (root / "scenarios" / "generation" / "AddGreeting.yaml").write_text(scenario)


def test_report_opens_offline_with_charts_and_drill_down(pytester: pytest.Pytester) -> None:
    _hostile_project(pytester.path)
    pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo").assert_outcomes(passed=4)
    report = pytester.path / "reports" / "report.html"
    assert report.is_file()
    with chromium() as browser:
        _check_page(browser, report)


def _check_page(browser: Any, report: Path) -> None:
    page = browser.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def only_local(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(report.as_uri())
    page.wait_for_load_state("load")

    header = page.locator("#leaderboard tr").nth(1).inner_text()
    assert "llmbench/reference" in header and "2/2" in header
    # Two models: two score bars with a non-zero size, each with a CI whisker.
    bars = page.locator("#chart-scores rect.bar")
    assert bars.count() == 2
    for index in range(2):
        box = bars.nth(index).bounding_box()
        assert box is not None and box["width"] > 1 and box["height"] > 1
    assert page.locator("#chart-scores path.whisker").count() == 2
    # Heat map: 2 models x 2 categories; scatter: one point per model.
    assert page.locator("#chart-heatmap rect.cell").count() == 4
    assert page.locator("#chart-cost circle.point").count() == 2
    chart_box = page.locator("#chart-heatmap svg").bounding_box()
    assert chart_box is not None and chart_box["width"] > 100

    # The drill-down opens on click and shows the hostile answer as text.
    first = page.locator("details.item").filter(has_text="AddGreeting").first
    assert first.evaluate("d => d.open") is False
    first.locator("summary").first.click()
    assert first.evaluate("d => d.open") is True
    answer = first.locator("pre.answer").first
    assert answer.is_visible()
    assert "<script>window.__pwned = 1</script>" in answer.inner_text()
    assert "<i>function</i>" not in page.content().replace("&lt;i&gt;", "")
    # The item's code metrics are a table in the drill-down, not a JSON dump.
    metrics = first.locator("details.metrics").first
    assert metrics.is_visible() and "similarity_normalised" in metrics.inner_text()

    # Nothing of the model's text ran or became markup.
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("script").count() == 1  # our own open/close-all script
    assert page.locator("img").count() == 0
    assert page.locator("b").count() == 0

    page.locator("#open-all").click()
    assert page.locator("details.item:not([open])").count() == 0
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert errors == []
    assert outside == []
    page.close()


def test_chart_labels_fit_and_series_have_colours() -> None:
    """Long category and model names neither overlap nor fall off the chart, measured in
    the browser; scatter series (models) get their own colours and a legend."""
    from pytest_llmbench.reporting import charts

    model = "anthropic/claude-3-5-haiku-latest"
    columns = ["documentation", "explanation", "generation", "migration", "analysis"] * 2
    columns = [f"{c}{n}" for n, c in enumerate(columns)]
    heat = charts.heat_map([model, "m"], columns, {(model, columns[0]): 0.5}, "heat")
    points = [charts.Point("b", 0.1, 0.2, "m1"), charts.Point(model, 0.2, 0.1, "m2")]
    scatter = charts.scatter(points, "s", "x", "y", series_order=["m2", "m1"])
    with chromium() as browser:
        page = browser.new_page()
        page.set_viewport_size({"width": 2400, "height": 900})
        page.set_content(f'<div id="heat">{heat}</div><div id="scatter">{scatter}</div>')
        svg = page.locator("#heat svg").bounding_box()
        assert svg is not None
        boxes = [t.bounding_box() for t in page.locator("#heat text").all()]
        header = sorted((b for b in boxes if b and b["y"] < svg["y"] + 24), key=lambda b: b["x"])
        assert len(header) == len(columns)
        for left, right in zip(header, header[1:], strict=False):
            assert left["x"] + left["width"] <= right["x"], "column labels overlap"
        label = page.locator("#heat text", has_text=model).bounding_box()
        assert label is not None and label["x"] >= svg["x"], "model name cut off on the left"
        assert all(b["x"] + b["width"] <= svg["x"] + svg["width"] for b in header)
        fills = page.locator("#scatter circle.point").evaluate_all(
            "cs => cs.map(c => getComputedStyle(c).fill)"
        )
        legend = page.locator("#scatter circle.legend").evaluate_all(
            "cs => cs.map(c => getComputedStyle(c).fill)"
        )
        assert len(set(fills)) == 2 and set(legend) == set(fills)
        # The label of the point at the highest x stays inside the chart.
        chart = page.locator("#scatter svg").bounding_box()
        far = page.locator("#scatter text", has_text=model).bounding_box()
        assert chart is not None and far is not None
        assert far["x"] + far["width"] <= chart["x"] + chart["width"], "label cut off"
        # series_order decides the colours: m2, named first, gets the first colour.
        assert page.locator("#scatter text", has_text="m2").count() == 1
        assert fills[1] == legend[0]
