# SPDX-License-Identifier: MIT
"""Test-side reading of the fixed-width catalogs (templates/aarch64, arm,
riscv64, loongarch64, s390x, ppc64le), the toolchains that check them, and the facts they are checked
against.  Written apart from probe/ so that a second implementation reads
the same files."""
import pathlib
import shutil
import subprocess
import tempfile

from catalog_files import FOLDERS, TEMPLATES, hexbytes, parse_header, sections, words_dialect

ARCHES = tuple(a for a in FOLDERS if words_dialect(a))
MULTI = ("expect", "enable", "audit", "audit-thumb")

# Directive questions (templates/README.md): no CPU key and no audit (built
# code does not show which directive made it).  Each maps to (PLAIN,
# IGNORED).  PLAIN (None: the body is already plain instructions after its
# `enable:' directive): the same instructions without the directive asked about,
# which another assembler must turn into the `expect:` bytes (clang has no
# .dn or .func, so the bytes do not rest on GNU as alone).  IGNORED: the
# body an assembler that took the directive and ignored it would see, which
# no assembler may turn into the bytes (None: the directive is an `enable:'
# line, whose need test_enable_lines_are_needed shows; or there is nothing
# left that could assemble, `.insn'; or nothing to take away, `.func').
DIRECTIVES = {
    "aarch64": {
        "archext-sha3": (None, None),
        "archext-dotprod": (None, None),
        "archext-i8mm": (None, None),
        "arch-level": (None, None),
        **{f"archext-{x}": (None, None)
           for x in ("crc", "aes", "sve", "sve2", "sme", "sme2", "sme-i16i64")},
        "func": ("add x0, x1, x2", None),
        # libgcrypt's checks: a syntax question, with no directive to take
        # away, and two `.cpu' spellings
        "platform-as": (None, None),
        "cpuext-simd": (None, None),
        "cpuext-crypto": (None, None),
        "cfi-negate-ra-state": ("hint #25\nhint #29",
                                ".cfi_startproc\nhint #25\nhint #29\n.cfi_endproc"),
    },
    "arm": {
        "archext-sec": (None, None),
        "dn-qn": (".syntax unified\n.arm\nvadd.i16 d1, d1, d1\nvadd.i32 q1, q1, q1",
                  ".syntax unified\n.arm\nvadd asmcap_dn, asmcap_dn, asmcap_dn\n"
                  "vadd asmcap_qn, asmcap_qn, asmcap_qn"),
        "func": (".syntax unified\n.arm\nadd r0, r1, r2", None),
        "platform-as": (".syntax unified\n.arm\nadd r0, r0, r4, ror #12", None),
        "fpu-neon": (None, None),
        # its effect is the attribute, not the bytes (verdict_with reads it);
        # clang, which leaves the attribute, checks the bytes
        "object-arch": (".syntax unified\n.arm\nadd r0, r0, r0", None),
    },
    "riscv64": {
        "insn": ("add t0, t0, zero", None),
        "option-arch": (None, None),
    },
    # no directive enables or scopes a LoongArch extension
    "loongarch64": {},
    # libgcrypt's vector check: its directive is its one `enable:' line,
    # so PLAIN replaces it with the spelling clang knows (PLAIN_OWN_ENABLE)
    "s390x": {
        "machine-z13-vx": (".machine z13\nvx %v0,%v1,%v31\nverllf %v11,%v11,16(%r0)", None),
    },
    # register-syntax questions (FFmpeg's ibm_asm): no directive to take away
    "ppc64le": {
        "ibm-asm": (None, None),
        "percent-regs": (None, None),
    },
}


# Directive questions whose PLAIN body carries its own directive in place
# of the entry's `enable:' lines (the directive asked about is that line)
PLAIN_OWN_ENABLE = {("s390x", "machine-z13-vx")}


# Assembler-flag questions (`as-flag:'): the flag is the only enabling
# form, added to the command (replacing the base -march) instead of an
# `enable:' line; like directive questions, no CPU key and no audit.
FLAG_QUESTIONS = {
    "aarch64": [f"march-armv8.{n}-a" for n in range(1, 7)],
    "arm": [],
    "riscv64": ["march-rv64ima_zbb", "march-rv64ima_zba"],
    "loongarch64": [],
    "s390x": ["march-z13"],
    "ppc64le": [],
}


def is_directive(arch, name):
    """A directive or flag question (no CPU key, no audit)."""
    return name in DIRECTIVES[arch] or name in FLAG_QUESTIONS[arch]


def argv_with(tc, t, enable=True):
    """The toolchain's argv for entry t: an `as-flag:' entry (unless
    enable=False) has its flag in place of the base -march, as the words
    after `-Wa,' where the toolchain is GNU as itself."""
    flag = t.get("as-flag") if enable else None
    if not flag:
        return tc[2]
    words = flag[4:].split(",") if tc[1] == "gas" and flag.startswith("-Wa,") else [flag]
    return [w for w in tc[2] if not w.startswith("-march=")] + words


def parse(path):
    """Header keys (MULTI ones as lists) plus 'body' and 'path'."""
    return parse_header(path, MULTI)


def load(arch):
    return {p.stem: parse(p) for p in sorted((TEMPLATES / arch).glob("*.s"))}


def requires(t):
    return t.get("requires", "").replace(",", " ").split()


def patterns(t, key="audit"):
    """[(mask, value, nbytes)] of an audit line; ValueError if malformed."""
    out = []
    for line in t[key]:
        for pair in line.split(";"):
            toks = pair.split()
            if len(toks) != 2 or {len(x) for x in toks} not in ({4}, {8}, {12}):
                raise ValueError(f"not `MASK VALUE' of 4, 8 or 12 hex digits: {pair!r}")
            mask, value = (int(x, 16) for x in toks)
            if not mask or value & ~mask:
                raise ValueError(f"value outside its mask: {pair!r}")
            out.append((mask, value, len(toks[0]) // 2))
    return out


def matches(pats, word, nbytes):
    """An 8-byte (Power ISA 3.1 prefixed) instruction is matched by its
    first word, the prefix, as asmcap's decoder does; s390x's 6-byte ones
    whole."""
    width = 4 if nbytes == 8 else nbytes
    return any(n == width and word & m == v for m, v, n in pats)


# -- instruction words of assembled bytes ------------------------------------

def words(arch, code, thumb=False):
    """(word, nbytes) for each instruction of little-endian `code`: A64/A32
    4 bytes; T32 by its first halfword (0b111xx with xx != 00: 32-bit, the
    first halfword high); RISC-V by its low two bits (11: 32-bit).  s390x
    code is big-endian, 2, 4 or 6 bytes by the first byte's top two bits
    (00, 01 or 10, 11); Power 4 bytes, 8 for a prefixed one (primary
    opcode 1), its word the prefix."""
    out, i = [], 0
    while arch == "s390x" and i < len(code):
        n = (2, 4, 4, 6)[code[i] >> 6]
        out.append((int.from_bytes(code[i:i + n], "big"), n))
        i += n
    while arch != "s390x" and i < len(code):
        h = int.from_bytes(code[i:i + 2], "little")
        if arch == "riscv64":
            n = 4 if h & 3 == 3 else 2
        elif arch == "ppc64le":
            n = 8 if int.from_bytes(code[i:i + 4], "little") >> 26 == 1 else 4
        elif thumb:
            n = 4 if h >> 11 in (0b11101, 0b11110, 0b11111) else 2
        else:
            n = 4
        if arch != "riscv64" and thumb and n == 4:
            w = h << 16 | int.from_bytes(code[i + 2:i + 4], "little")
        elif n == 8:
            w = int.from_bytes(code[i:i + 4], "little")
        else:
            w = int.from_bytes(code[i:i + n], "little")
        out.append((w, n))
        i += n
    return out


def snippet_words(arch, t):
    return words(arch, hexbytes(t["expect"][0]), t.get("isa") == "thumb")


# -- toolchains ----------------------------------------------------------------

# id, assembler (what counts as "another assembler"), argv before the source.
# The base -march of each architecture is the one the directive-leak check
# uses: armv8-a, armv7-a with Debian armhf's VFPv3-D16, rv64gc; loongarch64
# (LA64 without LSX/LASX; Debian 12 has no GNU binutils for it).
def _clang(v, target, march, *extra):
    return [f"clang-{v}", f"--target={target}", f"-march={march}", *extra,
            "-c", "-x", "assembler"]


TOOLCHAINS = {
    "aarch64": [
        ("gas", "gas", ["aarch64-linux-gnu-as", "-march=armv8-a"]),
        *[(f"clang-{v}", f"clang-{v}", _clang(v, "aarch64-linux-gnu", "armv8-a"))
          for v in (14, 19, 22)],
    ],
    "arm": [
        ("gas", "gas", ["arm-linux-gnueabihf-as", "-march=armv7-a", "-mfpu=vfpv3-d16",
                        "-mfloat-abi=hard"]),
        # the build's default state must not change a body's bytes
        ("gas-mthumb", "gas", ["arm-linux-gnueabihf-as", "-march=armv7-a",
                               "-mfpu=vfpv3-d16", "-mfloat-abi=hard", "-mthumb"]),
        # raw, as `asmcap --as arm-linux-gnueabihf-as` runs it: without
        # -march it takes every instruction, yet refuses `.arch_extension
        # idiv` (allowed on a v7-A or v7-R base only)
        ("gas-default", "gas", ["arm-linux-gnueabihf-as"]),
        *[(f"clang-{v}", f"clang-{v}", _clang(v, "armv7a-linux-gnueabihf", "armv7-a",
                                              "-mfpu=vfpv3-d16"))
          for v in (14, 19, 22)],
    ],
    "riscv64": [
        ("gas", "gas", ["riscv64-linux-gnu-as", "-march=rv64gc"]),
        *[(f"clang-{v}", f"clang-{v}", _clang(v, "riscv64-linux-gnu", "rv64gc"))
          for v in (14, 19, 22)],
        # clang-19 keeps Zacas behind this flag: a second assembler for its bytes
        ("clang-19-exp", "clang-19", _clang(19, "riscv64-linux-gnu", "rv64gc",
                                            "-menable-experimental-extensions")),
    ],
    "loongarch64": [(f"clang-{v}", f"clang-{v}", _clang(v, "loongarch64-linux-gnu", "loongarch64"))
                    for v in (19, 22)],
    # z10, a base without the vector facility (clang's own default is z196,
    # __ARCH__ 9, vector-less too); GNU as without -march
    # (as `asmcap --as s390x-linux-gnu-as` runs it) takes every instruction
    "s390x": [
        ("gas", "gas", ["s390x-linux-gnu-as", "-march=z10"]),
        ("gas-default", "gas", ["s390x-linux-gnu-as"]),
        *[(f"clang-{v}", f"clang-{v}", _clang(v, "s390x-linux-gnu", "z10")) for v in (14, 19, 22)],
    ],
    # -mppc64: no vector unit, the base where every `.machine' line is needed;
    # gas-default is `asmcap --as' (POWER8 here).  clang's -mcpu changes
    # nothing its integrated assembler accepts (measured: POWER10 and MMA
    # under -mcpu=pwr4).
    "ppc64le": [
        ("gas", "gas", ["powerpc64le-linux-gnu-as", "-mppc64"]),
        ("gas-default", "gas", ["powerpc64le-linux-gnu-as"]),
        *[(f"clang-{v}", f"clang-{v}", [f"clang-{v}", "--target=powerpc64le-linux-gnu", "-mcpu=pwr4",
                                        "-c", "-x", "assembler"])
          for v in (14, 19, 22)],
    ],
}


def installed(arch):
    return [tc for tc in TOOLCHAINS[arch] if shutil.which(tc[2][0])]


def spellings(t):
    """The entry's `enable:` spellings, each as its directive lines (one
    spelling may hold several, `;`-separated)."""
    return [[d.strip() for d in e.split(";")] for e in t["enable"]]


def source(arch, t, enable=True, spelling=0):
    """The file a toolchain assembles: RISC-V inside .option push/pop, Power
    inside .machine push/pop, as the engine does; the directives of one
    enable spelling unless enable=False."""
    lines = spellings(t)[spelling] if enable and t["enable"] else []
    body = t["body"].rstrip("\n")
    if arch == "riscv64":
        return "\n".join([".option push", *lines, body, ".option pop", ""])
    if arch == "ppc64le":
        return "\n".join([".machine push", *lines, body, ".machine pop", ""])
    return "\n".join([*lines, body, ""])


def be_words(b):
    """Catalog bytes of little-endian 32-bit words (ppc64le's) as a
    big-endian object stores them."""
    return b"".join(b[i:i + 4][::-1] for i in range(0, len(b), 4))


def assemble(argv, text, section=".text", keep=None):
    """(ok, message, the section's bytes): ok only with exit 0 and no warning.
    keep: a directory to leave the object in (keep/s.o), for a look at more
    than one section."""
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = pathlib.Path(tmp, "s.s"), pathlib.Path(keep or tmp, "s.o")
        src.write_text(text)
        r = subprocess.run([*argv, str(src), "-o", str(obj)], capture_output=True,
                           text=True, timeout=60)
        err = r.stderr.replace(str(src), "s.s").strip()
        if r.returncode or not obj.exists():
            return False, err.splitlines()[-1] if err else "failed", None
        if "warning" in err.lower():
            return False, "warning: " + err.splitlines()[-1], None
        return True, "", sections(obj)[1].get(section)


# Build attributes (ELF for the Arm Architecture, Addenda: "Build
# Attributes"): the tags an `attribute:' line may name, and the names
# readelf --arch-specific prints for Tag_CPU_arch's values (0 Pre-v4 ...
# 10 v7), so a verdict is read from the object apart from asmcap's reader.
ARM_ATTRIBUTE_TAGS = {"Tag_CPU_arch": 6, "Tag_CPU_arch_profile": 7, "Tag_ARM_ISA_use": 8,
                      "Tag_THUMB_ISA_use": 9, "Tag_FP_arch": 10, "Tag_Advanced_SIMD_arch": 12}
CPU_ARCH_NAMES = ["Pre-v4", "v4", "v4T", "v5T", "v5TE", "v5TEJ", "v6", "v6KZ", "v6T2", "v6K", "v7"]


def attribute(t):
    """(tag name, value) of t's `attribute:' line."""
    name, value = t["attribute"].split("=")
    return name, int(value, 0)


def attribute_verdict(t, obj):
    """('yes'|'no', detail): does readelf see t's Tag_CPU_arch in obj?"""
    name, value = attribute(t)
    assert name == "Tag_CPU_arch", f"no readelf names for {name} here yet"
    r = subprocess.run(["readelf", "--arch-specific", str(obj)], capture_output=True, text=True,
                       timeout=60, check=True)
    got = [l.split(":", 1)[1].strip() for l in r.stdout.splitlines() if l.strip().startswith(name + ":")]
    if got == [CPU_ARCH_NAMES[value]]:
        return "yes", ""
    return "no", f"readelf -A: {name} {got or 'absent'}, not {CPU_ARCH_NAMES[value]}"


def verdict_with(arch, tc, t, spelling, enable=True):
    """('yes'|'no'|'broken', detail) for feature t under one enable spelling
    (enable=False: without its enable lines or `as-flag:')."""
    with tempfile.TemporaryDirectory() as tmp:
        ok, msg, code = assemble(argv_with(tc, t, enable), source(arch, t, enable, spelling),
                                 t.get("section", ".text"), tmp)
        if not ok:
            return "no", msg
        if not any(code == hexbytes(e) for e in t["expect"]):
            return "broken", f"got {code.hex(' ') if code else None}"
        return attribute_verdict(t, pathlib.Path(tmp, "s.o")) if "attribute" in t else ("yes", "")


def verdict(arch, tc, t):
    """('yes'|'no'|'broken', detail) for feature t: yes with the first
    enable spelling that gives the bytes (detail: that spelling), else what
    the first spelling gave."""
    tries = [verdict_with(arch, tc, t, k) for k in range(max(1, len(t["enable"])))]
    for k, (v, _) in enumerate(tries):
        if v == "yes":
            return "yes", t["enable"][k] if k else ""
    return tries[0]


# -- CPU facts, from the Linux uapi headers --------------------------------------
# arch/arm64/include/uapi/asm/hwcap.h (Linux 6.16: HWCAP_GCS 1UL << 32 ...
# HWCAP2_POE 1UL << 63), arch/arm/include/uapi/asm/hwcap.h and
# arch/riscv/include/uapi/asm/hwprobe.h (Linux 6.14: ... EXT_ZABHA 1ULL << 58,
# RISCV_HWPROBE_KEY_IMA_EXT_0 4; EXT_ZICBOP 1ULL << 60 came after 6.14, with
# RISCV_HWPROBE_KEY_ZICBOP_BLOCK_SIZE).  (register, bit) / (key, bit).
UAPI_AARCH64 = {
    "HWCAP_ASIMD": (1, 1), "HWCAP_AES": (1, 3), "HWCAP_PMULL": (1, 4), "HWCAP_SHA2": (1, 6),
    "HWCAP_CRC32": (1, 7), "HWCAP_ATOMICS": (1, 8), "HWCAP_FPHP": (1, 9),
    "HWCAP_LRCPC": (1, 15), "HWCAP_SHA3": (1, 17), "HWCAP_SM3": (1, 18),
    "HWCAP_SM4": (1, 19), "HWCAP_ASIMDDP": (1, 20), "HWCAP_SHA512": (1, 21),
    "HWCAP_SVE": (1, 22), "HWCAP_FLAGM": (1, 27), "HWCAP_SB": (1, 29),
    "HWCAP_PACA": (1, 30), "HWCAP_GCS": (1, 32),
    "HWCAP2_SVE2": (2, 1), "HWCAP2_I8MM": (2, 13), "HWCAP2_BF16": (2, 14),
    "HWCAP2_BTI": (2, 17), "HWCAP2_MTE": (2, 18), "HWCAP2_SME": (2, 23),
    "HWCAP2_WFXT": (2, 31), "HWCAP2_CSSC": (2, 34), "HWCAP2_SME2": (2, 37),
    "HWCAP2_SME_I16I64": (2, 24), "HWCAP2_MOPS": (2, 43),
}
UAPI_ARM = {
    "HWCAP_VFP": (1, 6), "HWCAP_EDSP": (1, 7), "HWCAP_VFPv3": (1, 13),
    "HWCAP_NEON": (1, 12), "HWCAP_VFPv4": (1, 16), "HWCAP_IDIVA": (1, 17),
    "HWCAP2_AES": (2, 0), "HWCAP2_SHA2": (2, 3), "HWCAP2_CRC32": (2, 4),
}
# arch/loongarch/include/uapi/asm/hwcap.h (Linux 6.x; Debian 12 has no
# linux-libc-dev for loong64): HWCAP_LOONGARCH_CPUCFG 1 << 0 ... LBT_MIPS 1 << 12
UAPI_LOONGARCH = {
    "HWCAP_LOONGARCH_LAM": (1, 1), "HWCAP_LOONGARCH_UAL": (1, 2), "HWCAP_LOONGARCH_FPU": (1, 3),
    "HWCAP_LOONGARCH_LSX": (1, 4), "HWCAP_LOONGARCH_LASX": (1, 5), "HWCAP_LOONGARCH_CRC32": (1, 6),
    "HWCAP_LOONGARCH_COMPLEX": (1, 7), "HWCAP_LOONGARCH_CRYPTO": (1, 8),
    "HWCAP_LOONGARCH_LVZ": (1, 9), "HWCAP_LOONGARCH_LBT_X86": (1, 10),
    "HWCAP_LOONGARCH_LBT_ARM": (1, 11), "HWCAP_LOONGARCH_LBT_MIPS": (1, 12),
}
# glibc's <bits/hwcap.h> for s390 (libc6-dev-s390x-cross), the kernel's
# arch/s390/include/asm/elf.h HWCAP_NR_* (its uapi headers do not export them)
UAPI_S390X = {"HWCAP_S390_MSA": (1, 3), "HWCAP_S390_VXRS": (1, 11), "HWCAP_S390_VXRS_EXT": (1, 13),
              "HWCAP_S390_VXRS_EXT2": (1, 15), "HWCAP_S390_DFLT": (1, 18)}
IMA_EXT_0 = 4
UAPI_RISCV = {
    "ZBA": 3, "ZBB": 4, "ZBS": 5, "ZICBOZ": 6, "ZBC": 7, "ZBKB": 8, "ZBKC": 9,
    "ZBKX": 10, "ZKND": 11, "ZKNE": 12, "ZKNH": 13, "ZKSED": 14, "ZKSH": 15,
    "ZVBB": 17, "ZVBC": 18, "ZVKB": 19, "ZVKG": 20, "ZVKNED": 21, "ZVKNHA": 22,
    "ZVKNHB": 23, "ZVKSED": 24, "ZVKSH": 25, "ZFA": 32, "ZACAS": 34, "ZICOND": 35,
    "ZIHINTPAUSE": 36, "ZIMOP": 42, "ZCB": 44, "ZAWRS": 48, "ZICBOM": 55, "ZABHA": 58,
    "ZICBOP": 60,
}
# arch/powerpc/include/uapi/asm/cputable.h (linux-libc-dev-ppc64el-cross,
# Linux 6.1), its masks as written there: (register, mask)
UAPI_PPC_MASKS = {
    "PPC_FEATURE_HAS_ALTIVEC": (1, 0x10000000), "PPC_FEATURE_HAS_VSX": (1, 0x00000080),
    "PPC_FEATURE2_ARCH_2_07": (2, 0x80000000), "PPC_FEATURE2_VEC_CRYPTO": (2, 0x02000000),
    "PPC_FEATURE2_ARCH_3_00": (2, 0x00800000), "PPC_FEATURE2_ARCH_3_1": (2, 0x00040000),
    "PPC_FEATURE2_MMA": (2, 0x00020000),
}
UAPI_PPC = {k: (reg, mask.bit_length() - 1) for k, (reg, mask) in UAPI_PPC_MASKS.items()}
UAPI = {"aarch64": UAPI_AARCH64, "arm": UAPI_ARM, "loongarch64": UAPI_LOONGARCH, "s390x": UAPI_S390X,
        "ppc64le": UAPI_PPC}
# feature -> the uapi macro its CPU key must equal; None: the kernel has none
CPU_KEY = {
    "aarch64": {"crc32": "HWCAP_CRC32", "aes": "HWCAP_AES", "pmull": "HWCAP_PMULL",
                "sha2": "HWCAP_SHA2", "sha3": "HWCAP_SHA3", "sha512": "HWCAP_SHA512",
                "sm3": "HWCAP_SM3", "sm4": "HWCAP_SM4", "lse": "HWCAP_ATOMICS",
                "rcpc": "HWCAP_LRCPC", "dotprod": "HWCAP_ASIMDDP", "fp16": "HWCAP_FPHP",
                "bf16": "HWCAP2_BF16", "i8mm": "HWCAP2_I8MM", "sve": "HWCAP_SVE",
                "sve2": "HWCAP2_SVE2", "sme": "HWCAP2_SME", "sme2": "HWCAP2_SME2",
                "pauth": "HWCAP_PACA", "bti": "HWCAP2_BTI", "mte": "HWCAP2_MTE",
                "flagm": "HWCAP_FLAGM", "sb": "HWCAP_SB", "mops": "HWCAP2_MOPS",
                "cssc": "HWCAP2_CSSC", "wfxt": "HWCAP2_WFXT", "ls64": None,
                "gcs": "HWCAP_GCS", "neon": "HWCAP_ASIMD", "armv8": None,
                "sme-i16i64": "HWCAP2_SME_I16I64",
                **{n: None for n in [*DIRECTIVES["aarch64"], *FLAG_QUESTIONS["aarch64"]]}},
    "arm": {"neon": "HWCAP_NEON", "vfpv4": "HWCAP_VFPv4", "idiv": "HWCAP_IDIVA",
            "crc32": "HWCAP2_CRC32", "aes": "HWCAP2_AES", "sha2": "HWCAP2_SHA2",
            "thumb2": None, "armv5te": "HWCAP_EDSP", "armv6": None, "armv6t2": None,
            "vfp": "HWCAP_VFP", "vfpv3": "HWCAP_VFPv3", "setend": None, "vfp-fpinst": None,
            **{n: None for n in DIRECTIVES["arm"]}},
    # lbt: any of the three LBT bits; scq: none in the uapi header
    "loongarch64": {"lsx": "HWCAP_LOONGARCH_LSX", "lasx": "HWCAP_LOONGARCH_LASX",
                    "crc32": "HWCAP_LOONGARCH_CRC32", "lvz": "HWCAP_LOONGARCH_LVZ",
                    "lbt-x86": "HWCAP_LOONGARCH_LBT_X86", "lbt-arm": "HWCAP_LOONGARCH_LBT_ARM",
                    "lbt": None, "scq": None},
    "s390x": {"msa": "HWCAP_S390_MSA", "vx": "HWCAP_S390_VXRS", "vxe": "HWCAP_S390_VXRS_EXT",
              "vxe2": "HWCAP_S390_VXRS_EXT2", "dflt": "HWCAP_S390_DFLT", "msa8": None,
              **{n: None for n in [*DIRECTIVES["s390x"], *FLAG_QUESTIONS["s390x"]]}},
    # the three POWER8 crypto classes share one bit; dcbzl (POWER4) has none
    "ppc64le": {"altivec": "PPC_FEATURE_HAS_ALTIVEC", "vsx": "PPC_FEATURE_HAS_VSX",
                "power8-vector": "PPC_FEATURE2_ARCH_2_07", "vcipher": "PPC_FEATURE2_VEC_CRYPTO",
                "vpmsumd": "PPC_FEATURE2_VEC_CRYPTO", "vshasigma": "PPC_FEATURE2_VEC_CRYPTO",
                "arch-3-00": "PPC_FEATURE2_ARCH_3_00", "power10-prefix": "PPC_FEATURE2_ARCH_3_1",
                "mma": "PPC_FEATURE2_MMA", "dcbzl": None},
}


def cpu_key(arch, t):
    """What the file says: ('hwcap', reg, bit) / ('hwprobe', key, bit) / None."""
    for key, reg in (("hwcap", 1), ("hwcap2", 2)):
        if key in t:
            name, bit = t[key].split()
            assert name == ("AT_HWCAP2" if reg == 2 else "AT_HWCAP"), t[key]
            assert bit.startswith("bit="), t[key]
            return ("hwcap", reg, int(bit[4:]))
    if "hwprobe" in t:
        k, b = t["hwprobe"].split()
        assert k.startswith("key=") and b.startswith("bit="), t["hwprobe"]
        return ("hwprobe", int(k[4:]), int(b[4:]))
    return None


def expected_cpu_key(arch, name):
    if is_directive(arch, name):
        return None
    if arch == "riscv64":
        if len(name) == 1:                  # single letters: AT_HWCAP bit letter-'a'
            return ("hwcap", 1, ord(name) - ord("a"))
        return ("hwprobe", IMA_EXT_0, UAPI_RISCV[name.upper()])
    macro = CPU_KEY[arch][name]
    if macro is None:
        return None
    return ("hwcap", *UAPI[arch][macro])
