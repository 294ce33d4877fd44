# SPDX-License-Identifier: MIT
"""cc-probe on aarch64, arm and riscv64 (templates/<arch>/c/) with clang's
cross targets: each answer is derived here without asmcap — the probe
compiled as cc-probe compiles it (the attribute through ASMCAP_TARGET, or
the `mflags:`), -Werror-clean, then the function's disassembly by the
target's GNU objdump searched for the instruction's mnemonic — and
asmcap's verdict must be the same.  Measured (2026-12, Debian 12):

aarch64 (armv8-a)         clang-14  clang-19 clang-22
  every -m answer, crc32-inline, pmull-intrinsic   yes  yes  yes
  the other target("+x") answers                   no   yes  yes
clang-14's arm_neon.h, arm_acle.h and arm_sve.h declare an intrinsic only
under the -march macros: a target attribute cannot reach it.
arm (armv7-a, vfpv3-d16)
  the -m answers, arm-neon-inline                   yes  yes  yes
  target("fpu=neon"), target("arch=armv8-a+...")   no   no   no
clang ignores both attribute forms on ARM (gcc's own), or lacks the
intrinsic behind them.
riscv64 (rv64gc)
  zbb-builtin-m                                     yes  yes  yes
  v-intrinsic-m                                     no   yes  yes   (v1.0 names)
  zbc-builtin-m                                     no   yes  yes
  the target("arch=+x") answers, zbb-inline         no   yes  yes
"""
import json
import re
import subprocess
import tempfile
import pathlib

import pytest

from conftest import ROOT, asmcap, need_tool

TEMPLATES = ROOT / "templates"
TARGETS = {"aarch64": (["--target=aarch64-linux-gnu", "-march=armv8-a"], ["aarch64-linux-gnu-objdump"]),
           "arm": (["--target=armv7a-linux-gnueabihf", "-march=armv7-a", "-mfpu=vfpv3-d16"],
                   ["arm-linux-gnueabihf-objdump"]),
           # GNU objdump 2.40 decodes by the object's rv64gc attribute (Zbb
           # words as .4byte): LLVM's, told every extension the probes use
           "riscv64": (["--target=riscv64-linux-gnu", "-march=rv64gc"],
                       ["llvm-objdump-14", "--mattr=+v,+zbb,+zbc"])}
# insn: feature -> a mnemonic of the instruction its intrinsic compiles to
MNEMONIC = {"pmull": r"pmull\s", "aes": r"aese", "sha2": r"sha256h(\.32)?\s", "sha3": r"eor3\s",
            "dotprod": r"sdot\s", "i8mm": r"smmla\s", "crc32": r"crc32[wx]\s", "sve": r"add\s+z\d",
            "neon": r"vadd\.i32\s", "v": r"vadd\.vv\s", "zbb": r"(ctz|orc\.b)\s", "zbc": r"clmul\s"}
# The answers clang-14 gives yes (aarch64/riscv64) where clang-19/22 say yes
# to every one; arm is the same on all three.
CLANG14_YES = {
    "aarch64": {"pmull-intrinsic", "crc32-inline"} | {f"{n}-intrinsic-m" for n in
                ("pmull", "aes", "sha2", "sha3", "dotprod", "i8mm", "crc32", "sve")},
    "riscv64": {"zbb-builtin-m"},
}
ARM_YES = {"arm-neon-inline"} | {f"arm-{n}-intrinsic-m" for n in ("neon", "aes", "sha2", "crc32")}


def header(path):
    h = {}
    for line in path.read_text().splitlines():
        m = re.match(r"// (\w+): (.*)", line)
        if m:
            h[m.group(1)] = m.group(2)
    return h


def answers(arch):
    """{answer name: (template path, header, -m flags or None)} of the probes
    an insn: proves (the holds: ones: test_cc_probe_inline.py)."""
    out = {}
    for p in sorted((TEMPLATES / arch / "c").glob("*.c")):
        h = header(p)
        if "insn" not in h:
            continue
        out[h["feature"]] = (p, h, None)
        if "mflags" in h:
            out[h["feature"] + "-m"] = (p, h, h["mflags"].split())
    return out


def independent(cc, arch, path, h, mflags):
    """'yes' when the probe compiles warning-free and asmcap_probe's code
    holds the mnemonic, else 'no' (or 'broken': compiled, instruction absent)."""
    flags, objdump = TARGETS[arch]
    attr = "" if mflags or "target" not in h else f'__attribute__((target("{h["target"]}")))'
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = pathlib.Path(tmp, "p.c"), pathlib.Path(tmp, "p.o")
        src.write_text(f"#define ASMCAP_TARGET {attr}\n" + path.read_text())
        r = subprocess.run([cc, *flags, *(mflags or []), "-O2", "-Werror", "-Wno-unused-macros",
                            "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
        if r.returncode:
            return "no"
        dis = subprocess.run([need_tool(objdump[0]), *objdump[1:], "-d", str(obj)], capture_output=True,
                             text=True, check=True).stdout
    body = dis.split("<asmcap_probe>:", 1)[-1]
    return "yes" if re.search(MNEMONIC[h["insn"]], body) else "broken"


def expected(cc, arch, name):
    if arch == "arm":
        return "yes" if name in ARM_YES else "no"
    return "yes" if cc != "clang-14" or name in CLANG14_YES[arch] else "no"


@pytest.mark.parametrize("cc", ["clang-14", "clang-19", "clang-22"])
@pytest.mark.parametrize("arch", sorted(TARGETS))
def test_cross_cc_probe_agrees_with_the_objects(cc, arch):
    need_tool(cc)
    want = answers(arch)
    flags = TARGETS[arch][0]
    r = asmcap("cc-probe", "--cc", f"{cc} {flags[0]}", "--cflags", " ".join(["-O2", *flags[1:]]),
               "--features", ",".join(want), "--format", "json",
               timeout=600)
    assert r.returncode == 0, r.stderr
    got = {n: v["status"] for n, v in json.loads(r.stdout)["features"].items() if n in want}
    mine = {n: independent(cc, arch, *want[n]) for n in want}
    assert got == mine
    assert mine == {n: expected(cc, arch, n) for n in want}


def test_every_cross_probe_names_a_feature_of_its_catalog():
    for arch in TARGETS:
        for path, h, _ in answers(arch).values():
            assert (TEMPLATES / arch / f"{h['insn']}.s").exists(), path
            assert h["insn"] in MNEMONIC, path
