# SPDX-License-Identifier: MIT
"""The decoders of the modules (probe/arch/) and audit on aarch64, arm (A32 and
Thumb), riscv64, loongarch64, s390x and ppc64le objects, checked against
binutils' cross disassemblers (llvm-objdump-19 for loongarch64: Debian 12 has
no binutils for it) on code clang builds."""
import json
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, asmcap, built, have, need_tool, probe_sources
from objtools import sanitized_tool

# Everything asmcap is made of but its main(): the modules reach the catalog and the CPU readers.
HELPER_SRC = [c for c in probe_sources() if not c.endswith("/probe/main.c")]

# name: (clang target and flags, objdump)
TARGETS = {
    "aarch64": (["--target=aarch64-linux-gnu"], "aarch64-linux-gnu-objdump"),
    "arm": (["--target=armv7a-linux-gnueabihf", "-marm"], "arm-linux-gnueabihf-objdump"),
    "thumb": (["--target=armv7a-linux-gnueabihf", "-mthumb"], "arm-linux-gnueabihf-objdump"),
    "riscv64": (["--target=riscv64-linux-gnu"], "riscv64-linux-gnu-objdump"),
    "loongarch64": (["--target=loongarch64-linux-gnu"], "llvm-objdump-19"),
    "ppc64le": (["--target=powerpc64le-linux-gnu"], "powerpc64le-linux-gnu-objdump"),
    # big-endian data: A64 instructions stay little-endian words; armeb
    # objects store A32 words and Thumb halfwords big-endian (BE32)
    "aarch64_be": (["--target=aarch64_be-linux-gnu"], "aarch64-linux-gnu-objdump"),
    "armeb": (["--target=armebv7a-linux-gnueabihf", "-marm"], "arm-linux-gnueabihf-objdump"),
    "thumbeb": (["--target=armebv7a-linux-gnueabihf", "-mthumb"], "arm-linux-gnueabihf-objdump"),
    # big-endian 2-, 4- and 6-byte instructions; z13 for the vector code
    "s390x": (["--target=s390x-linux-gnu", "-march=z13"], "s390x-linux-gnu-objdump"),
}
CLANG = "clang-19"


@pytest.fixture(scope="session")
def isatool(tmp_path_factory):
    """tests/objects/isatool.c with the decoders and readers."""
    return sanitized_tool(tmp_path_factory, "isatool", [*HELPER_SRC, str(built(BUILD / "catalog.c"))])


def need(*tools):
    missing = [t for t in tools if not have(t)]
    if missing:
        pytest.skip(f"not installed: {' '.join(missing)}")


def build(tmp_path, target, src, *flags, suffix="c"):
    """Compile (or assemble) src for a TARGETS entry; the object's path."""
    cflags, objdump = TARGETS[target]
    need(CLANG, objdump)
    name = f"{target}-{abs(hash((src, flags))) % 10**8}"
    s = tmp_path / f"{name}.{suffix}"
    s.write_text(src)
    o = tmp_path / f"{name}.o"
    subprocess.run([CLANG, *cflags, *flags, "-c", str(s), "-o", str(o)], check=True,
                   capture_output=True)
    return o


def ppc_insns(out):
    """{offset: (length, word)} from GNU objdump's Power listing: each word's
    bytes in file order (little-endian), a prefixed instruction's suffix on
    a line of its own without a mnemonic; the word is the prefix."""
    got, last = {}, None
    for m in re.finditer(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} ){4})\t?(\S*)", out, re.M):
        off, word = int(m.group(1), 16), int.from_bytes(bytes.fromhex(m.group(2)), "little")
        if not m.group(3):
            got[last] = (8, got[last][1])       # the suffix of the instruction before
            continue
        got[off], last = (4, word), off
    return got


def objdump_insns(target, obj, section=".text"):
    """{offset: (length, word)} of what objdump shows as instructions (data
    in $d ranges is shown as .word/.short and left out)."""
    out = subprocess.run([TARGETS[target][1], "-d", "-j", section, str(obj)],
                         capture_output=True, text=True, check=True).stdout
    if target == "ppc64le":
        return ppc_insns(out)
    got = {}
    if TARGETS[target][1].startswith("llvm-objdump"):
        # llvm-objdump shows the bytes in file order: little-endian words
        for m in re.finditer(r"^\s*([0-9a-f]+): ((?:[0-9a-f]{2} )+)\s*\t(\S*)", out, re.M):
            b = bytes.fromhex(m.group(2))
            if not m.group(3).startswith(".") and m.group(3) != "<unknown>":
                got[int(m.group(1), 16)] = (len(b), int.from_bytes(b, "little"))
        return got
    # s390x objdump shows an instruction's bytes one by one, in order
    for m in re.finditer(r"^\s*([0-9a-f]+):\t([0-9a-f]+(?: [0-9a-f]+)*)\s*\t(\S*)", out, re.M):
        if m.group(3).startswith("."):
            continue
        parts = m.group(2).split()
        got[int(m.group(1), 16)] = (sum(len(p) for p in parts) // 2, int("".join(parts), 16))
    return got


def walk(isatool, target, obj, section=".text"):
    r = subprocess.run([str(isatool), "walk", str(obj), section],
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    insns, undecoded = {}, []
    for line in r.stdout.splitlines():
        off, n, w = line.split()
        if n == "-":
            undecoded.append((int(off, 16), int(w)))
        else:
            insns[int(off, 16)] = (int(n), int(w, 16))
    return insns, undecoded


SAMPLE = r"""
#include <stdint.h>
#include <string.h>
uint32_t mix(const uint32_t *p, int n)
{ uint32_t s = 0; for (int i = 0; i < n; i++) s += p[i] * 2654435761u; return s; }
const char *pick(int x)
{ switch (x) { case 0: return "a"; case 1: return "b"; case 2: return "c";
               case 3: return "d"; case 4: return "e"; case 5: return "f"; default: return "z"; } }
uint64_t big(uint64_t x) { return x * 0x123456789abcdefull + 0xfedcba9876543210ull; }
int many(int a, int b, int c, int d, int e, int f, int g, int h)
{ char buf[300]; memset(buf, a, sizeof buf); return buf[b] + buf[c] * d - e * f + g / (h | 1); }
"""


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("opt", ["-O0", "-O2", "-Os"])
def test_walk_matches_objdump(isatool, tmp_path, target, opt):
    # POWER10, so that clang emits prefixed (8-byte) instructions
    obj = build(tmp_path, target, SAMPLE, opt, *(["-mcpu=pwr10"] if target == "ppc64le" else []))
    want = objdump_insns(target, obj)
    got, undecoded = walk(isatool, target, obj)
    assert len(want) > 20
    assert got == want
    # Power: the all-zero words (traceback tables, padding) are no
    # instruction; objdump -z shows each as `.long 0x0'
    assert undecoded == (zero_words(target, obj) if target == "ppc64le" else [])


def zero_words(target, obj):
    out = subprocess.run([TARGETS[target][1], "-d", "-z", "-j", ".text", str(obj)],
                         capture_output=True, text=True, check=True).stdout
    return [(int(m.group(1), 16), 4) for m in re.finditer(r"^\s*([0-9a-f]+):\t00 00 00 00 \t\.long 0x0$", out, re.M)]


def audit_rows(obj):
    """asmcap audit (the ASan build under make test): {function: row}."""
    r = asmcap("audit", obj, "--format", "json")
    assert r.returncode == 0 and "runtime error" not in r.stderr, r.stderr
    return {f["name"]: f for o in json.loads(r.stdout)["objects"] for f in o["functions"]}


def audit_functions(obj):
    return {name: row["features"] for name, row in audit_rows(obj).items()}


AARCH64_SRC = r"""
#include <arm_acle.h>
#include <arm_neon.h>
#include <stdint.h>
uint32_t use_crc(uint32_t c, uint32_t v) { return __crc32w(c, v) ^ __crc32cd(c, v); }
uint64x2_t use_sha3(uint64x2_t a, uint64x2_t b, uint64x2_t c) { return veor3q_u64(a, b, c); }
uint32_t plain(const uint32_t *p, int n) { uint32_t s = 0; for (int i = 0; i < n; i++) s ^= p[i] * 7; return s; }
/* eor3 v0.16b, v1.16b, v2.16b, v3.16b as data ($d), then as an instruction ($x) */
void data_word(void) { __asm__ volatile(".word 0xce020c20"); }
void inst_word(void) { __asm__ volatile(".inst 0xce020c20"); }
"""


# In every armv8-a build: AdvSIMD (the `neon' feature) and the Armv8.0
# instructions (`armv8'), which compilers use for plain C; in every
# armv7-a one the architecture levels below it (movw/movt are armv6t2's)
# and its VFPv3.
A64_BASE = {"neon", "armv8"}
A32_BASE = {"armv5te", "armv6", "armv6t2", "vfp", "vfpv3", "setend"}
# clang's loongarch64-linux-gnu default, -march=la64v1.0, includes LSX
LA64_BASE = {"lsx"}
# clang's ppc64le default is POWER8: its vector and crypto units, nothing of
# ISA 3.00 or 3.1
PPC_BASE = {"altivec", "vsx", "power8-vector", "vcipher", "vpmsumd", "vshasigma"}
# what each target's flags in TARGETS give plain C (s390x is built for
# z13, which has the vector facility clang vectorises with)
BASE = {"aarch64": A64_BASE, "aarch64_be": A64_BASE, "loongarch64": LA64_BASE, "ppc64le": PPC_BASE,
        "s390x": {"vx"}}


def test_aarch64_features_in_their_functions(tmp_path):
    obj = build(tmp_path, "aarch64", AARCH64_SRC, "-O2", "-march=armv8.2-a+sha3+crc")
    fn = audit_functions(obj)
    assert fn["use_crc"] == {"crc32": 2}
    assert fn["use_sha3"] == {"sha3": 1}
    # AdvSIMD (neon) is part of armv8-a: the vectorised loop may use it
    assert set(fn["plain"]) <= A64_BASE
    # Data that looks like EOR3 is not code; the same word emitted as an instruction is.
    assert fn["data_word"] == {} and fn["inst_word"] == {"sha3": 1}
    # objdump agrees: data_word holds a .word, inst_word an eor3.
    dis = subprocess.run(["aarch64-linux-gnu-objdump", "-d", str(obj)], capture_output=True,
                         text=True, check=True).stdout
    assert re.search(r"<data_word>:\n\s+\w+:\s+ce020c20\s+\.word", dis)
    assert re.search(r"<inst_word>:\n\s+\w+:\s+ce020c20\s+eor3", dis)


def test_plain_build_uses_no_extension(tmp_path):
    """Default flags: nothing optional in any function of a real C file
    (armv7-a Thumb code is Thumb-2: its 32-bit encodings are what thumb2 is;
    AArch64 code may use AdvSIMD and the Armv8.0 base, ppc64le POWER8's,
    s390x z13's vector facility)."""
    for target in TARGETS:
        obj = build(tmp_path, target, (ROOT / "examples" / "sha1" / "sha1.c").read_text(), "-O2")
        fn = audit_functions(obj)
        base = {"thumb2"} if target.startswith("thumb") else set()
        used = {f for features in fn.values() for f in features}
        used -= BASE.get(target, A32_BASE)
        assert "sha1_block" in fn and used == base, (target, fn)


ARM_SRC = r"""
#include <arm_acle.h>
#include <arm_neon.h>
#include <stdint.h>
uint32_t use_crc(uint32_t c, uint32_t v) { return __crc32w(c, v); }
uint8x16_t use_aes(uint8x16_t d, uint8x16_t k) { return vaeseq_u8(d, k); }
int plain(int a, int b) { return a / (b | 1); }
"""


@pytest.mark.parametrize("mode", ["-marm", "-mthumb"])
def test_arm_a32_and_thumb(tmp_path, mode):
    obj = build(tmp_path, "arm" if mode == "-marm" else "thumb", ARM_SRC, "-O2", mode,
                "-march=armv8-a+crc", "-mfpu=crypto-neon-fp-armv8")
    fn = audit_functions(obj)
    assert fn["use_crc"].get("crc32") == 1 and fn["use_aes"].get("aes") == 1
    assert "neon" in fn["use_aes"]              # the q registers move through NEON
    assert ("thumb2" in fn["use_crc"]) == (mode == "-mthumb")
    assert not {"crc32", "aes", "neon"} & set(fn["plain"])


RISCV_SRC = r"""
int use_zbb(unsigned long x) { return __builtin_clzl(x | 1); }
long use_zba(const long *p, long i) { return p[i]; }
long plain(long a, long b) { return a * b + 7; }
"""


def test_riscv64_zba_zbb(tmp_path):
    obj = build(tmp_path, "riscv64", RISCV_SRC, "-O2", "-march=rv64gc_zba_zbb")
    fn = audit_functions(obj)
    assert fn["use_zbb"] == {"zbb": 1} and fn["use_zba"] == {"zba": 1}
    assert fn["plain"] == {}


LOONGARCH_SRC = r"""
#include <lsxintrin.h>
#include <lasxintrin.h>
__m128i use_lsx(__m128i a, __m128i b) { return __lsx_vadd_b(a, b); }
__m256i use_lasx(__m256i a, __m256i b) { return __lasx_xvadd_b(a, b); }
int use_crc(int c, long v) { return __builtin_loongarch_crc_w_d_w(v, c); }
long plain(long a, long b) { return a * b + 7; }
"""


def test_loongarch64_lsx_lasx_crc(tmp_path):
    """Each intrinsic's instruction is found in its function and only there;
    -mno-lsx drops LSX from the plain code the default (la64v1.0) may
    vectorise with it."""
    obj = build(tmp_path, "loongarch64", LOONGARCH_SRC, "-O2", "-mlasx")
    fn = audit_functions(obj)
    assert fn["use_lsx"].get("lsx", 0) >= 1 and "lasx" not in fn["use_lsx"], fn
    assert fn["use_lasx"].get("lasx", 0) >= 1 and "lsx" not in fn["use_lasx"], fn
    assert fn["use_crc"] == {"crc32": 1} and fn["plain"] == {}
    obj = build(tmp_path, "loongarch64", (ROOT / "examples" / "sha1" / "sha1.c").read_text(), "-O2",
                "-mno-lsx")
    assert {f for features in audit_functions(obj).values() for f in features} == set()


def test_riscv64_longer_formats_skipped_whole(isatool, tmp_path):
    """A 48-bit instruction (low bits 011111) is not decoded but skipped
    whole: the c.nop after it is found where objdump finds it.  The mapping
    symbols go, so the bytes count as code."""
    src = ".text\n.globl f\n.type f,@function\nf:\n.2byte 0x001f, 0x1234, 0x5678\nc.nop\n.size f, .-f\n"
    obj = build(tmp_path, "riscv64", src, suffix="s")
    subprocess.run(["riscv64-linux-gnu-objcopy", "--strip-symbol=$d", "--strip-symbol=$x", str(obj)],
                   check=True)
    insns, undecoded = walk(isatool, "riscv64", obj)
    assert undecoded == [(0, 6)] and insns == {6: (2, 0x0001)}
    assert audit_rows(obj)["f"]["undecoded"] == 6 and audit_rows(obj)["f"]["features"] == {}


ARMEB_SRC = """\t.syntax unified
\t.text
\t.globl f
\t.type f, %function
f:
\tsdiv r0, r1, r2
\tbx lr
\t.word 0xe710f211
\t.size f, .-f
\t.globl g
\t.type g, %function
\t.thumb_func
\t.thumb
g:
\tadd.w r0, r1, r2
\tbx lr
\t.size g, .-g
"""


def test_armeb_object_and_images(tmp_path):
    """One big-endian ARM source as an object (A32 words and Thumb
    halfwords stored big-endian), a BE32 image (the same) and a BE8 image
    (`ld --be8`: instructions little-endian, EF_ARM_BE8 set, data still
    big-endian).  The bytes of each are checked first; then audit finds
    SDIV in f and Thumb-2 in g in all three, and the .word that looks like
    SDIV is data, not code."""
    for tool in ("arm-linux-gnueabihf-as", "arm-linux-gnueabihf-ld", "readelf"):
        need_tool(tool)
    src = tmp_path / "eb.s"
    src.write_text(ARMEB_SRC)
    obj = tmp_path / "eb.o"
    subprocess.run(["arm-linux-gnueabihf-as", "-EB", "-march=armv7ve", str(src), "-o", str(obj)], check=True)
    files = {"object": obj, "BE32 image": tmp_path / "be32", "BE8 image": tmp_path / "be8"}
    subprocess.run(["arm-linux-gnueabihf-ld", "-EB", "-e", "f", str(obj), "-o", str(files["BE32 image"])],
                   check=True)
    subprocess.run(["arm-linux-gnueabihf-ld", "-EB", "--be8", "-e", "f", str(obj), "-o", str(files["BE8 image"])],
                   check=True)
    # A32 sdiv r0, r1, r2 and bx lr; the .word (data: big-endian in every
    # file); Thumb add.w r0, r1, r2 (two halfwords) and bx lr
    a32, data, t32 = ["e710f211", "e12fff1e"], "e710f211", ["eb01", "0002", "4770"]
    for kind, path in files.items():
        out = subprocess.run(["readelf", "-h", "-x", ".text", str(path)], capture_output=True, text=True,
                             check=True).stdout
        stored = "".join(l.split(None, 1)[1][:35].replace(" ", "") for l in out.splitlines()
                         if l.strip().startswith("0x"))
        be8 = kind == "BE8 image"
        assert ("BE8" in out) == be8, out
        order = (lambda h: bytes.fromhex(h)[::-1].hex()) if be8 else (lambda h: h)
        assert stored.startswith("".join(map(order, a32)) + data + "".join(map(order, t32))), (kind, stored)
        fn = audit_functions(path)
        assert fn["f"] == {"idiv": 1}, (kind, fn)
        assert fn["g"] == {"thumb2": 1}, (kind, fn)


def test_aarch64_be_property_note(tmp_path):
    """The property note of a big-endian object is in its byte order:
    readelf reads BTI and PAC from it, and so must audit."""
    obj = build(tmp_path, "aarch64_be", "void g(void);\nvoid f(void) { g(); }\n", "-O2",
                "-mbranch-protection=standard")
    notes = subprocess.run(["readelf", "-n", str(obj)], capture_output=True, text=True, check=True).stdout
    assert "AArch64 feature: BTI, PAC" in notes
    r = asmcap("audit", obj, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert {"bti", "pac"} <= set(json.loads(r.stdout)["objects"][0]["marked"])


def test_armeb_code_sections_cannot_outgrow_the_file(tmp_path):
    """The reader copies big-endian ARM code to put it in instruction
    order; section headers that claim the whole file as code, twice, are
    refused by name instead of copied (a hostile object would make it
    copy the file once per header)."""
    need_tool("arm-linux-gnueabihf-as")
    src = tmp_path / "two.s"
    src.write_text('\t.section .text.a,"ax",%progbits\n\tnop\n\t.section .text.b,"ax",%progbits\n\tnop\n')
    obj = tmp_path / "two.o"
    subprocess.run(["arm-linux-gnueabihf-as", "-EB", str(src), "-o", str(obj)], check=True)
    assert asmcap("audit", obj).returncode == 0, "precondition: the object as assembled reads"
    b = bytearray(obj.read_bytes())
    shoff, shentsize, shnum = (int.from_bytes(b[o:o + n], "big") for o, n in ((32, 4), (46, 2), (48, 2)))
    shstr = shoff + int.from_bytes(b[50:52], "big") * shentsize
    names = int.from_bytes(b[shstr + 16:shstr + 20], "big")
    for i in range(shnum):
        h = shoff + i * shentsize
        name = b[names + int.from_bytes(b[h:h + 4], "big"):].split(b"\0")[0]
        if name in (b".text.a", b".text.b"):
            b[h + 16:h + 20] = (0).to_bytes(4, "big")            # sh_offset: the file's start
            b[h + 20:h + 24] = len(b).to_bytes(4, "big")         # sh_size: all of it
    obj.write_bytes(bytes(b))
    r = asmcap("audit", obj)
    assert r.returncode == 2 and "code sections overlap" in r.stderr, (r.returncode, r.stderr)


S390X_SRC = r"""
#include <stdint.h>
typedef unsigned int v4u __attribute__((vector_size(16)));
v4u add_vec(v4u a, v4u b) { return a + b; }
v4u rev_load(const v4u *p)
{ v4u v = *p; return (v4u){__builtin_bswap32(v[0]), __builtin_bswap32(v[1]),
                           __builtin_bswap32(v[2]), __builtin_bswap32(v[3])}; }
uint64_t plain(uint64_t a, uint64_t b) { return a * b + (a >> 3); }
"""


@pytest.mark.parametrize("march,add,rev", [("z10", set(), set()), ("z13", {"vx"}, {"vx"}),
                                           ("z15", {"vx"}, {"vxe2"})])
def test_s390x_vector_code(tmp_path, march, add, rev):
    """Vector arithmetic is vx (every E7 instruction) once -march has the
    facility; the element byte-reversing load z15 adds is vxe2 alone (VLBR,
    E6 .. 06: its opcode is split between the first and last byte), where
    z13 code byte-swaps with E7 instructions; plain integer code uses
    none.  Each verdict agrees with objdump's mnemonics."""
    obj = build(tmp_path, "s390x", S390X_SRC, "-O2", f"-march={march}")
    got = {n: set(f) for n, f in audit_functions(obj).items()}
    dis = subprocess.run(["s390x-linux-gnu-objdump", "-d", str(obj)], capture_output=True,
                         text=True, check=True).stdout
    assert got == {"add_vec": add, "rev_load": rev, "plain": set()}
    assert ("\tvaf\t" in dis) == bool(add) and ("\tvlbr" in dis) == ("vxe2" in rev)


@pytest.mark.parametrize("prologue,frame", [
    ("aghi %r15,-160", 160),
    ("lay %r15,-4096(%r15)", 4096),            # a 20-bit displacement, DH 0xff
    ("agfi %r15,-1048576", 1048576),           # larger than lay reaches
    ("aghi %r15,-160\n\tla %r15,160(%r15)\n\taghi %r15,-200", 200),  # the deepest point
    ("lgr %r1,%r15", 0),                      # copies %r15, moves nothing
])
def test_s390x_prologue_frame(isatool, tmp_path, prologue, frame):
    """The %r15 arithmetic the s390x prologue reader follows, from GNU as's
    bytes: stmg saves into the caller's 160-byte area and counts nothing."""
    need("s390x-linux-gnu-as")
    src = tmp_path / "f.s"
    src.write_text("\t.text\n\t.globl f\n\t.type f,@function\nf:\n\tstmg %r6,%r15,48(%r15)\n"
                   f"\t{prologue}\n\tlmg %r6,%r15,48(%r15)\n\tbr %r14\n\t.size f,.-f\n")
    obj = tmp_path / "f.o"
    subprocess.run(["s390x-linux-gnu-as", str(src), "-o", str(obj)], check=True)
    r = subprocess.run([str(isatool), "frame", str(obj), "f"], capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    assert int(r.stdout) == frame
