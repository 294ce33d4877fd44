# SPDX-License-Identifier: MIT
"""mont_modexp_batch: up to eight exponentiations at once, against Python's
pow on every backend (the ifma backend's 8-lane kernels, the others' loop
over mont_modexp) and the 8-lane IFMA exponentiation alone at every size it
takes; counts 1..8 with a different modulus per lane, aliasing of any input
(of its own lane or another's), and each bad input's error code with no
result written."""
import pytest

from montlib import BACKENDS, harness, random_modulus, rng

assert harness and rng  # fixtures, used by name

SHORT = 4   # bits taken off some moduli: numbers shorter than num limbs


def batch_args(rng, num, count, elimbs):
    """'NUM COUNT ELIMBS sets' and the results Python computes."""
    sets, want = [], []
    for k in range(count):
        n = random_modulus(rng, num) >> (SHORT * (k % 3)) | 1
        n = max(n, 3)
        b, e = rng.randrange(n), rng.getrandbits(64 * elimbs)
        sets += [f"{n:x}", f"{b:x}", f"{e:x}"]
        want.append(f"{pow(b, e, n):x}")
    return f"{num} {count} {elimbs} " + " ".join(sets), want


@pytest.fixture(params=BACKENDS)
def backend(request, harness):
    if request.param not in harness.runnable():
        pytest.skip(f"backend {request.param} not built or not runnable here")
    return request.param


def check(harness, cmds, want, env=None):
    out, err = harness.run(cmds, env=env)
    assert err == ""
    bad = [(c[:40], o[:50], w[:50]) for c, o, w in zip(cmds, out, want) if o != w]
    assert not bad, f"{len(bad)} of {len(cmds)} wrong, first: {bad[0]}"


def test_batch_against_python(harness, backend, rng):
    """1024..4096 bits and odd sizes, every count, full and short exponents."""
    cmds, want = [], []
    for num in (1, 4, 5, 16, 17, 32, 48, 64, 65):
        for count in range(1, 9):
            if backend == "c" and num > 17 and count > 2:
                continue   # the C backend is slow at these sizes
            el = num if count % 2 else (1, 0, num + 1)[count % 3]
            args, w = batch_args(rng, num, count, el)
            cmds.append(f"batch api {args}")
            want.append("0 " + " ".join(w))
    check(harness, cmds, want, env={"MONT_BACKEND": backend})


def test_ifma_lanes_every_size(harness, rng):
    """The 8-lane IFMA exponentiation alone, whatever the dispatch picks:
    every num it takes (1..64 limbs), counts 1, 3 and 8, and an exponent of 0
    limbs; 'none' past its sizes."""
    if harness.lines(["batch ifma 4 1 1 5 2 3"]) == ["none"]:
        pytest.skip("no 8-lane IFMA kernels built")
    if "ifma" not in harness.runnable():
        pytest.skip("this CPU cannot run the IFMA kernels")
    cmds, want = [], []
    for num in range(1, 65):
        for count, el in ((8, num), (3, 2), (1, 0)):
            args, w = batch_args(rng, num, count, el)
            cmds.append(f"batch ifma {args}")
            want.append(" ".join(w))
    args, _ = batch_args(rng, 65, 2, 1)
    cmds.append(f"batch ifma {args}")
    want.append("none")
    check(harness, cmds, want)


def test_ifma_lanes_edges(harness):
    """Values at the edges of the 52-bit limbs and of the almost-Montgomery
    bound: all-ones moduli with base n-1, n = 3, base 0 and 1."""
    if harness.lines(["batch ifma 4 1 1 5 2 3"]) == ["none"] or \
            "ifma" not in harness.runnable():
        pytest.skip("no 8-lane IFMA kernels here")
    cmds, want = [], []
    for num in (4, 16, 32, 64):
        ones = (1 << (64 * num)) - 1
        lanes = [(ones, ones - 1, ones), (3, 2, ones), (ones, 0, 5), (ones, 1, ones),
                 ((1 << (64 * num - 1)) + 1, (1 << (64 * num - 1)), ones), (ones - 2, ones - 3, 1),
                 (5, 4, 2), (ones, ones - 1, 0)]
        sets = " ".join(f"{n:x} {b:x} {e:x}" for n, b, e in lanes)
        cmds.append(f"batch ifma {num} 8 {num} {sets}")
        want.append(" ".join(f"{pow(b, e, n):x}" for n, b, e in lanes))
    check(harness, cmds, want)


@pytest.mark.parametrize("how", ["alias-base", "alias-exp", "alias-n", "alias-cross"])
def test_batch_alias(harness, backend, rng, how):
    """r[i] in lane i's base, exponent or modulus buffer, or in the next
    lane's base: every result still right."""
    cmds, want = [], []
    for num, count in ((4, 8), (16, 3), (17, 8)):
        args, w = batch_args(rng, num, count, num)
        cmds.append(f"batch {how} {args}")
        want.append("0 " + " ".join(w))
    check(harness, cmds, want, env={"MONT_BACKEND": backend})


def test_batch_errors(harness, backend):
    """mont_modexp's codes lane by lane, the first lane's first, and the
    batch's own; no result written on any error."""
    n4 = (1 << 255) + 1
    ok = f"{n4:x} 5 3"
    cases = [
        (f"none 4 2 1 {ok} {ok}", "0 written"),
        (f"count9 4 2 1 {ok} {ok}", "-5 untouched"),
        (f"dup 4 2 1 {ok} {ok}", "-6 untouched"),
        (f"r 4 2 1 {ok} {ok}", "-1 untouched"),
        (f"base 4 2 1 {ok} {ok}", "-1 untouched"),
        (f"exp 4 2 1 {ok} {ok}", "-1 untouched"),
        (f"n 4 2 1 {ok} {ok}", "-1 untouched"),
        (f"r1 4 2 1 {ok} {ok}", "-1 untouched"),
        (f"exp 4 2 0 {n4:x} 5 0 {n4:x} 5 0", "0 written"),            # no exponent limbs: exp unread
        (f"num0 4 2 1 {ok} {ok}", "-2 untouched"),
        (f"numbig 4 2 1 {ok} {ok}", "-2 untouched"),
        (f"none 4 3 1 {ok} {ok} {n4 - 1:x} 5 3", "-3 untouched"),   # lane 2 even
        (f"none 4 2 1 {ok} {n4:x} {n4:x} 3", "-4 untouched"),       # lane 1 base = n
        (f"none 4 2 1 {n4:x} {n4 + 1:x} 3 {n4 - 1:x} 5 3", "-4 untouched"),  # lane 0 first
    ]
    assert harness.lines([f"batch-err {c}" for c, _ in cases],
                         env={"MONT_BACKEND": backend}) == [e for _, e in cases]


def test_dispatch(harness):
    """Which batches the ifma backend gives its 8-lane code: from the count
    where it wins (mont/dispatch.c), up to 4096 bits; never on adx."""
    if "ifma" not in harness.runnable() or \
            harness.lines(["batch ifma 4 1 1 5 2 3"]) == ["none"]:
        pytest.skip("no 8-lane IFMA kernels here")
    cases = {(16, 8): "1", (16, 4): "1", (16, 3): "0", (16, 1): "0", (1, 4): "1", (1, 3): "0",
             (8, 3): "1", (32, 6): "1", (32, 5): "0", (64, 7): "1", (64, 6): "0", (65, 8): "0"}
    cmds = [f"batch-path {num} {count}" for num, count in cases]
    assert harness.lines(cmds, env={"MONT_BACKEND": "ifma"}) == list(cases.values())
    assert harness.lines(cmds, env={"MONT_BACKEND": "adx"}) == ["0"] * len(cases)
