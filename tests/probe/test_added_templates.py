# SPDX-License-Identifier: MIT
"""--add-templates / ASMCAP_ADD_TEMPLATES: a user's features added to the
built-in catalog, or replacing one of its features by name, probed with real
gcc; bad added files named with their line; the cache keyed on their text."""
import json
import subprocess
import time

import pytest

from conftest import asmcap, need_tool

LFENCE = "# feature: mytest\n# summary: a user's feature\n# expect: {}\n\tlfence\n"


def write(d, rel, text):
    p = d / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def probe(*args, env=None):
    r = asmcap("--cc", "gcc", "--format", "json", *args, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"]


@pytest.mark.parametrize("expect, status", [("0f ae e8", "yes"), ("0f ae f0", "broken")])
def test_added_feature_is_probed_like_a_catalog_one(asmcap_bin, tmp_path, expect, status):
    write(tmp_path, "x86_64/mytest.s", LFENCE.format(expect))
    f = probe("--add-templates", tmp_path, "--features", "mytest,adx")
    assert f["mytest"]["status"] == status and f["adx"]["status"] == "yes"
    # the environment way gives the same catalog
    f = probe("--features", "mytest", env={"ASMCAP_ADD_TEMPLATES": f"::{tmp_path}:"})
    assert f["mytest"]["status"] == status


def test_override_replaces_the_catalog_feature_whole(asmcap_bin, tmp_path):
    # adx redefined as lfence: the built-in snippet (and its requires: bmi2,
    # and its nasm body) are gone, the user's answers.
    write(tmp_path, "x86_64/adx.s", LFENCE.replace("mytest", "adx").format("0f ae f0"))
    f = probe("--add-templates", tmp_path, "--features", "adx")
    assert f["adx"]["status"] == "broken" and "0f ae e8" in f["adx"]["reason"].replace("0F AE E8", "0f ae e8")
    assert f["adx"].get("requires", []) == []
    r = asmcap("list", "--arch", "x86_64", "--add-templates", tmp_path)
    line = next(l for l in r.stdout.splitlines() if l.split()[:1] == ["adx"])
    assert f"[added: {tmp_path}/x86_64/adx.s]" in line
    assert "[added" not in next(l for l in r.stdout.splitlines() if l.split()[:1] == ["bmi2"])
    r = asmcap("explain", "adx", "--cc", "gcc", "--add-templates", tmp_path)
    assert r.stdout.startswith(f"feature:   adx ({tmp_path}/x86_64/adx.s)")
    assert "lfence" in r.stdout and "adcx" not in r.stdout


def test_later_directory_wins(asmcap_bin, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write(a, "x86_64/mytest.s", LFENCE.format("0f ae f0"))
    write(b, "x86_64/mytest.s", LFENCE.format("0f ae e8"))
    assert probe("--add-templates", a, "--add-templates", b, "--features", "mytest")["mytest"]["status"] == "yes"
    assert probe("--add-templates", b, "--add-templates", a, "--features", "mytest")["mytest"]["status"] == "broken"
    # the environment's directories come first, the options win
    f = probe("--add-templates", b, "--features", "mytest", env={"ASMCAP_ADD_TEMPLATES": str(a)})
    assert f["mytest"]["status"] == "yes"


@pytest.mark.parametrize("files, message", [
    ({"x86_64/bad.s": "# feature: bad\n# expect: 0f zz\n\tnop\n"},
     r"{d}/x86_64/bad.s:2: bad expect `0f zz'"),
    ({"x86_64/bad.s": "# feature: bad\n# expect: 90\n# requires: ghost\n\tnop\n"},
     r"{d}/x86_64/bad.s:3: requires unknown feature `ghost'"),
    ({"x86_64/bad.s": "# feature: other\n# expect: 90\n\tnop\n"},
     r"{d}/x86_64/bad.s:1: feature `other' does not match the file name `bad'"),
    ({"x86_64/adx.nasm": "adcx rax, rbx\n"},
     r"{d}/x86_64/adx.nasm:1: a .nasm file needs its .s beside it"),
    ({"x86_64/adx.masm": "adcx rax, rbx\n"},
     r"{d}/x86_64/adx.masm:1: a .masm file needs its .s beside it"),
    ({"x86_64/bad.s": "# feature: bad\n# expect: 90\n# masm: some\n\tnop\n"},
     r"{d}/x86_64/bad.s:3: `masm:' takes only `none'"),
    ({"mytest.s": LFENCE.format("0f ae e8")},
     r"{d}/mytest.s: added templates go in an architecture folder ({d}/x86_64/mytest.s)"),
    ({"x86_64/ADX.s": "# feature: ADX\n# expect: 90\n\tnop\n"},
     r"templates/x86_64/adx.s:1: feature `adx' and {d}/x86_64/ADX.s both become ASMCAP_ADX"),
])
def test_bad_added_file_is_named(asmcap_bin, tmp_path, files, message):
    for rel, text in files.items():
        write(tmp_path, rel, text)
    for args in (("--cc", "gcc", "--features", "adx"), ("list",), ("explain", "adx", "--cc", "gcc")):
        r = asmcap(*args, "--add-templates", tmp_path)
        assert r.returncode == 2, r.stdout
        assert message.format(d=tmp_path) in r.stderr, r.stderr


def test_missing_directory_is_an_error(asmcap_bin, tmp_path):
    r = asmcap("list", "--add-templates", tmp_path / "nope")
    assert r.returncode == 2
    assert f"added templates directory {tmp_path}/nope: No such file or directory" in r.stderr
    r = asmcap("list", env={"ASMCAP_ADD_TEMPLATES": str(tmp_path / "nope")})
    assert r.returncode == 2 and f"{tmp_path}/nope" in r.stderr


def test_directory_for_another_architecture_only(asmcap_bin, tmp_path):
    # an added aarch64 feature: the x86_64 catalog is untouched, probing works
    write(tmp_path, "aarch64/mine.s", "# feature: mine\n# expect: 1f 20 03 d5\n\tnop\n")
    f = probe("--add-templates", tmp_path, "--features", "adx")
    assert f["adx"]["status"] == "yes"
    r = asmcap("list", "--arch", "aarch64", "--add-templates", tmp_path)
    assert r.returncode == 0 and "mine" in r.stdout


def stats(r):
    line = next(l for l in r.stderr.splitlines() if l.startswith("asmcap: stats:"))
    return dict(kv.split("=") for kv in line.split()[2:])


def test_cache_key_covers_added_text(asmcap_bin, tmp_path):
    d = tmp_path / "t"
    p = write(d, "x86_64/mytest.s", LFENCE.format("0f ae e8"))
    cache = tmp_path / "c.cache"

    def run():
        r = asmcap("--cc", "gcc", "--add-templates", d, "--features", "mytest", "--cache", cache,
                   "--format", "sh", env={"ASMCAP_STATS": "1"})
        assert r.returncode == 0, r.stderr
        return "ASMCAP_MYTEST=yes" in r.stdout, stats(r)["cached"]

    assert run() == (True, "0")
    assert run() == (True, "1")           # unchanged: a hit
    p.write_text(LFENCE.format("0f ae f0"))
    assert run() == (False, "0")          # edited: re-probed, not the stale yes
    p.write_text(LFENCE.format("0f ae e8"))
    assert run() == (True, "1")           # back: the first entry is still valid


def test_override_takes_the_nasm_body_with_it(asmcap_bin, tmp_path):
    """The catalog's adx.nasm (adcx) must not stay paired with a user's adx.s:
    without the user's own .nasm, nasm has no form of it; with it, the
    user's body is what nasm assembles."""
    write(tmp_path, "x86_64/adx.s", LFENCE.replace("mytest", "adx").format("0f ae e8"))
    r = asmcap("--nasm", "nasm", "--add-templates", tmp_path, "--features", "adx", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["features"]["adx"]["status"] == "skipped"
    write(tmp_path, "x86_64/adx.nasm", "\tlfence\n")
    r = asmcap("--nasm", "nasm", "--add-templates", tmp_path, "--features", "adx", "--format", "json")
    assert json.loads(r.stdout)["features"]["adx"]["status"] == "yes"


@pytest.mark.tools("/usr/lib/llvm-19/bin/llvm-ml")
def test_override_takes_the_masm_body_with_it(asmcap_bin, tmp_path):
    """Likewise the catalog's avx2.masm: a user's avx2.s alone leaves MASM
    no form of it; a user's .masm beside it is what MASM assembles."""
    ml64 = "/usr/lib/llvm-19/bin/llvm-ml -m64"
    write(tmp_path, "x86_64/avx2.s", LFENCE.replace("mytest", "avx2").format("0f ae e8"))
    r = asmcap("--masm", ml64, "--add-templates", tmp_path, "--features", "avx2", "--format", "json")
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]["avx2"]
    assert (f["status"], f["reason"]) == ("skipped", "the catalog has no masm form of it")
    write(tmp_path, "x86_64/avx2.masm", "\tlfence\n")
    r = asmcap("--masm", ml64, "--add-templates", tmp_path, "--features", "avx2", "--format", "json")
    assert json.loads(r.stdout)["features"]["avx2"]["status"] == "yes"


def layered(d, n):
    """n added features, each requiring the two below it: a walk over
    `requires' that does not remember what it decided visits 2^(n/2) paths."""
    for i in range(n):
        req = " ".join(f"l{j}" for j in (i - 1, i - 2) if j >= 0)
        write(d, f"x86_64/l{i}.s", f"# feature: l{i}\n# expect: 90\n"
              + (f"# requires: {req}\n" if req else "") + "\tnop\n")
    return ",".join(f"l{i}" for i in range(n))


def test_requires_walk_is_linear(asmcap_bin, tmp_path):
    # The best of three probes with 24 and with 48 such features: the 24
    # extra layers would cost ~10^5 times more unmemoised; linear, the
    # processes dominate both.  A generous ratio, and a cap from the small
    # size so the old code fails fast.
    best = {}
    for n in (24, 48):
        d = tmp_path / str(n)
        names = layered(d, n)
        for _ in range(3):
            t0 = time.monotonic()
            r = asmcap("--cc", "gcc", "--add-templates", d, "--features", names, "--require", f"l{n - 1}",
                       "--format", "sh", timeout=max(20 * best.get(24, 6), 5))
            best[n] = min(best.get(n, 1e9), time.monotonic() - t0)
            assert r.returncode == 0, r.stderr
            assert f"ASMCAP_L{n - 1}=yes" in r.stdout
    assert best[48] < 5 * best[24], best


NOP = "# feature: {}\n# expect: 90\n\tnop\n"


@pytest.mark.parametrize("rel, message", [
    # sh and make keep the last assignment: sha3's _FLAGS answer would be this one's
    ("aarch64/sha3-flags.s", "{d}/aarch64/sha3-flags.s:1: feature `sha3-flags' and templates/aarch64/sha3.s "
     "(its answer without `enable:') both become ASMCAP_SHA3_FLAGS: rename one"),
    ("aarch64/sha3-enable.s", "{d}/aarch64/sha3-enable.s:1: feature `sha3-enable' and templates/aarch64/sha3.s "
     "(its enable spelling) both become ASMCAP_SHA3_ENABLE: rename one"),
    ("x86_64/build-cet-ibt.s", "{d}/x86_64/build-cet-ibt.s:1: feature `build-cet-ibt' becomes "
     "ASMCAP_BUILD_CET_IBT, which is the build facts ASMCAP_BUILD_*: rename it"),
    ("x86_64/arch.s", "{d}/x86_64/arch.s:1: feature `arch' becomes ASMCAP_ARCH, which is the target architecture"),
    ("x86_64/c-aes.s", "{d}/x86_64/c-aes.s:1: feature `c-aes' becomes ASMCAP_C_AES, which is cc-probe's answers"),
    ("x86_64/.s", "{d}/x86_64/.s:1: the feature name `' (the file name) must start with a letter or digit"),
    ("x86_64/...s", "{d}/x86_64/...s:1: the feature name `..' (the file name) must start with a letter or digit"),
])
def test_added_name_taking_another_variable_is_refused(asmcap_bin, tmp_path, rel, message):
    arch, base = rel.split("/")
    write(tmp_path, rel, NOP.format(base[:-2]))
    r = asmcap("list", "--arch", arch, "--add-templates", tmp_path)
    assert r.returncode == 2, r.stdout
    assert message.format(d=tmp_path) in r.stderr, r.stderr
    if arch == "x86_64":
        r = asmcap("--cc", "gcc", "--add-templates", tmp_path, "--features", "adx", "--format", "sh")
        assert r.returncode == 2 and message.format(d=tmp_path) in r.stderr, r.stderr


def test_foreign_feature_taking_a_variable_is_refused(asmcap_bin, tmp_path):
    # x86's sha3-flags and aarch64's sha3 (asked for, answered skipped)
    # would both write ASMCAP_SHA3_FLAGS into one output
    write(tmp_path, "x86_64/sha3-flags.s", NOP.format("sha3-flags"))
    r = asmcap("--cc", "gcc", "--add-templates", tmp_path, "--features", "sha3,sha3-flags", "--format", "sh")
    assert r.returncode == 2, r.stdout
    assert "feature `sha3-flags' and templates/aarch64/sha3.s (its answer without `enable:') " \
           "both become ASMCAP_SHA3_FLAGS" in r.stderr, r.stderr


@pytest.mark.parametrize("cc", ["gcc", "clang-19"])
@pytest.mark.parametrize("cond", [".if 1", ".if 0"])
def test_unterminated_conditional_is_the_templates_no(asmcap_bin, tmp_path, cc, cond):
    # clang-19 says so at the end of the file, past every snippet: run alone,
    # the one snippet there left it open (not "fails intermittently", exit 3)
    need_tool(cc)
    write(tmp_path, "x86_64/myif.s", f"# feature: myif\n# expect: 90\n\t{cond}\n\tnop\n")
    r = asmcap("--cc", cc, "--add-templates", tmp_path, "--features", "myif,adx", "--format", "json")
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]
    assert f["myif"]["status"] == "no" and f["myif"]["reason"].startswith("rejected: "), f["myif"]
    assert f["adx"]["status"] == "yes", f["adx"]


def assembles(cmd, text, tmp_path):
    """Does the assembler command take text (the expected verdict, from the
    assembler itself, not from asmcap)?"""
    src, obj = tmp_path / "own.s", tmp_path / "own.o"
    src.write_text(text)
    return subprocess.run([*cmd, "-o", str(obj), str(src)], capture_output=True).returncode == 0


# A body that leaves the assembler changed runs alone: in a shared run it
# would enable (.arch) or break (.intel_syntax) the snippets after it.
# `aaa' sorts first, before every snippet it could reach.
def test_body_arch_directive_enables_no_other_snippet(asmcap_bin, tmp_path):
    gas = need_tool("aarch64-linux-gnu-as")
    write(tmp_path, "aarch64/aaa.s", "# feature: aaa\n# enable: .arch armv8-a\n# expect: 1f 20 03 d5\n"
          "\t.arch armv8.2-a+sha3+sm4\n\tnop\n")
    r = asmcap("--as", gas, "--add-templates", tmp_path, "--format", "json")
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]
    for name, insn in (("sha3", "eor3 v0.16b, v1.16b, v2.16b, v3.16b"), ("sm4", "sm4e v0.4s, v1.4s"),
                       ("sha2", "sha256h q0, q1, v2.4s")):
        own = "yes" if assembles([gas], f"\t{insn}\n", tmp_path) else "no"
        assert f[name]["flags"]["status"] == own, (name, f[name])


def assert_adx_as_gas_says(tmp_path, expect, body):
    """An added `aaa' (expect, body) probed beside adx under
    -Wa,-march=generic64: adx's verdict is what gcc says of adx's own
    instructions under those flags, whatever aaa's body did."""
    write(tmp_path, "x86_64/aaa.s", f"# feature: aaa\n# expect: {expect}\n" + body)
    flags = "-Wa,-march=generic64"
    r = asmcap("--cc", "gcc", "--cflags", flags, "--add-templates", tmp_path, "--features", "aaa,adx",
               "--format", "json")
    assert r.returncode == 0, r.stderr
    own = assembles(["gcc", flags, "-c"], "\tadcx %rax,%rbx\n\tadox %r9,%r8\n", tmp_path)
    assert json.loads(r.stdout)["features"]["adx"]["status"] == ("yes" if own else "no")


def test_body_arch_directive_on_x86(asmcap_bin, tmp_path):
    assert_adx_as_gas_says(tmp_path, "66 48 0f 38 f6 d8", "\t.arch .adx\n\tadcx %rax,%rbx\n")


def test_unclosed_intel_syntax_breaks_no_other_snippet(asmcap_bin, tmp_path):
    write(tmp_path, "x86_64/aaa.s", "# feature: aaa\n# expect: 8d 4c 90 10\n"
          "\t.intel_syntax noprefix\n\tlea ecx, [rax+rdx*4+16]\n")
    r = asmcap("--cc", "gcc", "--add-templates", tmp_path, "--features", "aaa,adx,bmi2,avx2",
               "--format", "json")
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]
    assert f["aaa"]["status"] == "yes"
    for name, insn in (("adx", "adcx %rax,%rbx"), ("bmi2", "mulx %rax,%rbx,%rcx"),
                       ("avx2", "vpaddq %ymm0,%ymm1,%ymm2")):
        assert assembles(["gcc", "-c"], f"\t{insn}\n", tmp_path)
        assert f[name]["status"] == "yes", (name, f[name])


SYNTAX_BODY = ("8d 4c 90 10", "\t.intel_syntax noprefix\n\tlea ecx, [rax+rdx*4+16]\n")
MACRO_BODY = ("90", "\t.macro mymac\n\tnop\n\t.endm\n\tmymac\n")


@pytest.mark.parametrize("body, tail, runs", [(SYNTAX_BODY, "\t.att_syntax prefix\n", 1), (SYNTAX_BODY, "", 2),
                                              (MACRO_BODY, "\t.purgem mymac\n", 1), (MACRO_BODY, "", 2)])
def test_a_body_that_undoes_its_state_shares_the_run(asmcap_bin, tmp_path, body, tail, runs):
    """Switched back (.att_syntax) or purged (.purgem), a body leaves the
    assembler as it found it and shares the batch; else it runs alone."""
    write(tmp_path, "x86_64/aaa.s", f"# feature: aaa\n# expect: {body[0]}\n" + body[1] + tail)
    r = asmcap("--cc", "gcc", "--add-templates", tmp_path, "--features", "aaa,adx", "--format", "sh",
               env={"ASMCAP_STATS": "1"})
    assert r.returncode == 0 and "ASMCAP_AAA=yes" in r.stdout and "ASMCAP_ADX=yes" in r.stdout, r.stderr
    assert stats(r)["runs"] == str(runs)


def test_macro_defined_in_a_body_reaches_no_other_snippet(asmcap_bin, tmp_path):
    # macros named adcx and adox that emit the expected bytes would make
    # adx pass on an assembler that rejects both instructions
    macros = "".join(f"\t.macro {m} a:vararg\n\t.byte {b}\n\t.endm\n" for m, b in
                     (("adcx", "0x66,0x48,0x0f,0x38,0xf6,0xd8"), ("adox", "0xf3,0x4d,0x0f,0x38,0xf6,0xc1")))
    assert_adx_as_gas_says(tmp_path, "90", macros + "\tnop\n")


def test_nasm_bits_in_a_body_reaches_no_other_snippet(asmcap_bin, tmp_path):
    nasm = need_tool("nasm")
    write(tmp_path, "x86_64/aaa.s", "# feature: aaa\n# expect: 90\n\tnop\n")
    write(tmp_path, "x86_64/aaa.nasm", "\tbits 32\n\tnop\n")
    r = asmcap("--nasm", nasm, "--add-templates", tmp_path, "--features", "aaa,adx,bmi2", "--format", "json")
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["features"]
    src = tmp_path / "own.asm"
    for name, insn in (("adx", "adcx rbx, rax"), ("bmi2", "mulx rcx, rbx, rax")):
        src.write_text(f"\t{insn}\n")
        own = subprocess.run([nasm, "-f", "win64", "-o", str(tmp_path / "own.o"), str(src)]).returncode == 0
        assert own and f[name]["status"] == "yes", (name, f[name])
