# SPDX-License-Identifier: MIT
"""The generated Win64 unwind data (.pdata/.xdata), proved under Wine: every
kernel faults in the middle of its body and unwind.c unwinds from the fault
with RtlLookupFunctionEntry + RtlVirtualUnwind, checks the caller's frame
and callee-saved registers, and resumes the caller (see unwind.c); the IFMA
products also return normally once, the callee-saved registers checked.  A
build whose unwind codes miss one register save must fail the same test.

WIN64_FLAVOURS=mingw64,nasm,yasm,llvm-ml (the default) chooses the flavours
(ci/matrix's Win64 rows: llvm-ml builds the masm flavour)."""
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

from conftest import ASMCAP, BUILD, ROOT

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, str(ROOT / "tests" / "mont"))
import winenv  # noqa: E402
from montlib import run_program  # noqa: E402

HERE = ROOT / "tests" / "win64"
FLAVOURS = os.environ.get("WIN64_FLAVOURS", ",".join(winenv.FLAVOURS)).split(",")


def build_unwind(flavour, build, perl=None):
    """libmont.a of this flavour in build, unwind.exe linked with it, and
    the environment Wine runs it in."""
    env = winenv.environment(flavour, build, ASMCAP)
    make = ["make", "-s", "-C", str(ROOT), f"BUILD={build}", *shlex.split(env["MONT_TEST_MAKEFLAGS"])]
    if perl:
        make.append(f"PERL={perl}")
    p = subprocess.run(make + [f"{build}/libmont.a"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    exe = build / "unwind.exe"
    p = subprocess.run([winenv.MINGW_CC, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                        f"-I{build}", f"-I{ROOT / 'mont'}", "-static", "-o", str(exe),
                        str(HERE / "unwind.c"), str(HERE / "wucall.S"), str(build / "libmont.a")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return exe, dict(os.environ, WINEDEBUG=env["WINEDEBUG"], WINEPREFIX=env["WINEPREFIX"])


def run_wine(exe, env):
    return run_program([winenv.WINE, str(exe)], env=env, timeout=300)


def kernels(build):
    """The kernel functions the generated header declares: the MULQ/ADX
    ones, and the IFMA ones (amm52, amm52x2p, sqr52x2p, ams52, ams52x2p, gather52, and the 8-lane
    amm52mb, ams52mb, gather52mb) when this CPU runs them (unwind.exe asks the CPU
    the same question)."""
    text = (build / "mont-kernels.h").read_text()
    names = re.findall(r"^montk_\w+_fn (montk_\w+);", text, re.M)
    if "MONT_HAVE_IFMA" in text and cpu_runs_ifma():
        names += [n for line in re.findall(r"^montk_(?:amm2?|gather)_fn (.*);$", text, re.M)
                  for n in re.split(r",\s*", line)]
    if "#define MONT_HAVE_IFMA_MB" in text and cpu_runs_ifma():
        names += ["montk_amm52mb", "montk_ams52mb", "montk_gather52mb"]   # the 8-lane kernels
    return names


def cpu_runs_ifma():
    flags = re.search(r"^flags\s*:(.*)$", pathlib.Path("/proc/cpuinfo").read_text(), re.M).group(1).split()
    return "avx512ifma" in flags and "avx512vl" in flags


@pytest.fixture(params=FLAVOURS)
def flavour(request):
    gone = winenv.missing(request.param)
    if gone:
        pytest.skip(f"not installed: {' '.join(gone)} (ci/deps --matrix={request.param})")
    return request.param


def test_unwind_through_a_fault(flavour):
    build = BUILD / f"win64-{flavour}"
    p = run_wine(*build_unwind(flavour, build))
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[-1] == f"ok: {len(lines) - 1} cases"
    assert all(line.startswith("ok ") for line in lines[:-1]), p.stdout
    # every kernel of the library was made to fault, with each operand
    names = kernels(build)
    assert names and {line.split()[1] for line in lines[:-1]} == set(names)
    # the IFMA products and squares are called once more, returning: the
    # registers Win64 callers keep (xmm6-15 among them) come back
    returned = {line.split()[1] for line in lines[:-1] if line.endswith(" returned")}
    assert returned == {k for k in names
                        if re.match(r"montk_(amm52|sqr52|ams52(_|x2p))", k) and k != "montk_amm52mb"}
    for k in names:
        ops = {line.split()[-1] for line in lines[:-1]
               if line.split()[1] == k and not line.endswith(" returned")}
        want = {"table"} if "gather" in k else {"a", "b", "ctx"} if k == "montk_amm52mb" else \
            {"a", "ctx"} if k == "montk_ams52mb" else \
            {"a", "b", "n"} if "_mul_" in k or "amm52" in k else {"a", "n"}
        assert ops == want, (k, ops)


def test_unwind_missing_a_save_fails(flavour):
    """The same test against kernels whose unwind codes drop one push."""
    build = BUILD / f"win64-{flavour}-broken"
    perl = f"perl -I{ROOT / 'perlasm'} -I{HERE} -MDropSave"
    p = run_wine(*build_unwind(flavour, build, perl=perl))
    assert p.returncode == 1, p.stdout + p.stderr
    assert re.search(r"^FAIL unwind: unwound to 0x[0-9a-f]+, not the caller's return address",
                     p.stdout, re.M), p.stdout
