"""bench/accounting.py reads the kernel's process accounting records (acct_v3): CPU
seconds and processes by command name, comp_t's exponent applied, records of another
version skipped."""

from __future__ import annotations

from bench.accounting import RECORD, Use, comp_t, cpu_by_program, lines


def _record(comm: bytes, utime: int, stime: int, version: int = 3) -> bytes:
    times = (utime, stime, 0, 0, 0, 0, 0, 0)
    return RECORD.pack(0, version, 0, 0, 0, 0, 1, 1, 0, 0.0, *times, comm)


def test_comp_t_has_a_base_8_exponent_in_its_top_bits() -> None:
    assert comp_t(250) == 250
    assert comp_t((2 << 13) | 3) == 3 * 64


def test_cpu_by_program_sums_user_and_system_time_and_counts_processes_per_command() -> None:
    data = b"".join(
        [
            _record(b"node", 150, 50),
            _record(b"node (vitest 1)", (1 << 13) | 100, 0),  # 800 ticks
            _record(b"node", 100, 0),
            _record(b"java", 999, 999, version=2),  # another layout: skipped
            b"\x03" * 10,  # a record cut short
        ]
    )
    totals = cpu_by_program(data)
    assert totals == {"node": Use(3.0, 2), "node (vitest 1)": Use(8.0, 1)}
    shown = lines(totals, busy=22.0)
    assert shown[0].endswith("11.0 s in all, 50% of the cores' busy seconds")
    assert "72.7%" in shown[1] and shown[1].endswith("node (vitest 1) (1 process)")
    assert shown[2].endswith("node (2 processes)")
