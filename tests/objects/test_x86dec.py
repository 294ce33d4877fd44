# SPDX-License-Identifier: MIT
"""probe/arch/x86dec.c against binutils' disassembler: on whole libraries every
instruction objdump sees starts where ours does and has the same length; and
the encodings newer than those libraries (APX's REX2 and EVEX map 4, the
AVX512-FP16 / AVX10.2 maps 5 and 6, VEX maps 5 and 7), whose lengths
clang-22 gives by assembling each instruction alone."""
import re
import subprocess

import pytest

from conftest import need_tool
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


# One instruction per line, each assembled into a section of its own, so
# the section's size is the instruction's length.  APX: REX2 (d5) with both
# M0 maps, imm8/imm32/imm64/moffs after it; EVEX map 4 (NDD, NF, CCMP/CTEST
# with their immediates, 66 and W for iz, PUSH2/POP2, ZU); EGPRs in the
# EVEX of other maps (B4/X4).  AVX10.2, AVX512-FP16 (maps 5, 6), AMX-FP8
# (VEX map 5), USER_MSR's immediate forms (VEX and EVEX map 7).
NEW_ENCODINGS = """\
add %r16, %r17
add %r16, %r17, %r18
{nf} add %rax, %rbx
add $0x12345678, %r20, %r21
add $0x12, %r20
{nf} add $0x1234, %ax, %bx
add $0x1234, %r20w
imul $0x12345678, %r16, %r17
imul $5, %r16, %r17
imul %r16, %r17
shld $3, %r16, %r17, %r18
shrd %cl, %r16, %r17, %r18
shl $3, %r16, %r17
neg %r16, %r17
ccmpe {dfv=of} $0x12345678, %rax
ccmpe {dfv=of} $5, %al
ctestne {dfv=cf} $0x1234, %ax
ctestne {dfv=cf} $0x12345678, %r16
ctestne {dfv=cf} $5, %r16b
ctestne {dfv=cf} %r16, %r17
cfcmovne %rax, %rbx
setzue %r16b
push2 %r16, %r17
pop2 %r17, %r16
pushp %r16
jmpabs $0x123456789abcdef0
mov %r16, 0x12345678(%r17,%r18,8)
mov $0x123456789, %r16
movl $0x12345678, 0x10(%r31)
test $0x12345678, %r16
test $5, %r16b
bswap %r16
popcnt %r16, %r17
bt $3, %r16
shld $3, %r16, %r17
cmpxchg16b (%r16)
andn %r16, %r17, %r18
rorx $3, %r16, %r17
vpaddd (%r16,%r17,4), %zmm0, %zmm1
kmovq %r16, %k1
urdmsr $0x12345678, %r16
urdmsr $0x12345678, %rax
uwrmsr %rax, $0x12345678
tileloadd (%r16,%r17,1), %tmm0
vminmaxpd $1, (%r20,%r21,2), %zmm1, %zmm0
vcvttps2dqs %zmm1, %zmm0
vaddbf16 %zmm2, %zmm1, %zmm0
vcvt2ph2bf8 %zmm2, %zmm1, %zmm0
vcvthf82ph %ymm1, %zmm0
vmpsadbw $1, %zmm2, %zmm1, %zmm0
vaddph (%r16), %zmm1, %zmm0
vfmadd132ph %zmm2, %zmm1, %zmm0
vfpclassph $3, %zmm1, %k1
tdpbf8ps %tmm2, %tmm1, %tmm0
tmmultf32ps %tmm2, %tmm1, %tmm0
tcvtrowd2ps $3, %tmm1, %zmm0
""".splitlines()


def test_new_encodings_have_clangs_lengths(reader_helper, tmp_path):
    clang = need_tool("clang-22")
    src = tmp_path / "new.s"
    src.write_text("".join(f"\t.section .t{k},\"ax\"\n\t{insn}\n"
                           for k, insn in enumerate(NEW_ENCODINGS)))
    obj = tmp_path / "new.o"
    subprocess.run([clang, "-c", str(src), "-o", str(obj)], check=True)
    dump = subprocess.run([str(reader_helper), str(obj)], capture_output=True, text=True,
                          check=True).stdout
    size = {m[1]: int(m[2]) for m in re.finditer(r"^section \d+ (\.t\d+) size (\d+)", dump, re.M)}
    wrong = []
    for k, insn in enumerate(NEW_ENCODINGS):
        r = subprocess.run([str(reader_helper), "--lengths", str(obj), f".t{k}", "64"],
                           capture_output=True, text=True, check=True)
        if r.stdout.split() != ["0", str(size[f".t{k}"])]:
            wrong.append((insn, size[f".t{k}"], r.stdout))
    assert len(size) == len(NEW_ENCODINGS) and not wrong, wrong


# bytes (llvm-mc-19 -show-encoding, clang-22 -c) -> what the decoder must
# say: length, encoding (0 legacy, 1 VEX, 2 EVEX), map, opcode, pp, W,
# L (-1 legacy), REX2 payload (-1 none)
CLASSES = [
    ("d55801c1", "4 0 0 01 00 1 -1 88"),                 # add %r16,%r17: REX2 R4 B4 W
    ("d5910fafc1", None),                                  # no 0f escape after REX2
    ("d599ce", "3 0 1 ce 00 1 -1 153"),                  # bswap %r30: REX2.M0 is the 0F map
    ("d500a1f0debc9a78563412", "11 0 0 a1 00 0 -1 0"),  # jmpabs: imm64
    ("40d55801c1", None),                                  # REX then REX2: #UD
    ("d5586201c1", None),                                  # REX2 then EVEX: #UD
    ("62ecec1001c1", "6 2 4 01 00 1 0 -1"),              # NDD add in map 4
    ("62fc8c05f7c078563412", "10 2 4 f7 00 1 0 -1"),    # ctest $imm32, %r16
    ("62f40d05f7c03412", "8 2 4 f7 66 0 0 -1"),         # ctest $imm16, %ax
    ("62f57c486dc1", "6 2 5 6d 00 0 2 -1"),              # vcvttps2dqs: map 5
    ("62f3f54852c201", "7 2 3 52 66 1 2 -1"),            # vminmaxpd: map 3 + ib
    ("62f67548 98c2", "6 2 6 98 66 0 2 -1"),             # vfmadd132ph: map 6
    ("c4e568fdc1", "5 1 5 fd 00 0 0 -1"),                # tdpbf8ps: VEX map 5
    ("c4e77bf8c078563412", "9 1 7 f8 f2 0 0 -1"),       # urdmsr $imm32: VEX map 7
    ("c4e678fdc1", None),                                  # VEX map 6: none defined
]


@pytest.mark.parametrize("hexbytes,want", CLASSES, ids=[c[0] for c in CLASSES])
def test_new_prefix_classes(reader_helper, hexbytes, want):
    r = subprocess.run([str(reader_helper), "--decode", "64", hexbytes.replace(" ", "")],
                       capture_output=True, text=True)
    if want is None:
        assert r.returncode == 1 and r.stdout.split()[-1] == "0", r.stdout
    else:
        assert r.returncode == 0 and r.stdout.strip() == want, r.stdout
