"""What calls cost, and the run's spending against --llm-budget-usd.

Prices come from litellm's price table (the reply's cost) unless the configuration sets
a price for the model (`--llm-price MODEL=IN/OUT`, USD per million input/output tokens),
which wins. Spending is kept in a small sqlite3 ledger in the report dir, keyed by the
run's id, so every xdist worker of one run sees the same total.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from ..folders import own_folder
from ..models.base import ModelReply

Prices = dict[str, tuple[float, float]]
LEDGER_FILE = ".llmbench-spend.sqlite3"


def reply_cost(model: str, reply: ModelReply, prices: Prices) -> float | None:
    """USD of one reply: the configured price if any, else litellm's; None when unknown."""
    if model in prices:
        per_in, per_out = prices[model]
        return (
            (reply.prompt_tokens or 0) * per_in + (reply.completion_tokens or 0) * per_out
        ) / 1e6
    return reply.cost_usd


class Ledger:
    def __init__(self, folder: Path, run_id: str, budget_usd: float) -> None:
        own_folder(folder)
        self.run_id = run_id
        self.budget_usd = budget_usd
        self._lock = threading.Lock()
        self._db = sqlite3.connect(folder / LEDGER_FILE, timeout=30.0, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS spend (run TEXT NOT NULL, usd REAL NOT NULL)")
        self._db.commit()

    def spent(self) -> float:
        with self._lock:
            row = self._db.execute(
                "SELECT COALESCE(SUM(usd), 0) FROM spend WHERE run = ?", (self.run_id,)
            ).fetchone()
        return float(row[0])

    def exhausted(self) -> bool:
        return self.spent() >= self.budget_usd

    def add(self, usd: float) -> None:
        if usd <= 0:
            return
        with self._lock:
            self._db.execute("INSERT INTO spend (run, usd) VALUES (?, ?)", (self.run_id, usd))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()
