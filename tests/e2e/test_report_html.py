"""report.html and `llmbench view` in a real headless Chromium: self-contained, charts
drawn, sorting, filters kept in the URL, the diff and compare views, narrow and long
names, and model text never executed.

Needs Debian's chromium (`apt-get install -y chromium`) and the `playwright` package of
the test extra; Playwright only drives the system browser (no `playwright install`).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pytest_llmbench.cli import view
from pytest_llmbench.reporting import html, leaderboard
from pytest_llmbench.reporting.runs import load_run
from pytest_llmbench.reporting.writer import envelope, write_results
from tests.conftest import MINI_SCENARIO, write_project
from tests.unit.test_leaderboard import _item

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
    '</pre><b>bold?</b></code></pre><svg onload="window.__pwned = 3"></svg>'
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


class Opened:
    """A viewer page with its console errors, requests, and requests that left the machine."""

    def __init__(self, browser: Any, url: str, local: tuple[str, ...] = ("file:", "data:")) -> None:
        self.page = browser.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route("**/*", self._route)
        self.local = local
        self.go(url)

    def _route(self, route: Any) -> None:
        url = route.request.url
        self.requests.append(url)
        if url.startswith(self.local):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def go(self, url: str) -> None:
        self.page.goto(url)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_selector("body[data-ready]", timeout=15000)

    def show(self, hash_: str) -> None:
        """Go to a view inside the page, as a link click would."""
        self.page.evaluate("h => { delete document.body.dataset.ready; location.hash = h; }", hash_)
        self.ready()

    def clean(self) -> None:
        assert self.errors == []
        assert self.outside == []
        # Nothing of the model's text ran or became markup.
        assert self.page.evaluate("typeof window.__pwned") == "undefined"
        assert self.page.locator("script:not([type])").count() == 1  # the viewer itself
        assert self.page.locator("img, b, svg[onload], iframe").count() == 0


def _hostile_project(root: Path) -> None:
    # The reference model answers with the scenario's reference: make it hostile HTML.
    scenario = MINI_SCENARIO.replace(
        "    ### src/app.js\n", f"    {HOSTILE}\n    ### src/app.js\n", 1
    ).replace("title: Add a greeting function", "title: Add a greeting <i>function</i>")
    write_project(root)
    (root / "scenarios" / "generation" / "AddGreeting.yaml").write_text(scenario)


@contextmanager
def served(dirs: list[Path]) -> Iterator[str]:
    """`llmbench view DIRS` in a thread; yields its address."""
    httpd = view.server(view.bundle(dirs).files(), 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _rows(page: Any, table: str) -> list[str]:
    return [t for t in page.locator(f"{table} tbody tr").all_inner_texts()]


def test_report_opens_offline_with_charts_and_drill_down(pytester: pytest.Pytester) -> None:
    _hostile_project(pytester.path)
    pytester.runpytest("--llm-model=llmbench/reference,llmbench/echo").assert_outcomes(passed=4)
    reports = pytester.path / "reports"
    report = reports / "report.html"
    assert report.is_file()
    # NEW: the echo model's greeting item now errors, its explanation item scores higher.
    new = pytester.path / "new"
    new.mkdir()
    stored = html.embedded_files(report.read_text())
    texts = {
        k: t for name, part in stored.items() if name.startswith("texts") for k, t in part.items()
    }
    (key,) = [k for k, text in texts.items() if HOSTILE in text]  # stored once, in the table
    # Its explanation answers with a reference to that text, as JSON, and its input
    # complexity is a dict shaped like one: both are shown as the data they are.
    forged = json.dumps({"$text": key})
    items = load_run(reports).items
    for item in items:
        if item.model == "llmbench/echo" and item.scenario == "AddGreeting":
            item.status, item.reason = "error", "provider error (made up)"
        if item.model == "llmbench/echo" and item.scenario == "ExplainMini":
            item.attempts[0].answer, item.complexity = forged, {"$text": key}
    write_results(new, items)
    with chromium() as browser:
        _check_page(browser, report)
        _check_items(browser, report)
        _check_item(browser, report)
        with served([reports, new]) as url:
            _check_served_compare(browser, url)
            _check_served_texts(browser, url, forged, key)
        _check_forged_report(browser, new, forged, key)


def _check_page(browser: Any, report: Path) -> None:
    opened = Opened(browser, report.as_uri())
    page = opened.page
    header = page.locator("#leaderboard tbody tr").nth(0).inner_text()
    assert "llmbench/reference" in header and "2/2" in header
    # Two items cannot tell the models apart (the paired test's smallest p is 1/2): both
    # hold ranks 1-2, and the page says which test and level made them.
    assert page.locator("#leaderboard tbody tr").nth(0).locator("td.rank").inner_text() == "1-2"
    assert "Holm" in page.locator("#ranking").inner_text()
    pair = page.locator("#pairs tbody tr").all_inner_texts()
    assert len(pair) == 1 and pair[0].startswith("llmbench/reference\tllmbench/echo\t2 (2)")
    # Which syntax checkers the machine had (leaderboard.json's `checkers`), python always.
    available = page.locator("#checkers-available").inner_text()
    assert available.startswith("Syntax checkers on the machine:") and "python yes" in available
    # Every column says what it measures; the score's names the formulas' floors.
    titles = page.locator("#leaderboard th").evaluate_all("hs => hs.map(h => h.title)")
    assert all(titles) and "do-nothing answer" in titles[2] and "weighted: 0.30" in titles[2]
    assert "offline models" in page.locator(
        "#leaderboard th[data-key=generation_rate]"
    ).get_attribute("title")
    # Score whiskers, and which checkers each model's answers met.
    assert page.locator("#leaderboard .whisker").count() == 2
    assert "checks" in page.locator("#leaderboard td.checkers").first.inner_text()
    # Sorting: by model name, then by score again (highest first).
    page.locator("#leaderboard th[data-key=model]").click()
    assert _rows(page, "#leaderboard")[0].split("\t")[1] == "llmbench/echo"
    page.locator("#leaderboard th[data-key=model]").click()
    assert _rows(page, "#leaderboard")[0].split("\t")[1] == "llmbench/reference"
    page.locator("#leaderboard th[data-key=score]").click()
    assert "llmbench/reference" in _rows(page, "#leaderboard")[0]
    # Two models: two score bars with a non-zero size, each with a CI whisker.
    bars = page.locator("#chart-scores rect.bar")
    assert bars.count() == 2
    for index in range(2):
        box = bars.nth(index).bounding_box()
        assert box is not None and box["width"] > 1 and box["height"] > 1
    assert page.locator("#chart-scores path.whisker").count() == 2
    # Heat map: 2 models x 2 categories, labels drawn at their size (not scaled down).
    assert page.locator("#chart-heatmap rect.cell").count() == 4
    chart_box = page.locator("#chart-heatmap svg").bounding_box()
    assert chart_box is not None and chart_box["width"] > 100
    label = page.locator("#chart-heatmap svg text").first.bounding_box()
    assert label is not None and label["height"] >= 11
    # Offline models have neither cost nor tokens: the cost chart says so instead.
    assert "offline" in page.locator("#chart-cost").inner_text()
    # The category table carries each row's formula and its intervals.
    category = page.locator("#categories tbody tr").first.inner_text()
    assert "weighted" in category and "[" in category
    # 800 px wide: the leaderboard fits, "Judge α" and the columns after it included.
    page.set_viewport_size({"width": 800, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    for name in ("judge_alpha", "candidate_cost_usd", "scored"):
        box = page.locator(f"#leaderboard th[data-key={name}]").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 800, f"{name} cut off"
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    opened.clean()
    page.close()


def _check_items(browser: Any, report: Path) -> None:
    opened = Opened(browser, report.as_uri() + "#/items")
    page = opened.page
    assert page.locator("#items tbody tr").count() == 4
    assert page.locator("#items tbody tr.status-scored").count() == 4
    # Rows are coloured by score: the reference's greeting is greener than echo's.
    colours = page.locator("#items td.score").evaluate_all(
        "cs => cs.map(c => getComputedStyle(c).backgroundColor)"
    )
    assert len(set(colours)) > 1
    page.select_option("select[name=model]", "llmbench/echo")
    _wait_rows(page, 2)
    assert "model=llmbench%2Fecho" in page.url
    page.fill("input[name=min]", "0.8")  # echo scores below
    _wait_rows(page, 0)
    page.fill("input[name=min]", "")
    # The text search reads prompts, answers and reasons: only the reference answered
    # with the hostile text.
    page.select_option("select[name=model]", "")
    page.fill("input[name=q]", "__PWNED")
    _wait_rows(page, 1)
    assert "llmbench/reference" in page.locator("#items tbody tr").inner_text()
    # The filters are the URL: opening it again shows the same list.
    shared = page.url
    assert "q=__PWNED" in shared
    page.goto("about:blank")
    opened.go(shared)
    _wait_rows(page, 1)
    assert page.input_value("input[name=q]") == "__PWNED"
    opened.show("#/items?category=explanation&status=scored")
    assert page.locator("#items tbody tr").count() == 2
    assert page.input_value("select[name=category]") == "explanation"
    opened.clean()
    page.close()


def _wait_rows(page: Any, count: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#items tbody tr').length === {count}")


def _check_item(browser: Any, report: Path) -> None:
    opened = Opened(browser, report.as_uri() + "#/items?model=llmbench/reference")
    page = opened.page
    page.locator("#items a", has_text="AddGreeting").click()
    page.wait_for_selector("pre.answer")
    # The hostile answer is shown as text, beside the reference it was made from.
    answer = page.locator("pre.answer").first
    assert "<script>window.__pwned = 1</script>" in answer.inner_text()
    assert "<svg onload=" in answer.inner_text()
    assert "<script>window.__pwned = 1</script>" in page.locator("pre.reference").inner_text()
    assert "<i>function</i>" not in page.content().replace("&lt;i&gt;", "")
    # Each criterion with the check's verdict and its reason as text.
    assert page.locator("table.steps td.verdict").count() >= 1
    # The item's code metrics are a table, each name explained.
    metrics = page.locator("details.metrics").first
    assert metrics.is_visible() and "similarity_normalised" in metrics.inner_text()
    help_text = metrics.locator("td", has_text="similarity_normalised").get_attribute("title")
    assert help_text and "no better than doing nothing" in help_text
    # The diff of the answer against the reference: identical for the reference model.
    page.locator("button", has_text="Diff against the reference").click()
    assert page.locator("pre.diff .same").count() >= 1
    assert page.locator("pre.diff .ins, pre.diff .del").count() == 0
    assert "mode=diff" in page.url
    # The echo model's answer differs: added and removed lines are marked.
    opened.show("#/items?model=llmbench/echo&q=greet")
    page.locator("#items a", has_text="AddGreeting").click()
    page.wait_for_selector(".answer-box")
    page.locator("button", has_text="Diff against the reference").click()
    removed = page.locator("pre.diff .del")
    assert removed.count() >= 1 and removed.first.inner_text().startswith("- ")
    assert "only in the reference" in page.locator(".answer-box").inner_text()
    opened.clean()
    page.close()


def _check_served_compare(browser: Any, url: str) -> None:
    opened = Opened(browser, url + "#/compare", local=(url, "data:"))
    page = opened.page
    # The page read its summary only: item details are fetched when shown.
    # BASE -> NEW: the item that became an error is listed first.
    first = page.locator("#item-changes tr").nth(1).inner_text()
    assert "llmbench/echo" in first and "AddGreeting" in first and "now error" in first
    # The run-level change is over the items scored in both runs (1 of BASE's 2): the
    # row says so, and the item that stopped scoring is the per-item regression above.
    changed = page.locator("#run-change tr", has_text="llmbench/echo").first.inner_text()
    assert "1 (2/1)" in changed
    # The same scenario x dataset across both models, beside the reference answer.
    columns = page.locator("#across-models .column")
    assert columns.count() == 3
    assert columns.nth(0).locator("h4").inner_text() == "Reference answer"
    page.select_option("#across-models select", label="ExplainMini · Mini")
    opened.ready()
    assert "ExplainMini" in page.url
    opened.clean()
    page.close()


def _open_forged(opened: Opened, run: int, forged: str, key: str) -> None:
    """NEW's echo item found by the id it names, its answer and complexity shown as data."""
    page = opened.page
    opened.show(f"#/items?r={run}&q={key}")
    _wait_rows(page, 1)
    assert "llmbench/echo" in page.locator("#items tbody tr").inner_text()
    page.locator("#items a", has_text="ExplainMini").click()
    page.wait_for_selector("pre.answer")
    assert page.locator("pre.answer").first.inner_text() == forged
    assert f"Input complexity: $text {key}" in page.locator(".item-view").inner_text()


def _check_served_texts(browser: Any, url: str, forged: str, key: str) -> None:
    """A search reads the run's index and only the chunks that can match; an answer shaped
    like a reference is shown as the text it is."""
    opened = Opened(browser, url, local=(url, "data:"))
    _open_forged(opened, 1, forged, key)
    assert url + "data/run1-search.json.gz" in opened.requests
    # A word in no item: the index says so, and no chunk is read.
    opened.requests.clear()
    opened.show("#/items?q=xylophone")
    _wait_rows(opened.page, 0)
    assert [u for u in opened.requests if "/data/" in u] == [url + "data/run0-search.json.gz"]
    opened.clean()
    opened.page.close()


def _check_forged_report(browser: Any, new: Path, forged: str, key: str) -> None:
    """The same in NEW's report.html, every file embedded."""
    report = new / "report.html"
    report.write_text(html.page("NEW", view.bundle([new]).files()), encoding="utf-8")
    opened = Opened(browser, report.as_uri())
    _open_forged(opened, 0, forged, key)
    opened.clean()
    opened.page.close()


def test_served_view_loads_details_on_demand_and_ranks_ties_equal(tmp_path: Path) -> None:
    """A run of 600 items with a long model name: the first load reads the summary only;
    the two models with equal scores share the ranks 1-2; at 800 px nothing overflows."""
    long = "vendor/" + "very-long-model-name-" * 5 + "x"
    items = []
    for n in range(300):
        for model in (long, "tied/other"):
            item = _item(model, "generation" if n % 2 else "analysis", 3, 4, None, 1)
            attempt = item.attempts[0]
            attempt.answer, attempt.steps, attempt.reports = f"answer {n}", [], []
            item.scenario, item.dataset = f"Scenario{n}", None
            item.nodeid = f"s{n}.yaml::t[{model}]"
            items.append(item)
    board = leaderboard.build(items, attempts=3)
    document = envelope(board, {}, tmp_path)
    (tmp_path / "results.jsonl").write_text("".join(i.model_dump_json() + "\n" for i in items))
    (tmp_path / "leaderboard.json").write_text(document.model_dump_json())
    with chromium() as browser, served([tmp_path]) as url:
        opened = Opened(browser, url, local=(url, "data:"))
        page = opened.page
        assert [r.split("\t")[0] for r in _rows(page, "#leaderboard")] == ["1-2", "1-2"]
        data = [u for u in opened.requests if "/data/" in u]
        assert data == [url + "data/index.json.gz"]
        page.set_viewport_size({"width": 800, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= 800
        name = page.locator("#leaderboard td.name", has_text="very-long").bounding_box()
        assert name is not None and name["x"] + name["width"] <= 800
        opened.show("#/items?page=1")
        assert page.locator("#items tbody tr").count() == 200
        assert page.evaluate("document.documentElement.scrollWidth") <= 800
        opened.show("#/item?i=450")
        assert "answer" in page.locator("pre.answer").inner_text()
        assert url + "data/run0-chunk2.json.gz" in opened.requests
        assert url + "data/run0-chunk1.json.gz" not in opened.requests
        opened.clean()
        # The served page embeds no data: it reads it from the server.
        assert html.embedded_files(html.page("t", data_url="data/")) == {}


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
