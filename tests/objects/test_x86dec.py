# SPDX-License-Identifier: MIT
"""probe/arch/x86dec.c against binutils' disassembler: on whole libraries every
instruction objdump sees starts where ours does and has the same length."""
import re
import subprocess

import pytest

from objtools import reader_helper  # noqa: F401 (a fixture)

LIBS = [("/usr/lib/x86_64-linux-gnu/libgmp.so.10", 64),   # many CPU-specific asm kernels
        ("/usr/lib/x86_64-linux-gnu/libc.so.6", 64),      # SSE/AVX2/EVEX string functions
        ("/usr/lib32/libc.so.6", 32)]


def objdump_lengths(lib):
    out = subprocess.run(["objdump", "-d", "-j", ".text", "--insn-width=16", lib],
                         capture_output=True, text=True, check=True).stdout
    for m in re.finditer(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$", out, re.M):
        if "(bad)" not in m.group(3):
            yield int(m.group(1), 16), len(m.group(2).split()), m.group(3)


@pytest.mark.parametrize("lib,bits", LIBS, ids=lambda v: str(v))
def test_lengths_match_objdump(reader_helper, lib, bits):
    r = subprocess.run([str(reader_helper), "--lengths", lib, ".text", str(bits)],
                       capture_output=True, text=True, check=True)
    ours = {int(a, 16): int(n) for a, n in (l.split() for l in r.stdout.splitlines())}
    n, wrong = 0, []
    for addr, length, text in objdump_lengths(lib):
        n += 1
        if ours.get(addr) != length:
            wrong.append((hex(addr), ours.get(addr), length, text))
    assert n > 50000, n
    assert not wrong, wrong[:20]
