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

import pytest

from conftest import ROOT, asmcap, need_tool

CROSS = ROOT / "tests" / "probe" / "data" / "cross"      # fake catalogs for the engine tests
A64 = "--target=aarch64-linux-gnu"
RV64 = "--target=riscv64-linux-gnu"


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
    ("clang-14", {"sha3": "yes", "crc32": "yes", "bti": "yes", "bf16": "no", "cssc": "no",
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


@pytest.mark.parametrize("target,name", [
    ("powerpc64le-linux-gnu", "ppc64le"), ("s390x-linux-gnu", "s390x"),
    ("mips-linux-gnu", "mips"), ("mipsel-linux-gnu", "mipsel"),
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
    assert "# without .arch armv8.2-a+sha3: no: rejected" in sh
    assert "ASMCAP_SHA3_FLAGS := no" in asmcap(*args, "--format", "make").stdout
    h = asmcap(*args, "--format", "h").stdout
    assert "#define ASMCAP_SHA3 1" in h and "ASMCAP_SHA3_FLAGS" in h and "#define ASMCAP_SHA3_FLAGS 1" not in h
    assert "set(ASMCAP_SHA3_FLAGS OFF" in asmcap(*args, "--format", "cmake").stdout
    assert "ASMCAP_SHA3_FLAGS => 'no'" in asmcap(*args, "--format", "perl").stdout
    text = asmcap(*args).stdout
    assert any(l.split()[:3] == ["sha3", "yes", "no"] for l in text.splitlines())
    assert "flags" in next(l for l in text.splitlines() if l.startswith("feature"))


def test_x86_output_has_no_second_answer():
    c = probe("--cc", "gcc", "--features", "adx")
    assert "flags" not in c["features"]["adx"]
    assert "_FLAGS" not in asmcap("--cc", "gcc", "--features", "adx", "--format", "sh").stdout
    head = next(l for l in asmcap("--cc", "gcc", "--features", "adx").stdout.splitlines()
                if l.startswith("feature"))
    assert head.split() == ["feature", "status", "ms", "reason"]


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
