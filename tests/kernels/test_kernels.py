# SPDX-License-Identifier: MIT
"""The Montgomery kernels of perlasm/x86_64-mont.pl against Python integers.

Generates the assembly from build/caps.json into a temporary directory, links
tests/kernels/driver.c with it and checks r = a*b*R^-1 mod n (fully reduced)
for every kernel, num 4..20 and the sizes around 2048/4096/8192 bits, edge
moduli and operands, and r aliasing a and/or b."""
import json
import os
import pathlib
import random
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, built

GEN = ROOT / "perlasm" / "x86_64-mont.pl"
HERE = ROOT / "tests" / "kernels"
NUMS = list(range(4, 21)) + [31, 32, 33, 48, 63, 64, 65, 96, 128]
ALIASES = ["none", "ra", "rb", "rab"]
KERNELS = ["mul_mulq", "sqr_mulq", "mul_adx", "sqr_adx", "sqr_adx8"]


def gen(args, out):
    p = subprocess.run(["perl", str(GEN), *map(str, args)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out.write_text(p.stdout)


def build_driver(tmp, caps):
    gen(["--header", caps], tmp / "mont-kernels.h")
    gen(["elf", caps], tmp / "mont-x86_64.s")
    exe = tmp / "driver"
    subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{tmp}",
                    "-o", str(exe), str(HERE / "driver.c"), str(tmp / "mont-x86_64.s")],
                   check=True)
    return exe


@pytest.fixture(scope="module")
def caps():
    # KERNELS_CAPS: check the kernels generated for another toolchain's caps
    path = pathlib.Path(os.environ.get("KERNELS_CAPS", BUILD / "caps.json"))
    return built(path)


@pytest.fixture(scope="module")
def driver(tmp_path_factory, caps):
    return build_driver(tmp_path_factory.mktemp("kernels"), caps)


@pytest.fixture(params=KERNELS)
def kernel(request, driver):
    """Each kernel; the ADX ones are skipped (saying why) when the caps gave
    none or this CPU cannot run them."""
    k = request.param
    if "_adx" in k:
        if "#define MONT_HAVE_ADX 1" not in (driver.parent / "mont-kernels.h").read_text():
            pytest.skip("no ADX kernels: the caps say the toolchain has no usable adx")
        cpu = subprocess.run([str(driver), "cpu"], capture_output=True, text=True, check=True)
        if cpu.stdout.split() != ["adx", "1"]:
            pytest.skip("this CPU cannot run ADX/BMI2 code")
    return k


def moduli(num, rnd):
    top = 1 << (64 * num - 1)
    return {
        "random": rnd.getrandbits(64 * num) | top | 1,
        "all-ones": (1 << (64 * num)) - 1,
        "top-bit-only": top | 1,
        "short": rnd.getrandbits(64 * (num - 1) - 3) | 1,  # high limbs zero
    }


def operands(n, rnd):
    r = lambda: rnd.randrange(n)
    return [(0, r()), (r(), 0), (1, n - 1), (n - 1, n - 1), (r(), r()), (r(), r())]


def limbs(x, num):
    return " ".join(f"{(x >> (64 * i)) & (2**64 - 1):x}" for i in range(num))


def run_cases(driver, cases, wrap=()):
    """cases: (kernel, alias, num, n, a, b); returns the r integers."""
    lines = []
    for k, alias, num, n, a, b in cases:
        n0 = (-pow(n, -1, 2**64)) % 2**64
        lines.append(f"{k} {alias} {num} {n0:x} {limbs(n, num)} {limbs(a, num)} {limbs(b, num)}")
    p = subprocess.run([*wrap, str(driver)], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr
    out = p.stdout.splitlines()
    assert len(out) == len(cases)
    return [sum(int(w, 16) << (64 * i) for i, w in enumerate(line.split())) for line in out]


def check(driver, cases, wrap=()):
    got = run_cases(driver, cases, wrap)
    bad = []
    for (k, alias, num, n, a, b), r in zip(cases, got):
        bb = a if k.startswith("sqr") or alias == "rab" else b
        want = a * bb * pow(2, -64 * num, n) % n
        if r != want:
            bad.append(f"{k} alias={alias} num={num} n={n:#x} a={a:#x} b={bb:#x}: "
                       f"got {r:#x} want {want:#x}")
    assert not bad, f"{len(bad)} wrong of {len(cases)}; first: {bad[0]}"


def test_kernel_matches_python(driver, kernel):
    cases = []
    for num in NUMS:
        rnd = random.Random(num)
        for name, n in moduli(num, rnd).items():
            for i, (a, b) in enumerate(operands(n, rnd)):
                cases.append((kernel, ALIASES[i % 4], num, n, a, b))
    check(driver, cases)


def test_sizes_reach_both_ends_of_the_contract(driver):
    """The sizes checked above start and end where the generator says the
    kernels' contract does (MONTK_MIN_NUM, MONTK_MAX_NUM), and the driver,
    sized by the same header, refuses one limb beyond either end."""
    header = (driver.parent / "mont-kernels.h").read_text()
    lo, hi = (int(v) for v in re.findall(r"^#define MONTK_M(?:IN|AX)_NUM (\d+)$", header, re.M))
    assert (min(NUMS), max(NUMS)) == (lo, hi)
    for num in (lo - 1, hi + 1):
        p = subprocess.run([str(driver)], input=f"mul_mulq none {num} 1\n", capture_output=True,
                           text=True)
        assert (p.returncode, p.stdout) == (1, f"ERR num {num}\n")


def test_random_many(driver, kernel):
    """Many random moduli and operands at the sizes that matter most."""
    rnd = random.Random(2048)
    cases = []
    for num in (4, 5, 7, 8, 9, 16, 24, 32, 40, 64):
        for _ in range(40):
            n = rnd.getrandbits(64 * num) | 1
            cases.append((kernel, rnd.choice(ALIASES), num, n, rnd.randrange(n), rnd.randrange(n)))
    check(driver, cases)


@pytest.mark.tools("valgrind")
def test_valgrind_clean(driver, kernel):
    """No read of uninitialised memory or outside the buffers. valgrind's
    CPUID hides ADX but it executes the instructions, so the ADX kernels
    run here too."""
    rnd = random.Random(7)
    cases = []
    for num in (4, 7, 8, 9, 17, 33, 128):
        n = rnd.getrandbits(64 * num) | 1
        for alias in ALIASES:
            cases.append((kernel, alias, num, n, rnd.randrange(n), rnd.randrange(n)))
    check(driver, cases, ["valgrind", "-q", "--error-exitcode=99"])


def test_header_follows_caps(tmp_path, caps):
    """Without adx in the caps there are no ADX kernels and no MONT_HAVE_ADX."""
    c = json.loads(caps.read_text())
    for st in ("yes", "no"):
        c["features"].setdefault("adx", {"requires": []})["status"] = st
        f = tmp_path / f"caps-{st}.json"
        f.write_text(json.dumps(c))
        gen(["--header", f], tmp_path / "h")
        gen(["elf", f], tmp_path / "s")
        has = json.loads(f.read_text())
        want = st == "yes" and all(has["features"][r]["status"] == "yes"
                                   for r in has["features"]["adx"].get("requires", []))
        assert ("#define MONT_HAVE_ADX 1" in (tmp_path / "h").read_text()) == want
        assert ("montk_mul_adx:" in (tmp_path / "s").read_text()) == want
        assert ("montk_sqr_adx8:" in (tmp_path / "s").read_text()) == want
        assert "montk_mul_mulq:" in (tmp_path / "s").read_text()


def test_generator_usage_error():
    p = subprocess.run(["perl", str(GEN)], capture_output=True, text=True)
    assert p.returncode != 0 and "usage" in p.stderr
