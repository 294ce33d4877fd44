# SPDX-License-Identifier: MIT
"""The IFMA kernels of perlasm/x86_64-ifma.pl on their own: every kernel
against Python integers (r = a*b/2^(52L) mod n, r < 2n, 52-bit limbs, r
aliasing a or b), the 8-lane squaring of perlasm/x86_64-ifma-mb.pl the
same way at every L the batch uses, every flavour assembled by its
assembler, no EVEX byte
when the caps say no to avx512ifma or avx512vl, and a static check that
the generated code has no branch but the loop counter's and no address
computed from data (with a leaky control the check must reject)."""
import ctypes
import json
import os
import pathlib
import random
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT

GEN = ROOT / "perlasm" / "x86_64-ifma.pl"
# the 8-lane kernels of mont_modexp_batch: the same checks of flavours, caps
# and constant time
GEN_MB = ROOT / "perlasm" / "x86_64-ifma-mb.pl"
# KERNELS_CAPS: another toolchain's caps (ci/matrix), as in test_kernels.py
CAPS = pathlib.Path(os.environ.get("KERNELS_CAPS", BUILD / "caps.json"))
M52 = (1 << 52) - 1


def gen(args, generator=GEN):
    p = subprocess.run(["perl", str(generator), *map(str, args)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def caps_with(tmp_path, **status):
    """build/caps.json with some features' status replaced."""
    caps = json.loads(CAPS.read_text())
    for name, st in status.items():
        caps["features"][name]["status"] = st
    out = tmp_path / ("caps-" + "-".join(f"{k}-{v}" for k, v in status.items()) + ".json")
    out.write_text(json.dumps(caps))
    return out


def header_ints(header):
    return {k: int(v) for k, v in re.findall(r"#define (MONTK_IFMA_\w+) (\d+)", header)}


@pytest.fixture(scope="module")
def has_ifma():
    if "#define MONT_HAVE_IFMA" not in gen(["--header", CAPS]):
        pytest.skip("the default toolchain's caps say no to avx512ifma/avx512vl")


def cpu_runs_ifma():
    flags = open("/proc/cpuinfo").read()
    return all(f" {f}" in flags for f in ("avx512f", "avx512ifma", "avx512vl"))


def shared_object(tmp, generator, wrap):
    """The generator's kernels in a shared object, reached through the
    exported wrappers of `wrap` (the kernels themselves are hidden)."""
    if not cpu_runs_ifma():
        pytest.skip("this CPU lacks AVX-512 IFMA/VL")
    (tmp / "mont-kernels.h").write_text(gen(["--header", CAPS], generator))
    (tmp / "ifma.s").write_text(gen(["elf", CAPS], generator))
    (tmp / "wrap.c").write_text(
        "#include <stddef.h>\n#include <stdint.h>\n#include \"mont-kernels.h\"\n"
        "#define API __attribute__((visibility(\"default\")))\n" + wrap)
    so = tmp / "ifma.so"
    subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    "-fvisibility=hidden", f"-I{tmp}", "-o", str(so), str(tmp / "wrap.c"),
                    str(tmp / "ifma.s")], check=True, timeout=120)
    return ctypes.CDLL(str(so)), header_ints((tmp / "mont-kernels.h").read_text())


@pytest.fixture(scope="module")
def lib(tmp_path_factory, has_ifma):
    """The kernels of x86_64-ifma.pl, through wrappers built from the
    header's tables."""
    return shared_object(tmp_path_factory.mktemp("ifma"), GEN,
        "API void one(int k, uint64_t *r, const uint64_t *a, const uint64_t *b,\n"
        "             const uint64_t *n, uint64_t k0, size_t L)\n"
        "{ static montk_amm_fn *const t[] = MONTK_IFMA_X1; t[k - 1](r, a, b, n, k0, L); }\n"
        "API void onef(int k, uint64_t *r, const uint64_t *a, const uint64_t *b,\n"
        "              const uint64_t *n, uint64_t k0, size_t L)\n"
        "{ static montk_amm_fn *const t[] = MONTK_IFMA_X1F; t[k - 1](r, a, b, n, k0, L); }\n"
        "API void packed(int k, uint64_t *r, const uint64_t *a, const uint64_t *b,\n"
        "                const uint64_t *n, const uint64_t *k0, size_t L)\n"
        "{ static montk_amm2_fn *const t[] = MONTK_IFMA_X2P; t[k - 1](r, a, b, n, k0, L); }\n"
        "API void sqr1(int k, uint64_t *r, const uint64_t *a, const uint64_t *n,\n"
        "              uint64_t k0, size_t L)\n"
        "{ static montk_amm_fn *const t[] = MONTK_IFMA_X1SQR;\n"
        "  t[k - MONTK_IFMA_X1SQR_KMIN](r, a, a, n, k0, L); }\n"
        "API void sqr(int k, uint64_t *r, const uint64_t *a, const uint64_t *n,\n"
        "             const uint64_t *k0, size_t L)\n"
        "{ static montk_amm2_fn *const t[] = MONTK_IFMA_X2PSQR;\n"
        "  t[k - MONTK_IFMA_X2PSQR_KMIN](r, a, a, n, k0, L); }\n"
        "API void sqr2b(int k, uint64_t *r, const uint64_t *a, const uint64_t *n,\n"
        "               const uint64_t *k0, size_t L)\n"
        "{ static montk_amm2_fn *const t[] = MONTK_IFMA_X2PAMS;\n"
        "  t[k - MONTK_IFMA_X2PAMS_KMIN](r, a, a, n, k0, L); }\n"
        "API void gather(int c, uint64_t *out, const uint64_t *table, size_t entries,\n"
        "                size_t stride, uint64_t idx0, uint64_t idx1)\n"
        "{ static montk_gather_fn *const t[] = MONTK_IFMA_GATHER;\n"
        "  t[c - 1](out, table, entries, stride, idx0, idx1); }\n")


@pytest.fixture(scope="module")
def mb_lib(tmp_path_factory):
    """The 8-lane kernels of x86_64-ifma-mb.pl."""
    if "#define MONT_HAVE_IFMA_MB" not in gen(["--header", CAPS], GEN_MB):
        pytest.skip("the default toolchain's caps say no to avx512ifma/avx512vl")
    so, _ = shared_object(tmp_path_factory.mktemp("ifma-mb"), GEN_MB,
        "API void amm(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t *ctx, size_t L)\n"
        "{ montk_amm52mb(r, a, b, ctx, L); }\n"
        "API void ams(uint64_t *r, const uint64_t *a, uint64_t *ctx, size_t L)\n"
        "{ montk_ams52mb(r, a, ctx, L); }\n")
    return so


def limbs(x, count):
    return [(x >> (52 * i)) & M52 for i in range(count)]


def cases(rng, L):
    """(n, a, b): n odd with 4n <= 2^(52L), a, b < 2n, edges first."""
    top = 52 * L - 2
    ones = (1 << top) - 1
    out = [(ones, 2 * ones - 1, 2 * ones - 1), (ones, 0, 2 * ones - 1), (3, 5, 1),
           ((1 << (top - 1)) + 1, 1, 1)]
    for _ in range(12):
        bits = rng.randint(max(2, top - 70), top)
        n = rng.getrandbits(bits) | 1 | 1 << (bits - 1)
        out.append((n, rng.randrange(2 * n), rng.randrange(2 * n)))
    return out


def cases_prime(rng, L, digits=1):
    """(n', a, b) for the kernels of a modulus n' = -1 mod 2^(52 digits)
    (what mont_modexp gives them: 2 where the rows take two digits a trip):
    n' = n*mu, mu = -n^-1 mod 2^(52 digits), 4n' <= 2^(52L), a, b < 2n';
    edges first: the all-ones n' (mu = 1: with two digits n'' = (n'+1) /
    2^104 carries through every limb), the largest and smallest n' of n
    with its top bit 52 digits bits below n''s room, n = 3."""
    top, d = 52 * L - 2, 52 * digits
    out = [((1 << top) - 1, 2 * ((1 << top) - 1) - 1, 1)]
    ns = [(1 << (top - d)) - 1, (1 << (top - d - 1)) + 1, 3]
    ns += [rng.getrandbits(top - d) | 1 | 1 << (top - d - 1) for _ in range(10)]
    for n in ns:
        p = n * ((-pow(n, -1, 1 << d)) % (1 << d))
        assert p % (1 << d) == (1 << d) - 1 and 4 * p <= 1 << (52 * L)
        out.append((p, rng.randrange(2 * p), 2 * p - 1))
    return out


def check(r, n, a, b, L):
    assert all(x <= M52 for x in r), "a limb of r is not normalised"
    v = sum(x << (52 * i) for i, x in enumerate(r))
    assert v < 2 * n and v % n == a * b * pow(1 << (52 * L), -1, n) % n


def side_by_side(values, span):
    """The numbers one after the other, span limbs each."""
    return sum((limbs(v, span) for v in values), [])


def interleaved(values, span):
    """Two numbers limb by limb: limb t of the first at 2t, of the second at 2t + 1."""
    return [x for pair in zip(*(limbs(v, span) for v in values)) for x in pair]


@pytest.mark.parametrize("alias", ["none", "ra", "rb"])
def test_kernels_against_python(lib, alias):
    """Every product kernel at the edges of its L (smallest, 3 below the
    most, the most), both numbers of a pair with their own moduli and k0."""
    so, h = lib
    rng = random.Random(52)
    U64 = ctypes.c_uint64
    for ways, lanes, kmax, fn, layout, make in (
            (1, h["MONTK_IFMA_LANES"], h["MONTK_IFMA_KMAX"], so.one, side_by_side, cases),
            (1, h["MONTK_IFMA_LANES"], h["MONTK_IFMA_X1F_KMAX"], so.onef, side_by_side, cases_prime),
            (2, h["MONTK_IFMA_X2P_LANES"], h["MONTK_IFMA_X2P_KMAX"], so.packed, interleaved, cases)):
        # n' needs 104 bits more than n: from 3 limbs (n = 3 and 2 bits)
        least = 2 + (make is cases_prime)
        for k in range(1, kmax + 1):
            span = k * lanes                 # limbs per number; L of them its own
            Ls = {max(least, span - lanes + 1), max(least, span - 3), span}
            digits = 1
            if make is cases_prime and k == h["MONTK_IFMA_X1F_PAIR_K"]:
                Ls = {min(L + L % 2, span - 2) for L in Ls}   # two digits a trip
                digits = 2
            for L in sorted(Ls):
                made = (lambda: cases_prime(rng, L, digits)) if make is cases_prime else (lambda: cases(rng, L))
                for i, _ in enumerate(made()):
                    sets = [made()[i] for _ in range(ways)]
                    a = (U64 * (ways * span))(*layout([s[1] for s in sets], span))
                    b = (U64 * (ways * span))(*layout([s[2] for s in sets], span))
                    # the two-digit kernel reads n'' = (n' + 1)/2^104 in n''s place
                    n = (U64 * (ways * span))(*layout([s[0] if digits == 1 else (s[0] + 1) >> 104
                                                       for s in sets], span))
                    k0 = [(-pow(s[0], -1, 1 << 52)) % (1 << 52) for s in sets]
                    assert make is cases or k0 == [1]
                    # r starts as junk where it is not an input
                    r = {"none": (U64 * (ways * span))(*[M52] * (ways * span)), "ra": a,
                         "rb": b}[alias]
                    fn(k, r, a, b, n, U64(k0[0]) if ways == 1 else (U64 * 2)(*k0), L)
                    out = list(r)
                    for w, (nn, aa, bb) in enumerate(sets):
                        mine = out[w::2] if layout is interleaved else out[w * span:(w + 1) * span]
                        check(mine[:L], nn, aa, bb, L)
                        assert mine[L:] == [0] * (span - L), "limbs past L not 0"


@pytest.mark.parametrize("alias", ["none", "ra"])
@pytest.mark.parametrize("tab", ["X1SQR", "X2PSQR", "X2PAMS"])
def test_squares_against_python(lib, tab, alias):
    """montk_ams52_K and the packed montk_sqr52x2p_K and montk_ams52x2p_K
    (b = a) at every L they take (8K-7..8K, 4K-3..4K limbs): n from near R/4 down, a up to
    2n-1 (every limb's bit 51 set in the all-ones edge, so 2a carries into
    every block's first limb), a pair's two numbers with different moduli,
    r aliasing a or not."""
    so, h = lib
    ways = 1 if tab == "X1SQR" else 2
    rng = random.Random(len(tab) + ways)
    U64 = ctypes.c_uint64
    lanes = h["MONTK_IFMA_LANES" if ways == 1 else "MONTK_IFMA_X2P_LANES"]
    fn = {"X1SQR": so.sqr1, "X2PSQR": so.sqr, "X2PAMS": so.sqr2b}[tab]
    kmin, kmax = h[f"MONTK_IFMA_{tab}_KMIN"], h[f"MONTK_IFMA_{tab}_KMAX"]
    assert kmin <= kmax <= h["MONTK_IFMA_KMAX" if ways == 1 else "MONTK_IFMA_X2P_KMAX"]
    layout = side_by_side if ways == 1 else interleaved
    for k in range(kmin, kmax + 1):
        span = k * lanes
        for L in range(span - lanes + 1, span + 1):
            for sets in zip(cases(rng, L), reversed(cases(rng, L))):
                sets = sets[:ways]
                a = (U64 * (ways * span))(*layout([s[1] for s in sets], span))
                n = (U64 * (ways * span))(*layout([s[0] for s in sets], span))
                k0 = [(-pow(s[0], -1, 1 << 52)) % (1 << 52) for s in sets]
                r = a if alias == "ra" else (U64 * (ways * span))(*[M52] * (ways * span))
                fn(k, r, a, n, U64(k0[0]) if ways == 1 else (U64 * 2)(*k0), L)
                out = list(r)
                for w, (nn, aa, _) in enumerate(sets):
                    mine = out[w::2] if ways == 2 else out
                    check(mine[:L], nn, aa, aa, L)
                    assert mine[L:] == [0] * (span - L), "limbs past L not 0"


def test_gather_against_python(lib):
    """montk_gather52_C copies entry idx0 (C*8 limbs of it), the odd limbs
    from entry idx1, whatever the count, stride and position, and nothing
    past C*8 limbs of out."""
    so, h = lib
    rng = random.Random(8)
    U64 = ctypes.c_uint64
    for c in range(1, h["MONTK_IFMA_GATHER_CMAX"] + 1):
        for entries, extra in ((1, 0), (2, 8), (16, 0), (32, 16), (64, 8)):
            stride = 8 * c + extra                   # limbs between entries
            words = [rng.getrandbits(64) for _ in range(entries * stride)]
            # 64-byte aligned views: ctypes arrays are only 16-byte aligned
            buf = (U64 * (entries * stride + 8))()
            tab = (ctypes.addressof(buf) + 63) // 64 * 64
            ctypes.memmove(tab, (U64 * len(words))(*words), 8 * len(words))
            picks = {0, entries - 1, rng.randrange(entries)}
            for idx0, idx1 in [(i, i) for i in picks] + [(i, rng.randrange(entries)) for i in picks]:
                obuf = (U64 * (8 * c + 16))()
                out = (ctypes.addressof(obuf) + 63) // 64 * 64
                ctypes.memset(out, 0xa5, 8 * (8 * c + 8))
                so.gather(c, ctypes.c_void_p(out), ctypes.c_void_p(tab), ctypes.c_size_t(entries),
                          ctypes.c_size_t(8 * stride), U64(idx0), U64(idx1))
                got = list((U64 * (8 * c + 8)).from_address(out))
                want = [words[(idx1 if j % 2 else idx0) * stride + j] for j in range(8 * c)]
                assert got[:8 * c] == want, (c, entries, idx0, idx1)
                assert got[8 * c:] == [0xa5a5a5a5a5a5a5a5] * 8, "wrote past C*8 limbs"


def lanes(values, L):
    """Eight numbers lane-wise: limb j of lane k at index 8j + k."""
    return [limbs(values[k], L)[j] for j in range(L) for k in range(8)]


@pytest.mark.parametrize("alias", ["none", "ra"])
def test_mb_square_against_python(mb_lib, alias):
    """montk_ams52mb, the 8-lane squaring, at every L the batch uses (4..80,
    even): r = a^2/2^(52L) mod n per lane, r < 2n, normalised limbs, r
    aliasing a; a different modulus and base per lane, the all-ones edges
    (every limb with bit 51 set: the carries of 2a) among them. Then
    montk_amm52mb(a, a) beside it on the same ctx: the two layouts agree."""
    rng = random.Random(27)
    U64 = ctypes.c_uint64
    for L in range(4, 81, 2):
        pool = cases(rng, L)
        for first in range(0, len(pool), 8):
            sets = [pool[(first + k) % len(pool)] for k in range(8)]
            buf = (U64 * (32 * (L + 2) + 8 * L * 3 + 8))()
            base = (ctypes.addressof(buf) + 63) // 64 * 64
            ctx = (U64 * (32 * (L + 2))).from_address(base)
            a = (U64 * (8 * L)).from_address(base + 8 * 32 * (L + 2))
            r = (U64 * (8 * L)).from_address(base + 8 * (32 * (L + 2) + 8 * L))
            a[:] = lanes([s[1] for s in sets], L)
            for k, (n, _, _) in enumerate(sets):
                ctx[k] = (-pow(n, -1, 1 << 52)) % (1 << 52)
                for j, x in enumerate(limbs(n, L)):
                    ctx[32 * (j + 1) + 8 + k] = x
            for fn, args in ((mb_lib.ams, (a, ctx)), (mb_lib.amm, (a, a, ctx))):
                r[:] = [M52] * (8 * L)
                out = a if alias == "ra" and fn == mb_lib.ams else r
                fn(out, *args, ctypes.c_size_t(L))
                got = list(out)
                for k, (n, x, _) in enumerate(sets):
                    check(got[k::8], n, x, x, L)
                if out is a:
                    a[:] = lanes([s[1] for s in sets], L)


# ---- flavours and the caps decision --------------------------------------------------

ASSEMBLE = {   # flavour -> argv before "-o OBJ SRC"
    "elf": ["gcc", "-c", "-x", "assembler"],
    "macosx": ["clang-14", "-target", "x86_64-apple-macos10.15", "-c", "-x", "assembler"],
    "mingw64": ["x86_64-w64-mingw32-as"],
    "nasm": ["nasm", "-f", "win64"],
    "nasm-elf": ["nasm", "-f", "elf64"],
}
OBJDUMP = {"elf": "objdump", "nasm-elf": "objdump", "mingw64": "x86_64-w64-mingw32-objdump",
           "nasm": "x86_64-w64-mingw32-objdump", "macosx": "llvm-objdump-14"}


def assemble(flavour, caps, tmp_path, generator=GEN):
    if not shutil.which(ASSEMBLE[flavour][0]):
        pytest.skip(f"{ASSEMBLE[flavour][0]} not installed (ci/deps installs it)")
    src = tmp_path / f"{generator.stem}-{flavour}.{'asm' if flavour.startswith('nasm') else 's'}"
    src.write_text(gen([flavour, caps], generator))
    obj = tmp_path / f"{generator.stem}-{flavour}.o"
    p = subprocess.run([*ASSEMBLE[flavour], "-o", str(obj), str(src)], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr[:2000]
    return src, obj


def disassembly(flavour, obj):
    """Instruction text per function, addresses and bytes stripped."""
    out = subprocess.run([OBJDUMP[flavour], "-d", "--no-show-raw-insn", str(obj)],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    # jump targets: the address stays, the symbol naming it differs
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]*>", "", line.split(":", 1)[1])).strip()
            for line in out.splitlines() if re.match(r"\s+[0-9a-f]+:\s", line)]


def functions(flavour, obj):
    """{function: [instruction text]} (objdump's symbol lines split them;
    the local labels nasm keeps, L$..., do not)."""
    out = subprocess.run([OBJDUMP[flavour], "-d", "--no-show-raw-insn", str(obj)],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    fns, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>+]+)>:$", line)
        if m and not m.group(1).startswith("L$"):
            cur = fns.setdefault(m.group(1), [])
        elif cur is not None and re.match(r"\s+[0-9a-f]+:\s", line):
            cur.append(re.sub(r"\s+", " ", line.split(":", 1)[1]).strip())
    return fns


@pytest.mark.parametrize("generator, madds", [(GEN, 100), (GEN_MB, 4)], ids=["x1", "mb"])
@pytest.mark.parametrize("flavour", sorted(ASSEMBLE))
def test_every_flavour_assembles(has_ifma, flavour, tmp_path, generator, madds):
    src, obj = assemble(flavour, CAPS, tmp_path, generator)
    insns = disassembly(flavour, obj)
    assert sum("vpmadd52luq" in i for i in insns) > madds
    # vector registers 6-15 (callee-saved on Win64): only the products
    # hold a there (the pair squares n), and the Win64 flavours save and
    # restore them
    for name, body in functions(flavour, obj).items():
        used = sorted({int(r) for i in body for r in re.findall(r"%[xyz]mm([6-9]|1[0-5])\b", i)
                       if not i.startswith("movups")})
        if not used:
            continue
        assert re.fullmatch(r"_?montk_(amm52(x2p|f)?|sqr52x2p|ams52(x2p)?)_\d+", name), (name, used)
        if flavour in ("mingw64", "nasm"):
            saved = [int(m) for i in body for m in re.findall(r"movups %xmm(\d+),0x[0-9a-f]+\(%rsp\)", i)]
            restored = [int(m) for i in body for m in re.findall(r"movups 0x[0-9a-f]+\(%rsp\),%xmm(\d+)", i)]
            assert saved == restored == used, (name, saved, restored, used)
    if flavour in ("mingw64", "nasm"):
        assert ".pdata" in src.read_text() or "pdata" in src.read_text()


@pytest.mark.parametrize("generator", [GEN, GEN_MB], ids=["x1", "mb"])
def test_nasm_elf_same_code_as_elf(has_ifma, tmp_path, generator):
    _, elf = assemble("elf", CAPS, tmp_path, generator)
    _, nasm = assemble("nasm-elf", CAPS, tmp_path, generator)
    a, b = disassembly("elf", elf), disassembly("nasm-elf", nasm)
    # the same instructions; nasm may pick other NOP padding
    strip = lambda xs: [x for x in xs if not x.startswith(("nop", "xchg %ax,%ax", "data16", "cs nop"))]
    assert strip(a) == strip(b)


def text_section(obj, tmp_path):
    out = tmp_path / (obj.name + ".text")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.text", str(obj), str(out)],
                   check=True, timeout=60)
    return out.read_bytes()


@pytest.mark.parametrize("generator", [GEN, GEN_MB], ids=["x1", "mb"])
@pytest.mark.parametrize("no", ["avx512ifma", "avx512vl", "avx512f"])
def test_no_evex_when_caps_say_no(no, tmp_path, generator):
    """Caps saying no to avx512ifma, or to what it needs, give no kernels:
    a lone ret in every flavour and no MONT_HAVE_IFMA(_MB) in the header."""
    caps = caps_with(tmp_path, **{no: "no"})
    header = gen(["--header", caps], generator)
    assert "#define MONT_HAVE_IFMA" not in header and "#undef MONT_HAVE_IFMA" in header
    for flavour in ASSEMBLE:
        text = gen([flavour, caps], generator)
        assert not re.search(r"\bv\w+|%[xyz]mm|\b[xyz]mm\d", text), f"{flavour}: vector code"
    _, obj = assemble("elf", caps, tmp_path, generator)
    code = text_section(obj, tmp_path)
    assert code and b"\x62" not in code and code.rstrip(b"\x00\x90") == b"\xc3"


@pytest.mark.parametrize("generator, evex", [(GEN, 100), (GEN_MB, 40)], ids=["x1", "mb"])
def test_evex_when_caps_say_yes(has_ifma, tmp_path, generator, evex):
    """The control for the test above: the same byte check finds EVEX."""
    _, obj = assemble("elf", CAPS, tmp_path, generator)
    assert text_section(obj, tmp_path).count(b"\x62") > evex


# ---- static constant-time check ------------------------------------------------------

GPR = re.compile(r"%(r[a-d]x|r[sd]i|r[sb]p|r\d+)[dwb]?\b|%(e[a-d]x|e[sd]i)\b")


def canon(reg):
    """%eax -> rax, %r9d -> r9."""
    m = re.fullmatch(r"%?e([a-d]x|[sd]i|[sb]p)", reg)
    if m:
        return "r" + m.group(1)
    return re.sub(r"^%|[dwb]$", "", reg) if re.fullmatch(r"%?r\d+[dwb]?", reg) else reg.lstrip("%")


def operands(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    return [p for p in parts + [cur.strip()] if p]


def ct_violations(asm):
    """Taint check over AT&T text, one function after another: a general
    register is tainted once written from data (memory, a vector or mask
    register, or a tainted register); no tainted register may form an
    address, and every conditional jump must follow a `dec` of an untainted
    register (the loop counter). The loop body is straight line: two passes
    carry the taint round the back edge."""
    bad = []
    for fn in re.split(r"\n(?=[A-Za-z_]\w*:\n)", asm):
        insns, loop = [], None   # loop: where the first local label (the loop) starts
        for line in fn.splitlines():
            if re.match(r"\.L\w+:", line) and loop is None:
                loop = len(insns)
            elif line.startswith("\t") and not line.strip().startswith("."):
                insns.append(line.split("#")[0].strip())
        backedge = set()
        for start, tainted in ((0, set()), (loop, None)):
            if start is None:
                break
            tainted = set(backedge) if tainted is None else tainted
            last_flags = None
            for ins in filter(None, insns[start:]):
                mn, _, rest = ins.partition("\t")
                if mn.startswith("ret"):
                    break
                ops = operands(rest)
                for o in ops:
                    m = re.search(r"\((.*)\)", o)
                    if m and {canon(r) for r in re.findall(r"%\w+", m.group(1))} & tainted:
                        bad.append(f"data-dependent address: {ins}")
                if mn.startswith("j") and mn != "jmp":
                    if last_flags is None:
                        bad.append(f"conditional branch on data: {ins}")
                    backedge |= tainted
                    continue
                if mn.startswith(("cmov", "set")):
                    bad.append(f"data-dependent select in a GPR: {ins}")
                    continue
                dst = canon(ops[-1]) if ops and GPR.fullmatch(ops[-1]) else None
                srcs = ops[:-1] if mn not in ("dec", "inc", "neg", "not") else ops
                data = any("(" in o or re.match(r"%[xyzk]", o) or
                           (GPR.fullmatch(o) and canon(o) in tainted) for o in srcs)
                if mn in ("add", "adc", "sub", "sbb", "and", "or", "shl", "shr", "shld",
                          "imul") and dst in tainted:
                    data = True
                if mn == "xor" and len(ops) == 2 and ops[0] == ops[1]:
                    data = False                     # zeroing
                if mn == "lea":
                    data = any(canon(r) in tainted for r in re.findall(r"%\w+", ops[0]))
                if dst:
                    (tainted.add if data else tainted.discard)(dst)
                if mn in ("dec", "inc", "sub", "sbb", "cmp", "test", "add", "adc", "and", "or",
                          "xor", "shl", "shr", "shld", "neg"):
                    last_flags = None if data else ins
    return sorted(set(bad))


@pytest.mark.parametrize("generator, madds", [(GEN, 100), (GEN_MB, 4)], ids=["x1", "mb"])
def test_static_constant_time(has_ifma, generator, madds):
    asm = gen(["elf", CAPS], generator)
    assert asm.count("vpmadd52luq") > madds
    assert ct_violations(asm) == []


def test_static_check_catches_leaks():
    """Controls: a table lookup indexed by a secret, and a branch on one."""
    lookup = ("f:\n\tvmovq\t%xmm0,%rax\n\tand\t$31,%rax\n\tmov\t(%rsi,%rax,8),%rdx\n\tret\n")
    branch = ("f:\n\tvmovq\t%xmm0,%rax\n\ttest\t%rax,%rax\n\tjz\t.L1\n.L1:\n\tret\n")
    loop = ("f:\n\tmov\t$5,%r9d\n.L1:\n\tvpaddq\t%ymm0,%ymm1,%ymm1\n\tdec\t%r9d\n\tjnz\t.L1\n\tret\n")
    assert any("address" in v for v in ct_violations(lookup))
    assert any("branch" in v for v in ct_violations(branch))
    assert ct_violations(loop) == []


# ---- the generator's counts per product ----------------------------------------------

def count_tables(header):
    """MONTK_IFMA_X1_COUNTS / X1F / X2P / X2PSQR / X1SQR / X2PAMS -> {kernel name: (madd[3],
    insns[3], peeled, step)}."""
    out = {}
    first = {t: header_ints(header)[f"MONTK_IFMA_{t}_KMIN"] for t in ("X2PSQR", "X1SQR", "X2PAMS")}
    for tab, prefix in (("X1", "montk_amm52_"), ("X1F", "montk_amm52f_"),
                        ("X2P", "montk_amm52x2p_"), ("X2PSQR", "montk_sqr52x2p_"),
                        ("X1SQR", "montk_ams52_"), ("X2PAMS", "montk_ams52x2p_")):
        body = re.search(rf"#define MONTK_IFMA_{tab}_COUNTS \{{(.*)\}}\n", header).group(1)
        rows = re.findall(r"\{\{(\d+), (\d+), (\d+)\}, \{(\d+), (\d+), (\d+)\}, (\d+), (\d+)\}",
                          body)
        for k, row in enumerate(rows, first.get(tab, 1)):
            v = list(map(int, row))
            out[f"{prefix}{k}"] = (v[0:3], v[3:6], v[6], v[7])
    return out


def kernel_parts(obj):
    """objdump's instructions of each montk_amm52*, montk_sqr52* and montk_ams52* symbol,
    cut at the row loop (from its last backward jump's target to the jump):
    before, loop, after; a loop before it (a single square's blocks) counts
    in before as often as it runs, the count moved into its counter just
    before it; the alignment padding after the ret is not the kernel's."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    parts = {}
    for name, body in re.findall(r"<(montk_(?:amm|sqr|ams)52\w*)>:\n(.*?)(?=\n\n|\Z)", out, re.S):
        insns = [(int(a, 16), i.strip()) for a, i in
                 re.findall(r"^\s+([0-9a-f]+):\s+(.*)$", body, re.M)]
        ret = max(n for n, (_, i) in enumerate(insns) if i == "ret")
        insns = insns[:ret + 1]
        jumps = [(n, int(i.split()[1], 16)) for n, (_, i) in enumerate(insns)
                 if i.startswith("jne")]
        assert len(jumps) == 1 or "ams52" in name, (name, jumps)
        addrs = [a for a, _ in insns]
        at, target = jumps[-1]
        start = addrs.index(target)
        before = [i for _, i in insns[:start]]
        for j, t in jumps[:-1]:
            first = addrs.index(t)
            trips = re.fullmatch(r"mov\s+\$0x(\w+),%r11d", insns[first - 1][1])
            assert trips, (name, insns[first - 1])
            before += [i for _, i in insns[first:j + 1]] * (int(trips.group(1), 16) - 1)
        parts[name] = [before, [i for _, i in insns[start:at + 1]], [i for _, i in insns[at + 1:]]]
    return parts


def test_counts_match_the_object(has_ifma, tmp_path):
    """The header's VPMADD52 and instruction counts (the generator's own
    bookkeeping, which montbench multiplies out per product) are objdump's
    count of the assembled kernel, part by part: before the row loop, one
    trip of it, after it."""
    counts = count_tables(gen(["--header", CAPS]))
    _, obj = assemble("elf", CAPS, tmp_path)
    parts = kernel_parts(obj)
    assert set(parts) == set(counts) and len(counts) > 10
    pair = f"montk_amm52f_{header_ints(gen(['--header', CAPS]))['MONTK_IFMA_X1F_PAIR_K']}"
    for name, (madd, insns, peeled, step) in counts.items():
        got = parts[name]
        assert [len(p) for p in got] == insns, name
        assert [sum(i.startswith("vpmadd52") for i in p) for p in got] == madd, name
        # a row: lo and hi of a*b_i (not in a square's rows) and of n*m in each of
        # K registers, and m (a packed pair's two numbers share them; none for
        # n = -1 mod 2^52, where m is X itself)
        K = int(name.rsplit("_", 1)[1])
        assert step == (2 if name == pair else 1), name
        if name == pair:
            # a trip: two rows' a*b and n''*m, 8K; the last trip peeled
            assert madd[1] == 8 * K and peeled == 2 and madd[0] == 3 * K and madd[2] == 5 * K, name
            continue
        if "ams52" in name:
            # its loop: the last block's rows (P of them, the limbs of a number
            # a register), whose a*b products are the top register's; per product
            # at L = PK, 2 (K - B) of them in each row of block B, lo and hi of n*m
            # in every register, m
            P = 4 if "x2p" in name else 8
            assert madd[1] == 2 * K + 3 and peeled == P * K - P + 1, name
            total = madd[0] + (P * K - peeled) * madd[1] + madd[2]
            assert total == P * K * (K + 1) + 2 * P * K * K + P * K, name
            continue
        assert madd[1] == (2 if "sqr" in name else 4) * K + ("52f_" not in name), name
        # VPMADD52 after the loop (the normalisation has none) are a row run outside
        # it; a square's first 4K-4 rows run before it, unrolled (pre's VPMADD52 are
        # theirs and the square's, which counts 4K^2+10K give or take the edges)
        if "sqr" in name:
            assert peeled == 4 * K - 4 and madd[2] == 0, name
            assert 4 * K * K < madd[0] - peeled * madd[1] < 4 * K * K + 12 * K, name
        else:
            assert peeled == (madd[2] > 0), name
