# SPDX-License-Identifier: MIT
"""Features outside --features are `unprobed` in every format, never `no`;
where a format tests truth (h, cmake) they are false, and each format's
own reader sees the word (or null) — run through sh, make, cc, perl and
cmake themselves.  The build formats stay readable: the unasked ones come
after the asked ones, counted in one comment (sh keeps one line each,
which Meson's keyval reads; make, perl and cmake set them all in one
statement; h, where undefined is false, only names them).  The cache
keeps the status."""
import json
import shutil
import subprocess

import pytest

from conftest import ROOT, asmcap

# adx and bmi2 (adx requires it) are probed; the catalog's other features are not asked
UNASKED = len(list((ROOT / "templates" / "x86_64").glob("*.s"))) - 2
HEAD = f"{UNASKED} variables not asked for (--features): unprobed"


def run(fmt, tmp_path, *extra):
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", fmt, *extra)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_json_and_text(tmp_path):
    f = json.loads(run("json", tmp_path))["features"]
    assert f["adx"]["status"] == "yes" and f["bmi2"]["status"] == "yes"   # bmi2: required
    assert f["aesni"] == {**f["aesni"], "status": "unprobed", "reason": "not in --features"}
    assert {v["status"] for k, v in f.items() if k not in ("adx", "bmi2")} == {"unprobed"}
    text = run("text", tmp_path)
    assert any(l.split()[:2] == ["aesni", "unprobed"] for l in text.splitlines()), text
    assert "advice" not in text                       # unprobed is nothing to fix
    full = json.loads(asmcap("--cc", "gcc", "--format", "json").stdout)["features"]
    assert "unprobed" not in {v["status"] for v in full.values()}


def test_sh(tmp_path):
    p = tmp_path / "caps.sh"
    p.write_text(run("sh", tmp_path))
    out = subprocess.run(["sh", "-c", 'set -u; . "$0"; echo "$ASMCAP_ADX $ASMCAP_AESNI $ASMCAP_AVX512F $ASMCAP_XOP"',
                          str(p)], capture_output=True, text=True, check=True).stdout
    assert out == "yes unprobed unprobed unprobed\n"


def test_make(tmp_path):
    (tmp_path / "caps.mk").write_text(run("make", tmp_path))
    (tmp_path / "Makefile").write_text("include caps.mk\nall:\n\t@echo $(ASMCAP_ADX) $(ASMCAP_AESNI) "
                                       "$(ASMCAP_XOP) $(origin ASMCAP_XOP)\n")
    out = subprocess.run(["make", "-s", "-C", str(tmp_path)], capture_output=True, text=True,
                         check=True).stdout
    assert out == "yes unprobed unprobed file\n"


def test_h(tmp_path):
    (tmp_path / "caps.h").write_text(run("h", tmp_path))
    (tmp_path / "t.c").write_text('#include "caps.h"\n'
                                  "#ifndef ASMCAP_ADX\n#error adx\n#endif\n"
                                  "#ifdef ASMCAP_AESNI\n#error aesni must not be defined\n#endif\n"
                                  "int x;\n")
    r = subprocess.run(["gcc", "-c", "-I", str(tmp_path), str(tmp_path / "t.c"), "-o",
                        str(tmp_path / "t.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "caps.h").read_text()
    assert f"/* {HEAD}, not defined: ASMCAP_AESNI " in text and " ASMCAP_XOP */" in text


def test_perl(tmp_path):
    p = tmp_path / "caps.pl"
    p.write_text(run("perl", tmp_path))
    out = subprocess.run(["perl", "-e", 'our %asmcap; do $ARGV[0] or die "$@$!"; '
                          'print "$asmcap{ASMCAP_ADX} $asmcap{ASMCAP_AESNI} $asmcap{ASMCAP_XOP} ", '
                          'scalar grep { $_ eq "unprobed" } values %asmcap', str(p)],
                         capture_output=True, text=True, check=True).stdout
    assert out == f"yes unprobed unprobed {UNASKED}"


def test_cmake(tmp_path):
    if not shutil.which("cmake"):
        pytest.fail("cmake not installed (it is in ci/deps)")
    (tmp_path / "caps.cmake").write_text(run("cmake", tmp_path))
    (tmp_path / "t.cmake").write_text(
        f'include("{tmp_path}/caps.cmake")\n'
        "if(NOT ASMCAP_ADX)\n  message(FATAL_ERROR \"adx\")\nendif()\n"
        "if(ASMCAP_AESNI)\n  message(FATAL_ERROR \"unprobed reads as true\")\nendif()\n"
        "message(STATUS \"aesni=${ASMCAP_AESNI} xop=${ASMCAP_XOP}\")\n"
        "if(DEFINED _asmcap_v OR DEFINED v)\n  message(FATAL_ERROR \"loop variable left\")\nendif()\n")
    r = subprocess.run(["cmake", "-P", str(tmp_path / "t.cmake")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "aesni=unprobed-NOTFOUND xop=unprobed-NOTFOUND" in r.stdout + r.stderr


@pytest.mark.parametrize("fmt,lines", [("sh", UNASKED + 1), ("make", 2), ("h", 1), ("perl", 2),
                                       ("cmake", 2)])
def test_unasked_counted_once_after_the_asked(tmp_path, fmt, lines):
    """One comment counts them (no per-variable "not in --features"), and
    they come after every asked variable, so the answers are on top."""
    text = run(fmt, tmp_path)
    assert text.count(HEAD) == 1 and "not in --features" not in text
    mention = [i for i, l in enumerate(text.splitlines()) if "unprobed" in l]
    assert len(mention) == lines, text
    asked = [i for i, l in enumerate(text.splitlines()) if "ASMCAP_BMI2" in l or "ASMCAP_ADX" in l]
    assert max(asked) < min(mention)


def test_cached_answer_keeps_unprobed(tmp_path):
    cache = tmp_path / "cache"
    first = run("sh", tmp_path, "--cache", cache)
    assert cache.exists()
    assert run("sh", tmp_path, "--cache", cache) == first
    assert "ASMCAP_AESNI=unprobed" in first
