# SPDX-License-Identifier: MIT
"""Structure of every template: keys, bytes, CPUID bits, audit patterns,
nasm and MASM bodies; and the catalog's bytes against real assemblers (no asmcap)."""
import concurrent.futures
import glob
import re
import subprocess

import pytest

import audit_patterns as ap
import catalog_files as cf
import toolchains as tcs
from conftest import need_tool

KNOWN = {"feature", "summary", "requires", "cpuid", "xcr0", "expect", "since",
         "audit", "formats", "section", "nasm", "masm", "cost"}
# Features expected in each arch directory: a lost file is a lost feature.
X86_64 = ("bmi1 bmi2 adx movbe aesni pclmul sha avx avx2 fma avx512f avx512bw "
          "avx512vl avx512dq avx512ifma avx512vbmi vaes vpclmulqdq gfni avxvnni "
          "avxifma sha512 sm3 sm4 rdrand rdseed cet cfi seh gnu-property xop ssse3 sse4.1 "
          "sse4.2 shstk vaes512 vpclmulqdq512 avx-aes avx-pclmul waitpkg intel-syntax "
          "elf-directives avx512vnni avx512vbmi2 avx512bitalg avx512vpopcntdq fma4 mmxext "
          "amx-tile amx-fp16 amx-complex amx-movrs avxvnniint8 avxvnniint16 avxneconvert "
          "cmpccxadd prefetchi usermsr movrs altmacro macro-vararg apx-f apx-ccmp avx10.1-256 "
          "avx10.1-512 avx10.2 amx-fp8 amx-tf32 amx-avx512").split()
# Win64 unwind has no 32-bit form; AMX, CMPccXADD, PREFETCHI (RIP-relative),
# USER_MSR, MOVRS and APX are 64-bit-mode only; the 32-bit forms of
# AVX-VNNI-INT16, AVX10.1 and AVX10.2 are not written yet.
X86_64_ONLY = {"seh", "amx-tile", "amx-fp16", "amx-complex", "amx-movrs", "avxvnniint16",
               "cmpccxadd", "prefetchi", "usermsr", "movrs", "apx-f", "apx-ccmp", "avx10.1-256",
               "avx10.1-512", "avx10.2", "amx-fp8", "amx-tf32", "amx-avx512"}
I386 = [f for f in X86_64 if f not in X86_64_ONLY]
DIRECTIVES = {"cfi", "seh", "gnu-property"}
# assembler syntax, checked by the bytes in .text; no CPU feature, no audit
SYNTAX = {"intel-syntax", "elf-directives"}
# GNU macro language (.altmacro, :vararg), checked by the expansion's bytes
# in .text like SYNTAX; no CPU feature, no audit
MACRO = {"altmacro", "macro-vararg"}
SYNTAX |= MACRO
VEX_ONLY = {"avxvnni", "avxifma", "sha512", "sm3", "sm4", "avxvnniint8", "avxvnniint16"}
# {vex}: AVX10.2 gives these EVEX twins
VEX_PREFIXED = {"avxvnni", "avxifma", "avxvnniint8", "avxvnniint16"}
NO_NASM = {"avxvnni", "cfi", "seh", "intel-syntax", "elf-directives", *MACRO, "amx-fp16",
           "amx-complex", "amx-movrs", "avxvnniint16", "prefetchi", "usermsr", "movrs",
           "apx-f", "apx-ccmp", "avx10.2", "amx-fp8", "amx-tf32", "amx-avx512"}
# MASM has no CFI directives, no .intel_syntax switch, no ELF directives or notes,
# and its own macro language
NO_MASM = {"cfi", "intel-syntax", "elf-directives", "gnu-property", *MACRO}

ALL = [(arch, name) for arch in cf.ARCHES for name in cf.load(arch)]


def tmpl(arch, name):
    return cf.load(arch)[name]


def test_catalog_is_complete():
    assert sorted(cf.load("x86_64")) == sorted(X86_64)
    assert sorted(cf.load("i386")) == sorted(I386)


def test_no_stray_files():
    for arch in cf.ARCHES:
        for p in glob.glob(str(cf.TEMPLATES / arch / "*")):
            if p.endswith("/c"):
                continue        # the C-level probes (tests/cprobe)
            assert p.endswith((".s", ".nasm", ".masm")), p
            if p.endswith((".nasm", ".masm")):
                assert glob.glob(p[:-5] + ".s"), f"{p} has no .s beside it"


@pytest.mark.parametrize("arch,name", ALL)
def test_header(arch, name):
    t = tmpl(arch, name)
    assert set(t) - {"body", "nasm_body", "masm_file", "path"} <= KNOWN
    assert t["feature"] == name
    for key in ("summary", "since"):
        assert t.get(key), f"{name}: no {key}"
    assert t["expect"], f"{name}: no expect"
    assert t["body"].strip()
    assert not re.search(r"^\s*[#;]", t["body"], re.M), "comments in a body"
    if name in DIRECTIVES:
        assert t.get("section"), f"{name}: a directive is checked through its section"
        assert not t["cpuid"] and "audit" not in t
    elif name in SYNTAX:
        assert not t["cpuid"] and "audit" not in t and "section" not in t
    else:
        assert "section" not in t
        assert t["cpuid"] and t.get("audit"), f"{name}: needs cpuid and audit"


@pytest.mark.parametrize("arch,name", ALL)
def test_expect_bytes(arch, name):
    t = tmpl(arch, name)
    if t["expect"] == ["nonempty"]:
        assert t.get("section")
        return
    assert len(t["expect"]) <= 4
    seqs = [cf.hexbytes(e) for e in t["expect"]]
    assert len(set(seqs)) == len(seqs), "duplicate expect lines"
    if arch == "i386" and name not in DIRECTIVES | SYNTAX:
        # no REX prefixes (40-4f) in 32-bit mode at an instruction start:
        # every first instruction byte is a legacy prefix, 0f, c4/c5 or 62
        assert all(s[0] not in range(0x40, 0x50) for s in seqs)


def vex_instructions(b):
    """Split register-form VEX instructions: c5 P op modrm | c4 P P op modrm,
    plus ib in map 0F3A.  Fails on anything else."""
    i, out = 0, []
    while i < len(b):
        assert b[i] in (0xc4, 0xc5), f"byte {i} is {b[i]:02x}, not a VEX prefix"
        vmap = b[i + 1] & 0x1f if b[i] == 0xc4 else 1
        n = (3 if b[i] == 0xc4 else 2) + 2 + (vmap == 3)
        assert b[i + n - 1 - (vmap == 3)] >> 6 == 3, "register-form ModRM expected"
        out.append(b[i:i + n])
        i += n
    return out


@pytest.mark.parametrize("arch,name", [a for a in ALL if a[1] in VEX_ONLY])
def test_vex_only_features_expect_vex(arch, name):
    t = tmpl(arch, name)
    lines = t["body"].strip().splitlines()
    for e in t["expect"]:
        assert len(vex_instructions(cf.hexbytes(e))) == len(lines)
    if name in VEX_PREFIXED:     # EVEX twins exist: {vex} forces VEX
        assert all(x.strip().startswith("{vex}") for x in lines)


AVX_STATE = {"avx", "avx2", "fma", "vaes", "vpclmulqdq", "avxvnni", "avxifma",
             "sha512", "sm3", "sm4", "xop", "avx-aes", "avx-pclmul", "fma4", "avxvnniint8",
             "avxvnniint16", "avxneconvert"}
AVX512_STATE = {"vaes512", "vpclmulqdq512", "avx10.1-256", "avx10.1-512", "avx10.2"}
# XTILECFG | XTILEDATA (XCR0 bits 17, 18); AMX-AVX512 also the AVX-512 state
AMX_STATE = {"amx-tile", "amx-fp16", "amx-complex", "amx-movrs", "amx-fp8", "amx-tf32"}
# APX's extended GPR state (XCR0 bit 19)
APX_STATE = {"apx-f", "apx-ccmp"}


@pytest.mark.parametrize("arch,name", ALL)
def test_cpuid_and_xcr0(arch, name):
    t = tmpl(arch, name)
    for line in t["cpuid"]:
        m = re.fullmatch(r"leaf=(\d+|0x8000000[0-9a-f]) subleaf=(\d+) reg=(eax|ebx|ecx|edx) "
                         r"(?:bit=(\d+)|bits=(\d+):(\d+) min=(\d+))", line)
        assert m, line
        assert int(m[4] or m[5]) < 32 and int(m[6] or 0) <= int(m[5] or 0)
    want = (0xe6 if name.startswith("avx512") or name in AVX512_STATE else
            0x6 if name in AVX_STATE else 0x60000 if name in AMX_STATE else
            0x600e6 if name == "amx-avx512" else 0x80000 if name in APX_STATE else None)
    assert (int(t["xcr0"], 0) if "xcr0" in t else None) == want


def cpuid_h_bits():
    """bit_NAME -> (leaf, subleaf, reg, bit) from every installed clang's
    cpuid.h (its comments name leaf, sub-leaf and register); newer wins."""
    def version(p):
        return int(re.search(r"llvm-(\d+)", p)[1])
    bits = {}
    for hdr in sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*/include/cpuid.h"), key=version):
        where = None
        for line in open(hdr):
            m = re.search(r"Features in %(e[abcd]x) for leaf (0x[0-9a-fA-F]+|\d+)(?: sub-leaf (\d+))?",
                          line)
            if m:
                where = (int(m[2], 0), int(m[3] or 0), m[1])
                continue
            m = re.match(r"#define (bit_\w+)\s+(0x[0-9a-fA-F]+)", line)
            if m and where:
                bits[m[1]] = (*where, int(m[2], 16).bit_length() - 1)
    return bits


CPUID_NAMES = {"bmi1": "bit_BMI", "bmi2": "bit_BMI2", "adx": "bit_ADX",
               "movbe": "bit_MOVBE", "aesni": "bit_AESNI", "pclmul": "bit_PCLMULQDQ",
               "sha": "bit_SHA", "avx": "bit_AVX", "avx2": "bit_AVX2", "fma": "bit_FMA",
               "avx512f": "bit_AVX512F", "avx512bw": "bit_AVX512BW",
               "avx512vl": "bit_AVX512VL", "avx512dq": "bit_AVX512DQ",
               "avx512ifma": "bit_AVX512IFMA", "avx512vbmi": "bit_AVX512VBMI",
               "vaes": "bit_VAES", "vpclmulqdq": "bit_VPCLMULQDQ", "gfni": "bit_GFNI",
               "avxvnni": "bit_AVXVNNI", "avxifma": "bit_AVXIFMA", "sha512": "bit_SHA512",
               "sm3": "bit_SM3", "sm4": "bit_SM4", "rdrand": "bit_RDRND",
               "rdseed": "bit_RDSEED", "cet": "bit_IBT", "xop": "bit_XOP", "ssse3": "bit_SSSE3",
               "sse4.1": "bit_SSE41", "sse4.2": "bit_SSE42", "shstk": "bit_SHSTK",
               "vaes512": "bit_VAES", "vpclmulqdq512": "bit_VPCLMULQDQ", "avx-aes": "bit_AESNI",
               "avx-pclmul": "bit_PCLMULQDQ", "waitpkg": "bit_WAITPKG",
               "avx512vnni": "bit_AVX512VNNI", "avx512vbmi2": "bit_AVX512VBMI2",
               "avx512bitalg": "bit_AVX512BITALG", "avx512vpopcntdq": "bit_AVX512VPOPCNTDQ",
               "fma4": "bit_FMA4", "mmxext": "bit_SSE", "amx-tile": "bit_AMXTILE",
               "amx-fp16": "bit_AMXFP16", "amx-complex": "bit_AMXCOMPLEX",
               "avxvnniint8": "bit_AVXVNNIINT8", "avxvnniint16": "bit_AVXVNNIINT16",
               "avxneconvert": "bit_AVXNECONVERT", "cmpccxadd": "bit_CMPCCXADD",
               "prefetchi": "bit_PREFETCHI", "usermsr": "bit_USERMSR", "apx-f": "bit_APXF",
               "apx-ccmp": "bit_APXF"}
# Bits no installed clang's cpuid.h defines yet, from the Intel ISA
# extensions reference (and GCC 15's cpuid.h, which agrees): MOVRS is
# CPUID.(7,1):EAX[31], AMX-MOVRS CPUID.(1EH,1):EAX[8].
MANUAL_BITS = {"movrs": (7, 1, "eax", 31), "amx-movrs": (0x1e, 1, "eax", 8),
               "amx-fp8": (0x1e, 1, "eax", 4), "amx-tf32": (0x1e, 1, "eax", 6),
               "amx-avx512": (0x1e, 1, "eax", 7)}
# AVX10 (CPUID.(7,1):EDX[19], bit_AVX10 in clang's cpuid.h) is enumerated
# further in leaf 24H: EBX[7:0] the version, EBX[17] / EBX[18] 256- / 512-bit
# vectors (the AVX10 architecture specification; GCC's cpuinfo reads the
# version the same way).
AVX10 = {"avx10.1-256": ["leaf=36 subleaf=0 reg=ebx bits=7:0 min=1",
                         "leaf=36 subleaf=0 reg=ebx bit=17"],
         "avx10.1-512": ["leaf=36 subleaf=0 reg=ebx bits=7:0 min=1",
                         "leaf=36 subleaf=0 reg=ebx bit=18"],
         "avx10.2": ["leaf=36 subleaf=0 reg=ebx bits=7:0 min=2"]}


@pytest.mark.parametrize("arch,name", [a for a in ALL if a[1] not in DIRECTIVES | SYNTAX])
def test_cpuid_matches_compiler_header(arch, name):
    if name in MANUAL_BITS:
        leaf, sub, reg, bit = MANUAL_BITS[name]
    elif name in AVX10:
        leaf, sub, reg, bit = cpuid_h_bits()["bit_AVX10"]
    else:
        bits = cpuid_h_bits()
        assert CPUID_NAMES[name] in bits, \
            f"no installed clang cpuid.h defines {CPUID_NAMES[name]} (clang-22 in ci/deps does)"
        leaf, sub, reg, bit = bits[CPUID_NAMES[name]]
    leaf = f"{leaf:#x}" if leaf >= 0x80000000 else leaf      # extended leaves in hex
    assert tmpl(arch, name)["cpuid"] == [f"leaf={leaf} subleaf={sub} reg={reg} bit={bit}",
                                         *AVX10.get(name, [])]


AUDIT_ONE = re.compile(
    r"(?:(?:[0-9a-f]{2}|REX\?) )*[0-9a-f]{2}( /[r0-7])?( i[bwd])?"
    r"|(E?VEX)(\.(128|256|512))?\.(NP|66|F3|F2)\.(0F|0F38|0F3A|MAP[4-7])\.(W0|W1|WIG) [0-9a-f]{2}"
    r"( /[r0-7])?( i[bwd])?"
    r"|XOP\.(08|09|0A)\.(W0|W1|WIG) [0-9a-f]{2} /r( ib)?"
    r"|REX2 \*|(E?VEX)(\.(128|256|512))?\.MAP[4-7] \*")


@pytest.mark.parametrize("arch,name", [a for a in ALL if a[1] not in DIRECTIVES | SYNTAX])
def test_audit_grammar(arch, name):
    t = tmpl(arch, name)
    for alt in t["audit"].split(" ; "):
        m = AUDIT_ONE.fullmatch(alt.strip())
        assert m, f"{name}: bad audit alternative `{alt}'"
        assert not (m[5] == "512" and m[3] == "VEX"), "VEX has no 512-bit form"
        if arch == "i386":
            assert "REX?" not in alt


@pytest.mark.parametrize("arch,name", ALL)
def test_nasm_body_or_none(arch, name):
    t = tmpl(arch, name)
    fmts = cf.formats(t)
    if name in NO_NASM:
        assert t.get("nasm") == "none" and t["nasm_body"] is None
    else:
        assert "nasm" not in t
        assert t["nasm_body"] and t["nasm_body"].strip(), f"{name}: no {name}.nasm"
        assert "%" not in t["nasm_body"] and not re.search(r"^\s*;", t["nasm_body"], re.M)
    assert fmts <= {"elf", "coff", "macho"}


@pytest.mark.parametrize("arch,name", ALL)
def test_masm_body_or_none(arch, name):
    """A MASM body (the .masm file, or the nasm body where MASM reads it
    as is) or `masm: none'; MASM writes hex as 0NNh, so a 0x in a body
    means it needs its own .masm."""
    t = tmpl(arch, name)
    if name in NO_MASM:
        assert t.get("masm") == "none" and t["masm_file"] is None
    else:
        assert "masm" not in t
        body = cf.masm_body(t)
        assert body and body.strip(), f"{name}: no {name}.masm and no nasm body"
        assert "0x" not in body and "%" not in body and not re.search(r"^\s*;", body, re.M), name


INTEL_BODIES = ([(a, n, "nasm") for a, n in ALL if n not in NO_NASM | DIRECTIVES] +
                [(a, n, "masm") for a, n in ALL if n not in NO_MASM | DIRECTIVES])


@pytest.mark.parametrize("arch,name,way", INTEL_BODIES)
def test_intel_body_is_the_same_instructions(arch, name, way, tmp_path):
    """Intel-syntax bodies through LLVM's Intel parser give the expected
    bytes: checks the nasm bodies also where the installed nasm is too old
    to know the mnemonics (SHA512/SM3/SM4 need nasm 2.16.02), and the MASM
    bodies without ml64 (MASM's 0NNh written 0xNN, which the parser reads)."""
    clang = tcs.clang_for(name)
    assert clang, "no clang >= 18 (clang-19 is in ci/deps)"
    t = tmpl(arch, name)
    body = t["nasm_body"] if way == "nasm" else re.sub(r"\b0([0-9a-f]+)h\b", r"0x\1", cf.masm_body(t))
    src = tmp_path / "i.s"
    src.write_text(".intel_syntax noprefix\n" + body)
    obj = tmp_path / "i.o"
    m32 = ["-m32"] if arch == "i386" else []
    r = subprocess.run([clang, *m32, "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = cf.sections(obj)[1][".text"]
    assert got in [cf.hexbytes(e) for e in t["expect"]], got.hex(" ")


# -- the bytes, against real assemblers, without asmcap -------------------

@pytest.fixture(scope="module")
def measured():
    """(toolchain id, arch, feature) -> verdict, for every installed toolchain."""
    jobs = {}
    for tc in tcs.TOOLCHAINS:
        if not tcs.installed(tc):
            continue
        fmt = cf.object_format_of(tc[1], tcs.argv(tc), tc[4])
        assert fmt == tc[5], f"{tc[0]} writes {fmt}, expected {tc[5]}"
        for name, t in cf.load(tc[4]).items():
            jobs[tc[0], name] = (t, tc[1], tcs.argv(tc), fmt)
    # ~600 short assembler runs: a few at a time (they mostly wait on exec)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        futures = {k: pool.submit(cf.verdict, *job) for k, job in jobs.items()}
        return {k: f.result() for k, f in futures.items()}


# What an assembler that took the macro feature's directive and ignored it
# would see: (text taken out of the body, what replaces it)
MACRO_IGNORED = {"altmacro": ("\t.altmacro\n", ""), "macro-vararg": (":vararg", "")}


@pytest.mark.parametrize("arch,name", [a for a in ALL if a[1] in MACRO])
def test_ignored_macro_directive_gives_no_bytes(arch, name):
    """Without .altmacro (or :vararg) the body must not give the bytes on
    any installed toolchain: the bytes show the macro feature at work."""
    t = tmpl(arch, name)
    old, new = MACRO_IGNORED[name]
    assert old in t["body"]
    ignored = {**t, "body": t["body"].replace(old, new)}
    got = {}
    for tc in tcs.TOOLCHAINS:
        if tc[4] == arch and tc[1] in ("cc", "as") and tcs.installed(tc):
            got[tc[0]] = cf.verdict(ignored, tc[1], tcs.argv(tc), tc[5])
    assert got and not [k for k, v in got.items() if v[0] == "yes"], got


@pytest.mark.parametrize("tc", [t for t in tcs.TOOLCHAINS], ids=lambda t: t[0])
def test_real_assembler_verdicts(tc, measured):
    need_tool(tc[2])
    got = {name: measured[tc[0], name][0] for name in cf.load(tc[4])}
    assert got == tcs.expected(tc[0], tc[4]), {
        n: measured[tc[0], n] for n in got if got[n] != tcs.expected(tc[0], tc[4])[n]}


# -- audit patterns recognise their own instructions and nobody else's ------

def snippet_instructions(arch, name):
    t = tmpl(arch, name)
    bits = 32 if arch == "i386" else 64
    return [x for e in t["expect"] for x in ap.decode(cf.hexbytes(e), bits)]


INSN = [a for a in ALL if a[1] not in DIRECTIVES | SYNTAX]


@pytest.mark.parametrize("arch,name", INSN)
def test_audit_recognises_every_snippet_instruction(arch, name):
    audit = tmpl(arch, name)["audit"]
    for x in snippet_instructions(arch, name):
        assert ap.matches(audit, x), f"{name}: audit misses {x['raw'].hex(' ')}"


@pytest.mark.parametrize("arch,name", INSN)
def test_audit_claims_no_other_features_instructions(arch, name):
    """...except the instructions of a feature that requires this one (a
    VEX.128 VAESENC, `avx-aes`, is also AES-NI and AVX)."""
    audit = tmpl(arch, name)["audit"]
    for a2, other in INSN:
        if a2 != arch or other == name or name in cf.requires(tmpl(arch, other)):
            continue
        for x in snippet_instructions(arch, other):
            assert not ap.matches(audit, x), \
                f"{name}'s audit matches {other}'s {x['raw'].hex(' ')}"


def test_audit_reader_tells_lengths_and_registers_apart():
    """The test-side matcher itself: VEX.128 vs VEX.256, /N, REX?."""
    vaesenc_xmm = ap.decode(bytes.fromhex("c4e271dcc2"))[0]
    vaesenc_ymm = ap.decode(bytes.fromhex("c4e275dcc2"))[0]
    assert ap.matches("VEX.128.66.0F38.WIG dc /r", vaesenc_xmm)
    assert not ap.matches("VEX.128.66.0F38.WIG dc /r", vaesenc_ymm)
    rdrand, rdseed = ap.decode(bytes.fromhex("480fc7f0480fc7f8"))
    assert ap.matches("REX? 0f c7 /6", rdrand) and not ap.matches("REX? 0f c7 /6", rdseed)
    assert not ap.matches("66 0f 38 f6 /r", ap.decode(bytes.fromhex("66480f38f6d8"))[0])
