"""The run-time engine: every model call of a run goes through one background event loop,
a per-model adaptive concurrency limit, retries, the request cache and the cost budget.

loop.py     one long-lived asyncio loop in a daemon thread per process
limiter.py  per-model concurrency limit that halves on 429 and grows back
retry.py    which failures are worth retrying, and the backoff between tries
cache.py    the on-disk request cache (sqlite3)
budget.py   the run's spending ledger shared by xdist workers (sqlite3), and prices
managed.py  the wrapper around any Model: cache -> budget -> limiter -> retries -> call
engine.py   starts every item's pipeline on the loop; items wait for their own result
partition.py  an xdist scheduler that gives each worker a fixed share of the items
"""
