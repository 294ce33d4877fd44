# SPDX-License-Identifier: MIT
"""asmcap cc-flag against real gcc and clang: accepted, unknown,
warning-only and -Wno- flags."""
import os
import subprocess

import pytest

from conftest import FAKES, asmcap

CLANG = "clang-14"


def flags(cc, *fl, fmt="sh", cflags=""):
    r = asmcap("cc-flag", "--cc", cc, "--cflags", cflags, "--format", fmt, "--", *fl)
    assert r.returncode == 0, r.stderr
    return dict(l.split("=", 1) for l in r.stdout.splitlines() if l and not l.startswith("#"))


def test_gcc_known_and_unknown():
    v = flags("gcc", "-Wall", "-fno-tree-pre", "-fno-code-hoisting", "-fbogus-flag")
    assert v == {"ASMCAP_CFLAG_WALL": "yes", "ASMCAP_CFLAG_FNO_TREE_PRE": "yes",
                 "ASMCAP_CFLAG_FNO_CODE_HOISTING": "yes", "ASMCAP_CFLAG_FBOGUS_FLAG": "no"}


def test_gcc_wno_is_probed_through_its_positive_form(tmp_path):
    # gcc itself accepts an unknown -Wno-X silently: exit status would lie.
    src = tmp_path / "t.c"
    src.write_text("int f(int x) { return x; }\n")
    plain = subprocess.run(["gcc", "-Werror", "-Wno-frobnicate", "-c", str(src), "-o",
                            str(tmp_path / "t.o")], capture_output=True)
    assert plain.returncode == 0
    v = flags("gcc", "-Wno-frobnicate", "-Wno-unused-parameter")
    assert v == {"ASMCAP_CFLAG_WNO_FROBNICATE": "no", "ASMCAP_CFLAG_WNO_UNUSED_PARAMETER": "yes"}


@pytest.mark.tools(CLANG)
def test_clang_unknown_and_warning_only(tmp_path):
    # clang only warns about an optimisation flag it ignores: still "no".
    src = tmp_path / "t.c"
    src.write_text("int f(int x) { return x; }\n")
    warn = subprocess.run([CLANG, "-finline-limit=100", "-c", str(src), "-o", str(tmp_path / "t.o")],
                          capture_output=True, text=True)
    assert warn.returncode == 0 and "finline-limit" in warn.stderr
    v = flags(CLANG, "-fno-code-hoisting", "-finline-limit=100", "-Wno-frobnicate",
              "-Wno-unused-parameter", "-O3")
    assert v == {"ASMCAP_CFLAG_FNO_CODE_HOISTING": "no", "ASMCAP_CFLAG_FINLINE_LIMIT_100": "no",
                 "ASMCAP_CFLAG_WNO_FROBNICATE": "no", "ASMCAP_CFLAG_WNO_UNUSED_PARAMETER": "yes",
                 "ASMCAP_CFLAG_O3": "yes"}


@pytest.mark.tools(CLANG)
def test_warning_only_flag_rejected_even_with_wno_error():
    v = flags(CLANG, "-finline-limit=100", cflags="-Wno-error")
    assert v == {"ASMCAP_CFLAG_FINLINE_LIMIT_100": "no"}


def test_formats_carry_the_variable():
    for fmt, want in [("make", "ASMCAP_CFLAG_WALL := yes"), ("h", "#define ASMCAP_CFLAG_WALL 1"),
                      ("cmake", "set(ASMCAP_CFLAG_WALL ON)")]:
        r = asmcap("cc-flag", "--cc", "gcc", "--format", fmt, "--", "-Wall")
        assert r.returncode == 0 and want in r.stdout, (fmt, r.stdout)
    r = asmcap("cc-flag", "--cc", "gcc", "--format", "h", "--", "-fbogus")
    assert "/* #undef ASMCAP_CFLAG_FBOGUS */" in r.stdout


def test_words_after_double_dash_are_flags_not_options():
    r = asmcap("cc-flag", "--cc", "gcc", "--format", "sh", "--", "--format")
    assert r.returncode == 0
    assert "ASMCAP_CFLAG_FORMAT=no" in r.stdout


def test_flags_that_would_share_a_variable_are_refused():
    r = asmcap("cc-flag", "--cc", "gcc", "--", "-fPIC", "-fpic")
    assert r.returncode == 2
    assert "-fPIC and -fpic would both be ASMCAP_CFLAG_FPIC" in r.stderr


def test_comments_cannot_break_the_header_or_makefile(tmp_path):
    h = asmcap("cc-flag", "--cc", "gcc", "--format", "h", "--", "-DX=*/")
    (tmp_path / "c.h").write_text(h.stdout)
    assert subprocess.run(["gcc", "-fsyntax-only", "-x", "c", str(tmp_path / "c.h")]).returncode == 0
    mk = asmcap("cc-flag", "--cc", "gcc", "--format", "make", "--", "-DP=C:\\dir\\", "-Wall")
    (tmp_path / "caps.mk").write_text(mk.stdout)
    (tmp_path / "Makefile").write_text("include caps.mk\nall:\n\t@echo [$(ASMCAP_CFLAG_WALL)]\n")
    out = subprocess.run(["make", "-s", "-C", str(tmp_path)], capture_output=True, text=True).stdout
    assert out.strip() == "[yes]"


def test_require_fails_naming_the_flag():
    r = asmcap("cc-flag", "--cc", "gcc", "--require", "--", "-Wall", "-fbogus")
    assert r.returncode == 1
    assert "-fbogus" in r.stderr and "unrecognized" in r.stderr


def test_usage_and_missing_compiler():
    assert asmcap("cc-flag", "--cc", "gcc").returncode == 2
    assert asmcap("cc-flag", "--frob", "--", "-Wall").returncode == 2
    r = asmcap("cc-flag", "--cc", "/nonexistent/cc", "--", "-Wall")
    assert r.returncode == 3
    assert "/nonexistent/cc" in r.stderr and r.stderr.count("\n") == 1


def test_cache_hit_starts_no_compiler(tmp_path):
    counter = tmp_path / "runs"
    cache = tmp_path / "cache"
    env = {"PROBE_COUNTER": str(counter)}
    cc = str(FAKES / "probe-count")
    args = ("cc-flag", "--cc", cc, "--cache", str(cache), "--format", "sh", "--", "-Wall", "-fbogus")
    first = asmcap(*args, env=env)
    assert first.returncode == 0
    runs = len(counter.read_text().splitlines())
    assert runs >= 3                                 # baseline + one per flag
    second = asmcap(*args, env=env)
    assert second.stdout == first.stdout
    assert len(counter.read_text().splitlines()) == runs
    # Another flag set is another entry; the compiler changing invalidates.
    asmcap("cc-flag", "--cc", cc, "--cache", str(cache), "--", "-O2", env=env)
    grown = len(counter.read_text().splitlines())
    assert grown > runs
    fake = tmp_path / "cc"
    fake.write_text(f"#!/bin/sh\necho run >>{counter}\nexec gcc \"$@\"\n")
    fake.chmod(0o755)
    a = asmcap("cc-flag", "--cc", str(fake), "--cache", str(cache), "--", "-Wall", env=env)
    n = len(counter.read_text().splitlines())
    asmcap("cc-flag", "--cc", str(fake), "--cache", str(cache), "--", "-Wall", env=env)
    assert len(counter.read_text().splitlines()) == n
    os.utime(fake, (1, 1))                           # a "new" compiler: same path, other mtime
    b = asmcap("cc-flag", "--cc", str(fake), "--cache", str(cache), "--", "-Wall", env=env)
    assert b.stdout == a.stdout and len(counter.read_text().splitlines()) > n
