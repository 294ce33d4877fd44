# SPDX-License-Identifier: MIT
"""MONT_ASSUME_CPU in the shipped library narrows what CPUID reports and
never widens it: on an x86-64 CPU without BMI2, ADX, AVX2 or AVX-512
(qemu-x86_64 -cpu Westmere) naming them all still runs mulq, right
results, no illegal instruction.  Only the test build (libmont-test.a,
never installed) lets the hook claim what CPUID hides, for valgrind."""
import pytest

from montlib import (EXE, RUNNER, SANITIZED, harness, kernels_header, mont_mul,
                     program_stderr, random_modulus, rng, run_program, test_build_harness)

assert harness and rng and test_build_harness  # fixtures, used by name

pytestmark = [pytest.mark.tools("qemu-x86_64"),
              pytest.mark.skipif(SANITIZED, reason="an ASan build: qemu-user cannot run it (killed mapping the shadow memory)"),
              pytest.mark.skipif(bool(RUNNER) or EXE == ".exe", reason="the x86-64 harness runs natively only")]

WESTMERE = ("qemu-x86_64", "-cpu", "Westmere")     # SSE4.2, no BMI2/ADX/AVX
ASSUMED = ["adx,bmi2", "adx,bmi2,avx2,ifma", "ifma", "adx,bmi2,sse9"]


@pytest.fixture
def vectors(rng):
    """mul/sqr/modexp at sizes the kernels take, with Python's answers."""
    cmds, want = [], []
    for num in (4, 8, 16, 32):
        n = random_modulus(rng, num)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(64 * num)
        cmds += [f"mul {num} {n:x} {a:x} {b:x}", f"sqr {num} {n:x} {a:x}",
                 f"modexp {num} {n:x} {a:x} {num} {e:x}"]
        want += [f"{mont_mul(a, b, n, num):x}", f"{mont_mul(a, a, n, num):x}", f"0 {pow(a, e, n):x}"]
    return cmds, want


def adx_built():
    header = kernels_header()
    if header is None or "#define MONT_HAVE_ADX" not in header:
        pytest.fail("this build has no ADX kernels: the test needs the default x86-64 build")


def test_emulated_cpu_lacks_adx(test_build_harness, vectors):
    """The precondition, shown with the test build: told the CPU has ADX,
    it runs the ADX kernels on this emulated CPU and dies of SIGILL."""
    adx_built()
    cmds, _ = vectors
    p = run_program([*WESTMERE, str(test_build_harness.path)], "backend\n" + "\n".join(cmds) + "\n",
                    env={"MONT_ASSUME_CPU": "adx,bmi2"})
    assert p.returncode in (-4, 132), (p.returncode, p.stderr)
    assert p.stdout.splitlines()[:1] == ["adx"]
    assert "Illegal instruction" in p.stderr


@pytest.mark.parametrize("assume", ASSUMED)
def test_shipped_library_never_widens(harness, vectors, assume):
    adx_built()
    cmds, want = vectors
    out, err = harness.run(["backend"] + cmds, env={"MONT_ASSUME_CPU": assume}, wrapper=WESTMERE)
    assert out == ["mulq"] + want
    assert program_stderr(err) == ("" if "sse9" not in assume else
                                   "libmont: MONT_ASSUME_CPU: ignoring unknown feature 'sse9' "
                                   "(bmi2, adx, avx2, ifma)\n")
    # asking for adx as well: refused in one line, mulq runs
    out, err = harness.run(["backend", "select adx"] + cmds[:3],
                           env={"MONT_ASSUME_CPU": "adx,bmi2", "MONT_BACKEND": "adx"}, wrapper=WESTMERE)
    assert out == ["mulq", "-3"] + want[:3]
    assert "needs CPU features this CPU lacks; using mulq" in err


def test_narrowing_still_works(harness):
    """On this machine, whatever it has: the hook takes features away."""
    adx_built()
    assert harness.lines(["backend"], env={"MONT_ASSUME_CPU": ""}) == ["mulq"]
    assert harness.runnable(env={"MONT_ASSUME_CPU": "bmi2"}) == ["c", "mulq"]
