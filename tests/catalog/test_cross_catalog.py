# SPDX-License-Identifier: MIT
"""Every aarch64/arm/riscv64/loongarch64/s390x/ppc64le catalog entry through every installed cross
assembler (GNU as 2.40 from binutils-*-linux-gnu, clang-14/19/22's
integrated assembler), without asmcap: the verdict table per toolchain,
the bytes against `expect:`, at least two assemblers per entry, the
enable lines really needed, and the audit patterns against real encodings
of each feature's instruction class.

    /usr/bin/python3 -m pytest -s tests/catalog/test_cross_catalog.py

prints the tables.  Measured verdicts (2026-12, Debian 12 packages):

aarch64      gas  clang-14 clang-19 clang-22
  cssc                                  yes no yes yes
  gcs sme2                              no  no yes yes
  archext-sme2 archext-sme-i16i64       no  no yes yes
  every other feature                   yes yes yes yes
clang-14 accepts `.arch armv8.2-a+dotprod' (and `+i8mm', `+bogus') and
ignores the extension: it assembles dotprod, i8mm, bf16, fp16, sb and wfxt
only under a level spelling with a `+crc' (`.arch armv8.4-a+crc', the form
FFmpeg and dav1d try), which their templates list after the first.
arm: every feature yes on gas, gas -mthumb, gas without -march, clang-14,
  clang-19, clang-22, but: dn-qn, func and object-arch no on clang (it takes
  `.object_arch armv4' and records Tag_CPU_arch v7, readelf -A), archext-sec
  no on gas without -march
riscv64      gas  clang-14 clang-19 clang-22 clang-19-exp
  zba..zksh v zicbom zicboz zicbop zihintpause zawrs yes no yes yes yes
  option-arch                                    yes no yes yes yes
  zicond zabha zfa zcb zimop zv*                no  no yes yes yes
  zacas                                          no  no no  yes yes
  insn march-rv64ima_zbb march-rv64ima_zba     yes yes yes yes yes
loongarch64  clang-19 clang-22: every feature yes (there is no GNU as for it
  in Debian 12); none needs a directive or -mlsx/-mlasx: all are IN_BASE.
s390x        gas  gas-default clang-14 clang-19 clang-22
  machine-z13-vx                                 yes yes no  no  no
  every other feature                            yes yes yes yes yes
clang-14, clang-19 and clang-22 take `.machine z13' and `arch11' but warn at
libgcrypt's `.machine "z13+vx"' ("not a recognized processor for this
target (ignoring processor)") and then refuse the vector instructions, so
vx answers with its second spelling there; GNU as without -march takes every
instruction without a directive.
clang-14 warns about `.option arch' (and exits 0): a warning rejects, so
clang-14 answers no for every riscv64 feature that needs it.  GNU as 2.40 knows neither
Zicond, Zacas, Zabha, Zfa, Zcb, Zimop nor any vector crypto extension,
nor SME2 or GCS; clang-19 keeps Zacas behind -menable-experimental-extensions.
ppc64le      gas  gas-default  clang-14 clang-19 clang-22
  every feature                                  yes yes yes yes yes
GNU as under -mppc64 refuses every instruction of the catalog without its
`.machine' line, and `.machine pop' ends what `.machine power9' allowed;
clang takes any `.machine' (even `.machine bogus') and every instruction
whatever its -mcpu (POWER10's paddi and MMA under -mcpu=pwr4).
"""
import concurrent.futures
import functools
import re
import subprocess

import pytest

import cross_catalog as cc
from catalog_files import hexbytes
from conftest import need_tool
from cross_classes import CLASS

# What each toolchain answers with the enable lines: `yes` except these.
# sme-i16i64: GNU as 2.40 and clang-14 know it as `sme-i64' (the catalog's
# second spelling), which gives the same bytes
CLANG14_A64_NO = "cssc gcs sme2".split()
GAS_RV_NO = ("zicond zacas zabha zfa zcb zimop zvbb zvbc zvkb zvkg zvkned zvknha "
             "zvknhb zvksed zvksh").split()
# The directive questions: GNU as 2.40 accepts `.arch_extension sha3`,
# `dotprod` and `i8mm` under armv8-a and ignores them (the instruction is
# then refused); clang-14 does not know the names dotprod and i8mm.  clang
# has no `.dn`/`.qn` and no `.func` (on aarch64 neither); GNU as without -march refuses
# `.arch_extension sec` (not on a v7-A base), as it does `idiv`.
GAS_ARCHEXT_IGNORED = {f: "no" for f in ("archext-sha3", "archext-dotprod", "archext-i8mm")}
# `.arch_extension sme2' and `sme-i16i64': names GNU as 2.40 and clang-14
# do not know (an error there; the latter's older name is `sme-i64')
ARCHEXT_UNKNOWN = {f: "no" for f in ("archext-sme2", "archext-sme-i16i64")}
# clang (14, 19, 22) takes `.object_arch armv4' and records Tag_CPU_arch v7
# (FFmpeg's exit-status check says yes there); GNU as records v4
CLANG_ARM_NO = {"dn-qn": "no", "func": "no", "object-arch": "no"}
EXCEPT = {
    "aarch64": {
        "gas": {**{f: "no" for f in ("gcs", "sme2")}, **GAS_ARCHEXT_IGNORED, **ARCHEXT_UNKNOWN},
        "clang-14": {**{f: "no" for f in CLANG14_A64_NO},
                     "archext-dotprod": "no", "archext-i8mm": "no", **ARCHEXT_UNKNOWN, "func": "no"},
        **{f"clang-{v}": {"func": "no"} for v in (19, 22)},
    },
    "arm": {
        "gas-default": {"archext-sec": "no"},
        **{f"clang-{v}": CLANG_ARM_NO for v in (14, 19, 22)},
    },
    "riscv64": {
        "gas": {f: "no" for f in GAS_RV_NO},
        # .insn and the -march flags need no `.option arch', which clang-14
        # warns about (the kernel's as-instr makes that warning fatal: its
        # AS_HAS_OPTION_ARCH is n there too, as option-arch is no)
        "clang-14": {f: "no" for f in cc.load("riscv64")
                     if f != "insn" and f not in cc.FLAG_QUESTIONS["riscv64"]},
        "clang-19": {"zacas": "no"},
    },
    "loongarch64": {},
    "s390x": {f"clang-{v}": {"machine-z13-vx": "no"} for v in (14, 19, 22)},
    "ppc64le": {},
}
# Instructions in the base -march, so that their enable lines cannot be
# shown to be needed (templates/README.md).  vfp and vfpv3 are not: GNU as
# without -march has no FPU.
# loongarch64: LLVM's assembler takes every LSX, LASX, LBT, LVZ and v1.1
# instruction under -march=loongarch64, -mno-lsx and -mno-lasx alike and
# has no directive for them: the catalog has no enable lines there, and
# a build's flags show only in its __loongarch_* macros and C code.
IN_BASE = {("aarch64", "bti"), ("arm", "thumb2"), ("aarch64", "neon"), ("aarch64", "armv8"),
           ("aarch64", "cpuext-simd"),
           ("arm", "armv5te"), ("arm", "armv6"), ("arm", "armv6t2"),
           ("arm", "setend"), ("s390x", "msa"),*(("loongarch64", n) for n in cc.load("loongarch64"))}


def expected(arch, tc_id):
    return {n: EXCEPT[arch].get(tc_id, {}).get(n, "yes") for n in cc.load(arch)}


def pool_map(fn, items):
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        return list(ex.map(fn, items))


@functools.lru_cache(maxsize=None)
def measured(arch):
    """{toolchain id: {feature: (verdict, detail)}}."""
    cat = cc.load(arch)

    def one(job):
        tc, n = job
        return tc[0], n, cc.verdict(arch, tc, cat[n])
    out = {}
    for tc_id, n, r in pool_map(one, [(tc, n) for tc in cc.installed(arch) for n in cat]):
        out.setdefault(tc_id, {})[n] = r
    return out


@functools.lru_cache(maxsize=None)
def bare(arch):
    """{feature: [accepted without its enable lines?, ...]} over the
    toolchains that take it with them, stopping at the first rejection
    (IN_BASE features: all of them)."""
    cat, got = cc.load(arch), measured(arch)

    def one(n):
        out = []
        for tc in cc.installed(arch):
            if got[tc[0]][n][0] == "yes":
                # accepted: not a `no' (an attribute's: recorded, too)
                out.append(cc.verdict_with(arch, tc, cat[n], 0, enable=False)[0] != "no")
                if not out[-1] and (arch, n) not in IN_BASE:
                    break
        return n, out
    return dict(pool_map(one, list(cat)))


def need_all(arch):
    missing = [tc[0] for tc in cc.TOOLCHAINS[arch] if tc not in cc.installed(arch)]
    if missing:
        pytest.skip(f"not installed: {missing} (ci/deps installs them)")


def table(arch, got):
    ids = list(got)
    lines = [f"{arch} verdicts: " + "  ".join(ids)]
    for n in sorted(cc.load(arch)):
        lines.append(f"  {n:12s} " + "  ".join(f"{got[t][n][0]:>{len(t)}}" for t in ids))
    return "\n".join(lines)


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_verdict_table(arch):
    """Each toolchain's verdicts equal the measured table; never `broken`."""
    got = measured(arch)
    print("\n" + table(arch, got))
    for tc_id, res in got.items():
        verdicts = {n: r[0] for n, r in res.items()}
        assert verdicts == expected(arch, tc_id), {
            n: res[n] for n in res if res[n][0] != expected(arch, tc_id)[n]}
    need_all(arch)


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_two_assemblers_per_entry(arch):
    need_all(arch)
    got = measured(arch)
    asm_of = {tc[0]: tc[1] for tc in cc.TOOLCHAINS[arch]}
    cat = cc.load(arch)
    for n in cat:
        ok = {asm_of[t] for t in got if got[t][n][0] == "yes"}
        if len(ok) < 2 and cc.DIRECTIVES[arch].get(n, (None,))[0]:
            # a directive only GNU as knows: its bytes, from another assembler
            # given the same instructions without it (the bytes only: not
            # the attribute the directive is asked for)
            plain = {**{k: v for k, v in cat[n].items() if k != "attribute"},
                     "body": cc.DIRECTIVES[arch][n][0]}
            if (arch, n) in cc.PLAIN_OWN_ENABLE:
                plain["enable"] = []
            ok |= {asm_of[tc[0]] for tc in cc.installed(arch)
                   if cc.verdict(arch, tc, plain)[0] == "yes"}
        assert len(ok) >= 2, f"{arch}/{n}: bytes checked by {sorted(ok)} only"


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_enable_lines_are_needed(arch):
    """Without its enable lines (or its `as-flag:'), under the base -march,
    each snippet is rejected by at least one assembler that takes it with
    them: the directive is needed and the snippet tests the extension."""
    need_all(arch)
    cat = cc.load(arch)
    for n, accepted in bare(arch).items():
        if cc.is_directive(arch, n) and not cat[n]["enable"] and "as-flag" not in cat[n]:
            continue    # the directive is the body's (test_ignored_directive_gives_no_bytes)
        if (arch, n) in IN_BASE:
            assert all(accepted), f"{arch}/{n} is no longer in the base: drop it from IN_BASE"
        else:
            assert False in accepted, f"{arch}/{n} passes without its enable lines everywhere"


@pytest.mark.parametrize("arch,name", [(a, n) for a in cc.ARCHES for n in cc.DIRECTIVES[a]
                                       if cc.DIRECTIVES[a][n][1] is not None])
def test_ignored_directive_gives_no_bytes(arch, name):
    """An assembler that accepted the directive asked about and ignored it
    would see the IGNORED body: on no toolchain may that give the bytes."""
    need_all(arch)
    t = cc.load(arch)[name]
    ignored = {**t, "body": cc.DIRECTIVES[arch][name][1]}
    got = {tc[0]: cc.verdict(arch, tc, ignored) for tc in cc.installed(arch)}
    assert [k for k, v in got.items() if v[0] == "yes"] == [], got


def class_toolchain(arch, got, name):
    """The newest installed toolchain that takes the feature."""
    for tc in reversed(cc.installed(arch)):
        if got.get(tc[0], {}).get(name, ("no",))[0] == "yes" and not tc[0].endswith("-exp") \
                and tc[0] != "gas-mthumb":
            return tc
    return None


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_audit_patterns_know_the_class(arch):
    """Sibling instructions of every feature, encoded by a real assembler,
    match the feature's audit patterns (A32 and T32 for arm)."""
    need_all(arch)
    got, cat = measured(arch), cc.load(arch)
    assert set(CLASS[arch]) == set(cat)
    jobs = []
    for name, insns in CLASS[arch].items():
        tc = class_toolchain(arch, got, name)
        for state in (("arm", "thumb") if arch == "arm" else (None,)):
            key = "audit-thumb" if state == "thumb" else "audit"
            if cat[name][key] and insns:
                jobs.append((name, tc, state, key, insns))

    def one(job):
        """One file per feature and state: every word must match."""
        name, tc, state, key, insns = job
        body = "\n".join(insns)
        if state:
            body = f".syntax unified\n.{state}\n{body}\n.arm"
        # the spelling that gave this toolchain the bytes (detail: a later one's text)
        spelling = cat[name]["enable"].index(got[tc[0]][name][1]) if got[tc[0]][name][1] else 0
        ok, msg, code = cc.assemble(tc[2], cc.source(arch, {**cat[name], "body": body},
                                                     spelling=spelling))
        if not ok:
            return f"{name}: {tc[0]} rejects its class samples: {msg}"
        pats = cc.patterns(cat[name], key)
        bad = [f"{w:0{2 * n}x}" for w, n in cc.words(arch, code, state == "thumb")
               if not cc.matches(pats, w, n)]
        return f"{name} ({state or arch}): {bad} not in {key}" if bad else None
    assert [r for r in pool_map(one, jobs) if r] == []


def test_expect_is_what_the_manual_says():
    """A few words computed here from the manuals' field layouts, so the
    catalog's bytes do not rest on the assemblers alone."""
    def a64_dp2(sf, rm, opcode, rn, rd):          # Arm ARM C4.1.93: data-processing (2 source)
        return sf << 31 | 0b0011010110 << 21 | rm << 16 | opcode << 10 | rn << 5 | rd

    def rv_r(f7, rs2, rs1, f3, rd, op):            # RISC-V unprivileged ISA: R-type
        return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op

    def le(w, n=4):
        return w.to_bytes(n, "little")
    a64, rv = cc.load("aarch64"), cc.load("riscv64")
    assert hexbytes(a64["crc32"]["expect"][0]) == le(a64_dp2(1, 2, 0b010011, 1, 0))
    # A32 ADD (register): cond 1110, 0000100 S=0, Rn, Rd, imm5 0, type 00, 0, Rm
    assert hexbytes(cc.load("arm")["object-arch"]["expect"][0]) == le(0xe << 28 | 0b0000100 << 21)
    assert hexbytes(rv["zba"]["expect"][0]) == le(rv_r(0b0010000, 12, 11, 0b010, 10, 0b0110011))
    assert hexbytes(rv["zicond"]["expect"][0]) == le(rv_r(0b0000111, 12, 11, 0b101, 10, 0b0110011))
    assert hexbytes(rv["zacas"]["expect"][0]) == le(rv_r(0b0010100, 12, 11, 0b010, 10, 0b0101111))
    # c.zext.b rd': 100 111 rd' 11 000 01, a0 = x8 + 2
    assert hexbytes(rv["zcb"]["expect"][0]) == le(0b100111 << 10 | 2 << 7 | 0b11000 << 2 | 1, 2)
    # vadd.vv vd, vs2, vs1 (vm=1): funct6 000000, OPIVV, OP-V
    assert hexbytes(rv["v"]["expect"][0]) == le(1 << 25 | 1 << 20 | 2 << 15 | 0x57)
    # T32 ADD.W r0, r1, r2: 11101011000 S Rn | 0 imm3 Rd imm2 type Rm, halfwords in order
    arm = cc.load("arm")
    assert hexbytes(arm["thumb2"]["expect"][0]) == le(0xEB01, 2) + le(0x0002, 2)
    # LoongArch Reference Manual vol. 1, 1.2: 3R is opcode[31:15] rk rj rd
    # ($a0-$a2 are r4-r6; vector and GPR numbers alike), 2R opcode[31:10] rj rd
    la = cc.load("loongarch64")

    def la_3r(op, rk, rj, rd):
        return op << 15 | rk << 10 | rj << 5 | rd
    assert hexbytes(la["lsx"]["expect"][0]) == le(la_3r(0x700a0000 >> 15, 2, 1, 0))
    assert hexbytes(la["lasx"]["expect"][0]) == le(la_3r(0x740a0000 >> 15, 2, 1, 0))
    assert hexbytes(la["crc32"]["expect"][0]) == le(la_3r(0x00240000 >> 15, 6, 5, 4))
    # hvcl code: opcode[31:15] code[14:0]
    assert hexbytes(la["lvz"]["expect"][0]) == le(0x002b8000 | 0)

    # z/Architecture Principles of Operation: RRE is op16 | 0000 | R1 R2; VRR-c is
    # E7 V1 V2 | V3 000 0 | M6? M5? M4 | RXB op8, RXB's bits the registers' fifth
    # bits (V1 0x8, V2 0x4, V3 0x2); big-endian
    s390 = cc.load("s390x")

    def vrr_c(v1, v2, v3, m4, op):
        rxb = (v1 >> 4) << 3 | (v2 >> 4) << 2 | (v3 >> 4) << 1
        return (0xe7 << 40 | (v1 & 15) << 36 | (v2 & 15) << 32 | (v3 & 15) << 28
                | m4 << 12 | rxb << 8 | op).to_bytes(6, "big")
    assert hexbytes(s390["msa"]["expect"][0])[:4] == (0xb92e << 16 | 2 << 4 | 4).to_bytes(4, "big")
    assert hexbytes(s390["vx"]["expect"][0])[:6] == vrr_c(0, 1, 31, 0, 0x6d)
    assert hexbytes(s390["vxe"]["expect"][0])[:6] == vrr_c(1, 2, 3, 0, 0x85)

    # Power ISA 3.1: VX-form vaddubm (4 | VRT | VRA | VRB | XO 0), X-form
    # stxvb16x (31 | S | RA | RB | XO 1004 | SX), MLS:D-form paddi (prefix: 1,
    # type 10, R, d0; suffix: addi's 14 | RT | RA | d1)
    ppc = cc.load("ppc64le")
    assert hexbytes(ppc["altivec"]["expect"][0]) == le(4 << 26 | 0 << 21 | 1 << 16 | 2 << 11)
    assert hexbytes(ppc["arch-3-00"]["expect"][0]) == le(31 << 26 | 0 << 21 | 3 << 16 | 4 << 11 | 1004 << 1)
    assert hexbytes(ppc["power10-prefix"]["expect"][0]) == le(1 << 26 | 0b10 << 24) + le(14 << 26 | 3 << 21 | 4 << 16 | 1)


@pytest.mark.parametrize("triple", ["powerpc64le-linux-gnu", "powerpc64-linux-gnu"])
@pytest.mark.parametrize("name", sorted(cc.load("ppc64le")))
def test_ppc64le_expect_is_llvm_mcs_encoding(name, triple):
    """Each ppc64le snippet's `expect:' bytes are what llvm-mc-19
    -show-encoding prints for its body (GNU as's bytes: the verdict table);
    for big-endian powerpc64, the same words each stored big-endian
    (prefixed instructions: prefix word, then suffix word), the fact the
    ppc64 verdicts rest on."""
    mc = need_tool("llvm-mc-19")
    t = cc.load("ppc64le")[name]
    r = subprocess.run([mc, f"-triple={triple}", "-mcpu=pwr10", "-show-encoding"],
                       input=cc.source("ppc64le", t), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not r.stderr, r.stderr
    got = b"".join(bytes(int(x, 16) for x in m.split(","))
                   for m in re.findall(r"encoding: \[([^\]]*)\]", r.stdout))
    want = hexbytes(t["expect"][0])
    assert got == (want if triple.startswith("powerpc64le") else cc.be_words(want))
