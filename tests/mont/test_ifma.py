# SPDX-License-Identifier: MIT
"""The IFMA tier (perlasm/x86_64-ifma.pl, mont/ifma.c) against Python
integers: every size from 16 to 128 limbs, the edge moduli and operands,
aliasing, mont_modexp2 on every backend, and the dispatch with the CPU bits
masked. `ifma`/`ifma2` in the harness run the IFMA exponentiation whatever
the crossover says, so the kernels are checked at every size they take."""
import json
import re
import shutil
import subprocess

import pytest

from conftest import cpu_flags
from montlib import (BACKENDS, BUILD, Harness, harness, kernels_header, make, random_modulus, rng)

assert harness and rng  # fixtures, used by name

IFMA_CPU = {"avx512f", "avx512ifma", "avx512vl"}


def max_num():
    m = re.search(r"#define MONTK_IFMA_MAX_NUM (\d+)", kernels_header() or "")
    return int(m.group(1)) if m else 0


@pytest.fixture
def ifma(harness):
    if "#define MONT_HAVE_IFMA" not in (kernels_header() or ""):
        pytest.skip("the toolchain's caps say no to avx512ifma/avx512vl: no IFMA kernels")
    if not IFMA_CPU <= cpu_flags():
        pytest.skip("this CPU lacks AVX-512 IFMA/VL: the kernels cannot run here")
    return harness


def barely(rng, num):
    """A modulus that only just needs num limbs: top limb 1."""
    return (1 << (64 * (num - 1))) | rng.getrandbits(64 * (num - 1)) | 1


def single_square_ks():
    """The K the generator built a single square montk_ams52_K for."""
    h = kernels_header()
    kmin, kmax = (int(re.search(rf"#define MONTK_IFMA_X1SQR_{w} (\d+)", h).group(1))
                  for w in ("KMIN", "KMAX"))
    return range(kmin, kmax + 1)


def prime_limbs(num):
    """(lf, kf): the limbs of n' = n*mu (52 bits more) and the registers of
    its kernel; where that is montk_amm52f_K's two digits a trip, 104 bits
    more, even and at most 8K - 2 limbs, else in a register more (at least
    its 8K - 7)."""
    lf = -(-(64 * num + 54) // 52)
    kf = -(-lf // 8)
    pair_k = int(re.search(r"#define MONTK_IFMA_X1F_PAIR_K (\d+)", kernels_header()).group(1))
    if kf == pair_k:
        l2 = -(-(64 * num + 106) // 52)
        l2 += l2 % 2
        if l2 <= 8 * kf - 2:
            return l2, kf
        kf += 1
        lf = 8 * kf - 7
    return lf, kf


def kernel_lines(num, prime):
    """The harness's line for one product of num limbs, modulo n' or n
    (then with its single square where one was built)."""
    L = -(-(64 * num + 2) // 52)
    lf, kf = prime_limbs(num)
    if prime:
        return f"one {L} {8 * kf} prime {lf}"
    return f"one {L} {8 * -(-L // 8)}" + (" square" if -(-L // 8) in single_square_ks() else "")


def test_every_size(ifma, rng):
    """16..128 limbs: the forced IFMA path where a kernel takes the size,
    and mont_modexp on the ifma backend (IFMA or adx, as dispatched)."""
    cmds, want = [], []
    top = max_num()
    assert top >= 64, "the kernels should take at least 4096-bit numbers"
    for num in range(4, 129):
        n = random_modulus(rng, num)
        base = rng.randrange(n)
        elimbs = num if num in (4, 16, 17, 32, 48, 64) else 2
        e = rng.getrandbits(64 * elimbs)
        args = f"{num} {n:x} {base:x} {elimbs} {e:x}"
        if num <= top:
            cmds.append(f"ifma {args}")
            want.append(f"{pow(base, e, n):x}")
        cmds.append(f"modexp {args}")
        want.append(f"0 {pow(base, e, n):x}")
    out, err = ifma.run(cmds, env={"MONT_BACKEND": "ifma"})
    assert err == ""
    bad = [(c[:40], o[:40], w[:40]) for c, o, w in zip(cmds, out, want) if o != w]
    assert not bad, f"{len(bad)} of {len(cmds)} wrong, first: {bad[0]}"


def test_pair_kernels_up_to_2048_bit_factors(ifma):
    """mont_modexp2 of 1024-, 1536- and 2048-bit numbers runs one packed
    pair kernel (both products in one call, the numbers interleaved), not
    two single products: L 52-bit limbs for 64 num + 2 bits, 4 of each
    number in a register."""
    nums = (3, 16, 24, 32)
    out, err = ifma.run([f"kernel {num} 2" for num in nums])
    assert err == ""
    for num, line in zip(nums, out):
        L = -(-(64 * num + 2) // 52)
        assert line.split()[:3] == ["packed", str(L), str(-(-L // 4) * 4)], (num, line)


def test_pair_square_where_it_was_built(ifma):
    """mont_modexp2's squarings run a packed pair square for the K its
    generator built one for: montk_ams52x2p_K (1024-bit factors: 20 limbs
    in 5 registers) and montk_sqr52x2p_K (1536 and 2048: 30 and 40 limbs in
    8 and 10); the packed product elsewhere."""
    h = kernels_header()
    ks = set()
    for tab in ("X2PAMS", "X2PSQR"):
        kmin, kmax = (int(re.search(rf"#define MONTK_IFMA_{tab}_{w} (\d+)", h).group(1))
                      for w in ("KMIN", "KMAX"))
        ks |= set(range(kmin, kmax + 1))
    assert {5, 8, 10} <= ks
    nums = (4, 8, 16, 24, 32)
    out, err = ifma.run([f"kernel {num} 2" for num in nums])
    assert err == ""
    for num, line in zip(nums, out):
        K = -(-(-(-(64 * num + 2) // 52)) // 4)
        assert line.endswith(" square") == (K in ks), (num, line)


def test_single_square_where_it_was_built(ifma):
    """mont_modexp squares with montk_ams52_K where the generator built it
    (the direct rows: 2560 to 4096 bits, 7 to 10 registers) and with the
    product elsewhere; so does mont_modexp2 past the packed pairs (3072
    bits: two single products a call)."""
    ks = single_square_ks()
    assert 8 in ks and 10 in ks     # 3072 and 4096 bits
    nums = (32, 39, 40, 48, 56, 64, 65, 80)
    out, err = ifma.run([f"kernel {num} 1" for num in nums] + ["kernel 48 2"])
    assert err == ""
    for num, line in zip(nums, out):
        K = -(-(-(-(64 * num + 2) // 52)) // 8)
        assert line.endswith(" square") == (K in ks), (num, line)
    assert out[-1] == "one 60 64 square"


def test_prime_kernels_where_they_win(ifma):
    """The kernels offer a product modulo n' = n*mu (n' = -1 mod 2^52, 52
    bits more; 2^104 at 3 registers) wherever n' fits 6 registers (up to
    2432 bits), in a
    register more than n where it needs one (the span grows with it: 1088
    to 1536 bits, 2048); past that, and every pair, n itself (whether
    mont_modexp takes it: test_prime_choice_*)."""
    nums = (1, 9, 16, 17, 18, 19, 24, 32, 37, 38, 64)
    out, err = ifma.run([f"kernel {num} 1" for num in nums] + ["kernel 16 2"])
    assert err == ""
    for num, line in zip(nums, out):
        assert line == kernel_lines(num, prime_limbs(num)[1] <= 6), (num, line)
    assert [num for num, line in zip(nums, out) if "prime" in line] == [1, 9, 16, 17, 18, 19, 24, 32, 37, 38]
    # 1024 bits: 22 limbs in 3 registers (two digits a trip), 1088: 25 in 4
    assert out[2] == "one 20 24 prime 22" and out[3] == "one 21 32 prime 25"
    assert out[-1] == "packed 20 20 square"


@pytest.mark.parametrize("want", ["1", "0"])
def test_prime_choice_fixed(ifma, rng, want):
    """MONT_IFMA_NPRIME=1 keeps n' wherever the kernels have it, =0 never
    (below 9 limbs adx runs: none); mont_modexp is right either way."""
    nums = (8, 9, 16, 17, 18, 24, 28, 32, 36, 37, 38, 39)
    env = {"MONT_BACKEND": "ifma", "MONT_IFMA_NPRIME": want}
    out, err = ifma.run([f"ifmafor {num} 1" for num in nums], env=env)
    assert err == ""
    for num, line in zip(nums, out):
        want_line = "none" if num < 9 else kernel_lines(num, want == "1" and prime_limbs(num)[1] <= 6)
        assert line == want_line, (num, line)
    cmds, expect = [], []
    for num in (9, 16, 17, 24, 32, 37, 38):
        for n in (random_modulus(rng, num), (1 << (64 * num)) - 1):
            base, e = rng.randrange(n), rng.getrandbits(64 * num)
            cmds.append(f"modexp {num} {n:x} {base:x} {num} {e:x}")
            expect.append(f"0 {pow(base, e, n):x}")
    out, err = ifma.run(cmds, env=env)
    assert err == "" and out == expect


def test_prime_choice_measured(ifma):
    """Unset, n' or n is measured once per register count and kept for the
    process (36 and 37 limbs share theirs: 6 registers either way); any
    other value is named on stderr, once, and measured."""
    cmds = ["ifmafor 32 1", "ifmafor 36 1", "ifmafor 32 1", "ifmafor 37 1"]
    for env, err_want in (({}, ""),
                          ({"MONT_IFMA_NPRIME": "yes"},
                           "libmont: MONT_IFMA_NPRIME=yes is not 0 or 1; timing both\n")):
        out, err = ifma.run(cmds, env={"MONT_BACKEND": "ifma", **env})
        assert err == err_want
        assert out[0] in (kernel_lines(32, 1), kernel_lines(32, 0)) and out[2] == out[0]
        assert out[1] in (kernel_lines(36, 1), kernel_lines(36, 0))
        assert out[3] == kernel_lines(37, out[1] == kernel_lines(36, 1))


def test_no_kernel_past_the_contract(ifma):
    n = (1 << (64 * 128)) - 1
    assert ifma.lines([f"ifma 128 {n:x} 2 1 3", f"ifma {max_num() + 1} {n >> 64 * (127 - max_num()):x} 2 1 3"]) \
        == ["none", "none"]


def edge_cases(rng):
    """(args, expected) for the edges: all-ones and barely-num-limb moduli,
    base 0, 1, n-1, exponent 0 (no limbs, or a zero limb), 1, full."""
    cases = []
    for num in (4, 5, 8, 9, 16, 17, 18, 19, 31, 32, 48, 64, 80, 103):
        for n in ((1 << (64 * num)) - 1, barely(rng, num), random_modulus(rng, num, "topbit")):
            full = rng.getrandbits(64 * num) | 1 << (64 * num - 1)
            for base in (0, 1, n - 1, rng.randrange(n)):
                for elimbs, e in ((0, 0), (1, 0), (1, 1), (num, full)):
                    if num > 17 and elimbs == num and base != n - 1:
                        continue   # full exponents at the large sizes: one base
                    cases.append((num, n, base, elimbs, e))
    return cases


def test_edges(ifma, rng):
    cmds, want = [], []
    for num, n, base, elimbs, e in edge_cases(rng):
        if num > max_num():
            continue
        cmds.append(f"ifma {num} {n:x} {base:x} {elimbs} {e:x}")
        want.append(f"{pow(base, e, n):x}")
        # the same pair twice at once: ifma2 with the second set the first's partner
        n2 = barely(rng, num)
        b2 = rng.randrange(n2)
        cmds.append(f"ifma2 {num} {n:x} {base:x} {elimbs} {e:x} {n2:x} {b2:x} 1 {e & 0xff:x}")
        want.append(f"{pow(base, e, n):x} {pow(b2, e & 0xff, n2):x}")
    out = ifma.lines(cmds)
    bad = [(c[:50], o[:40], w[:40]) for c, o, w in zip(cmds, out, want) if o != w]
    assert not bad, f"{len(bad)} of {len(cmds)} wrong, first: {bad[0]}"


@pytest.mark.parametrize("what", ["base", "exp", "n"])
def test_modexp_alias(ifma, rng, what):
    cmds, want = [], []
    for num in (4, 16, 17, 32, 64):
        n = random_modulus(rng, num)
        base, e = rng.randrange(n), rng.getrandbits(64 * num)
        cmds.append(f"modexp-alias {what} {num} {n:x} {base:x} {num} {e:x}")
        want.append(f"0 {pow(base, e, n):x}")
    assert ifma.lines(cmds, env={"MONT_BACKEND": "ifma"}) == want


@pytest.fixture(params=BACKENDS)
def backend(request, harness):
    if request.param not in harness.runnable():
        pytest.skip(f"backend {request.param} not built or not runnable here")
    return request.param


def pair(rng, num, el1, el2):
    n1, n2 = random_modulus(rng, num), barely(rng, num)
    b1, b2 = rng.randrange(n1), rng.randrange(n2)
    e1, e2 = rng.getrandbits(64 * el1), rng.getrandbits(64 * el2)
    return (f"{n1:x} {b1:x} {el1} {e1:x} {n2:x} {b2:x} {el2} {e2:x}",
            f"{pow(b1, e1, n1):x}", f"{pow(b2, e2, n2):x}",
            f"{num} {n1:x} {b1:x} {el1} {e1:x}", f"{num} {n2:x} {b2:x} {el2} {e2:x}")


def test_modexp2_equals_two_modexps(harness, backend, rng):
    """mont_modexp2 against Python and against two mont_modexp calls."""
    cmds, want = [], []
    for num in (1, 3, 4, 8, 16, 17, 24, 32, 48, 64, 65, 128):
        for el1, el2 in ((num, num), (0, num), (num, 1), (2, 0)):
            if num > 32 and (el1, el2) != (2, 0) and backend == "c":
                continue   # the C backend is slow at these sizes
            args, r1, r2, m1, m2 = pair(rng, num, el1, el2)
            cmds += [f"modexp2 {num} {args}", f"modexp {m1}", f"modexp {m2}"]
            want += [f"0 {r1} {r2}", f"0 {r1}", f"0 {r2}"]
    out, err = harness.run(cmds, env={"MONT_BACKEND": backend})
    assert err == ""
    bad = [(c[:50], o[:40], w[:40]) for c, o, w in zip(cmds, out, want) if o != w]
    assert not bad, f"{len(bad)} of {len(cmds)} wrong on {backend}, first: {bad[0]}"


@pytest.mark.parametrize("where", ["b1", "e1", "n1", "b2", "e2", "n2"])
def test_modexp2_alias(harness, backend, rng, where):
    """r1 (then r2) in the buffer of each input: both results still right."""
    cmds, want = [], []
    for num in (4, 16, 17):
        args, r1, r2, _, _ = pair(rng, num, num, num)
        cmds += [f"modexp2-alias {where} r {num} {args}", f"modexp2-alias r {where} {num} {args}"]
        want += [f"0 {r1} {r2}"] * 2
    assert harness.lines(cmds, env={"MONT_BACKEND": backend}) == want


def test_modexp2_errors(harness, backend):
    """mont_modexp's codes, the first set's first; neither result written."""
    n4 = (1 << 255) + 1
    ok = f"{n4:x} 5 1 3"
    cases = [
        (f"modexp2 4 {ok} {n4 - 1:x} 5 1 3", "-3 - -"),            # n2 even
        (f"modexp2 4 {ok} {n4:x} {n4:x} 1 3", "-4 - -"),           # b2 = n2
        (f"modexp2 4 {n4:x} {n4 + 1:x} 1 3 {n4 - 1:x} 5 1 3", "-4 - -"),   # first set first
        (f"modexp2 4 {n4 - 1:x} 5 1 3 {n4:x} {n4:x} 1 3", "-3 - -"),
        ("modexp2 1 b 3 0 0 d c 0 0", "0 1 1"),                   # exponent 0: 1
    ]
    assert harness.lines([c for c, _ in cases], env={"MONT_BACKEND": backend}) == \
        [e for _, e in cases]


def test_dispatch_masked(ifma):
    """The CPU bits decide: without IFMA in MONT_ASSUME_CPU, ifma is -3 and
    MONT_BACKEND=ifma falls back with one line; with it, ifma runs."""
    assert ifma.lines(["backend"]) == ["ifma"]
    adx = "#define MONT_HAVE_ADX" in kernels_header()
    other = "adx" if adx else "mulq"
    masked = {"MONT_ASSUME_CPU": "adx,bmi2,avx2"}
    assert ifma.lines(["backend", "select ifma", "backend"], env=masked) == [other, "-3", other]
    out, err = ifma.run(["backend"], env=dict(masked, MONT_BACKEND="ifma"))
    assert out == [other]
    assert err.count("\n") == 1 and "MONT_BACKEND=ifma" in err and "CPU lacks" in err, err
    out, err = ifma.run(["backend"], env={"MONT_ASSUME_CPU": "adx,bmi2,ifma",
                                          "MONT_BACKEND": "ifma"})
    assert (out, err) == (["ifma"], "")
    # IFMA without ADX (not a real CPU): where adx is built, the tier needs it
    assert ifma.lines(["select ifma"], env={"MONT_ASSUME_CPU": "ifma"}) == ["-3" if adx else "0"]


# ---- a toolchain without AVX-512: yasm ------------------------------------------------

YASM_BUILD = BUILD / "yasm"


@pytest.fixture(scope="module")
def yasm_build():
    """libmont from yasm's caps (yasm 1.3 assembles no AVX-512), the kernels
    as nasm-elf assembled by yasm -- the matrix's yasm-elf64 row."""
    if not shutil.which("yasm"):
        pytest.skip("yasm not installed (ci/deps installs it)")
    make(BUILD / "asmcap")
    caps = BUILD / "yasm-caps.json"
    r = subprocess.run([str(BUILD / "asmcap"), "--nasm", "yasm", "--flavour", "elf",
                        "--format", "json", "-o", str(caps)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    features = json.loads(caps.read_text())["features"]
    assert features["avx512ifma"]["status"] != "yes", features["avx512ifma"]
    make(YASM_BUILD / "libmont.a", YASM_BUILD / "mont-harness", build=YASM_BUILD, CAPS=caps,
         MONT_FLAVOUR="nasm-elf", MONT_AS="yasm -f elf64")
    return Harness(YASM_BUILD / "mont-harness")


def audit(lib, expect):
    return subprocess.run([str(BUILD / "asmcap"), "audit", str(lib), "--expect", expect],
                          capture_output=True, text=True, timeout=120)


def test_yasm_builds_without_the_tier(yasm_build, rng, tmp_path):
    assert "#define MONT_HAVE_IFMA" not in (YASM_BUILD / "mont-kernels.h").read_text()
    # into a file of the test's own: run with its stdout closed, objcopy
    # (as root) made /dev/stdout a regular file, for every later test
    text = tmp_path / "text.bin"
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.text",
                    str(YASM_BUILD / "mont" / "mont-ifma.o"), str(text)],
                   capture_output=True, timeout=60, check=True)
    code = text.read_bytes()
    assert code and b"\x62" not in code, "EVEX bytes in a build whose caps say no"
    r = audit(YASM_BUILD / "libmont.a", "avx512ifma")
    assert r.returncode == 1 and "expected avx512ifma" in r.stderr, r.stderr
    assert yasm_build.lines(["select ifma"], env={"MONT_ASSUME_CPU": "adx,bmi2,ifma"}) == ["-2"]
    cmds, want = [], []
    for num in (4, 16, 32):
        args, r1, r2, m1, _ = pair(rng, num, num, 1)
        cmds += [f"modexp2 {num} {args}", f"modexp {m1}"]
        want += [f"0 {r1} {r2}", f"0 {r1}"]
    assert yasm_build.lines(cmds) == want


def test_audit_finds_ifma_in_the_default_build(ifma):
    """The control: the same audit finds the tier where the caps said yes
    (512-bit code: the audit files it under avx512f, not avx512vl)."""
    make(BUILD / "libmont.a")
    r = audit(BUILD / "libmont.a", "avx512ifma,avx512f")
    assert r.returncode == 0, r.stderr
