# SPDX-License-Identifier: MIT
"""`asmcap audit` on each catalog snippet, assembled by a real assembler:
every instruction of the snippet counts for its own feature and for no
other but those it requires (the `audit:` patterns are as exact as the
expected bytes)."""
import json
import shutil

import pytest

import audit_patterns as ap
import catalog_files as cf
import toolchains as tcs
from conftest import asmcap

# the newest clang knows every feature of the catalog (SHA512/SM3/SM4 need
# LLVM 18, MOVRS clang-22: tcs.clang_for)
CLANG = next((c for c in ("clang-22", "clang-19") if shutil.which(c)), None)
# directive, syntax and macro features have no audit: (test_catalog_structure.py
# says which may lack it)
CASES = [(arch, name) for arch in cf.ARCHES for name, t in cf.load(arch).items()
         if "audit" in t]


@pytest.mark.parametrize("arch,name", CASES)
def test_audit_counts_each_snippet_for_its_feature_only(arch, name, tmp_path, asmcap_bin):
    assert CLANG, "no clang-19/22 (clang-19 is in ci/deps)"
    t = cf.load(arch)[name]
    argv = [tcs.clang_for(name)] + (["-m32"] if arch == "i386" else [])
    ok, err, obj = cf.assemble(t, "cc", argv, tmp_path)
    assert ok, err
    r = asmcap("audit", "--format", "json", obj)
    assert r.returncode == 0, r.stderr
    funcs = json.loads(r.stdout)["objects"][0]["functions"]
    counts = {}
    for f in funcs:
        assert f["undecoded"] == 0, f
        for feat, n in f["features"].items():
            counts[feat] = counts.get(feat, 0) + n
    first = cf.hexbytes(t["expect"][0])
    n_insns = len(ap.decode(first, 32 if arch == "i386" else 64))
    # each instruction counts for the feature, and may count for what it requires
    assert counts.pop(name) == n_insns
    assert all(f in cf.requires(t) and n == n_insns for f, n in counts.items()), counts


def test_audit_expect_fails_when_the_feature_is_missing(tmp_path, asmcap_bin):
    t = cf.load("x86_64")["bmi2"]
    ok, err, obj = cf.assemble(t, "cc", ["gcc"], tmp_path)
    assert ok, err
    assert asmcap("audit", obj, "--expect", "bmi2").returncode == 0
    r = asmcap("audit", obj, "--expect", "adx")
    assert r.returncode == 1 and "adx" in r.stderr
