# SPDX-License-Identifier: MIT
"""The MASM way in (--masm): llvm-ml standing in for ml64, the catalog's
MASM bodies, ml64's own message form (FILE(LINE) on stdout) and the
cache.  The verdict table of llvm-ml itself is tests/catalog's."""
import json

import pytest

from conftest import FAKES, asmcap

LLVM_ML = "/usr/lib/llvm-19/bin/llvm-ml"
ML64 = f"{LLVM_ML} -m64"
NOADX = str(FAKES / "ml64-noadx")


def caps(*args, env=None):
    r = asmcap("--format", "json", *args, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.tools(LLVM_ML)
def test_masm_way_reads_the_coff_object():
    c = caps("--masm", ML64, "--features", "adx,avx2,seh,cfi,gnu-property")
    t = c["toolchain"]
    assert (t["way"], t["arch"], t["format"], t["flavour"]) == ("masm", "x86_64", "coff-x86-64", "masm")
    assert t["assembler"] == "OVERVIEW: LLVM MASM Assembler"       # its `/?' banner
    f = c["features"]
    # avx2's body is its .masm (0NNh immediates), seh's is PROC FRAME
    assert f["adx"]["status"] == f["avx2"]["status"] == f["seh"]["status"] == "yes"
    assert (f["cfi"]["status"], f["cfi"]["reason"]) == ("skipped", "masm has no syntax for it")
    assert f["gnu-property"]["status"] == "skipped"
    # without -m64 llvm-ml is ml.exe: 32-bit objects, the i386 catalog
    t32 = caps("--masm", LLVM_ML, "--features", "adx")["toolchain"]
    assert (t32["arch"], t32["format"]) == ("i386", "coff-i386")


@pytest.mark.tools(LLVM_ML)
def test_ml64_messages_on_stdout_name_the_snippet(tmp_path):
    """ml64 says `FILE(LINE) : error A2008:...' on stdout: the batch run's
    failure names adx's lines, so one more run settles the rest."""
    log = tmp_path / "log"
    c = caps("--masm", NOADX, "--features", "adx,bmi2,aesni,seh", "--log", log)
    f = c["features"]
    assert f["adx"]["status"] == "no"
    assert f["adx"]["reason"] == "rejected: error A2008:syntax error : adcx"
    assert f["bmi2"]["status"] == f["aesni"]["status"] == f["seh"]["status"] == "yes"
    assert "catalog runs: 2;" in log.read_text()
    assert c["toolchain"]["assembler"].startswith("Microsoft (R) Macro Assembler (x64) Version 11.00")


@pytest.mark.tools(LLVM_ML)
def test_explain_shows_the_masm_body():
    r = asmcap("explain", "avx", "--masm", ML64)
    assert r.returncode == 0, r.stderr
    snippet = r.stdout.split("snippet:\n", 1)[1].split("source", 1)[0]
    assert "vperm2f128\tymm0, ymm1, ymm2, 020h" in snippet and "%" not in snippet
    assert "/c /Fo" in r.stdout and " /Ta" in r.stdout


@pytest.mark.tools(LLVM_ML)
@pytest.mark.parametrize("fmt,line", [("sh", "ASMCAP_FLAVOUR=masm"), ("make", "ASMCAP_ADX := no"),
                                      ("h", "/* #undef ASMCAP_ADX */"), ("cmake", 'set(ASMCAP_FLAVOUR "masm")'),
                                      ("perl", "ASMCAP_SEH => 'yes'")])
def test_masm_way_cached_in_every_format(tmp_path, fmt, line):
    counter, cache = tmp_path / "count", tmp_path / "cache"
    env = {"PROBE_COUNTER": str(counter), "ASMCAP_STATS": "1"}
    args = ["--masm", NOADX, "--features", "adx,bmi2,seh", "--cache", cache, "--format", fmt]
    first = asmcap(*args, env=env)
    assert first.returncode == 0, first.stderr
    assert line in first.stdout
    runs = counter.read_text().count("run")
    second = asmcap(*args, env=env)
    assert second.returncode == 0 and "processes=0 cached=1" in second.stderr
    assert counter.read_text().count("run") == runs
    assert second.stdout == first.stdout
