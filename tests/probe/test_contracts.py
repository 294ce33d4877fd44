# SPDX-License-Identifier: MIT
"""Contract details: what --features pulls in, what -- means, one way in,
JSON that is UTF-8, and a cache that follows a repointed compiler link."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import ASMCAP, asmcap


def sh_vars(out):
    return dict(l.split("=", 1) for l in out.splitlines() if l and not l.startswith("#"))


def test_features_probe_what_they_require():
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh")
    v = sh_vars(r.stdout)
    assert r.returncode == 0 and v["ASMCAP_ADX"] == "yes" and v["ASMCAP_BMI2"] == "yes"
    r = asmcap("--cc", "gcc", "--features", "adx", "--disable", "bmi2", "--format", "sh")
    assert "# adx assembles, but it requires bmi2, which is disabled" in r.stdout
    assert sh_vars(r.stdout)["ASMCAP_ADX"] == "no"


@pytest.mark.parametrize("args", [["--", "--cc", "gcc"], ["--", "extra"], ["list", "extra"],
                                  ["--cc", "gcc", "--as", "as"], ["--features", ""]])
def test_refused(args):
    r = asmcap(*args)
    assert r.returncode == 2, (args, r.stdout[:200])


def test_explain_feature_after_double_dash():
    r = asmcap("explain", "--cc", "gcc", "--", "adx")
    assert r.returncode == 0 and r.stdout.startswith("feature:   adx")


def test_json_stays_utf8():
    r = subprocess.run([str(ASMCAP), "--cc", "gcc", "--cflags",
                        b"-DZ=\xff\xc3\xa9", "--features", "adx", "--format", "json"],
                       capture_output=True)
    assert r.returncode == 0
    d = json.loads(r.stdout.decode("utf-8"))      # strict: raises on a bad byte
    assert d["toolchain"]["cflags"] == "-DZ=\ufffd\u00e9"


def test_cache_misses_when_the_compiler_link_is_repointed(tmp_path):
    cc = tmp_path / "cc"
    cc.symlink_to("/usr/bin/gcc")
    cache = tmp_path / "cache"
    env = {"ASMCAP_STATS": "1"}
    asmcap("--cc", str(cc), "--cache", str(cache), "--features", "adx", env=env)
    r = asmcap("--cc", str(cc), "--cache", str(cache), "--features", "adx", env=env)
    assert "cached=1" in r.stderr
    cc.unlink()
    cc.symlink_to("/usr/bin/clang-14")                # update-alternatives does this
    r = asmcap("--cc", str(cc), "--cache", str(cache), "--features", "adx", env=env)
    assert "cached=0" in r.stderr and "clang" in r.stdout


def test_cache_depends_on_the_libraries_the_compiler_needs(tmp_path):
    """clang-14 holds its assembler in shared libraries (libclang-cpp,
    libLLVM): each library readelf -d names is a dependency of the entry
    (the file its name leads to), so replacing one is a miss."""
    clang = os.path.realpath(shutil.which("clang-14"))
    out = subprocess.run(["readelf", "-d", clang], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", out)
    assert "libclang-cpp.so.14" in needed, out
    cache = tmp_path / "cache"
    assert asmcap("--cc", "clang-14", "--cache", str(cache), "--features", "adx").returncode == 0
    deps = [l.split("\t")[1] for l in cache.read_text().splitlines() if l.startswith("dep\t")]
    for name in needed:
        assert any(os.path.exists(os.path.join(os.path.dirname(d), name)) and
                   os.path.samefile(d, os.path.join(os.path.dirname(d), name)) for d in deps), (name, deps)
