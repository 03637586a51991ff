"""Run a command with the socket() system call refused: `python -I no_network.py CMD...`.

The fallback of sandbox.py where no empty network namespace can be made (`unshare -rn`
needs unprivileged user namespaces, which some distributions switch off). A seccomp
filter needs no privilege once no_new_privs is set, and it stays on the process and
every child after exec: socket() of any family fails with EACCES, and io_uring (which
can open sockets without that call) is refused too. The checkers only parse files and
open no socket, so they run unchanged.

Exit status 125 (and nothing run) when the filter cannot be installed: another
architecture than x86_64 or aarch64, or a kernel without seccomp.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys

# (audit architecture, socket() number, io_uring_setup() number)
_ARCHES = {
    "x86_64": (0xC000003E, 41, 425),
    "aarch64": (0xC00000B7, 198, 425),
}
_LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JUMP_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JUMP_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RETURN = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_REFUSE = 0x00050000 | errno.EACCES  # SECCOMP_RET_ERRNO
_X32_BIT = 0x40000000  # x86_64's x32 system calls: refused, none of our tools use them
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
FAILED = 125


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def _op(code: int, jump_true: int, jump_false: int, value: int) -> bytes:
    return struct.pack("=HBBI", code, jump_true, jump_false, value)


def filter_program(machine: str) -> bytes:
    """The BPF program: refuse socket() and io_uring_setup(), allow everything else."""
    arch, socket_nr, uring_nr = _ARCHES[machine]
    return b"".join(
        [
            _op(_LOAD_WORD, 0, 0, 4),  # seccomp_data.arch
            _op(_JUMP_EQUAL, 1, 0, arch),
            _op(_RETURN, 0, 0, _REFUSE),  # another ABI (32-bit): refuse every call
            _op(_LOAD_WORD, 0, 0, 0),  # seccomp_data.nr
            _op(_JUMP_AT_LEAST, 3, 0, _X32_BIT),
            _op(_JUMP_EQUAL, 2, 0, socket_nr),
            _op(_JUMP_EQUAL, 1, 0, uring_nr),
            _op(_RETURN, 0, 0, _ALLOW),
            _op(_RETURN, 0, 0, _REFUSE),
        ]
    )


def install() -> bool:
    """The filter on this process (and its future children); False when not possible."""
    machine = platform.machine()
    if sys.platform != "linux" or machine not in _ARCHES:
        return False
    code = filter_program(machine)
    program = _Program(len(code) // 8, code)
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if prctl(_PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
        return False
    return bool(prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) == 0)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: no_network.py COMMAND [ARG...]", file=sys.stderr)
        return FAILED
    if not install():
        print("no_network: cannot install the seccomp filter here", file=sys.stderr)
        return FAILED
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        print(f"no_network: {argv[0]}: {exc.strerror}", file=sys.stderr)
    return FAILED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
