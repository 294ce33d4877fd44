"""libmont's C backend on aarch64, 32-bit arm (the portable 64x64->128
product, no __int128) and riscv64: the whole mont suite (test_mont.py)
against Python integers, with the harness cross-built by clang and run
under qemu-user; and the portable product path on x86_64 itself against
the __int128 one it replaces there."""
import os
import random
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT
from montlib import Harness, kernel_limits, kernels_header, make, mont_mul, random_modulus

# target triple: the qemu-user binary that runs its static programs
TARGETS = {
    "aarch64-linux-gnu": "qemu-aarch64",
    "armv7a-linux-gnueabihf": "qemu-arm",
    "riscv64-linux-gnu": "qemu-riscv64",
}
CROSS_CC = "clang-19"
# Static, so qemu needs no sysroot; lld, because GNU ld 2.40 for riscv64
# crashes on clang's objects.
CROSS_LDFLAGS = "-static -fuse-ld=lld"


def suite(build, makeflags, runner=""):
    """test_mont.py against the harness of another build; the pytest result."""
    env = dict(os.environ, MONT_TEST_BUILD=str(build), MONT_TEST_MAKEFLAGS=makeflags,
               MONT_TEST_RUNNER=runner)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "mont" / "test_mont.py")],
                          capture_output=True, text=True, env=env, timeout=3600)


def passed(p):
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    last = p.stdout.strip().splitlines()[-1]
    assert " passed" in last and "failed" not in last and "error" not in last, last
    return last


@pytest.mark.parametrize("triple", TARGETS)
def test_mont_suite_under_qemu(triple):
    qemu = TARGETS[triple]
    gone = [t for t in (CROSS_CC, qemu, "ld.lld-19") if not shutil.which(t)]
    if gone:
        pytest.fail(f"not installed: {' '.join(gone)} (run ci/deps)")
    last = passed(suite(BUILD / f"cross-{triple}",
                        f"'CC={CROSS_CC} --target={triple}' 'LDFLAGS={CROSS_LDFLAGS}'", qemu))
    print(f"{triple} under {qemu}: {last}")


def test_a64_kernels_every_size():
    """The AArch64 kernels (perlasm/aarch64-mont.pl) under qemu-aarch64 for
    every size they take (1..128 limbs, their header says), r apart and r
    aliasing the inputs, against Python integers; the dispatch picks them
    and honours MONT_BACKEND=c."""
    triple, qemu = "aarch64-linux-gnu", "qemu-aarch64"
    build = BUILD / f"cross-{triple}"
    make(build / "mont-harness", build=build, CC=f"{CROSS_CC} --target={triple}", LDFLAGS=CROSS_LDFLAGS)
    h = Harness(build / "mont-harness")
    runner = (qemu,)
    assert h.lines(["backend"], wrapper=runner) == ["a64"]
    assert h.lines(["backend"], wrapper=runner, env={"MONT_BACKEND": "c"}) == ["c"]
    limits = kernel_limits(kernels_header(build))
    assert limits == (1, 128)
    rng = random.Random(0xa64)
    cases = []
    for num in range(limits[0], limits[1] + 1):
        n = random_modulus(rng, num, ("random", "ones", "topbit")[num % 3])
        a, b = rng.randrange(n), rng.randrange(n)
        cases += [(f"mul {num} {n:x} {a:x} {b:x}", mont_mul(a, b, n, num)),
                  (f"sqr {num} {n:x} {a:x}", mont_mul(a, a, n, num)),
                  (f"mulalias {num} {n:x} {b:x}", mont_mul(b, b, n, num)),
                  (f"sqralias {num} {n:x} {a:x}", mont_mul(a, a, n, num))]
    out = h.lines(["select a64"] + [c for c, _ in cases], wrapper=runner)
    assert out[0] == "0"
    bad = [(c, o) for (c, e), o in zip(cases, out[1:]) if int(o, 16) != e]
    assert not bad, f"{len(bad)} of {len(cases)} wrong, first: {bad[0]}"


def test_portable_product_on_x86_64():
    """MONT_PORTABLE_MUL: the 32x32-bit product path the 32-bit targets use,
    built natively (asm kernels and all) and checked like the default build."""
    passed(suite(BUILD / "portable-mul", "'CFLAGS=-O2 -DMONT_PORTABLE_MUL'"))
