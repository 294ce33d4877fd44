# SPDX-License-Identifier: MIT
"""libmont's C backend on aarch64, 32-bit arm (the portable 64x64->128
product, no __int128), riscv64, s390x and ppc64 (big-endian) and ppc64le: the whole mont suite (test_mont.py)
against Python integers, with the harness cross-built by clang and run
under qemu-user; on loongarch64, which Debian 12 has no libc for, the C
backend's products in a freestanding program (tests/la64/); the AArch64 kernels, plain and with branch protection
(BTI enforced by qemu, PAC signing for real), and what `asmcap audit`
says of the library; and the portable product path on x86_64 itself
against the __int128 one it replaces there."""
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, LA64, ROOT, asmcap, la64_program, need_tool
from montlib import Harness, kernel_limits, kernels_header, make, mont_mul, random_modulus

# target triple: the qemu-user binary that runs its static programs
TARGETS = {
    "aarch64-linux-gnu": "qemu-aarch64",
    "armv7a-linux-gnueabihf": "qemu-arm",
    "riscv64-linux-gnu": "qemu-riscv64",
    # big-endian: the limbs are host-order 64-bit words
    "s390x-linux-gnu": "qemu-s390x",
    "powerpc64le-linux-gnu": "qemu-ppc64le",
    # big-endian too, ELFv1 (the target's default)
    "powerpc64-linux-gnu": "qemu-ppc64",
}
CROSS_CC = "clang-19"
# Static, so qemu needs no sysroot; lld, because GNU ld 2.40 for riscv64
# crashes on clang's objects.
CROSS_LDFLAGS = "-static -fuse-ld=lld"
# lld links no ELFv1 ("ABI version 1 is not supported"), powerpc64's ABI:
# GNU ld (powerpc64-linux-gnu-ld) there
LINKERS = {"powerpc64-linux-gnu": ("-static", "powerpc64-linux-gnu-ld")}


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
    ldflags, ld = LINKERS.get(triple, (CROSS_LDFLAGS, "ld.lld-19"))
    gone = [t for t in (CROSS_CC, qemu, ld) if not shutil.which(t)]
    if gone:
        pytest.fail(f"not installed: {' '.join(gone)} (run ci/deps)")
    last = passed(suite(BUILD / f"cross-{triple}",
                        f"'CC={CROSS_CC} --target={triple}' 'LDFLAGS={ldflags}'", qemu))
    print(f"{triple} under {qemu}: {last}")


A64 = f"{CROSS_CC} --target=aarch64-linux-gnu"
# build directory suffix: the branch protection the build asks for
PROTECTION = {"": "-O2", "-bp": "-O2 -mbranch-protection=standard",
              "-bkey": "-O2 -mbranch-protection=pac-ret+leaf+b-key"}


def a64_build(kind, *targets):
    """The aarch64 library (and targets) built with PROTECTION[kind]."""
    build = BUILD / f"cross-aarch64-linux-gnu{kind}"
    make(*[build / t for t in targets], build=build, CC=A64, CFLAGS=PROTECTION[kind], LDFLAGS=CROSS_LDFLAGS)
    return build


@pytest.mark.parametrize("kind", ["", "-bp"])
def test_a64_kernels_every_size(kind):
    """The AArch64 kernels (perlasm/aarch64-mont.pl) under qemu-aarch64 for
    every size they take (1..128 limbs, their header says), r apart and r
    aliasing the inputs, against Python integers, plain and with BTI+PAC (qemu authenticates every
    return address); the dispatch picks them and honours MONT_BACKEND=c."""
    qemu = "qemu-aarch64"
    build = a64_build(kind, "mont-harness")
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


def audit(lib):
    r = asmcap("audit", "--format", "json", str(lib))
    assert r.returncode == 0, r.stderr
    return {o["member"]: o for o in json.loads(r.stdout)["objects"]}


def test_a64_branch_protection_follows_the_build():
    """-mbranch-protection=standard: each kernel starts with `bti c`, signs
    and authenticates its return address, and the object carries the same
    property note as the compiler's own objects; audit shows both.  A plain
    build has none of it."""
    bp, plain = a64_build("-bp", "libmont.a"), a64_build("", "libmont.a")
    s = (bp / "mont-aarch64.s").read_text()
    assert s.count("// bti c") == 2 and s.count("// paciasp") == 2 and s.count("// autiasp") == 2
    assert "hint" not in (plain / "mont-aarch64.s").read_text()
    objs = audit(bp / "libmont.a")
    kernels = {f["name"]: f["features"] for f in objs["mont-aarch64.o"]["functions"]}
    assert kernels["montk_mul_a64"].get("bti") == 1 and kernels["montk_sqr_a64"].get("bti") == 1, kernels
    marks = objs["mont-aarch64.o"]["marked"]
    assert {"bti", "pac"} <= set(marks) and marks == objs["mont_c.o"]["marked"], objs
    objs = audit(plain / "libmont.a")
    assert objs["mont-aarch64.o"]["marked"] is None
    assert all("bti" not in f["features"] for f in objs["mont-aarch64.o"]["functions"])
    bkey = (a64_build("-bkey", "libmont.a") / "mont-aarch64.s").read_text()
    assert bkey.count("// pacibsp") == 2 and bkey.count("// autibsp") == 2 and "bti c" not in bkey


def bti_program(tmp_path, build, *ldflags):
    """tests/mont/bti_check.c linked with build's kernel object, run under
    qemu-aarch64: its exit status (negative: the signal)."""
    rng = random.Random(0xb71)
    num = 4
    n = random_modulus(rng, num)
    a, b = rng.randrange(n), rng.randrange(n)
    n0 = (-pow(n, -1, 2**64)) % 2**64

    def arr(name, x):
        return f"static const uint64_t {name}[{num}] = {{" + \
            ", ".join(f"{(x >> (64 * i)) % 2**64:#x}u" for i in range(num)) + "};\n"
    (tmp_path / "vectors.h").write_text(
        f"#define NUM {num}\n#define N0 {n0:#x}u\n" + arr("N", n) + arr("A", a) + arr("B", b)
        + arr("MUL", mont_mul(a, b, n, num)) + arr("SQR", mont_mul(a, a, n, num)))
    exe = tmp_path / "bti-check"
    subprocess.run([*A64.split(), "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-ffreestanding",
                    "-fno-stack-protector", "-mbranch-protection=standard", "-nostdlib", "-static",
                    "-fuse-ld=lld", *ldflags, f"-I{tmp_path}", f"-I{build}", "-o", str(exe),
                    str(ROOT / "tests" / "mont" / "bti_check.c"), str(build / "mont" / "mont-aarch64.o")],
                   check=True)
    return subprocess.run(["qemu-aarch64", str(exe)], capture_output=True, timeout=60)


def test_a64_bti_enforced(tmp_path):
    """Under BTI enforcement the protected kernels run and compute right;
    the plain ones (no landing pad), forced into a BTI-marked program, die
    of SIGILL at their first indirect call: the enforcement is real."""
    r = bti_program(tmp_path, a64_build("-bp", "libmont.a"))
    assert r.returncode == 0, r
    r = bti_program(tmp_path, a64_build("", "libmont.a"), "-Wl,-z,force-bti")
    assert r.returncode == -4, r        # SIGILL: the BTI exception


def test_portable_product_on_x86_64():
    """MONT_PORTABLE_MUL: the 32x32-bit product path the 32-bit targets use,
    built natively (asm kernels and all) and checked like the default build."""
    passed(suite(BUILD / "portable-mul", "'CFLAGS=-O2 -DMONT_PORTABLE_MUL'"))


def la64_vectors(path, cases):
    """tests/la64/mont_check.c's vectors.h: (num, n, a, b) each, with n0
    and the products Python computes."""
    def arr(name, x, num):
        return f"static const uint64_t {name}[{num}] = {{" + \
            ", ".join(f"{(x >> (64 * i)) % 2**64:#x}u" for i in range(num)) + "};\n"
    text = ["struct la64_case { size_t num; uint64_t n0; const uint64_t *n, *a, *b, *mul, *sqr; };\n"]
    rows = []
    for k, (num, n, a, b) in enumerate(cases):
        for name, x in (("n", n), ("a", a), ("b", b), ("mul", mont_mul(a, b, n, num)),
                        ("sqr", mont_mul(a, a, n, num))):
            text.append(arr(f"{name}{k}", x, num))
        n0 = (-pow(n, -1, 2**64)) % 2**64
        rows.append(f"{{{num}, {n0:#x}u, n{k}, a{k}, b{k}, mul{k}, sqr{k}}}")
    text.append("static const struct la64_case la64_cases[] = {\n\t" + ",\n\t".join(rows) + "\n};\n")
    text.append(f"#define NCASES {len(cases)}\n")
    path.write_text("".join(text))


def test_loongarch64_c_backend_under_qemu(tmp_path):
    """mont_c_mul and mont_c_sqr built for loongarch64 (the 64x64->128
    product through __int128) against Python integers at every size 1..40
    and 64, 96, 128 limbs, moduli random, all ones and top bit only, r
    apart and aliasing an input.  The whole mont suite needs the harness,
    which needs a libc (stdio, pthreads): Debian 12 has none for
    loongarch64."""
    need_tool("qemu-loongarch64")
    rng = random.Random(0x1a64)
    cases = []
    for num in [*range(1, 41), 64, 96, 128]:
        n = random_modulus(rng, num, ("random", "ones", "topbit")[num % 3])
        cases.append((num, n, rng.randrange(n), rng.randrange(n)))
    la64_vectors(tmp_path / "vectors.h", cases)
    exe = la64_program(tmp_path / "mont-check", LA64 / "mont_check.c", ROOT / "mont" / "mont_c.c",
                       include=(tmp_path, ROOT / "mont"))
    r = subprocess.run(["qemu-loongarch64", "-cpu", "la464", str(exe)], capture_output=True,
                       text=True, timeout=120)
    assert (r.returncode, r.stdout) == (0, "ok\n"), \
        f"case {r.returncode - 1} wrong: {cases[r.returncode - 1][0]} limbs" if r.returncode > 0 else r
