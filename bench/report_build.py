"""Build time, file sizes, time to first paint and a search's reads of the report at given
item counts.

    python bench/report_build.py REPORT_DIR [--items 600 10000] [--no-browser]

The items are a report dir's results cloned to each count (each clone gets its own node
id, and clones are spread over three copies of each model, so a copy counts as another
item and another leaderboard row). Per count it prints: the leaderboard build (with its
bootstrap intervals); the size of the results files reporting's writer writes; the
viewer's data (build time; the summary, detail chunks, text chunks and search index) and
report.html around it (build time, size); in headless Chromium the first contentful paint
and the moment the leaderboard is drawn, for report.html (file://) and for `llmbench
view` (a local server), measured from navigation start; and what the served view fetches
to open one item and to search for a word found in every chunk (SEARCHES[0]) and for one
found in none (SEARCHES[1]). Clones repeat the same texts, so every chunk holds every word
of the originals: the search's figures are its worst case and its best case.
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
from pytest_llmbench.reporting.writer import envelope, write_results
from pytest_llmbench.schema.results import ItemResult

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAINT = """() => ({
  fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
  drawn: (performance.getEntriesByName("llmbench-drawn")[0] || {}).startTime,
})"""
# A word of the catalogue's prompts, and a word of none.
SEARCHES = ("localstorage", "xylophone")


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


def paint(url: str) -> tuple[dict[str, float], list[str]]:
    """First contentful paint and the first view drawn (ms from navigation start), and
    the data files the page fetched."""
    from playwright.sync_api import sync_playwright

    fetched: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("request", lambda r: fetched.append(r.url))
        page.goto(url, wait_until="commit", timeout=600_000)
        page.wait_for_selector("body[data-ready]", timeout=600_000)
        figures: dict[str, float] = page.evaluate(PAINT)
        browser.close()
    return figures, [u.rsplit("/", 1)[-1] for u in fetched if f"/{view.DATA}" in u]


def _mb(size: int) -> str:
    return f"{size / 1e6:.2f} MB"


def _results_size(items: list[ItemResult], out: Path) -> None:
    folder = out / "results"
    _timed("results files (reporting.writer.write_results)", lambda: write_results(folder, items))
    files = [p for p in folder.rglob("*") if p.is_file()]
    print(f"  results files: {_mb(sum(p.stat().st_size for p in files))} in {len(files)} file(s)")
    for path in files:
        path.unlink()


def _sizes(files: dict[str, bytes], page: str) -> None:
    def part(prefix: str) -> str:
        sizes = [len(b) for n, b in files.items() if n.startswith(prefix)]
        return f"{_mb(sum(sizes))} in {len(sizes)}"

    shell = len(html.page("t", data_url=view.DATA).encode())
    index = len(files[viewdata.INDEX])
    print(
        f"  sizes: report.html {_mb(len(page.encode()))}; served first load {_mb(shell + index)}"
        f" (page {_mb(shell)} + summary {_mb(index)}); detail chunks {part('run0-chunk')};"
        f" text chunks {part('texts')}; search index {part('run0-search')}"
    )


def measure(report_dir: Path, count: int, browser: bool, out: Path) -> None:
    run = load_run(report_dir)
    attempts = common_attempts([run])
    items = clones(run.items, count)
    print(f"{count} items (cloned from {len(run.items)} of {report_dir}):")
    board = _timed("leaderboard", lambda: leaderboard.build(items, attempts, run.formula))
    document = envelope(board, {}, report_dir)
    scores = leaderboard.scores(items, attempts, run.formula)
    refs = viewdata.references(items, [Path.cwd(), report_dir.parent])
    _results_size(items, out)

    def data() -> dict[str, bytes]:
        return viewdata.Bundle([viewdata.run_data(document, items, scores, refs)]).files()

    # report.html is these same files embedded (html.render = data + page).
    files = _timed("viewer data (summary, detail and text chunks, search index; gzip)", data)
    page = _timed("report.html page around them", lambda: html.page("report", files))
    report = out / f"report-{count}.html"
    report.write_text(page, encoding="utf-8")
    _sizes(files, page)
    if browser:
        _browse(report, files, count)


def _browse(report: Path, files: dict[str, bytes], count: int) -> None:
    views = [("", "leaderboard"), (f"#/item?i={count // 2}", f"item {count // 2}")]
    views += [(f"#/items?q={word}", f'search "{word}"') for word in SEARCHES]
    for hash_, label in views:
        figures, _ = paint(report.as_uri() + hash_)
        print(f"  report.html in Chromium, {label}: {_paint_line(figures)}")
    httpd = view.server(files, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        for hash_, label in views:
            figures, fetched = paint(url + hash_)
            size = sum(len(files[name]) for name in fetched)
            print(
                f"  llmbench view in Chromium, {label}: {_paint_line(figures)};"
                f" fetched {_mb(size)} in {len(fetched)} data file(s)"
            )
    finally:
        httpd.shutdown()
        httpd.server_close()


def _paint_line(figures: dict[str, float]) -> str:
    return f"first contentful paint {figures['fcp']:.0f} ms, view drawn {figures['drawn']:.0f} ms"


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
