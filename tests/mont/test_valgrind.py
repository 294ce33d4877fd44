# SPDX-License-Identifier: MIT
"""libmont under valgrind memcheck: clean on every backend (the ADX path
reached through MONT_ASSUME_CPU in the test build, libmont-test.a, since
valgrind's CPUID hides ADX and the shipped library only narrows CPUID), and
constant time by the ctgrind method (both table lookups: AVX2 and the
generic one): base and exponent are marked undefined,
so memcheck reports every branch or address that depends on them. A leaky
square-and-multiply in the harness is the control that must be reported."""
import re

import pytest

from montlib import BACKENDS, SANITIZED, random_modulus, rng, test_build_harness

assert rng and test_build_harness  # fixtures, used by name


@pytest.fixture(scope="session")
def harness(test_build_harness):
    """Every test here runs the test build: only its MONT_ASSUME_CPU
    reaches the ADX code past valgrind's CPUID."""
    return test_build_harness

pytestmark = [pytest.mark.tools("valgrind"),
              pytest.mark.skipif(SANITIZED, reason="an ASan build: valgrind cannot run it")]

ASSUME = {"MONT_ASSUME_CPU": "adx,bmi2"}
VALGRIND = ("valgrind", "--error-exitcode=99", "--track-origins=yes")
# modexp's table lookup: MONT_ASSUME_CPU picks the AVX2 or the generic one
LOOKUPS = {"generic": "adx,bmi2", "avx2": "adx,bmi2,avx2"}


def cpu_has_avx2():
    try:
        with open("/proc/cpuinfo") as f:
            return " avx2" in f.read()
    except OSError:
        return False


@pytest.fixture(params=sorted(LOOKUPS))
def lookup(request):
    if request.param == "avx2" and not cpu_has_avx2():
        pytest.skip("this CPU has no AVX2: the AVX2 lookup cannot run")
    return LOOKUPS[request.param]


@pytest.fixture(params=BACKENDS)
def vg_backend(request, harness):
    if request.param == "ifma":
        pytest.skip("valgrind cannot run AVX-512: the ifma tier's constant-time "
                    "checks are tests/mont/test_dudect.py and tests/kernels/test_ifma_kernels.py")
    if request.param not in harness.runnable(env=ASSUME):
        pytest.skip(f"backend {request.param} not built")
    return request.param


def errors(stderr):
    m = re.search(r"ERROR SUMMARY: (\d+) errors", stderr)
    assert m, f"no valgrind summary in:\n{stderr}"
    return int(m.group(1))


def test_memcheck_clean(harness, vg_backend, rng):
    env = dict(ASSUME, MONT_BACKEND=vg_backend)
    cmds, want = ["backend"], [vg_backend]
    for num in (1, 3, 4, 5, 8, 17, 32, 40):   # 40: adx squares by rows from there
        n = random_modulus(rng, num)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(64 * num)
        cmds += [f"mul {num} {n:x} {a:x} {b:x}", f"sqralias {num} {n:x} {a:x}",
                 f"modexp {num} {n:x} {a:x} {num} {e:x}"]
        want += [f"{a * b * pow(2, -64 * num, n) % n:x}", f"{a * a * pow(2, -64 * num, n) % n:x}",
                 f"0 {pow(a, e, n):x}"]
    out, err = harness.run(cmds, env=env, wrapper=VALGRIND + ("--leak-check=full",))
    assert errors(err) == 0, err
    assert out == want


def ct_run(harness, backend, command, rng, assume="adx,bmi2"):
    cmds, want = [], []
    for num in (1, 3, 4, 8, 16, 17, 33, 40):   # windows 4, 5 and 6; 40: adx's row squaring
        n = random_modulus(rng, num)
        base, e = rng.randrange(n), rng.getrandbits(64 * num)
        cmds.append(f"{command} {num} {n:x} {base:x} {num} {e:x}")
        want.append(f"{pow(base, e, n):x}")
    out, err = harness.run(cmds, env={"MONT_ASSUME_CPU": assume, "MONT_BACKEND": backend},
                           wrapper=VALGRIND, returncodes=(0, 99))
    assert out == want
    return errors(err), err


def test_modexp_constant_time(harness, vg_backend, rng, lookup):
    count, err = ct_run(harness, vg_backend, "ct", rng, lookup)
    assert count == 0, f"secret-dependent branch or address on {vg_backend}:\n{err}"


def test_ctgrind_catches_a_leak(harness, vg_backend, rng):
    """The control: the same method flags a bit-dependent branch."""
    count, err = ct_run(harness, vg_backend, "ct-leaky", rng)
    assert count > 0
    assert "Conditional jump or move depends on uninitialised value" in err
    assert "leaky_modexp" in err
