# SPDX-License-Identifier: MIT
"""asmcap cc-probe: C-level probes (GNU inline asm, intrinsics under
target attributes and -m flags) against real compilers, and against fake
ones that fold the intrinsic away, drop the function, emit LTO bitcode,
warn, or fail naming nothing. Every yes must be an instruction found in
the object's machine code."""
import json
import os
import subprocess

import pytest

from conftest import FAKES, asmcap

FAKE = FAKES / "cc-cprobe"


def probe(cc, features, cflags="-O2", fmt="json", env=None, rc=0, *extra):
    r = asmcap("cc-probe", "--cc", cc, "--cflags", cflags, "--features", features,
               "--format", fmt, *extra, env=env)
    assert r.returncode == rc, r.stderr
    return r


def verdicts(cc, features, cflags="-O2", env=None):
    """{answer: (status, reason)} for the answers asked; the rest unprobed."""
    d = json.loads(probe(cc, features, cflags, env=env).stdout)
    asked = features.split(",")
    for name, v in d["features"].items():
        if name not in asked:
            assert v["status"] == "unprobed", name
    return {n: (d["features"][n]["status"], d["features"][n]["reason"]) for n in asked}


# What each compiler does, checked in its objects. No compiler here turns
# _addcarryx_u64 into ADCX/ADOX (they emit ADC): the intrinsic answer is
# broken, the inline-asm one yes. gcc-12 and clang-14 predate SHA512.
TABLE = {
    "gcc-12": {"adx-inline": "yes", "adx-intrinsic": "broken", "bmi2-intrinsic-m": "yes",
               "avx512ifma-intrinsic": "yes", "sha512-intrinsic": "no", "sha512-intrinsic-m": "no"},
    "clang-14": {"adx-inline": "yes", "adx-intrinsic-m": "broken", "bmi2-intrinsic": "yes",
                 "vaes512-intrinsic-m": "yes", "sha512-intrinsic": "no", "sha512-intrinsic-m": "no"},
    "clang-19": {"adx-inline": "yes", "adx-intrinsic": "broken", "vaes-intrinsic": "yes",
                 "sha-intrinsic-m": "yes", "sha512-intrinsic": "yes", "sha512-intrinsic-m": "yes"},
}


@pytest.mark.parametrize("cc", [pytest.param(cc, marks=pytest.mark.tools(cc)) for cc in sorted(TABLE)])
def test_verdict_table(cc):
    got = verdicts(cc, ",".join(TABLE[cc]))
    assert {n: s for n, (s, _) in got.items()} == TABLE[cc], got
    for name, (status, reason) in got.items():
        if status == "yes":
            assert reason.startswith("asmcap_probe holds "), reason
        if status == "broken":
            assert "holds no adx instruction" in reason, reason


def test_rejection_quotes_the_compiler():
    got = verdicts("gcc-12", "sha512-intrinsic,sha512-intrinsic-m")
    # the attribute: gcc's own error, at the template's own line
    assert "sha512-intrinsic.c:" in got["sha512-intrinsic"][1]
    assert "'sha512' is unknown" in got["sha512-intrinsic"][1]
    # the -m flag: the driver's error names it
    assert "-msha512" in got["sha512-intrinsic-m"][1]


@pytest.mark.tools("clang-14")
def test_clang14_rejects_the_target_attribute():
    status, reason = verdicts("clang-14", "sha512-intrinsic")["sha512-intrinsic"]
    assert status == "no"
    assert "unsupported 'sha512' in the 'target' attribute" in reason


@pytest.mark.parametrize("mode,why", [("fold", "holds no adx instruction"),
                                      ("drop", "no code for asmcap_probe")])
def test_folded_or_dropped_is_not_yes(mode, why):
    # a valid object, without the instruction or without the function
    got = verdicts(str(FAKE), "adx-inline,bmi2-intrinsic", env={"CPROBE_FAKE": mode})
    for name, (status, reason) in got.items():
        assert status == "broken", (name, reason)
    assert why in got["adx-inline"][1]


def test_a_warning_on_the_probe_is_no():
    got = verdicts(str(FAKE), "adx-inline", env={"CPROBE_FAKE": "warn"})
    assert got["adx-inline"] == ("no", "the compiler warned: templates/x86_64/c/adx-inline.c:5:1: "
                                       "warning: this compiler dropped something")


@pytest.mark.parametrize("cc,flags,word", [("gcc-12", "-O2 -flto", "GIMPLE"),
                                           ("clang-19", "-O2 -flto", "bitcode"),
                                           ("clang-19", "-O2 -flto=thin", "bitcode")])
def test_lto_is_not_yes(cc, flags, word):
    got = verdicts(cc, "adx-inline,bmi2-intrinsic-m", flags)
    for name, (status, reason) in got.items():
        assert status == "skipped", (name, reason)
        assert "not machine code (LTO" in reason and word in reason and "cannot verify" in reason


def test_fat_lto_objects_are_machine_code():
    got = verdicts("gcc-12", "adx-inline", "-O2 -flto -ffat-lto-objects")
    assert got["adx-inline"][0] == "yes"


def test_lto_keeps_rejections():
    # the front end still says no under -flto
    got = verdicts("gcc-12", "sha512-intrinsic", "-O2 -flto")
    assert got["sha512-intrinsic"][0] == "no"


def test_werror_cflags_are_respected():
    strict = "-O2 -Wall -Wextra -Werror -Wmissing-prototypes -Wmissing-declarations -std=c89 -pedantic"
    names = "adx-inline,bmi2-intrinsic"
    plain = verdicts("gcc-12", names)
    assert verdicts("gcc-12", names, strict) == plain   # the probes are clean C
    # -Werror makes the assembler's rejection under -Wa,-march an error too
    got = verdicts("gcc-12", "adx-inline", "-O2 -Werror -Wa,-march=generic64")
    assert got["adx-inline"][0] == "no" and "adcx" in got["adx-inline"][1]


def test_flags_that_break_every_compile_are_exit_3():
    r = asmcap("cc-probe", "--cc", "gcc-12", "--cflags", "-O2 -fno-such-option-here",
               "--features", "adx-inline")
    assert r.returncode == 3 and "toolchain unusable" in r.stderr, r.stderr


def test_other_target_is_skipped():
    got = verdicts("gcc-12", "adx-inline,bmi2-intrinsic", "-O2 -m32")
    for name, (status, reason) in got.items():
        assert status == "skipped" and "not for this target" in reason and "i386" in reason


def test_nameless_crash_is_never_no():
    r = asmcap("cc-probe", "--cc", FAKE, "--features", "adx-inline", env={"CPROBE_FAKE": "crash"})
    assert r.returncode == 3 and "killed by SIGSEGV" in r.stderr and "tried 3 times" in r.stderr


def test_flaky_launcher_never_gives_a_wrong_no(tmp_path):
    want = verdicts("gcc-12", "adx-inline,sha-inline,vaes-inline")
    for seed in range(4):
        counter = tmp_path / f"count{seed}"
        env = {"FLAKY_COUNTER": str(counter), "FLAKY_SEED": str(seed), "FLAKY_RATE": "0.3"}
        r = asmcap("cc-probe", "--cc", f"{FAKES / 'flaky-launcher'} gcc-12", "--cflags", "-O2",
                   "--features", "adx-inline,sha-inline,vaes-inline", "--format", "json", env=env)
        if r.returncode == 0:
            d = json.loads(r.stdout)["features"]
            assert {n: (d[n]["status"], d[n]["reason"]) for n in want} == want
        else:
            assert r.returncode == 3 and "tried 3 times" in r.stderr, r.stderr
        assert "f" in counter.read_text() or r.returncode == 0


def test_every_format(tmp_path):
    names = "adx-inline,adx-intrinsic,sha512-intrinsic-m"
    cache = ("--cache", tmp_path / "cache")     # one probe, then six cache hits
    out = {f: probe("gcc-12", names, "-O2", f, None, 0, *cache).stdout
           for f in ("json", "sh", "make", "h", "perl", "cmake", "text")}
    want = {"ASMCAP_C_ADX_INLINE": "yes", "ASMCAP_C_ADX_INTRINSIC": "no",
            "ASMCAP_C_SHA512_INTRINSIC_M": "no", "ASMCAP_C_BMI2_INTRINSIC": "unprobed"}
    # sh
    (tmp_path / "caps.sh").write_text(out["sh"])
    sh = subprocess.run(["sh", "-c", ". ./caps.sh; " + "; ".join(f'echo {k}=${k}' for k in want)],
                        cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert dict(l.split("=", 1) for l in sh.split()) == want
    # make
    (tmp_path / "caps.mk").write_text(out["make"])
    (tmp_path / "Makefile").write_text("include caps.mk\nall:\n" + "".join(f"\t@echo {k}=$({k})\n" for k in want))
    mk = subprocess.run(["make", "-s"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert dict(l.split("=", 1) for l in mk.split()) == want
    # h: yes is defined, no and unprobed are not
    (tmp_path / "caps.h").write_text(out["h"])
    (tmp_path / "t.c").write_text('#include "caps.h"\n#include <stdio.h>\nint main(void) {\n' + "".join(
        f'#ifdef {k}\nputs("{k}");\n#endif\n' for k in want) + "return 0; }\n")
    subprocess.run(["gcc", "-o", tmp_path / "t", tmp_path / "t.c"], check=True)
    assert subprocess.run([tmp_path / "t"], capture_output=True, text=True).stdout.split() == ["ASMCAP_C_ADX_INLINE"]
    unasked = next(l for l in out["h"].splitlines() if "not asked for (--features)" in l)
    assert " ASMCAP_C_BMI2_INTRINSIC " in unasked and "unprobed, not defined:" in unasked
    # perl
    (tmp_path / "caps.pl").write_text(out["perl"])
    pl = subprocess.run(["perl", "-e", "do './caps.pl' or die $@; print map {\"$_=$asmcap{$_}\\n\"} sort keys %asmcap"],
                        cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    got = dict(l.split("=", 1) for l in pl.split())
    assert {k: got[k] for k in want} == want
    # cmake: ON, OFF, and a false NOTFOUND string for unprobed
    (tmp_path / "caps.cmake").write_text(out["cmake"])
    (tmp_path / "t.cmake").write_text("include(caps.cmake)\n" + "".join(
        f'if({k})\nmessage("{k}=on")\nelse()\nmessage("{k}=off")\nendif()\n' for k in want))
    cm = subprocess.run(["cmake", "-P", "t.cmake"], cwd=tmp_path, capture_output=True, text=True, check=True).stderr
    assert dict(l.split("=", 1) for l in cm.split()) == {k: "on" if v == "yes" else "off" for k, v in want.items()}
    # json
    d = json.loads(out["json"])
    assert d["schema"] == 1 and d["kind"] == "cc-probe" and d["toolchain"]["arch"] == "x86_64"
    assert d["features"]["adx-intrinsic"]["how"] == 'target("adx")'
    assert d["features"]["sha512-intrinsic-m"]["how"] == "-msha512 -mavx2"
    assert d["features"]["bmi2-intrinsic"]["status"] == "unprobed"
    # text: one row per answer
    rows = {l.split()[0]: l.split()[1] for l in out["text"].splitlines()[5:]}
    assert rows["adx-inline"] == "yes" and rows["adx-intrinsic"] == "broken" and rows["bmi2-intrinsic"] == "unprobed"


def test_cache_hit_starts_no_compiler(tmp_path):
    count = tmp_path / "count"
    env = {"PROBE_COUNTER": str(count), "ASMCAP_STATS": "1"}
    args = ("cc-probe", "--cc", FAKES / "probe-count", "--features", "adx-inline,bmi2-intrinsic",
            "--cache", tmp_path / "cache", "--format", "sh")
    first = asmcap(*args, env=env)
    assert first.returncode == 0 and "cached=0" in first.stderr
    runs = count.read_text()
    second = asmcap(*args, env=env)
    assert second.returncode == 0 and "processes=0 cached=1" in second.stderr
    assert second.stdout == first.stdout and count.read_text() == runs
    # other flags: another entry
    third = asmcap(*args, "--cflags", "-O1", env=env)
    assert "cached=0" in third.stderr


def test_usage():
    r = asmcap("cc-probe", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: asmcap cc-probe") and not r.stderr
    for bad in (["--bogus"], ["--features", "nosuch"], ["--format", "xml"], ["--jobs", "0"], ["extra"],
                ["--features", ","]):
        r = asmcap("cc-probe", "--cc", "gcc-12", *bad)
        assert r.returncode == 2 and r.stderr.startswith("asmcap cc-probe: "), (bad, r.stderr)
    r = asmcap("cc-probe", "--cc", "/nonexistent/cc", "--features", "adx-inline")
    assert r.returncode == 3 and "/nonexistent/cc" in r.stderr


def test_require():
    r = asmcap("cc-probe", "--cc", "gcc-12", "--features", "adx-inline", "--require", "adx-inline,adx-intrinsic",
               "--format", "sh")
    assert r.returncode == 1
    assert "required probe adx-intrinsic is broken" in r.stderr and "adx-inline" not in r.stderr
    assert "ASMCAP_C_ADX_INLINE=yes" in r.stdout


def test_cache_key_covers_added_assembler_templates(tmp_path):
    # adx-inline counts instructions with the `audit:' patterns of the
    # catalog's adx; an added adx.s that matches only LFENCE makes the
    # same object hold none, so the cached yes must not answer
    added = tmp_path / "t"
    (added / "x86_64").mkdir(parents=True)
    (added / "x86_64" / "adx.s").write_text("# feature: adx\n# expect: 0f ae e8\n# audit: 0f ae e8\n\tlfence\n")
    args = ("cc-probe", "--cc", "gcc", "--features", "adx-inline", "--cache", tmp_path / "cache",
            "--format", "sh")
    first = asmcap(*args, env={"ASMCAP_STATS": "1"})
    assert first.returncode == 0 and "ASMCAP_C_ADX_INLINE=yes" in first.stdout, first.stderr
    r = asmcap(*args, env={"ASMCAP_STATS": "1", "ASMCAP_ADD_TEMPLATES": str(added)})
    assert r.returncode == 0 and "cached=0" in r.stderr, r.stderr
    assert "ASMCAP_C_ADX_INLINE=no" in r.stdout and "holds no adx instruction" in r.stdout
    again = asmcap(*args, env={"ASMCAP_STATS": "1"})
    assert "cached=1" in again.stderr and again.stdout == first.stdout


def test_object_sometimes_missing_code_is_no_broken_answer(tmp_path):
    # tests/fake/drop-text zeroes .text in every Nth object and exits 0: an
    # answer whose compile met it holds no instruction once; `broken' needs
    # the same from its own compile again (after a passing control), else
    # exit 3 and no cache
    truth = probe("gcc", "adx-inline,adx-intrinsic,bmi2-intrinsic,sha-inline,vaes-inline", fmt="sh").stdout
    caught = 0
    for every in (2, 3):
        counter, cache = tmp_path / f"count{every}", tmp_path / f"cache{every}"
        r = asmcap("cc-probe", "--cc", f"{FAKES / 'drop-text'} gcc", "--features",
                   "adx-inline,adx-intrinsic,bmi2-intrinsic,sha-inline,vaes-inline", "--format", "sh",
                   "--cache", cache, env={"DROP_COUNTER": str(counter), "DROP_EVERY": str(every)})
        assert "d" in counter.read_text()
        if r.returncode == 0:
            assert r.stdout.split("\n", 1)[1] == truth.split("\n", 1)[1], f"every {every}: wrong with exit 0"
        else:
            assert r.returncode == 3 and "this toolchain fails intermittently" in r.stderr, r.stderr
            assert not cache.exists()
            caught += 1
    assert caught


@pytest.mark.parametrize("pipe", ["", "-pipe "])
def test_assembler_rejecting_the_compilers_output_is_no_quoting_it(pipe):
    """-Wa,-march=generic64: gcc compiles the intrinsic and GNU as rejects
    the instruction in gcc's temporary ccXXXXXX.s (a new name each run) or
    {standard input} (-pipe).  That reproduces alike: `no', quoting the
    assembler's error, not exit 3 "intermittent" nor only its header line."""
    got = verdicts("gcc", "avx512ifma-intrinsic,bmi2-intrinsic-m", cflags=f"-O2 {pipe}-Wa,-march=generic64")
    for name, insn in [("avx512ifma-intrinsic", "vmovdqa64"), ("bmi2-intrinsic-m", "mulx")]:
        status, reason = got[name]
        assert status == "no", (name, reason)
        assert reason.startswith("rejected: the assembler, on the compiler's output: line "), reason
        assert f"Error: `{insn}' is not supported on `generic64'" in reason, reason
        assert ".s:" not in reason and "standard input" not in reason
