# SPDX-License-Identifier: MIT
"""The library as a non-x86_64 target builds it: C code only (forced here
with MONT_X86_64=0, which the Makefile otherwise asks of $(CC)'s
preprocessor). Everything still works; asm backends are "not built"."""
import pytest

from montlib import BUILD, Harness, make, mont_mul, random_modulus, rng

assert rng  # fixture, used by name

CONLY = BUILD / "conly"


@pytest.fixture(scope="module")
def conly():
    make(CONLY / "mont-harness", CONLY / "libmont.so", build=CONLY, MONT_X86_64=0)
    return Harness(CONLY / "mont-harness")


def test_no_asm_in_the_library(conly):
    assert not (CONLY / "mont" / "mont-x86_64.o").exists()
    assert not (CONLY / "mont-kernels.h").exists()


def test_only_c(conly):
    env = {"MONT_ASSUME_CPU": "adx,bmi2"}
    assert conly.lines(["select mulq", "select adx", "backend"], env=env) == ["-2", "-2", "c"]
    out, err = conly.run(["backend"], env={"MONT_BACKEND": "mulq"})
    assert out == ["c"] and err.count("\n") == 1 and "not built" in err


def test_c_results(conly, rng):
    cmds, want = [], []
    for num in (1, 4, 17, 64):
        n = random_modulus(rng, num)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(64 * num)
        cmds += [f"mul {num} {n:x} {a:x} {b:x}", f"modexp {num} {n:x} {a:x} {num} {e:x}"]
        want += [f"{mont_mul(a, b, n, num):x}", f"0 {pow(a, e, n):x}"]
    assert conly.lines(cmds) == want
