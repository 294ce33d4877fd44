# SPDX-License-Identifier: MIT
"""cc-probe on aarch64, arm, riscv64, loongarch64, s390x and ppc64le (templates/<arch>/c/) with clang's
cross targets: each answer is derived here without asmcap — the probe
compiled as cc-probe compiles it (the attribute through ASMCAP_TARGET, or
the `mflags:`), -Werror-clean, then the function's disassembly by the
target's GNU objdump searched for the instruction's mnemonic — and
asmcap's verdict must be the same.  Measured (2026-12, Debian 12):

aarch64 (armv8-a)         clang-14  clang-19 clang-22
  every -m answer, crc32-inline, pmull-intrinsic,
  neon-inline                                       yes  yes  yes
  the other target("+x") answers                   no   yes  yes
  sme-i16i64-inline                                 no   no   no
clang-14's arm_neon.h, arm_acle.h and arm_sve.h declare an intrinsic only
under the -march macros: a target attribute cannot reach it.  FFmpeg's
bare inline forms follow the build's -march alone (FLAG_CASES):
  sme-i16i64-inline, -march=armv9-a+sme             no   no   no
  sme-i16i64-inline, armv9-a + the extension        yes  yes  yes
    (clang-14's driver spells it +sme-i64, rejecting +sme-i16i64)
  neon-inline, -march=armv8-a+nosimd                no   no   no
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
loongarch64 (-march=loongarch64: LA64 without LSX)       clang-19 clang-22
  lsx-intrinsic-m, lasx-intrinsic-m                           yes  yes
  lsx-intrinsic, lasx-intrinsic (target("lsx"), "lasx")        no   no
lsxintrin.h/lasxintrin.h declare their types only under -mlsx/-mlasx (or an
-march that has them): the target attribute, which clang takes, cannot
reach them.  clang-14 has no LoongArch target.
s390x (z10)
  vx-intrinsic-m (-mzvector -march=z13)             yes  yes  yes
  vx-intrinsic, target("arch=z13") (no -mzvector:
    no `vector' keyword)                            no   no   no
  vx-intrinsic, -mzvector in the build's flags      yes  yes  yes
  vx-inline (libgcrypt's `.machine "z13+vx"')       no   no   no
clang takes no `z13+vx' machine and resets to its default, so the inline
form stays no under -march=z13 too (test_s390x_inline_ignores_march).
ppc64le (-mcpu=pwr8)
  every answer                                      yes  yes  yes
  vcipher-builtin under -mcpu=pwr7                  no   no   no
  vcipher-builtin-m under -mcpu=pwr7 (-mcrypto)     yes  no   no
target("crypto") does not bring __builtin_crypto_vcipher to a POWER7
build; -mcrypto does on clang-14, while clang-19/22 say it "needs target
feature power8-vector".  FFmpeg's
HAVE_XFORM_ASM ("Z" printed by %y: lwzx r9, RA, RB) and HAVE_IBM_ASM
(`add 0, 0, 0') are holds: probes, read here from the disassembly too
(test_ppc64le_holds_probes).
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
                       ["llvm-objdump-14", "--mattr=+v,+zbb,+zbc"]),
           "loongarch64": (["--target=loongarch64-linux-gnu", "-march=loongarch64"], ["llvm-objdump-19"]),
           "s390x": (["--target=s390x-linux-gnu", "-march=z10"], ["s390x-linux-gnu-objdump"]),
           "ppc64le": (["--target=powerpc64le-linux-gnu", "-mcpu=pwr8"], ["powerpc64le-linux-gnu-objdump"])}
# arch -> insn: feature -> a mnemonic of the instruction its probe compiles to
SHARED = {"aes": r"aese", "sha2": r"sha256h(\.32)?\s", "crc32": r"crc32[wx]\s"}   # A64 and A32 alike
MNEMONIC = {"aarch64": {**SHARED, "pmull": r"pmull\s", "sha3": r"eor3\s", "dotprod": r"sdot\s",
                        "i8mm": r"smmla\s", "sve": r"add\s+z\d", "neon": r"ext\s+v\d",
                        "sme-i16i64": r"smopa\s+za\d\.d"},
            "arm": {**SHARED, "neon": r"vadd\.i32\s"},
            "riscv64": {"v": r"vadd\.vv\s", "zbb": r"(ctz|orc\.b)\s", "zbc": r"clmul\s"},
            "loongarch64": {"lsx": r"(?<!x)vadd\.w\s", "lasx": r"xvadd\.w\s"},
            "s390x": {"vx": r"\sv(aq|x)\s"},
            "ppc64le": {"vcipher": r"vcipher\s", "vsx": r"(lxvd2x|lxvw4x|lxv)\s", "dcbzl": r"dcbzl\s"}}
# The answers clang-14 gives yes (aarch64/riscv64) where clang-19/22 say yes
# to every one; arm is the same on all three.
CLANG14_YES = {
    "aarch64": {"pmull-intrinsic", "crc32-inline", "neon-inline"} | {f"{n}-intrinsic-m" for n in
                ("pmull", "aes", "sha2", "sha3", "dotprod", "i8mm", "crc32", "sve")},
    "riscv64": {"zbb-builtin-m"},
}
S390X_YES = {"vx-intrinsic-m"}
ARM_YES = {"arm-neon-inline"} | {f"arm-{n}-intrinsic-m" for n in ("neon", "aes", "sha2", "crc32")}
# Bare inline asm of an extension the base -march lacks: no on every compiler
# (FLAG_CASES gives the flags that make it yes).
BASE_NO = {"sme-i16i64-inline"}
# (answer, -march, expected): FFmpeg's inline forms, decided by the build's
# flags alone.  "{ext}" is SME I16I64 as this driver spells it.
FLAG_CASES = [("sme-i16i64-inline", "armv9-a+sme", "no"),     # smstart assembles, the .d smopa not
              ("sme-i16i64-inline", "armv9-a+{ext}", "yes"),
              ("neon-inline", "armv8-a+nosimd", "no")]


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


def independent(cc, arch, path, h, mflags, extra=()):
    """'yes' when the probe compiles warning-free and asmcap_probe's code
    holds the mnemonic, else 'no' (or 'broken': compiled, instruction absent).
    `extra` follows the target's flags (a later -march wins)."""
    flags, objdump = TARGETS[arch]
    flags = [*flags, *extra]
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
    return "yes" if re.search(MNEMONIC[arch][h["insn"]], body) else "broken"


def expected(cc, arch, name):
    if name in BASE_NO:
        return "no"
    if arch == "arm":
        return "yes" if name in ARM_YES else "no"
    if arch == "loongarch64":
        return "no" if name in ("lsx-intrinsic", "lasx-intrinsic") else "yes"
    if arch == "s390x":
        return "yes" if name in S390X_YES else "no"
    if arch == "ppc64le":
        return "yes"
    return "yes" if cc != "clang-14" or name in CLANG14_YES[arch] else "no"


@pytest.mark.parametrize("cc,arch", [(cc, a) for cc in ("clang-14", "clang-19", "clang-22")
                                     for a in sorted(TARGETS)
                                     if (cc, a) != ("clang-14", "loongarch64")])
def test_cross_cc_probe_agrees_with_the_objects(cc, arch):
    need_tool(cc)
    want = answers(arch)
    got = cc_probe(cc, arch, want)
    mine = {n: independent(cc, arch, *want[n]) for n in want}
    assert got == mine
    assert mine == {n: expected(cc, arch, n) for n in want}


def cc_probe(cc, arch, names, extra=()):
    """asmcap's {answer: status} for `names` under the target's flags + extra."""
    flags = TARGETS[arch][0]
    r = asmcap("cc-probe", "--cc", f"{cc} {flags[0]}", "--cflags", " ".join(["-O2", *flags[1:], *extra]),
               "--features", ",".join(names), "--format", "json",
               timeout=600)
    assert r.returncode == 0, r.stderr
    return {n: v["status"] for n, v in json.loads(r.stdout)["features"].items() if n in names}


def driver_spelling(cc, names):
    """The first of `names` this driver takes in -march=armv9-a+NAME."""
    for name in names:
        r = subprocess.run([cc, TARGETS["aarch64"][0][0], f"-march=armv9-a+{name}", "-x", "c", "-c",
                            "-", "-o", "/dev/null"], input="", capture_output=True, text=True)
        if r.returncode == 0:
            return name
    pytest.fail(f"{cc} takes none of -march=armv9-a+{{{','.join(names)}}}")


@pytest.mark.parametrize("cc", ["clang-14", "clang-19", "clang-22"])
def test_cross_inline_follows_the_build_flags(cc):
    need_tool(cc)
    want = answers("aarch64")
    ext = driver_spelling(cc, ("sme-i16i64", "sme-i64"))
    for name, march, verdict in FLAG_CASES:
        extra = [f"-march={march.format(ext=ext)}"]
        assert cc_probe(cc, "aarch64", [name], extra) == {name: verdict}, extra
        assert independent(cc, "aarch64", *want[name], extra) == verdict, extra


def test_every_cross_probe_names_a_feature_of_its_catalog():
    for arch in TARGETS:
        for path, h, _ in answers(arch).values():
            assert (TEMPLATES / arch / f"{h['insn']}.s").exists(), path
            assert h["insn"] in MNEMONIC[arch], path


@pytest.mark.parametrize("cc", ["clang-19", "clang-22"])
def test_s390x_inline_ignores_march(cc):
    """libgcrypt's inline check stays no when the build's -march=z13 has the
    vector facility: clang's `.machine' with a name it does not know resets
    the machine; the same instructions without it are yes there."""
    need_tool(cc)
    want = answers("s390x")
    assert cc_probe(cc, "s390x", ["vx-inline"], ["-march=z13"]) == {"vx-inline": "no"}
    assert independent(cc, "s390x", *want["vx-inline"], ["-march=z13"]) == "no"
    path, h, _ = want["vx-inline"]
    plain = pathlib.Path(tempfile.mkdtemp()) / "vx-plain.c"
    plain.write_text(path.read_text().replace('.machine \\"z13+vx\\"\\n\\t', ""))
    assert '__asm__ volatile("vx ' in plain.read_text()
    assert independent(cc, "s390x", plain, h, None, ["-march=z13"]) == "yes"


@pytest.mark.parametrize("cc", ["clang-19", "clang-22"])
def test_s390x_attribute_answer_needs_mzvector(cc):
    """target("arch=z13") gives the vector facility, not the language
    extension: with -mzvector in the build's flags the attribute answer is yes."""
    need_tool(cc)
    want = answers("s390x")
    assert cc_probe(cc, "s390x", ["vx-intrinsic"], ["-mzvector"]) == {"vx-intrinsic": "yes"}
    assert independent(cc, "s390x", *want["vx-intrinsic"], ["-mzvector"]) == "yes"


@pytest.mark.parametrize("cc", ["clang-14", "clang-19", "clang-22"])
def test_ppc64le_vcipher_needs_power8(cc):
    """Under -mcpu=pwr7 the builtin is not there under target("crypto");
    -mcrypto brings it on clang-14 only (clang-19/22: "needs target
    feature power8-vector"); VSX's vec_xl is there."""
    need_tool(cc)
    want = answers("ppc64le")
    names = ["vcipher-builtin", "vcipher-builtin-m", "vec-xl-intrinsic"]
    got = cc_probe(cc, "ppc64le", names, ["-mcpu=pwr7"])
    assert got == {n: independent(cc, "ppc64le", *want[n], ["-mcpu=pwr7"]) for n in names}
    assert got == {"vcipher-builtin": "no", "vcipher-builtin-m": "yes" if cc == "clang-14" else "no",
                   "vec-xl-intrinsic": "yes"}


# holds: probes: what the disassembly must show (GNU objdump's spelling)
PPC_HOLDS = {"xform-inline": r"lwzx\s+r9,(0|r\d+),r\d+$", "ibm-asm-inline": r"add\s+r0,r0,r0$"}


@pytest.mark.parametrize("opt", ["-O2", "-O0"])
@pytest.mark.parametrize("cc", ["clang-14", "clang-19", "clang-22"])
def test_ppc64le_holds_probes(cc, opt):
    need_tool(cc)
    flags = [*TARGETS["ppc64le"][0], opt]
    mine = {}
    for name, pattern in PPC_HOLDS.items():
        with tempfile.TemporaryDirectory() as tmp:
            obj = pathlib.Path(tmp, "p.o")
            r = subprocess.run([cc, *flags, "-Werror", "-c", str(TEMPLATES / "ppc64le" / "c" / f"{name}.c"),
                                "-o", str(obj)], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
            dis = subprocess.run([need_tool("powerpc64le-linux-gnu-objdump"), "-d", "--no-show-raw-insn",
                                  str(obj)], capture_output=True, text=True, check=True).stdout
        mine[name] = "yes" if re.search(pattern, dis.split("<asmcap_probe>:", 1)[1], re.M) else "broken"
    r = asmcap("cc-probe", "--cc", f"{cc} {flags[0]}", "--cflags", " ".join(flags[1:]),
               "--features", ",".join(PPC_HOLDS), "--format", "json")
    assert r.returncode == 0, r.stderr
    got = {n: v["status"] for n, v in json.loads(r.stdout)["features"].items() if n in PPC_HOLDS}
    assert got == mine == dict.fromkeys(PPC_HOLDS, "yes")
