# SPDX-License-Identifier: MIT
"""Advice blames what really rejects a feature: when GNU as turns adcx
away only because of the build's flags (-Wa,-march=generic64), one more
run without the flags — only for the rejected features, only when there
are flags — tells, and the advice names the flags.  Verdicts stay those of
the build's command; the cache keeps the blame."""
import json
import re

from conftest import asmcap

MARCH = "-Wa,-march=generic64"


def stats(r):
    m = re.search(r"stats: processes=\d+ cached=(\d) runs=(\d+)", r.stderr)
    assert m, r.stderr
    return int(m[1]), int(m[2])


def advice(text):
    return {l.split(":")[0].strip(): l for l in text.split("\nadvice:\n", 1)[-1].splitlines()
            if l.startswith("  ")}


def test_flags_blamed_and_named():
    r = asmcap("--cc", "gcc", "--cflags", MARCH, "--features", "adx,aesni",
               env={"ASMCAP_STATS": "1"})
    assert r.returncode == 0, r.stderr
    a = advice(r.stdout)
    assert set(a) == {"adx", "bmi2", "aesni"}, a
    for line in a.values():
        assert "not supported on `generic64'" in line
        assert f"the build's flags reject it (--cflags '{MARCH}')" in line, line
        assert "an assembler that knows" not in line, line
    j = json.loads(asmcap("--cc", "gcc", "--cflags", MARCH, "--features", "adx",
                          "--format", "json").stdout)
    assert j["features"]["adx"]["status"] == "no"          # the build's answer is still no


def test_asflags_named_too():
    r = asmcap("--as", "as", "--asflags", "-march=generic64", "--features", "adx")
    a = advice(r.stdout)
    assert "the build's flags reject it (--asflags '-march=generic64')" in a["adx"], a


def test_unknown_instruction_still_blames_the_assembler():
    """GNU as 2.40 does not know SHA512 with or without flags; with
    -march=generic64+adx adx assembles (its advice is only that bmi2, which
    it requires, does not) and the others are the flags' fault."""
    r = asmcap("--cc", "gcc", "--cflags", MARCH + "+adx", "--features", "adx,aesni,sha512")
    assert r.returncode == 0, r.stderr
    a = advice(r.stdout)
    assert a["adx"] == "  adx: assembles, but it requires bmi2, which is no; code cannot use it."
    assert "the build's flags reject it" in a["aesni"]
    if "sha512" in a:                      # a newer GNU as knows it: then nothing to say
        assert "an assembler that knows sha512" in a["sha512"], a["sha512"]
        assert "flags" not in a["sha512"]


def test_extra_run_only_when_needed():
    plain = asmcap("--cc", "gcc", "--features", "adx", env={"ASMCAP_STATS": "1"})
    harmless = asmcap("--cc", "gcc", "--cflags", "-O2", "--features", "adx",
                      env={"ASMCAP_STATS": "1"})
    blamed = asmcap("--cc", "gcc", "--cflags", MARCH, "--features", "adx",
                    env={"ASMCAP_STATS": "1"})
    assert stats(harmless)[1] == stats(plain)[1]         # flags, nothing rejected: no run
    # rejected: the build's run, its retry without the rejected lines, one more without flags
    assert stats(blamed)[1] == stats(plain)[1] + 2, (plain.stderr, blamed.stderr)


def test_cache_keeps_the_blame(tmp_path):
    cache = tmp_path / "cache"
    args = ["--cc", "gcc", "--cflags", MARCH, "--features", "adx", "--cache", cache]
    first = asmcap(*args)
    again = asmcap(*args, env={"ASMCAP_STATS": "1"})
    assert stats(again) == (1, 0)
    assert again.stdout == first.stdout
    assert "the build's flags reject it" in advice(again.stdout)["adx"]
