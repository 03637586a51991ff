"""Build time, file sizes and time to first paint of the report at given item counts.

    python bench/report_build.py REPORT_DIR [--items 600 10000] [--no-browser]

The items are a report dir's results cloned to each count (each clone gets its own node
id, and clones are spread over three copies of each model, so a copy counts as another
item and another leaderboard row). Per count it prints: the leaderboard build (with its
bootstrap intervals), report.html (build time, size), the served view's data (build
time, the first load: page + summary, and all detail chunks), and in headless Chromium
the first contentful paint and the moment the leaderboard is drawn, for report.html
(file://) and for `llmbench view` (a local server), measured from navigation start.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from pytest_llmbench.cli import view
from pytest_llmbench.reporting import html, leaderboard, viewdata
from pytest_llmbench.reporting.runs import common_attempts, load_run
from pytest_llmbench.reporting.writer import envelope
from pytest_llmbench.schema.results import ItemResult

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAINT = """() => ({
  fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
  drawn: (performance.getEntriesByName("llmbench-drawn")[0] || {}).startTime,
})"""


def clones(items: list[ItemResult], count: int) -> list[ItemResult]:
    return [
        item.model_copy(
            update={"nodeid": f"{item.nodeid}#{n}", "model": f"{item.model}-copy{n % 3}"}
        )
        for n in range(count // len(items) + 1)
        for item in items
    ][:count]


def _timed(label: str, action: Any) -> Any:
    start = time.perf_counter()
    value = action()
    print(f"  {label}: {time.perf_counter() - start:.2f} s")
    return value


def paint(url: str) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url, wait_until="commit", timeout=300_000)
        page.wait_for_selector("body[data-ready]", timeout=300_000)
        figures: dict[str, float] = page.evaluate(PAINT)
        browser.close()
    return figures


def _mb(size: int) -> str:
    return f"{size / 1e6:.2f} MB"


def measure(report_dir: Path, count: int, browser: bool, out: Path) -> None:
    run = load_run(report_dir)
    attempts = common_attempts([run])
    items = clones(run.items, count)
    print(f"{count} items (cloned from {len(run.items)} of {report_dir}):")
    board = _timed("leaderboard", lambda: leaderboard.build(items, attempts, run.formula))
    document = envelope(board, {}, report_dir)
    scores = leaderboard.scores(items, attempts, run.formula)
    refs = viewdata.references(items, [Path.cwd(), report_dir.parent])

    def data() -> dict[str, bytes]:
        return viewdata.Bundle([viewdata.run_data(document, items, scores, refs)]).files()

    # report.html is these same files embedded (html.render = data + page).
    files = _timed("data (summary and detail chunks, gzip)", data)
    page = _timed("report.html page around them", lambda: html.page("report", files))
    report = out / f"report-{count}.html"
    report.write_text(page, encoding="utf-8")
    shell = len(html.page("t", data_url=view.DATA).encode())
    details = sum(len(blob) for name, blob in files.items() if name != viewdata.INDEX)
    print(
        f"  sizes: report.html {_mb(len(page.encode()))}; served first load {_mb(shell + len(files[viewdata.INDEX]))}"
        f" (page {_mb(shell)} + summary {_mb(len(files[viewdata.INDEX]))}); "
        f"details {_mb(details)} in {len(files) - 1} chunks"
    )
    if not browser:
        return
    print(f"  report.html in Chromium: {_paint_line(paint(report.as_uri()))}")
    httpd = view.server(files, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        print(f"  llmbench view in Chromium: {_paint_line(paint(url))}")
    finally:
        httpd.shutdown()
        httpd.server_close()


def _paint_line(figures: dict[str, float]) -> str:
    return f"first contentful paint {figures['fcp']:.0f} ms, leaderboard drawn {figures['drawn']:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report_dir", type=Path)
    parser.add_argument("--items", type=int, nargs="+", default=[600, 10_000])
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium timings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        for count in args.items:
            measure(args.report_dir, count, not args.no_browser, Path(out))


if __name__ == "__main__":
    main()
