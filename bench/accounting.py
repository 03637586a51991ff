"""CPU seconds by program over a stretch of time, from the kernel's process accounting
(acct(2)): every process that ends meanwhile, those in the sandboxes' namespaces too,
leaves one record with its user and system time and its command name (15 characters:
Vitest names its test processes `node (vitest 1)`): CPU seconds and processes by name.
Root only (CAP_SYS_PACCT); no package is needed. `python bench/functional.py
--by-program` uses it.

Turning accounting on points it at a temporary file; turning it off stops it: on a machine
whose own process accounting is on (Debian's `acct` service), that is stopped too.
"""

from __future__ import annotations

import ctypes
import os
import struct
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

# struct acct_v3 (linux/acct.h), little-endian: flag, version, tty, exit code, uid, gid,
# pid, ppid, start time, elapsed (float), eight comp_t (utime, stime, ...), command name
RECORD = struct.Struct("<BBHIIIIIIf8H16s")
VERSION = 3
AHZ = 100  # the ticks of a record's times
# A process leaves its record as it dies: the warm servers, killed as their items end, a
# moment after (a JVM's threads take their time). Wait this long before turning it off.
GRACE_S = 2.0


def comp_t(value: int) -> int:
    """A comp_t's value: a 13-bit mantissa and a base-8 exponent in the top 3 bits."""
    return (value & 0x1FFF) << (3 * (value >> 13))


class Use(NamedTuple):
    """One program's CPU seconds (user plus system) and the processes that used them."""

    seconds: float
    processes: int


def cpu_by_program(data: bytes) -> dict[str, Use]:
    """CPU seconds and processes per command name over the records in `data`; records of
    another layout (not version 3) are skipped."""
    totals: dict[str, Use] = {}
    for offset in range(0, len(data) - RECORD.size + 1, RECORD.size):
        fields = RECORD.unpack_from(data, offset)
        if fields[1] != VERSION:
            continue
        utime, stime, comm = fields[10], fields[11], fields[18]
        name = comm.split(b"\0", 1)[0].decode("utf-8", "replace") or "?"
        seconds, processes = totals.get(name, Use(0.0, 0))
        totals[name] = Use(seconds + (comp_t(utime) + comp_t(stime)) / AHZ, processes + 1)
    return totals


def _acct(path: Path | None) -> str | None:
    """acct(2) on `path` (None: off); why it failed, or None."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.acct(os.fsencode(path) if path is not None else None) == 0:
        return None
    return os.strerror(ctypes.get_errno())


class Accounting:
    """Process accounting while a `with` block runs, into a temporary file; afterwards
    `totals` (CPU seconds and processes by program) or `refused` (why it could not be
    turned on)."""

    def __init__(self) -> None:
        self.totals: dict[str, Use] = {}
        self.refused: str | None = None
        self._folder = tempfile.TemporaryDirectory(prefix="llmbench-acct-")
        self._file = Path(self._folder.name) / "pacct"

    def __enter__(self) -> Accounting:
        self._file.write_bytes(b"")
        self.refused = _acct(self._file)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.refused is None:
            time.sleep(GRACE_S)
            _acct(None)
            self.totals = cpu_by_program(self._file.read_bytes())
        self._folder.cleanup()


def lines(totals: dict[str, Use], busy: float | None, top: int = 8) -> list[str]:
    """The programs that used the most CPU, with their share of the accounted total (and of
    the cores' busy seconds, when given: the difference is what had not ended) and their
    processes (a cost paid once per process scales with it)."""
    total = sum(use.seconds for use in totals.values())
    head = f"CPU by program (process accounting): {total:.1f} s in all"
    if busy:
        head += f", {total / busy:.0%} of the cores' busy seconds"
    out = [head]
    for name, use in sorted(totals.items(), key=lambda item: -item[1].seconds)[:top]:
        share = use.seconds / max(total, 1e-9)
        many = "process" if use.processes == 1 else "processes"
        out.append(f"  {use.seconds:7.1f} s {share:6.1%}  {name} ({use.processes} {many})")
    return out
