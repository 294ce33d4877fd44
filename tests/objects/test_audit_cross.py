"""The fixed-width decoders (probe/arch/{aarch64,arm,riscv64}.c, words.c)
and audit on aarch64, arm (A32 and Thumb) and riscv64 objects, checked
against binutils' cross disassemblers on code clang builds."""
import re
import subprocess

import pytest

from conftest import ROOT, have

from conftest import BUILD

# Everything asmcap is made of but its main(): the modules reach the catalog and the CPU readers.
HELPER_SRC = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("probe/*.c"), *ROOT.glob("probe/arch/*.c")]
                    if p.name != "main.c")

# name: (clang target and flags, objdump)
TARGETS = {
    "aarch64": (["--target=aarch64-linux-gnu"], "aarch64-linux-gnu-objdump"),
    "arm": (["--target=armv7a-linux-gnueabihf", "-marm"], "arm-linux-gnueabihf-objdump"),
    "thumb": (["--target=armv7a-linux-gnueabihf", "-mthumb"], "arm-linux-gnueabihf-objdump"),
    "riscv64": (["--target=riscv64-linux-gnu"], "riscv64-linux-gnu-objdump"),
}
CLANG = "clang-19"


@pytest.fixture(scope="session")
def isatool(tmp_path_factory):
    """tests/objects/isatool.c with the decoders and readers, under ASan/UBSan."""
    exe = tmp_path_factory.mktemp("isatool") / "isatool"
    subprocess.run(["clang-14", "-std=c11", "-g", "-O1", "-Wall", "-Wextra", "-Werror",
                    "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-Iprobe", "-o", str(exe), "tests/objects/isatool.c", *HELPER_SRC,
                    str(BUILD / "catalog.c")],
                   cwd=ROOT, check=True)
    return exe


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


def objdump_insns(target, obj, section=".text"):
    """{offset: (length, word)} of what objdump shows as instructions (data
    in $d ranges is shown as .word/.short and left out)."""
    out = subprocess.run([TARGETS[target][1], "-d", "-j", section, str(obj)],
                         capture_output=True, text=True, check=True).stdout
    got = {}
    for m in re.finditer(r"^\s*([0-9a-f]+):\t([0-9a-f]+(?: [0-9a-f]+)?)\s*\t(\S*)", out, re.M):
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
    obj = build(tmp_path, target, SAMPLE, opt)
    want = objdump_insns(target, obj)
    got, undecoded = walk(isatool, target, obj)
    assert len(want) > 20
    assert got == want
    assert not undecoded
