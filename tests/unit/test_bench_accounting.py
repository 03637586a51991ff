"""bench/accounting.py reads the kernel's process accounting records (acct_v3): CPU
seconds by command name, comp_t's exponent applied, records of another version skipped."""

from __future__ import annotations

from bench.accounting import RECORD, comp_t, cpu_by_program, lines


def _record(comm: bytes, utime: int, stime: int, version: int = 3) -> bytes:
    times = (utime, stime, 0, 0, 0, 0, 0, 0)
    return RECORD.pack(0, version, 0, 0, 0, 0, 1, 1, 0, 0.0, *times, comm)


def test_comp_t_has_a_base_8_exponent_in_its_top_bits() -> None:
    assert comp_t(250) == 250
    assert comp_t((2 << 13) | 3) == 3 * 64


def test_cpu_by_program_sums_user_and_system_time_per_command() -> None:
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
    assert totals == {"node": 3.0, "node (vitest 1)": 8.0}
    shown = lines(totals, busy=22.0)
    assert shown[0].endswith("11.0 s in all, 50% of the cores' busy seconds")
    assert shown[1].split()[-1] == "1)" and "72.7%" in shown[1]
