# SPDX-License-Identifier: MIT
"""The probe on other architectures, with real cross toolchains (clang's
integrated assembler for every target; GNU as from binutils-*-linux-gnu):
verdict tables per toolchain, the two answers (with the `enable:`
directive / with the build's flags only), directive scope (no snippet's
directive can make another pass), assembler warnings, directive-only
false positives, `skipped` for another architecture's features and for
machines asmcap has no catalog for, objects in ELF, Mach-O and COFF."""
import json
import subprocess
import sys

import pytest

from conftest import ROOT, asmcap, need_tool

CROSS = ROOT / "tests" / "probe" / "data" / "cross"      # fake catalogs for the engine tests
A64 = "--target=aarch64-linux-gnu"
RV64 = "--target=riscv64-linux-gnu"
PPC = "--target=powerpc64le-linux-gnu"
PPC_BE = "--target=powerpc64-linux-gnu"    # big-endian: the ppc64le module's too


def need(*tools):
    # ci/tools' scope decides: a missing base tool fails, a security one
    # (clang-22 on a root without bookworm-security) skips naming the source
    for t in tools:
        need_tool(t)


def probe(*args, rc=0):
    r = asmcap("--format", "json", *args, timeout=600)
    assert r.returncode == rc, r.stderr
    return json.loads(r.stdout) if rc == 0 else r


def table(c):
    """{feature: (status, flags status or None)} for the features asked for
    (the others are skipped: not in --features)."""
    return {k: (v["status"], v.get("flags", {}).get("status")) for k, v in c["features"].items()
            if v["reason"] != "not in --features"}


def assembles(tmp_path, cc, text, name="s"):
    """Does `cc -c` take text (exit 0)?  The precondition of the tests that
    show asmcap answering no where exit status alone would say yes."""
    src = tmp_path / f"{name}.s"
    src.write_text(text)
    r = subprocess.run(cc.split() + ["-c", str(src), "-o", str(tmp_path / f"{name}.o")],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr


# ---- verdict tables per toolchain (the differences the issue measured) ----

A64_FEW = "sha3,bf16,cssc,sme2,gcs,bti,crc32"
RV_FEW = "zbb,zba,v,zicond,zacas,zabha,zvkned"


@pytest.mark.parametrize("cc,expect", [
    ("clang-14", {"sha3": "yes", "crc32": "yes", "bti": "yes", "bf16": "yes", "cssc": "no",
                  "sme2": "no", "gcs": "no"}),
    ("clang-19", {k: "yes" for k in A64_FEW.split(",")}),
    ("clang-22", {k: "yes" for k in A64_FEW.split(",")}),
])
def test_aarch64_verdicts_per_clang(cc, expect):
    need(cc)
    c = probe("--cc", f"{cc} {A64}", "--features", A64_FEW)
    assert c["toolchain"]["arch"] == "aarch64" and c["toolchain"]["format"] == "elf64"
    t = table(c)
    assert {k: t[k][0] for k in expect} == expect
    # Under the default -march (armv8-a) only BTI (a hint) needs no directive.
    assert {k: t[k][1] for k in expect} == {k: "yes" if k == "bti" else "no" for k in expect}


def test_aarch64_gnu_as():
    need("aarch64-linux-gnu-as")
    c = probe("--as", "aarch64-linux-gnu-as", "--features", A64_FEW)
    t = table(c)
    assert c["toolchain"]["arch"] == "aarch64"
    assert {k: t[k][0] for k in ("sha3", "bf16", "cssc", "crc32")} == dict.fromkeys(
        ("sha3", "bf16", "cssc", "crc32"), "yes")
    assert t["sme2"][0] == "no" and t["gcs"][0] == "no"        # GNU as 2.40 has neither
    assert "unknown architectural extension" in c["features"]["gcs"]["reason"]


@pytest.mark.parametrize("cc,yes,no", [
    ("clang-14", [], ["zbb", "zba", "v", "zicond", "zacas", "zabha", "zvkned"]),
    ("clang-19", ["zbb", "zba", "v", "zicond", "zabha", "zvkned"], []),
    ("clang-22", ["zbb", "zba", "v", "zicond", "zacas", "zabha", "zvkned"], []),
    ("clang-19 -fno-integrated-as", ["zbb", "zba", "v"], ["zicond", "zacas", "zabha", "zvkned"]),
])
def test_riscv64_verdicts_per_toolchain(cc, yes, no):
    need(cc.split()[0], "riscv64-linux-gnu-as")
    c = probe("--cc", f"{cc} {RV64}", "--features", RV_FEW)
    t = table(c)
    assert c["toolchain"]["arch"] == "riscv64"
    assert [k for k in yes if t[k][0] != "yes"] == []
    assert [k for k in no if t[k][0] != "no"] == []
    # rv64gc enables none of them: every flags answer is no
    assert {t[k][1] for k in RV_FEW.split(",")} == {"no"}
    if "-fno-integrated-as" in cc:
        assert "GNU assembler" in c["toolchain"]["assembler"]


# ppc64le, measured without asmcap by tests/catalog/test_cross_catalog.py:
# every feature yes on GNU as 2.40 and clang-14/19/22 with its `.machine';
# without it, clang still takes every instruction (its -mcpu changes
# nothing it accepts) and GNU as at its POWER8 default refuses ISA 3.00 and
# 3.1.  The syntax questions have no directive, hence no flags answer.
PPC_ALL = ("altivec vsx power8-vector vcipher vpmsumd vshasigma arch-3-00 power10-prefix mma dcbzl "
           "ibm-asm percent-regs").split()
PPC_SYNTAX = {"ibm-asm", "percent-regs"}
PPC_ABOVE_POWER8 = {"arch-3-00", "power10-prefix", "mma"}


@pytest.mark.parametrize("way,flags_no", [
    *[(["--cc", f"clang-{v} {PPC}"], set()) for v in (14, 19, 22)],
    (["--cc", f"clang-19 {PPC} -mcpu=pwr4"], set()),
    (["--as", "powerpc64le-linux-gnu-as"], PPC_ABOVE_POWER8),
    (["--as", "powerpc64le-linux-gnu-as", "--asflags", "-mpower9"], {"power10-prefix", "mma"}),
    (["--cc", f"clang-19 {PPC} -fno-integrated-as"], PPC_ABOVE_POWER8),
    (["--cc", f"clang-19 {PPC} -fno-integrated-as -mcpu=power10"], set()),
])
def test_ppc64le_verdicts_per_toolchain(way, flags_no):
    need(way[1].split()[0], "powerpc64le-linux-gnu-as")
    c = probe(*way)
    assert c["toolchain"]["arch"] == "ppc64le" and c["toolchain"]["format"] == "elf64"
    t = table(c)
    assert {k: t[k][0] for k in PPC_ALL} == dict.fromkeys(PPC_ALL, "yes")
    assert {k: t[k][1] for k in PPC_ALL} == {
        k: None if k in PPC_SYNTAX else "no" if k in flags_no else "yes" for k in PPC_ALL}
    assert c["features"]["arch-3-00"]["enable"] == ".machine power9"


def ppc_catalog(tmp_path, files):
    """A ppc64le catalog of {name: (enable line or None, body, expect)}."""
    d = tmp_path / "templates" / "ppc64le"
    d.mkdir(parents=True)
    for name, (enable, body, expect) in files.items():
        (d / f"{name}.s").write_text(f"# feature: {name}\n# summary: {name}\n"
                                     + (f"# enable: {enable}\n" if enable else "")
                                     + f"# expect: {expect}\n\t{body}\n")
    return d.parent


def test_ppc64le_machine_directive_stays_in_its_snippet(tmp_path):
    """One GNU as run: the `.machine power9' of the first snippet must not
    let the second one's darn through (the engine's .machine push/pop)."""
    need("powerpc64le-linux-gnu-as")
    darn = "e6 05 61 7c"                            # darn 3, 1 (X-form 31/755)
    tpl = ppc_catalog(tmp_path, {"a-p9": (".machine power9", "darn 3, 1", darn),
                                 "b-bare": (None, "darn 3, 1", darn)})
    c = probe("--as", "powerpc64le-linux-gnu-as", "--templates", str(tpl), "--log", str(tmp_path / "log"))
    assert table(c) == {"a-p9": ("yes", "no"), "b-bare": ("no", None)}
    assert "runs:      2 snippets in one run" in asmcap("--as", "powerpc64le-linux-gnu-as", "--templates",
                                                         str(tpl)).stdout


@pytest.mark.parametrize("way", [["--as", "powerpc64le-linux-gnu-as"], ["--cc", f"clang-19 {PPC}"]])
def test_ppc64le_prefix_alignment_nop(tmp_path, way):
    """Fifteen words, then paddi at offset 60: both assemblers put a nop
    (ori 0,0,0: 60000000) before it so that it does not cross 64 bytes."""
    need(way[1].split()[0])
    tpl = ppc_catalog(tmp_path, {**{f"a{i:02d}": (None, "vaddubm 0, 1, 2", "00 10 01 10") for i in range(15)},
                                 "zprefix": (".machine power10", "paddi 3, 4, 1, 0", "00 00 00 06 01 00 64 38")})
    # the precondition, from the object: the nop is really there
    obj, src = tmp_path / "n.o", tmp_path / "n.s"
    src.write_text(".machine power10\n" + "\tvaddubm 0, 1, 2\n" * 15 + "\tpaddi 3, 4, 1, 0\n")
    cc = [*way[1].split(), "-c"] if way[0] == "--cc" else [way[1]]
    subprocess.run([*cc, str(src), "-o", str(obj)], check=True)
    dump = subprocess.run(["powerpc64le-linux-gnu-objdump", "-d", str(obj)], capture_output=True,
                          text=True, check=True).stdout
    at = {l.split(":")[0].strip(): l.split("\t")[1].strip() for l in dump.splitlines() if ":\t" in l}
    assert (at["3c"], at["40"]) == ("00 00 00 60", "00 00 00 06"), at
    f = probe(*way, "--templates", str(tpl))["features"]["zprefix"]
    assert f["status"] == "yes"
    assert "nop keeping a prefixed instruction within 64 bytes" in f["reason"]


# One instruction of each class (bytes: llvm-mc-19 -show-encoding and GNU
# objdump agree), and what each one is: pmxvf32ger is MMA by its prefix and
# prefixed, its suffix (xvf32ger's own word) no instruction of its own.
PPC_AUDIT = """\t.text
\t.globl f
\t.type f,@function
f:
\tvaddubm 0, 1, 2
\tvcipher 0, 1, 2
\tvpmsumd 0, 1, 2
\txvadddp 0, 1, 2
\tstxvb16x 0, 3, 4
\txvf32ger 0, 32, 33
\tpmxvf32ger 0, 32, 33, 15, 15
\tpaddi 3, 4, 1, 0
\tdcbzl 0, 3
\tblr
\t.size f, .-f
"""


@pytest.mark.parametrize("asm,objdump", [
    ("powerpc64le-linux-gnu-as -mpower10", "powerpc64le-linux-gnu-objdump"),
    (f"clang-19 {PPC} -c", "powerpc64le-linux-gnu-objdump"),
    # big-endian objects: the same words, each stored big-endian
    ("powerpc64-linux-gnu-as -mpower10", "powerpc64-linux-gnu-objdump"),
    (f"clang-19 {PPC_BE} -c", "powerpc64-linux-gnu-objdump"),
])
def test_ppc64le_audit(tmp_path, asm, objdump):
    """audit counts PPC_AUDIT's instructions, which GNU objdump reads in
    the object, in either byte order."""
    need(asm.split()[0], objdump)
    src, obj = tmp_path / "f.s", tmp_path / "f.o"
    src.write_text(PPC_AUDIT)
    subprocess.run([*asm.split(), str(src), "-o", str(obj)], check=True)
    assert elf_facts(obj)[1] == objdump.startswith("powerpc64-")
    dump = subprocess.run([objdump, "-d", str(obj)], capture_output=True, text=True, check=True).stdout
    # binutils 2.40 prints the MMA words under their dense-math names
    alias = {"dmxvf32ger": "xvf32ger", "pmdmxvf32ger": "pmxvf32ger"}
    seen = [l.split("\t")[2].split()[0] for l in dump.splitlines() if l.count("\t") >= 2]
    written = [l.split()[0] for l in PPC_AUDIT.splitlines() if l.startswith("\t") and not l.startswith("\t.")]
    assert [alias.get(m, m) for m in seen] == written, dump
    r = asmcap("audit", "--format", "json", str(obj))
    assert r.returncode == 0, r.stderr
    (f,) = json.loads(r.stdout)["objects"][0]["functions"]
    assert f["undecoded"] == 0 and f["size"] == 12 * 4
    # vcipher and vpmsumd are opcode-4 vector instructions: AltiVec too
    assert f["features"] == {"altivec": 3, "vcipher": 1, "vpmsumd": 1, "vsx": 1, "arch-3-00": 1,
                             "mma": 2, "power10-prefix": 2, "dcbzl": 1}
    assert asmcap("audit", str(obj), "--expect", "mma,vcipher,arch-3-00").returncode == 0
    r = asmcap("audit", str(obj), "--expect", "vshasigma")
    assert r.returncode == 1 and "vshasigma" in r.stderr


def test_ppc64le_every_format():
    need("clang-19")
    args = ["--cc", f"clang-19 {PPC}", "--features", "arch-3-00,mma"]
    assert "ASMCAP_ARCH_3_00=yes\nASMCAP_ARCH_3_00_FLAGS=yes\nASMCAP_ARCH_3_00_ENABLE='.machine power9'" in \
        asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_MMA_ENABLE := .machine power10" in asmcap(*args, "--format", "make").stdout
    h = asmcap(*args, "--format", "h").stdout
    assert '#define ASMCAP_ARCH "ppc64le"' in h and "#define ASMCAP_MMA 1" in h
    assert "set(ASMCAP_ARCH_3_00 ON)" in asmcap(*args, "--format", "cmake").stdout
    assert "ASMCAP_MMA => 'yes'" in asmcap(*args, "--format", "perl").stdout
    assert "target:    ppc64le, elf64 objects" in asmcap(*args).stdout
    c = probe(*args)
    assert c["toolchain"]["arch"] == "ppc64le" and c["features"]["mma"]["enable"] == ".machine power10"


# ---- big-endian Power (ppc64): the ppc64le module's, under its own name ----

def catalog_reader():
    """tests/catalog/cross_catalog.py: the catalog read and assembled
    without asmcap."""
    sys.path.insert(0, str(ROOT / "tests" / "catalog"))
    import cross_catalog
    return cross_catalog


def be_verdict(argv, xc, t, enable):
    """What the toolchain's own big-endian object says of entry t, read
    here: yes when it assembles cleanly into the expected words."""
    ok, _, code = xc.assemble(argv, xc.source("ppc64le", t, enable))
    if not ok:
        return "no"
    return "yes" if any(code == xc.be_words(xc.hexbytes(e)) for e in t["expect"]) else "broken"


@pytest.mark.parametrize("way", [
    ["--cc", f"clang-19 {PPC_BE}"], ["--cc", f"clang-22 {PPC_BE}"],
    ["--cc", f"clang-19 {PPC_BE} -fno-integrated-as"], ["--as", "powerpc64-linux-gnu-as"],
])
def test_ppc64_big_endian_verdicts(way, tmp_path):
    """A big-endian object is named ppc64 (text, JSON, the variables; a
    cache hit too) and every answer, with its `.machine' and without, is
    the one the object's bytes give (be_verdict); they were all
    `skipped'.  `list --arch ppc64' is ppc64le's catalog."""
    xc = catalog_reader()
    cmd = way[1].split()
    need(cmd[0], "powerpc64-linux-gnu-as")
    argv = cmd + ["-c", "-x", "assembler-with-cpp"] if way[0] == "--cc" else cmd
    cat = xc.load("ppc64le")
    want = {n: (be_verdict(argv, xc, t, True), None if n in PPC_SYNTAX else be_verdict(argv, xc, t, False))
            for n, t in cat.items()}
    assert {v[0] for v in want.values()} == {"yes"}
    c = probe(*way)
    assert c["toolchain"]["arch"] == "ppc64" and c["toolchain"]["format"] == "elf64"
    assert table(c) == want
    assert "target:    ppc64, elf64 objects" in asmcap(*way, "--features", "vsx").stdout
    assert "ASMCAP_ARCH=ppc64" in asmcap(*way, "--features", "vsx", "--format", "sh").stdout
    cache, env = tmp_path / "cache", {"ASMCAP_STATS": "1"}
    first = asmcap(*way, "--cache", str(cache), "--format", "sh", env=env)
    hit = asmcap(*way, "--cache", str(cache), "--format", "sh", env=env)
    assert "cached=1" in hit.stderr and hit.stdout == first.stdout and "ASMCAP_ARCH=ppc64\n" in hit.stdout
    assert asmcap("list", "--arch", "ppc64").stdout == asmcap("list", "--arch", "ppc64le").stdout


# The directive and syntax questions other projects ask (README's table):
# what each toolchain's bytes say (tests/catalog/test_cross_catalog.py
# measures them without asmcap).  GNU as 2.40 and clang-14 know neither
# `.arch_extension sme2' nor `sme-i16i64'; clang has no `.func'; clang-14
# warns about `.option arch'; clang takes `.object_arch armv4' and records
# Tag_CPU_arch v7, not v4.
QUESTIONS = {
    "aarch64": ("archext-crc,archext-aes,archext-sve,archext-sve2,archext-sme,archext-sme2,"
                "archext-sme-i16i64,cpuext-simd,cpuext-crypto,platform-as,func"),
    "arm": "platform-as,fpu-neon,object-arch",
    "riscv64": "option-arch",
}


@pytest.mark.parametrize("arch,way,no", [
    ("aarch64", ["--as", "aarch64-linux-gnu-as"], {"archext-sme2", "archext-sme-i16i64"}),
    ("aarch64", ["--cc", f"clang-14 {A64}"], {"archext-sme2", "archext-sme-i16i64", "func"}),
    ("aarch64", ["--cc", f"clang-19 {A64}"], {"func"}),
    ("aarch64", ["--cc", f"clang-22 {A64}"], {"func"}),
    ("arm", ["--as", "arm-linux-gnueabihf-as"], set()),
    ("arm", ["--cc", "clang-14 --target=armv7a-linux-gnueabihf -mfpu=vfpv3-d16"], {"object-arch"}),
    ("riscv64", ["--as", "riscv64-linux-gnu-as"], set()),
    ("riscv64", ["--cc", f"clang-14 {RV64}"], {"option-arch"}),
    ("riscv64", ["--cc", f"clang-22 {RV64}"], set()),
])
def test_other_projects_directive_questions(arch, way, no):
    """Each yes names the directive that gave the bytes, and without it
    (the build's flags only) the extension questions are no: the directive
    did the work.  cpuext-simd asks a directive whose extension is in the
    base, so its flags answer is yes."""
    need(way[1].split()[0])
    c = probe(*way, "--features", QUESTIONS[arch])
    assert c["toolchain"]["arch"] == arch
    t, names = table(c), QUESTIONS[arch].split(",")
    assert {k: t[k][0] for k in names} == {k: "no" if k in no else "yes" for k in names}
    for k in names:
        f = c["features"][k]
        if f["status"] == "yes" and t[k][1] is not None:
            assert f["enable"] and f["enable"].startswith("."), (k, f)
            assert t[k][1] == ("yes" if k == "cpuext-simd" else "no"), (k, f)


def test_flags_answer_follows_march():
    need("clang-19")
    c = probe("--cc", f"clang-19 {A64}", "--cflags", "-march=armv8.2-a+sha3", "--features", "sha3,sm4")
    assert table(c)["sha3"] == ("yes", "yes")
    assert table(c)["sm4"] == ("yes", "no")
    assert "requires: sm4" in c["features"]["sm4"]["flags"]["reason"]
    c = probe("--cc", f"clang-19 {RV64}", "--cflags", "-march=rv64gc_zbb", "--features", "zbb,zba")
    assert table(c)["zbb"] == ("yes", "yes") and table(c)["zba"] == ("yes", "no")


# ---- the engine with fake catalogs (tests/probe/data/cross) ----

def test_aarch64_directive_cannot_leak(tmp_path):
    """sha3late has no directive: in one file after sha3's `.arch ...+sha3`
    it assembles, so one batch would call it yes.  The plan runs directive
    snippets alone: it is no."""
    need("clang-19")
    body = "\teor3 v0.16b, v1.16b, v2.16b, v3.16b\n"
    ok, _ = assembles(tmp_path, f"clang-19 {A64}", "\t.arch armv8.2-a+sha3\n" + body + body)
    assert ok, "precondition: the directive reaches the next snippet"
    ok, _ = assembles(tmp_path, f"clang-19 {A64}", body, "alone")
    assert not ok
    c = probe("--cc", f"clang-19 {A64}", "--templates", CROSS)
    t = table(c)
    assert t["sha3"] == ("yes", "no")
    assert t["sha3late"] == ("no", None)
    assert "requires: sha3" in c["features"]["sha3late"]["reason"]


def test_riscv_directive_cannot_leak(tmp_path):
    need("clang-19")
    body = "\tandn a0, a1, a2\n"
    ok, _ = assembles(tmp_path, f"clang-19 {RV64}", "\t.option arch, +zbb\n" + body + body)
    assert ok, "precondition: without push/pop the directive reaches the next snippet"
    c = probe("--cc", f"clang-19 {RV64}", "--templates", CROSS)
    assert table(c)["zbb"] == ("yes", "no")
    assert table(c)["zbblate"] == ("no", None)


def test_warning_rejects_the_snippet(tmp_path):
    """clang-14 only warns about `.option arch' and, with Zbb in -march,
    assembles the instruction: exit 0 with the right bytes, still no."""
    need("clang-14")
    ok, err = assembles(tmp_path, f"clang-14 {RV64} -march=rv64gc_zbb",
                        "\t.option push\n\t.option arch, +zbb\n\tandn a0, a1, a2\n\t.option pop\n")
    assert ok and "warning" in err
    c = probe("--cc", f"clang-14 {RV64}", "--cflags", "-march=rv64gc_zbb", "--templates", CROSS)
    f = c["features"]["zbb"]
    assert f["status"] == "no" and "assembler warned" in f["reason"] and "unknown option" in f["reason"]
    assert f["flags"]["status"] == "yes"          # the build's flags enable it
    assert table(c)["zbblate"] == ("yes", None)


@pytest.mark.parametrize("cc,directive", [
    ("clang-14", ".arch armv9-a+sme2"),
    ("clang-14", ".arch armv8-a+nosuchext"),
    ("clang-19", ".arch armv8-a+nosuchext"),
])
def test_directive_alone_is_no_answer(tmp_path, cc, directive):
    need(cc)
    ok, _ = assembles(tmp_path, f"{cc} {A64}", f"\t{directive}\n")
    assert ok, "precondition: the directive alone passes"
    feature = "sme2" if "sme2" in directive else "nosuchext"
    c = probe("--cc", f"{cc} {A64}", "--templates", CROSS, "--features", feature)
    assert c["features"][feature]["status"] == "no"


# ---- skipped: another architecture's features, machines without a catalog ----

def test_x86_features_on_aarch64_are_skipped():
    need("clang-19")
    c = probe("--cc", f"clang-19 {A64}", "--features", "adx,bmi2,sha3")
    assert c["toolchain"]["arch"] == "aarch64"
    for f in ("adx", "bmi2"):
        assert c["features"][f]["status"] == "skipped"
        assert "not for this target" in c["features"][f]["reason"] and "x86_64" in c["features"][f]["reason"]
    assert c["features"]["sha3"]["status"] == "yes"
    r = asmcap("--cc", f"clang-19 {A64}", "--features", "adx", "--format", "sh")
    assert r.returncode == 0 and "ASMCAP_ADX=no" in r.stdout and "ASMCAP_ARCH=aarch64" in r.stdout


def test_aarch64_features_on_x86_are_skipped():
    c = probe("--cc", "gcc", "--features", "adx,sha3,zbb")
    assert c["toolchain"]["arch"] == "x86_64"
    assert c["features"]["adx"]["status"] == "yes"
    assert c["features"]["sha3"]["status"] == "skipped" and "aarch64" in c["features"]["sha3"]["reason"]
    assert c["features"]["zbb"]["status"] == "skipped" and "riscv64" in c["features"]["zbb"]["reason"]


def test_unknown_feature_is_still_a_usage_error():
    r = asmcap("--cc", "gcc", "--features", "adx,nosuch")
    assert r.returncode == 2 and "nosuch" in r.stderr


# ---- loongarch64: one answer from the assembler, the build's in its facts ----

LA64 = "--target=loongarch64-linux-gnu"


def la64_macros(cc, cflags):
    """The predefined macros clang itself gives under cflags (the evidence
    the build facts are checked against)."""
    r = subprocess.run([cc, LA64, *cflags.split(), "-dM", "-E", "-x", "c", "/dev/null"],
                       capture_output=True, text=True, check=True)
    return {l.split()[1] for l in r.stdout.splitlines() if l.startswith("#define ")}


@pytest.mark.parametrize("cc", ["clang-19", "clang-22"])
def test_loongarch64_probe_in_every_format(cc):
    """Each feature's status is the verdict tests/catalog/cross_catalog.py
    reads from the object's bytes itself; LSX/LASX build facts follow the
    macros clang defines under -mno-lsx, the default (la64v1.0) and -mlasx;
    every build format carries both."""
    xc = catalog_reader()
    need(cc)
    tc = next(t for t in xc.TOOLCHAINS["loongarch64"] if t[0] == cc)
    cat = xc.load("loongarch64")
    want = {n: xc.verdict("loongarch64", tc, t)[0] for n, t in cat.items()}
    for cflags in ("-mno-lsx", "", "-mlasx"):
        c = probe("--cc", f"{cc} {LA64}", *(["--cflags", cflags] if cflags else []))
        assert c["toolchain"]["arch"] == "loongarch64"
        assert {n: v[0] for n, v in table(c).items()} == want
        macros = la64_macros(cc, cflags)
        assert c["build"]["lsx"] == ("__loongarch_sx" in macros)
        assert c["build"]["lasx"] == ("__loongarch_asx" in macros)
    assert c["build"]["lsx"] and c["build"]["lasx"]         # -mlasx brings LSX too
    args = ["--cc", f"{cc} {LA64}", "--cflags", "-mno-lsx", "--features", "lsx,lasx"]
    yes = "yes" if want["lsx"] == "yes" else "no"
    assert f"ASMCAP_LSX={yes}" in asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_BUILD_LSX=no" in asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_BUILD_LASX := no" in asmcap(*args, "--format", "make").stdout
    h = asmcap(*args, "--format", "h").stdout
    assert ("#define ASMCAP_LSX 1" in h) == (yes == "yes") and "ASMCAP_BUILD_LSX" in h
    assert "#define ASMCAP_BUILD_LSX 1" not in h
    assert "ASMCAP_BUILD_LSX => 'no'" in asmcap(*args, "--format", "perl").stdout
    assert "set(ASMCAP_BUILD_LSX OFF" in asmcap(*args, "--format", "cmake").stdout
    text = asmcap("--cc", f"{cc} {LA64}", "--cflags", "-mlasx", "--features", "lsx").stdout
    assert "target:    loongarch64, elf64" in text and "build:     PIC 2, LSX, LASX" in text


@pytest.mark.parametrize("target,name", [
    # machines no module is written for (ppc64le and s390x are getting
    # theirs)
    ("mips-linux-gnu", "mips"), ("mipsel-linux-gnu", "mipsel"),
    ("mips64el-linux-gnuabi64", "mips64el"), ("sparc64-linux-gnu", "sparc64"),
    # 32-bit Power: the ppc64le module reads 64-bit objects (ppc64 too) only
    ("powerpc-linux-gnu", "ppc"),
])
def test_machine_without_catalog(target, name):
    need("clang-19")
    c = probe("--cc", f"clang-19 --target={target}", "--features", "adx,sha3")
    assert c["toolchain"]["arch"] == name
    # adx brings bmi2, which it requires: skipped too
    assert table(c) == {"adx": ("skipped", None), "bmi2": ("skipped", None), "sha3": ("skipped", "skipped")}
    assert name in c["features"]["adx"]["reason"]
    r = asmcap("--cc", f"clang-19 --target={target}", "--features", "adx")
    assert r.returncode == 0 and f"target:    {name}," in r.stdout


# ---- outputs: the second answer in every format ----

def test_two_answers_in_every_format():
    need("clang-19")
    args = ["--cc", f"clang-19 {A64}", "--features", "sha3,bti"]
    sh = asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_SHA3=yes" in sh and "ASMCAP_SHA3_FLAGS=no" in sh and "ASMCAP_BTI_FLAGS=yes" in sh
    assert "# without a directive: no: rejected" in sh
    assert "ASMCAP_SHA3_FLAGS := no" in asmcap(*args, "--format", "make").stdout
    h = asmcap(*args, "--format", "h").stdout
    assert "#define ASMCAP_SHA3 1" in h and "ASMCAP_SHA3_FLAGS" in h and "#define ASMCAP_SHA3_FLAGS 1" not in h
    assert "set(ASMCAP_SHA3_FLAGS OFF" in asmcap(*args, "--format", "cmake").stdout
    assert "ASMCAP_SHA3_FLAGS => 'no'" in asmcap(*args, "--format", "perl").stdout
    text = asmcap(*args).stdout
    assert any(l.split()[:3] == ["sha3", "yes", "no"] for l in text.splitlines())
    assert "flags" in next(l for l in text.splitlines() if l.startswith("feature"))


# ---- enable spellings: the one that gave the bytes, in every format ----

# clang-14 accepts `.arch armv8.2-a+dotprod' and ignores the extension (as
# it does `+bogus'); a level spelling with `+crc' is the one its assembler
# acts on.  Measured with tests/catalog/cross_catalog.py's own runs.
CLANG14_SPELLING = {"dotprod": ".arch armv8.4-a+crc", "i8mm": ".arch armv8.6-a+crc",
                    "bf16": ".arch armv8.6-a+crc", "fp16": ".arch armv9-a+crc",
                    "sb": ".arch armv8.5-a+crc", "wfxt": ".arch armv8.7-a+crc"}


def test_clang14_accepts_and_ignores_the_first_spelling(tmp_path):
    """The precondition: the directive is taken (exit 0 on its own), the
    instruction after it is not; only the level spelling gives it."""
    need("clang-14")
    cc = f"clang-14 {A64} -march=armv8-a"
    assert assembles(tmp_path, cc, ".arch armv8.2-a+dotprod\n")[0]
    assert assembles(tmp_path, cc, ".arch armv8.2-a+bogus\n")[0]
    assert not assembles(tmp_path, cc, ".arch armv8.2-a+dotprod\n\tsdot v0.4s, v1.16b, v2.16b\n")[0]
    assert assembles(tmp_path, cc, ".arch armv8.4-a+crc\n\tsdot v0.4s, v1.16b, v2.16b\n")[0]


def test_clang14_answers_with_the_spelling_that_gave_the_bytes(tmp_path):
    need("clang-14")
    args = ["--cc", f"clang-14 {A64} -march=armv8-a", "--features", ",".join(CLANG14_SPELLING),
            "--cache", str(tmp_path / "c")]
    for run in range(2):            # the second answer comes from the cache
        c = probe(*args)
        got = {k: (v["status"], v["enable"]) for k, v in c["features"].items() if k in CLANG14_SPELLING}
        assert got == {k: ("yes", e) for k, e in CLANG14_SPELLING.items()}, run
        assert c["features"]["dotprod"]["reason"].startswith(
            "enabled by `.arch armv8.4-a+crc' (not by `.arch armv8.2-a+dotprod'")
    sh = asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_DOTPROD_ENABLE='.arch armv8.4-a+crc'" in sh
    assert "ASMCAP_DOTPROD_ENABLE := .arch armv8.4-a+crc" in asmcap(*args, "--format", "make").stdout
    assert "ASMCAP_DOTPROD_ENABLE => '.arch armv8.4-a+crc'" in asmcap(*args, "--format", "perl").stdout
    assert 'set(ASMCAP_DOTPROD_ENABLE ".arch armv8.4-a+crc")' in asmcap(*args, "--format", "cmake").stdout


def test_the_h_spelling_is_a_line_a_S_file_uses(tmp_path):
    """The build's own .S file, written with the header's #define, gets the
    instruction's bytes from the same assembler."""
    need("clang-14", "aarch64-linux-gnu-objdump")
    cc = f"clang-14 {A64} -march=armv8-a"
    h = asmcap("--cc", cc, "--features", "dotprod,cssc", "--format", "h").stdout
    assert "#define ASMCAP_DOTPROD_ENABLE .arch armv8.4-a+crc\n" in h
    assert "/* #undef ASMCAP_CSSC_ENABLE */" in h
    (tmp_path / "caps.h").write_text(h)
    (tmp_path / "k.S").write_text('#include "caps.h"\nASMCAP_DOTPROD_ENABLE\n\tsdot v0.4s, v1.16b, v2.16b\n')
    subprocess.run(cc.split() + ["-I", str(tmp_path), "-c", str(tmp_path / "k.S"), "-o", str(tmp_path / "k.o")],
                   check=True)
    dump = subprocess.run(["aarch64-linux-gnu-objdump", "-d", str(tmp_path / "k.o")],
                          capture_output=True, text=True).stdout
    assert "4e829420" in dump                  # sdot v0.4s, v1.16b, v2.16b


def test_perl_enable(tmp_path):
    need("clang-14")
    caps = tmp_path / "caps.json"
    asmcap("--cc", f"clang-14 {A64} -march=armv8-a", "--features", "dotprod,crc32,cssc",
           "--format", "json", "-o", str(caps))
    r = subprocess.run(["perl", f"-I{ROOT / 'perlasm'}", "-MAsmcap", "-e",
                        "my $c = Asmcap->load($ARGV[0]); print join('|', map { $c->enable($_) // 'undef' }"
                        " qw(dotprod crc32 cssc))", str(caps)], capture_output=True, text=True, check=True)
    assert r.stdout == ".arch armv8.4-a+crc|.arch_extension crc|undef"


def test_several_directives_in_one_spelling():
    """arm's crc32 spelling is `.arch armv8-a; .arch_extension crc': both
    lines reach the assembler, in order (GNU as needs the level first)."""
    need("arm-linux-gnueabihf-as")
    c = probe("--as", "arm-linux-gnueabihf-as -march=armv7-a", "--features", "crc32")
    assert c["features"]["crc32"]["status"] == "yes"
    assert c["features"]["crc32"]["enable"] == ".arch armv8-a; .arch_extension crc"


def test_features_left_out_get_no_flags_run(tmp_path):
    """--features sha3 assembles sha3 twice (with and without its
    directive) and nothing else; the rest is unprobed in both answers."""
    need("clang-19")
    log = tmp_path / "log"
    r = asmcap("--cc", f"clang-19 {A64}", "--features", "sha3", "--format", "json", "--log", str(log))
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]
    assert f["aes"]["status"] == "unprobed" and f["aes"]["flags"]["status"] == "unprobed"
    assert (f["sha3"]["status"], f["sha3"]["flags"]["status"]) == ("yes", "no")
    # the snippets the runs held (each starts at its asmcap_b_<index> label)
    starts = [l for l in log.read_text().splitlines() if l.startswith("asmcap_b_")]
    assert len(starts) == 2 and len(set(starts)) == 1, starts


def test_x86_output_has_no_second_answer():
    c = probe("--cc", "gcc", "--features", "adx")
    assert "flags" not in c["features"]["adx"]
    assert "_FLAGS" not in asmcap("--cc", "gcc", "--features", "adx", "--format", "sh").stdout
    head = next(l for l in asmcap("--cc", "gcc", "--features", "adx").stdout.splitlines()
                if l.startswith("feature"))
    assert "flags" not in head.split()


def test_cache_keeps_both_answers_and_macros(tmp_path):
    need("clang-19")
    args = ["--cc", f"clang-19 {A64}", "--cflags", "-mbranch-protection=standard",
            "--features", "sha3,bti,adx", "--cache", tmp_path / "c", "--log", tmp_path / "log"]
    first = probe(*args)
    again = probe(*args)
    assert "processes started: 0;" in (tmp_path / "log").read_text().splitlines()[-1] or \
        "cache hit" in (tmp_path / "log").read_text()
    for c in (first, again):
        assert table(c) == {"adx": ("skipped", None), "bmi2": ("skipped", None), "sha3": ("yes", "no"),
                            "bti": ("yes", "yes")}
        m = c["build"]["macros"]
        assert m["__ARM_FEATURE_BTI_DEFAULT"] == 1 and m["__ARM_FEATURE_PAC_DEFAULT"] == 1
        assert m["__ARM_FEATURE_GCS_DEFAULT"] == 1      # what the kernels follow (Makefile)


def test_build_macros_riscv():
    need("clang-19")
    c = probe("--cc", f"clang-19 {RV64}", "--cflags", "-march=rv64gcv_zbb", "--features", "zbb")
    m = c["build"]["macros"]
    assert m["__riscv_xlen"] == 64 and "__riscv_vector" in m and "__riscv_zbb" in m


# ---- objects: Mach-O arm64 and COFF arm64, read for their target ----

@pytest.mark.parametrize("target,fmt,flags", [
    # Apple's default CPU (apple-m1) has CRC32 and SHA3: no directive needed
    ("arm64-apple-macos", "macho64", "yes"), ("aarch64-pc-windows-msvc", "coff-arm64", "no"),
])
def test_aarch64_macho_and_coff(target, fmt, flags):
    need("clang-19")
    c = probe("--cc", f"clang-19 --target={target}", "--features", "crc32,sha3,adx")
    assert c["toolchain"]["arch"] == "aarch64" and c["toolchain"]["format"] == fmt
    assert table(c) == {"crc32": ("yes", flags), "sha3": ("yes", flags), "adx": ("skipped", None),
                        "bmi2": ("skipped", None)}


def test_arm32_and_thumb():
    need("clang-19")
    c = probe("--cc", "clang-19 --target=armv7a-linux-gnueabihf", "--features", "neon,thumb2,crc32")
    assert c["toolchain"]["arch"] == "arm" and c["toolchain"]["format"] == "elf32"
    assert all(v[0] == "yes" for v in table(c).values()), table(c)


# ---- frame on a Thumb function that ends its section ----

def test_frame_thumb_function_at_section_end(tmp_path):
    need("clang-19")
    src = tmp_path / "t.c"
    src.write_text("int g(int);\nint f(int x) { int a[8]; for (int i = 0; i < 8; i++) a[i] = g(x + i);"
                   " return a[x & 7]; }\n")
    r = asmcap("frame", src, "--func", "f", "--cc", "clang-19 --target=armv7a-linux-gnueabihf -mthumb",
               "--variant", "O2=-O2", "--format", "json")
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    v = v[0] if isinstance(v, list) else v["variants"][0]
    assert v["status"] == "ok" and v["code"] > 0 and v["frame"] >= 32


def test_perl_has_flags(tmp_path):
    need("clang-19")
    r = asmcap("--cc", f"clang-19 {A64}", "--features", "sha3,bti,adx", "--format", "json",
               "-o", tmp_path / "caps.json")
    assert r.returncode == 0, r.stderr
    out = subprocess.run(["perl", f"-I{ROOT / 'perlasm'}", "-MAsmcap", "-e",
                          "my $c = Asmcap->load($ARGV[0]); print join(' ', map { $c->has($_), $c->has_flags($_) }"
                          " qw(sha3 bti adx))", tmp_path / "caps.json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "1 0 1 1 0 0"


# ---- big-endian and ILP32 objects (aarch64_be, ELF32 AArch64, armeb) ----

ORDER = ROOT / "tests" / "probe" / "data" / "order"     # ADD in instruction order, and byte-swapped
EF_ARM_BE8 = 0x00800000


def elf_facts(path):
    """(class bits, big-endian, e_flags, .text as stored) from the file's
    ELF header and section headers (gABI)."""
    b = path.read_bytes()
    assert b[:4] == b"\x7fELF"
    is64, be = b[4] == 2, b[5] == 2

    def num(off, size):
        return int.from_bytes(b[off:off + size], "big" if be else "little")
    w = 8 if is64 else 4
    flags = num(48 if is64 else 36, 4)
    shoff, shentsize = num(40 if is64 else 32, w), num(58 if is64 else 46, 2)
    shnum, shstrndx = num(60 if is64 else 48, 2), num(62 if is64 else 50, 2)

    def section(i):     # (name offset, file offset, size)
        h = shoff + i * shentsize
        return num(h, 4), num(h + (24 if is64 else 16), w), num(h + (32 if is64 else 20), w)
    names = section(shstrndx)[1]
    for i in range(shnum):
        name, off, size = section(i)
        if b[names + name:names + name + 6] == b".text\0":
            return (64 if is64 else 32), be, flags, b[off:off + size]
    raise AssertionError(f"{path}: no .text")


# (how asmcap runs it, the words, arch, class bits, big-endian)
ORDER_TOOLCHAINS = [
    ("--cc", "clang-19 --target=aarch64_be-linux-gnu", "aarch64", 64, True),
    ("--as", "aarch64-linux-gnu-as -EB", "aarch64", 64, True),
    ("--cc", "clang-19 --target=aarch64_be-linux-gnu_ilp32", "aarch64", 32, True),
    ("--cc", "clang-19 --target=aarch64-linux-gnu_ilp32", "aarch64", 32, False),
    ("--as", "aarch64-linux-gnu-as -mabi=ilp32", "aarch64", 32, False),
    ("--cc", "clang-19 --target=armeb-linux-gnueabihf", "arm", 32, True),
    ("--as", "arm-linux-gnueabihf-as -EB", "arm", 32, True),
]


@pytest.mark.parametrize("way,words,arch,bits,be", ORDER_TOOLCHAINS, ids=lambda v: str(v))
def test_big_endian_and_ilp32_objects(tmp_path, way, words, arch, bits, be):
    """These objects hold A64 (or A32/T32) code; they were "machine 0xb7"
    with every feature skipped.  The facts, read from the toolchain's own
    object first: A64 instructions are little-endian words in every object
    (big-endian data or not); a big-endian ARM object (EF_ARM_BE8 clear)
    stores A32 words and Thumb halfwords big-endian, which `ld --be8`
    turns into instruction order.  So ADD in instruction order is yes and
    the same bytes swapped are broken, on every one of them."""
    cmd = words.split()
    need(cmd[0])
    src = tmp_path / "add.s"
    src.write_text("\tadd x0, x1, x2\n" if arch == "aarch64" else
                   "\t.syntax unified\n\t.arm\n\tadd r0, r1, r2\n\t.thumb\n\tadd.w r0, r1, r2\n")
    obj = tmp_path / "add.o"
    subprocess.run(cmd + (["-c"] if way == "--cc" else []) + [str(src), "-o", str(obj)], check=True)
    got_bits, got_be, flags, text = elf_facts(obj)
    assert (got_bits, got_be) == (bits, be)
    if arch == "aarch64":
        assert text == bytes.fromhex("2000028b")
    else:
        assert not flags & EF_ARM_BE8 and text == bytes.fromhex("e0810002" "eb010002")
    fmt = f"elf{bits}"
    asm = [way, cmd[0], "--asflags" if way == "--as" else "--cflags", " ".join(cmd[1:])]
    c = probe(*asm, "--templates", ORDER)
    assert (c["toolchain"]["arch"], c["toolchain"]["format"]) == (arch, fmt)
    assert {k: v[0] for k, v in table(c).items()} == (
        {"addx": "yes", "addxbe": "broken"} if arch == "aarch64" else
        {"adda": "yes", "addt": "yes", "addabe": "broken"})
    # The real catalog: answered, not skipped; the build says the byte order.
    feature = "aes" if arch == "aarch64" else "neon"
    c = probe(*asm, "--features", feature)
    assert c["features"][feature]["status"] == "yes", c["features"][feature]
    if way == "--cc":
        assert ("__ARM_BIG_ENDIAN" in c["build"]["macros"]) == be
    sh = asmcap(*asm, "--features", feature, "--format", "sh").stdout
    assert f"ASMCAP_ARCH={arch}\n" in sh and f"ASMCAP_{feature.upper()}=yes\n" in sh


# ---- advice: only the host's own architecture's CPU reader answers ----

@pytest.mark.parametrize("args,features", [
    (["--as", "aarch64-linux-gnu-as"], "gcs,sme2"),
    (["--cc", "clang-14", "--cflags", "--target=riscv64-linux-gnu"], "zvksh,zbb"),
    # an arm feature this assembler refuses with its directive (status no)
    (["--as", "arm-linux-gnueabihf-as", "--templates", ROOT / "tests" / "probe" / "data" / "enable"], "idivext"),
])
def test_cross_advice_claims_no_cpu(args, features):
    """Probed on x86_64, the x86 reader took an aarch64/arm/riscv64 feature
    (no cpuid: lines) as runnable and the advice said "This CPU has gcs".
    The CPU of this machine cannot run another architecture's code: the
    advice is there (the toolchain rejected them), the CPU claim is not."""
    import platform
    assert platform.machine() == "x86_64", "the claim is tested on an x86_64 host"
    need(args[1])
    r = asmcap(*args, "--features", features)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\nadvice:\n", 1)[1].splitlines()
    named = {l.split(":", 1)[0].strip(): l for l in lines}
    assert set(features.split(",")) <= set(named), r.stdout
    assert not [l for l in lines if "This CPU has" in l], lines


# ---- arm idiv on raw GNU as: the two answers and the advice agree ----

SDIV = "\t.syntax unified\n\t.arm\n\tsdiv r0, r1, r2\n"
SDIV_BYTES = bytes.fromhex("11f210e7")      # the word 0xe710f211 (Arm ARM SDIV, A1)


def gas_arm(tmp_path, text, *flags):
    """.text of `arm-linux-gnueabihf-as FLAGS` on text, or None when it refuses."""
    src, obj = tmp_path / "d.s", tmp_path / "d.o"
    src.write_text(text)
    r = subprocess.run(["arm-linux-gnueabihf-as", *flags, str(src), "-o", str(obj)], capture_output=True)
    return elf_facts(obj)[3] if r.returncode == 0 else None


@pytest.mark.parametrize("asflags", [[], ["-march=armv5te"], ["-march=armv7-a"]])
def test_arm_idiv_on_gnu_as(tmp_path, asflags):
    """GNU as without -march takes every instruction (sdiv assembles bare)
    but refuses `.arch_extension idiv` unless the base is v7-A or v7-R:
    the catalog's spelling gave IDIV=no beside IDIV_FLAGS=yes, and advice
    asking for the assembler in use.  Naming the base first works on every
    base.  Both answers come from these bytes."""
    need("arm-linux-gnueabihf-as")
    ext = ".arch_extension idiv\n"
    assert gas_arm(tmp_path, ext + SDIV) is None or asflags == ["-march=armv7-a"], \
        "precondition: the bare extension is refused on a base that is not v7-A"
    with_dir = gas_arm(tmp_path, ".arch armv7-a\n" + ext + SDIV, *asflags)
    bare = gas_arm(tmp_path, SDIV, *asflags)
    assert with_dir == SDIV_BYTES
    want = ("yes", "yes" if bare == SDIV_BYTES else "no")
    c = probe("--as", "arm-linux-gnueabihf-as", *(["--asflags", *asflags] if asflags else []),
              "--features", "idiv")
    assert table(c)["idiv"] == want
    # yes needs no advice (it asked for GNU as 2.40, the assembler in use)
    assert "advice:" not in asmcap("--as", "arm-linux-gnueabihf-as", *(["--asflags", *asflags] if asflags else []),
                                   "--features", "idiv").stdout


def test_advice_when_only_the_directive_is_refused():
    """A feature whose only enable line this assembler refuses while the
    bare snippet gives the right bytes: status no, flags yes.  The advice
    says the build's flags enable it, not "an assembler that knows it"."""
    need("arm-linux-gnueabihf-as")
    r = asmcap("--as", "arm-linux-gnueabihf-as", "--templates", ROOT / "tests" / "probe" / "data" / "enable")
    assert r.returncode == 0, r.stderr
    row = next(l.split() for l in r.stdout.splitlines() if l.startswith("idivext "))
    assert row[1:3] == ["no", "yes"]
    line = next(l for l in r.stdout.split("\nadvice:\n", 1)[1].splitlines() if l.startswith("  idivext:"))
    assert "an assembler that knows" not in line
    assert "the build's flags enable it" in line and "rejects `.arch_extension idiv'" in line


# ---- s390x: libgcrypt's `.machine "z13+vx"' on clang, made visible ----

S390X = "--target=s390x-linux-gnu"
S390X_FEW = "vx,vxe,vxe2,msa,msa8,dflt,machine-z13-vx,march-z13"


def test_s390x_clang_drops_the_vector_facility_at_an_unknown_machine(tmp_path):
    """The precondition, from clang's own exit status: `.machine "z13+vx"'
    (libgcrypt's spelling) is not a processor clang-19 knows; it says so on
    stderr and resets the machine, so vx is refused even under -march=z13,
    where it assembles without the directive; `.machine z13' gives it."""
    need("clang-19")
    body = "\tvx %v0,%v1,%v31\n"
    for march in ("", " -march=z13"):
        ok, err = assembles(tmp_path, f"clang-19 {S390X}{march}", '.machine "z13+vx"\n' + body)
        assert not ok and "not a recognized processor" in err and "requires: vector" in err
    assert assembles(tmp_path, f"clang-19 {S390X} -march=z13", body)[0]
    assert assembles(tmp_path, f"clang-19 {S390X}", ".machine z13\n" + body)[0]
    assert not assembles(tmp_path, f"clang-19 {S390X}", body)[0]


@pytest.mark.parametrize("cc", ["clang-19", "clang-22"])
def test_s390x_clang_answers_name_the_spelling_and_the_flag(cc):
    """Never a silent yes or no: vx is yes through `.machine z13', the
    answer naming the spelling that did not work; libgcrypt's check is no
    (directive) and its flags answer is what -march=z13 gives."""
    need(cc)
    c = probe("--cc", f"{cc} {S390X}", "--features", S390X_FEW)
    assert c["toolchain"]["arch"] == "s390x"
    assert table(c) == {"vx": ("yes", "no"), "vxe": ("yes", "no"), "vxe2": ("yes", "no"),
                        "msa": ("yes", "yes"), "msa8": ("yes", "no"), "dflt": ("yes", "no"),
                        "machine-z13-vx": ("no", "no"), "march-z13": ("yes", None)}
    vx = c["features"]["vx"]
    assert vx["enable"] == ".machine z13"
    assert vx["reason"].startswith("enabled by `.machine z13' (not by `.machine \"z13+vx\"'")
    z13 = probe("--cc", f"{cc} {S390X}", "--cflags", "-march=z13", "--features", S390X_FEW)
    assert table(z13)["vx"] == ("yes", "yes") and table(z13)["vxe"] == ("yes", "no")
    assert table(z13)["machine-z13-vx"] == ("no", "yes")
    # why the directive did nothing: clang's own words, in explain's stderr
    ex = asmcap("explain", "machine-z13-vx", "--cc", f"{cc} {S390X}", "--cflags", "-march=z13")
    assert "'z13+vx' is not a recognized processor for this target" in ex.stdout, ex.stdout


def test_s390x_gnu_as_takes_libgcrypts_spelling():
    need("s390x-linux-gnu-as")
    c = probe("--as", "s390x-linux-gnu-as", "--features", S390X_FEW)
    assert c["toolchain"]["arch"] == "s390x"
    assert {k: v[0] for k, v in table(c).items()} == {k: "yes" for k in S390X_FEW.split(",")}
    assert c["features"]["vx"]["enable"] == '.machine "z13+vx"'
    # with -march=z10 only the directive enables the vector facility
    z10 = probe("--as", "s390x-linux-gnu-as", "--asflags", "-march=z10", "--features", "vx")
    assert table(z10)["vx"] == ("yes", "no")


def test_s390x_answers_in_every_format():
    need("clang-19")
    args = ["--cc", f"clang-19 {S390X}", "--features", "vx,machine-z13-vx"]
    sh = asmcap(*args, "--format", "sh").stdout
    assert "ASMCAP_VX=yes" in sh and "ASMCAP_VX_FLAGS=no" in sh
    assert "ASMCAP_VX_ENABLE='.machine z13'" in sh and "ASMCAP_MACHINE_Z13_VX=no" in sh
    mk = asmcap(*args, "--format", "make").stdout
    assert "ASMCAP_VX_ENABLE := .machine z13" in mk and "ASMCAP_MACHINE_Z13_VX := no" in mk
    h = asmcap(*args, "--format", "h").stdout
    assert "#define ASMCAP_VX 1" in h and "#define ASMCAP_VX_ENABLE .machine z13\n" in h
    assert "/* #undef ASMCAP_MACHINE_Z13_VX */" in h
    assert "ASMCAP_VX_ENABLE => '.machine z13'" in asmcap(*args, "--format", "perl").stdout
    assert 'set(ASMCAP_VX_ENABLE ".machine z13")' in asmcap(*args, "--format", "cmake").stdout
    text = asmcap(*args).stdout
    assert "target:    s390x, elf64 objects" in text
    assert any(l.split()[:3] == ["machine-z13-vx", "no", "no"] for l in text.splitlines())
