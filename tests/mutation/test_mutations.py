# SPDX-License-Identifier: MIT
"""Mutation checks: the most important decisions, each broken on purpose in
a scratch copy, make the real tests that guard them fail.
  - the probe's verdict (bytes as expected -> yes, else broken) inverted
  - one byte of a catalog `expect:` line changed
  - the masked final subtraction of the Montgomery kernels dropped
A mutant the tests do not kill means those tests check less than they claim."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT, need_tool, probe_includes, probe_sources

TOOL_CFLAGS = ["-std=c11", "-O1", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-D_FILE_OFFSET_BITS=64"]


def mutate(path, old, new):
    """Replace every `old` in the file (there must be one) with `new`."""
    text = path.read_text()
    assert old in text, f"{path}: the mutation site is gone: {old!r}"
    path.write_text(text.replace(old, new))


def build_asmcap(d, catalog_c):
    """The probe from the (possibly mutated) sources in d/probe."""
    srcs = probe_sources(root=d)
    exe = d / "asmcap"
    subprocess.run([need_tool("gcc"), *TOOL_CFLAGS, *probe_includes(d), "-o", str(exe), *srcs,
                    str(catalog_c)], check=True, capture_output=True)
    return exe


def real_tests(tests, env):
    """Run real tests of the suite against a mutant; its pytest output."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                        *tests], cwd=ROOT, env={**os.environ, **env},
                       capture_output=True, text=True, timeout=600)
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    # failed, not errored: the mutant was built and the test's assertion caught it
    assert r.returncode == 1 and " failed" in summary and "error" not in summary, \
        f"the tests did not fail on the mutant (exit {r.returncode}):\n{r.stdout[-3000:]}{r.stderr[-2000:]}"
    return r.stdout


@pytest.fixture
def scratch(tmp_path):
    for part in ("probe", "templates", "perlasm"):
        shutil.copytree(ROOT / part, tmp_path / part)
    shutil.copy(ROOT / "VERSION", tmp_path / "VERSION")     # the catalog rule embeds it
    return tmp_path


VERDICTS = ["tests/catalog/test_real_toolchains.py::test_verdicts[gcc]"]


def test_inverted_verdict_is_caught(scratch):
    mutate(scratch / "probe" / "engine" / "evidence.c", "!ok ? ST_BROKEN : f->attr_tag ? check_attribute(f, o, &why) : ST_YES",
           "!ok ? ST_YES : f->attr_tag ? check_attribute(f, o, &why) : ST_BROKEN")
    exe = build_asmcap(scratch, BUILD / "catalog.c")
    out = real_tests(VERDICTS, {"ASMCAP_BIN": str(exe)})
    assert "1 failed" in out and "'broken'" in out, out[-3000:]


def test_one_expected_byte_is_caught(scratch):
    adx = scratch / "templates" / "x86_64" / "adx.s"
    mutate(adx, "# expect: 66 48 0f 38 f6 d8", "# expect: 66 48 0f 38 f6 d9")
    # the Makefile's own rule (templates and choose's driver), run in the scratch tree
    catalog = scratch / "build" / "catalog.c"
    subprocess.run(["make", "-s", "-C", str(scratch), "-f", str(ROOT / "Makefile"),
                    f"BUILD={scratch / 'build'}", str(catalog)], check=True, capture_output=True)
    exe = build_asmcap(scratch, catalog)
    out = real_tests(VERDICTS, {"ASMCAP_BIN": str(exe)})
    assert "1 failed" in out and "'adx'" in out, out[-3000:]


def test_unmasked_final_subtraction_is_caught(scratch):
    # without the mask, r = t is kept even when t >= n: a result not reduced
    mutate(scratch / "perlasm" / "x86_64-mont.pl", "\tand\t%rax,%rdx\n", "")
    build = scratch / "build"
    flags = f"CAPS={BUILD / 'caps.json'} MONT_GEN={scratch / 'perlasm' / 'x86_64-mont.pl'}"
    out = real_tests(["tests/mont/test_mont.py::test_mul_sqr"],
                     {"MONT_TEST_BUILD": str(build), "MONT_TEST_MAKEFLAGS": flags})
    assert "failed" in out, out[-3000:]
    assert "montk_" in (build / "mont-x86_64.s").read_text()   # the mutant was built
