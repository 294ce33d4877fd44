# SPDX-License-Identifier: MIT
"""libmont against Python integers, on every backend this build and CPU run."""

import pytest

from conftest import cpu_flags
from montlib import (ABORTED, BACKENDS, built_backends, harness, kernels_header, mont_mul,
                     program_stderr, random_modulus, rng, run_program)

assert harness and rng  # fixtures, used by name

SIZES = list(range(1, 21)) + [31, 32, 33, 48, 63, 64, 65, 96, 128]
EXP_SIZES = [1, 2, 3, 4, 5, 7, 8, 16, 17, 32]


def backend_env(backend):
    return {"MONT_BACKEND": backend}


def test_backends_built_and_runnable(harness):
    """What mont_select accepts follows what was generated and the CPU."""
    want = built_backends(kernels_header())
    if "adx" in want and not {"adx", "bmi2"} <= cpu_flags():
        want.remove("adx")
    # the ifma tier runs adx's mont_mul where adx is built
    header = kernels_header() or ""
    if "#define MONT_HAVE_IFMA" in header and \
            {"avx512f", "avx512ifma", "avx512vl"} <= cpu_flags() and \
            ("adx" in want or "#define MONT_HAVE_ADX" not in header):
        want.append("ifma")
    assert harness.runnable() == want
    # the default is the best of them
    assert harness.lines(["backend"]) == [want[-1]]


@pytest.fixture(params=BACKENDS)
def backend(request, harness):
    if request.param not in harness.runnable():
        pytest.skip(f"backend {request.param} not built or not runnable here")
    return request.param


def mul_vectors(rng):
    """(command, expected) pairs for mul/sqr and their aliased forms."""
    cases = []
    for num in SIZES:
        moduli = [random_modulus(rng, num) for _ in range(3)]
        moduli += [random_modulus(rng, num, "ones"), random_modulus(rng, num, "topbit")]
        for n in moduli:
            values = [rng.randrange(n) for _ in range(2)] + [0, n - 1, 1]
            for a, b in zip(values, values[1:] + values[:1]):
                cases.append((f"mul {num} {n:x} {a:x} {b:x}", mont_mul(a, b, n, num)))
                cases.append((f"sqr {num} {n:x} {a:x}", mont_mul(a, a, n, num)))
            a = values[0]
            cases.append((f"mulalias {num} {n:x} {a:x}", mont_mul(a, a, n, num)))
            cases.append((f"sqralias {num} {n:x} {a:x}", mont_mul(a, a, n, num)))
    return cases


def test_mul_sqr(harness, backend, rng):
    cases = mul_vectors(rng)
    out, err = harness.run([c for c, _ in cases], env=backend_env(backend))
    assert err == ""
    bad = [(c, o, f"{e:x}") for (c, e), o in zip(cases, out) if o != f"{e:x}"]
    assert not bad, f"{len(bad)} of {len(cases)} wrong on {backend}, first: {bad[0]}"


def test_n0(harness, rng):
    ns = [1, 3, (1 << 64) - 1, (1 << 63) + 1] + [rng.getrandbits(64) | 1 for _ in range(50)]
    out = harness.lines([f"n0 {n:x}" for n in ns])
    assert out == [f"{(-pow(n, -1, 1 << 64)) % (1 << 64):x}" for n in ns]


def modexp_vectors(rng):
    cases = []
    for num in EXP_SIZES:
        for n in (random_modulus(rng, num), random_modulus(rng, num, "ones"),
                  random_modulus(rng, num, "topbit")):
            base = rng.randrange(n)
            full = rng.getrandbits(64 * num) | 1 << (64 * num - 1)
            for elimbs, e in ((0, 0), (1, 0), (1, 1), (num, 1), (1, 2), (num, full),
                              (num + 1, rng.getrandbits(64 * num + 64))):
                cases.append((f"modexp {num} {n:x} {base:x} {elimbs} {e:x}",
                              f"0 {pow(base, e, n):x}"))
            for b in (0, 1, n - 1):
                cases.append((f"modexp {num} {n:x} {b:x} {num} {full:x}",
                              f"0 {pow(b, full, n):x}"))
    # small moduli, n = 1, and moduli with zero top limbs (num 4, 5: the kernels)
    for num in (1, 4, 5):
        for n in (1, 3, 5, 0xffffffffffffffc5, (1 << 64) + 1):
            if n.bit_length() > 64 * num:
                continue
            for base, e in ((0, 0), (n - 1, 5), (n // 2, (1 << 64) - 1)):
                cases.append((f"modexp {num} {n:x} {base:x} 1 {e:x}", f"0 {pow(base, e, n):x}"))
    return cases


def test_modexp(harness, backend, rng):
    cases = modexp_vectors(rng)
    out, err = harness.run([c for c, _ in cases], env=backend_env(backend))
    assert err == ""
    bad = [(c, o, e) for (c, e), o in zip(cases, out) if o != e]
    assert not bad, f"{len(bad)} of {len(cases)} wrong on {backend}, first: {bad[0]}"


@pytest.fixture
def adx(harness):
    """The adx backend's environment, or a skip saying why."""
    if "adx" not in harness.runnable():
        pytest.skip("backend adx not built or not runnable here")
    return {"MONT_BACKEND": "adx"}


@pytest.mark.parametrize("blocks", ["16", "8"])
def test_adx_squarings(harness, adx, rng, blocks):
    """MONT_ADX_SQR picks the ADX squaring of 16- or 8-limb blocks; mont_sqr
    and mont_modexp are right with either (every size, aliased too)."""
    env = {**adx, "MONT_ADX_SQR": blocks}
    assert harness.lines(["adxsqr"], env=env) == [blocks]
    cases = [c for c in mul_vectors(rng) if c[0].startswith("sqr")]
    cases = [(c, f"{e:x}") for c, e in cases] + modexp_vectors(rng)
    out, err = harness.run([c for c, _ in cases], env=env)
    assert err == ""
    bad = [(c, o, e) for (c, e), o in zip(cases, out) if o != e]
    assert not bad, f"{len(bad)} of {len(cases)} wrong with {blocks}-limb blocks, first: {bad[0]}"


def test_adx_squaring_measured(harness, adx):
    """Without MONT_ADX_SQR the faster kernel is measured and kept for the
    process; a value other than 16 or 8 is named on stderr and measured."""
    out, err = harness.run(["adxsqr", "adxsqr"], env=adx)
    assert out[0] in ("16", "8") and out[1] == out[0] and err == ""
    out, err = harness.run(["adxsqr"], env={**adx, "MONT_ADX_SQR": "12"})
    assert out[0] in ("16", "8")
    assert err == "libmont: MONT_ADX_SQR=12 is not 16 or 8; timing both\n"
    # no ADX: no ADX squaring, whatever MONT_ADX_SQR says
    assert harness.lines(["adxsqr"], env={"MONT_ASSUME_CPU": "avx2", "MONT_ADX_SQR": "8"}) == ["0"]


@pytest.mark.parametrize("num", [64, 128])
def test_modexp_large(harness, backend, rng, num):
    n = random_modulus(rng, num)
    base, e = rng.randrange(n), rng.getrandbits(64 * num)
    out = harness.lines([f"modexp {num} {n:x} {base:x} {num} {e:x}"], env=backend_env(backend))
    assert out == [f"0 {pow(base, e, n):x}"]


def test_modexp_every_window(harness, rng):
    """Each window width gives the same answer (the sizes pick 4, 5 or 6;
    6 at 128 limbs is narrowed to the 5 the table holds)."""
    cases = []
    for num in (1, 4, 9, 128):
        n = random_modulus(rng, num)
        base, e = rng.randrange(n), rng.getrandbits(64 * num + 64)
        for w in range(1, 7):
            cases.append((f"window {w} {num} {n:x} {base:x} {num + 1} {e:x}", f"{pow(base, e, n):x}"))
    out = harness.lines([c for c, _ in cases])
    assert out == [e for _, e in cases]


@pytest.mark.parametrize("what", ["base", "exp", "n"])
def test_modexp_result_aliases_input(harness, backend, rng, what):
    cases = []
    for num in (1, 3, 4, 8, 17):
        n = random_modulus(rng, num)
        base, e = rng.randrange(n), rng.getrandbits(64 * num)
        cases.append((f"modexp-alias {what} {num} {n:x} {base:x} {num} {e:x}", f"0 {pow(base, e, n):x}"))
    out = harness.lines([c for c, _ in cases], env=backend_env(backend))
    assert out == [e for _, e in cases]


def test_modexp_bad_input(harness):
    n4 = (1 << 255) + 1
    cases = [
        ("modexp-null r", "-1"), ("modexp-null base", "-1"),
        ("modexp-null exp", "-1"), ("modexp-null n", "-1"),
        ("modexp-null exp0", "0 1"),          # no exponent limbs: 3^0 mod 7
        ("modexp-bad 0 b 3", "-2"),            # num 0
        ("modexp-bad 129 b 3", "-2"),          # num > MONT_MAX_NUM
        ("modexp-bad 1 a 3", "-3"),            # even n
        ("modexp-bad 4 %x 0" % (n4 - 1), "-3"),
        ("modexp-bad 1 b b", "-4"),            # base == n
        ("modexp-bad 1 b c", "-4"),            # base > n
        ("modexp-bad 4 %x %x" % (n4, n4), "-4"),
        ("modexp-bad 4 %x %x" % (n4, n4 - 1), "0"),  # base = n-1 is fine
    ]
    assert harness.lines([c for c, _ in cases]) == [e for _, e in cases]


def test_select_codes(harness):
    built = built_backends(kernels_header())
    cmds = ["select c", "select nope", "select", "select ADX", "select mulq", "select adx", "backend"]
    # a CPU without ADX/BMI2: adx is -3 when built, -2 when not
    out = harness.lines(cmds, env={"MONT_ASSUME_CPU": ""})
    assert out[:4] == ["0", "-1", "-1", "-1"]
    assert out[4] == ("0" if "mulq" in built else "-2")
    assert out[5] == ("-3" if "adx" in built else "-2")
    # a failed select keeps the backend that ran before
    assert out[6] == ("mulq" if "mulq" in built else "c")
    # a CPU with them: adx selectable exactly when built
    out = harness.lines(["select adx", "backend"], env={"MONT_ASSUME_CPU": "adx,bmi2"})
    assert out == (["0", "adx"] if "adx" in built else ["-2", built[-1]])


def test_env_backend_unknown(harness):
    best = harness.runnable()[-1]
    out, err = harness.run(["backend"], env={"MONT_BACKEND": "avx9000"})
    assert out == [best]
    assert err.count("\n") == 1 and "MONT_BACKEND=avx9000" in err and "not a backend" in err
    assert f"using {best}" in err


def test_env_backend_not_runnable(harness):
    """adx asked for on a CPU without it (or not built): one line, the best other runs."""
    built = built_backends(kernels_header())
    fallback = "mulq" if "mulq" in built else built[-1]
    out, err = harness.run(["backend"], env={"MONT_BACKEND": "adx", "MONT_ASSUME_CPU": "bmi2"})
    assert out == [fallback]
    reason = "CPU lacks" if "adx" in built else "not built"
    assert err.count("\n") == 1 and "MONT_BACKEND=adx" in err and reason in err, err


def test_env_backend_honoured(harness, backend):
    out, err = harness.run(["backend"], env={"MONT_BACKEND": backend})
    assert (out, err) == ([backend], "")


def test_assume_cpu_unknown_feature(harness):
    out, err = harness.run(["select c"], env={"MONT_ASSUME_CPU": "adx,bmi2,sse9"})
    assert out == ["0"]
    assert err.count("\n") == 1 and "sse9" in err


def test_num_too_large_for_mul_is_a_clear_error(harness):
    """mont_mul cannot return an error: it stops with a message, never overruns."""
    p = run_program(harness.argv(), "mul 129 b 3 5\n", timeout=60)
    assert p.returncode == ABORTED
    assert program_stderr(p.stderr) == "libmont: num 129 exceeds MONT_MAX_NUM (128)\n"


def test_threads_while_switching_backends(harness, rng):
    """Four threads run modexp while the main thread keeps calling
    mont_select: every result equals the single-threaded one."""
    num = 8
    n = random_modulus(rng, num)
    base, e = rng.randrange(n), rng.getrandbits(64 * num)
    out = harness.lines([f"threads 4 40 {num} {n:x} {base:x} {num} {e:x}",
                         f"modexp {num} {n:x} {base:x} {num} {e:x}"])
    assert out == ["0", f"0 {pow(base, e, n):x}"]
