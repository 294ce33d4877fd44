# SPDX-License-Identifier: MIT
"""Constant time, measured: the dudect method (the harness's `dudect`
command: fixed against random secret base and exponent, interleaved at
random, Welch's t-test on cycle counts with percentile cropping) on every
backend, mont_modexp2, mont_modexp_batch, and the IFMA exponentiations
themselves (one, two and eight lanes) -- the code
valgrind cannot run. A deliberately leaky square-and-multiply is the
control: it must fail, by far.

A verdict is a leak when |t| > 4.5. On a shared, noisy machine a real
leak keeps growing with more samples while noise does not, so a first
|t| > 4.5 is confirmed by a second run with twice the samples and another
seed before the test fails. MONT_DUDECT_LONG=1 takes ten times the samples
(minutes instead of seconds)."""
import os

import pytest

from montlib import BACKENDS, harness

assert harness  # fixture, used by name

LONG = 10 if os.environ.get("MONT_DUDECT_LONG") else 1
LIMIT = 4.5


def dudect(harness, what, num, samples, seed, backend=None):
    env = {"MONT_BACKEND": backend} if backend else {}
    out = harness.lines([f"dudect {what} {num} {samples * LONG} {seed}"], env=env,
                        timeout=3600)
    t, tested = out[0].split()
    assert int(tested) == samples * LONG - samples * LONG // 10
    return float(t)


def assert_constant_time(harness, what, num, samples, backend=None):
    t = dudect(harness, what, num, samples, 1, backend)
    if t > LIMIT:   # confirm: a leak grows with the samples, noise does not
        t2 = dudect(harness, what, num, 2 * samples, 2, backend)
        assert t2 <= LIMIT, f"{what} on {backend or 'default'}: |t| = {t:.1f}, then {t2:.1f}"


@pytest.fixture(params=BACKENDS)
def backend(request, harness):
    if request.param not in harness.runnable():
        pytest.skip(f"backend {request.param} not built or not runnable here")
    return request.param


def test_modexp(harness, backend):
    # 256-bit numbers: fast enough for many samples on every backend
    assert_constant_time(harness, "modexp", 4, 20000, backend)


def test_modexp2(harness, backend):
    assert_constant_time(harness, "modexp2", 4, 10000, backend)


@pytest.mark.parametrize("what, num", [("ifma", 16), ("ifma", 48), ("ifma2", 16), ("ifma2", 24),
                                       ("ifma2", 32)])
def test_ifma_exponentiation(harness, what, num):
    """The IFMA path at 1024 bits (an RSA-2048 CRT half), whatever the
    crossover picks there, and at 3072 bits, whose squarings run the single
    square montk_ams52_8; the pair at 1536 and 2048 bits, whose squarings
    run the packed pair squares montk_sqr52x2p_8 and _10."""
    if "ifma" not in harness.runnable():
        pytest.skip("no IFMA kernels built, or this CPU cannot run them")
    assert_constant_time(harness, what, num, 3000 if num == 16 else 1500 if num < 48 else 800)


def test_batch(harness, backend):
    """mont_modexp_batch of eight: the 8-lane IFMA code on ifma, the loop
    over mont_modexp on the others."""
    assert_constant_time(harness, "batch", 4, 2000 if backend == "c" else 5000, backend)


def test_ifma_batch(harness):
    """The 8-lane IFMA exponentiation at 1024 bits, whatever the dispatch
    picks."""
    if "ifma" not in harness.runnable():
        pytest.skip("no IFMA kernels built, or this CPU cannot run them")
    assert_constant_time(harness, "ifma-batch", 16, 1500)


def test_leaky_control_fails(harness):
    """The same measurement flags a branch on the exponent bits at once,
    far past LIMIT (|t| 80-140 at 2000 samples on a quiet machine, 33-42
    under ASan beside other jobs); a burst of the machine's noise can drown
    one run, not a leak measured again with four times the samples."""
    t = dudect(harness, "leaky", 4, 2000, 3)
    if t <= 4 * LIMIT:
        t2 = dudect(harness, "leaky", 4, 8000, 4)
        assert t2 > 4 * LIMIT, f"the leaky control gave only |t| = {t:.1f}, then {t2:.1f}"
