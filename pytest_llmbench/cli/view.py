"""`llmbench view [REPORT_DIR ...]`: explore report dirs in the browser.

Serves the report viewer on 127.0.0.1 (a free port, or --port) and opens it in the
browser unless --no-browser. Each item's details are read by the page only when it
needs them, so a large run opens fast. With two or more dirs the first is the BASE of a
comparison and each later one a NEW, as in `llmbench compare BASE NEW`. Everything
shown comes from the dirs and the package: nothing is fetched from the network.
"""

from __future__ import annotations

import argparse
import threading
import webbrowser
from collections.abc import Sequence
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import ConfigError
from ..reporting import html, leaderboard, viewdata
from ..reporting.runs import Run, common_attempts, common_formula, load_run
from ..reporting.writer import LEADERBOARD_JSON, envelope
from ..schema.leaderboard import LeaderboardDocument
from .compare import compare, groups

DATA = "data/"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "view",
        help="explore report dirs in the browser (local server, no network)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "dirs",
        nargs="*",
        type=Path,
        default=[Path("reports")],
        metavar="REPORT_DIR",
        help="report dirs to show (default: reports); the first is the base of comparisons",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="only print the address, open no browser"
    )
    parser.set_defaults(handler=run)


def _written(path: Path) -> LeaderboardDocument | None:
    """The leaderboard.json a run wrote, if it is one this version reads."""
    try:
        return LeaderboardDocument.model_validate_json(path.read_bytes())
    except (OSError, ValidationError):
        return None


def _run_data(run: Run, name: str) -> viewdata.RunData:
    attempts = common_attempts([run])
    # The leaderboard.json the run wrote (with its hooks' amendments; load_run checked
    # it) is shown as it is; a killed run without one gets its leaderboard rebuilt.
    document = _written(run.folder / LEADERBOARD_JSON)
    if document is None:
        document = envelope(leaderboard.build(run.items, attempts, run.formula), {}, run.folder)
    scores = leaderboard.scores(run.items, attempts, run.formula)
    refs = viewdata.references(run.items, [run.folder.parent, Path.cwd()])
    return viewdata.run_data(document, run.items, scores, refs, name)


def bundle(dirs: Sequence[Path]) -> viewdata.Bundle:
    """Every dir's data, and each later dir compared with the first."""
    runs = [load_run(folder) for folder in dirs]
    names = [r.folder.name or str(r.folder) for r in runs]
    if len(set(names)) < len(names):
        names = [str(r.folder) for r in runs]
    data = [_run_data(r, n) for r, n in zip(runs, names, strict=True)]
    comparisons = {}
    for n, new in enumerate(runs[1:], start=1):
        formula = common_formula([runs[0], new], None)
        base_groups = groups(runs[0], common_attempts([runs[0]]), formula)
        # Flagged as in `llmbench compare --fail-on-regression=0`: the whole interval < 0.
        changes = compare(base_groups, groups(new, common_attempts([new]), formula), 0.0)
        comparisons[str(n)] = [asdict(change) for change in changes]
    return viewdata.Bundle(data, comparisons)


def server(files: dict[str, bytes], port: int) -> ThreadingHTTPServer:
    """The page at / and the data files under /data/, on 127.0.0.1."""
    page = html.page("pytest-llmbench report", data_url=DATA).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(page, "text/html; charset=utf-8")
            elif path.startswith(f"/{DATA}") and path[len(DATA) + 1 :] in files:
                self._send(files[path[len(DATA) + 1 :]], "application/gzip")
            else:
                self.send_error(404)

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # quiet: the terminal shows only the address

    try:
        return ThreadingHTTPServer(("127.0.0.1", port), Handler)
    except OSError as exc:
        raise ConfigError(f"--port {port}: cannot listen on 127.0.0.1 ({exc.strerror})") from None


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port {args.port}: expected 0 (any free port) to 65535")
    files = bundle(args.dirs).files()
    httpd = server(files, args.port)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    print(
        f"llmbench view: serving {len(args.dirs)} report dir(s) at {url} (Ctrl-C stops)", flush=True
    )
    if not args.no_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
