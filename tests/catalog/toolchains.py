# SPDX-License-Identifier: MIT
"""The real toolchains the catalog is verified against, and the verdict
each gives for every feature, measured by hand (assembling each snippet,
reading the bytes) and then kept here as the expected table.

A toolchain: (id, way, argv for asmcap, argv for a direct run, arch, object format).
For 'cc' the direct argv is the compiler words plus flags; asmcap gets the
compiler as --cc and the flags as --cflags."""
import shutil

LLVM_ML = "/usr/lib/llvm-19/bin/llvm-ml"

# id, way, program, flags, arch, format
TOOLCHAINS = [
    ("gcc", "cc", "gcc", [], "x86_64", "elf64"),
    ("gcc-m32", "cc", "gcc", ["-m32"], "i386", "elf32"),
    # GNU as options that change encodings: the W of WIG instructions, L of
    # LIG ones, -O2 shortening; the catalog lists or avoids every such form
    ("gcc-wig", "cc", "gcc", ["-Wa,-mvexwig=1", "-Wa,-mevexwig=1",
                              "-Wa,-mavxscalar=256", "-Wa,-O2"], "x86_64", "elf64"),
    # -msse2avx re-encodes SSE forms as VEX (which needs AVX): not AES-NI as
    # the catalog defines it, so those features are broken, not yes
    ("gcc-sse2avx", "cc", "gcc", ["-Wa,-msse2avx"], "x86_64", "elf64"),
    ("clang-13", "cc", "clang-13", [], "x86_64", "elf64"),
    ("clang-14", "cc", "clang-14", [], "x86_64", "elf64"),
    ("clang-15", "cc", "clang-15", [], "x86_64", "elf64"),
    ("clang-16", "cc", "clang-16", [], "x86_64", "elf64"),
    ("clang-19", "cc", "clang-19", [], "x86_64", "elf64"),
    ("clang-22", "cc", "clang-22", [], "x86_64", "elf64"),
    ("clang-14-m32", "cc", "clang-14", ["-m32"], "i386", "elf32"),
    ("clang-22-m32", "cc", "clang-22", ["-m32"], "i386", "elf32"),
    ("clang-14-gas", "cc", "clang-14", ["-fno-integrated-as"], "x86_64", "elf64"),
    ("clang-14-macho", "cc", "clang-14", ["-target", "x86_64-apple-macos10.15"], "x86_64", "macho64"),
    ("clang-22-macho", "cc", "clang-22", ["-target", "x86_64-apple-macos10.15"], "x86_64", "macho64"),
    ("clang-14-coff", "cc", "clang-14", ["-target", "x86_64-w64-windows-gnu"], "x86_64", "coff-x86-64"),
    ("mingw-as", "as", "x86_64-w64-mingw32-as", [], "x86_64", "coff-x86-64"),
    ("nasm-elf64", "nasm", "nasm", ["-f", "elf64"], "x86_64", "elf64"),
    ("nasm-win64", "nasm", "nasm", ["-f", "win64"], "x86_64", "coff-x86-64"),
    ("nasm-macho64", "nasm", "nasm", ["-f", "macho64"], "x86_64", "macho64"),
    ("nasm-elf32", "nasm", "nasm", ["-f", "elf32"], "i386", "elf32"),
    # llvm-ml is ml.exe (32-bit) unless -m64 makes it ml64
    ("llvm-ml", "masm", LLVM_ML, ["-m64"], "x86_64", "coff-x86-64"),
    ("llvm-ml-32", "masm", LLVM_ML, [], "i386", "coff-i386"),
]


def installed(tc):
    return shutil.which(tc[2]) is not None


def argv(tc):
    return [tc[2], *tc[3]]


# What each toolchain answers, measured (tests/catalog/verify_catalog.py,
# checked by hand with objdump/objcopy): every feature of the arch is `yes`
# except those listed.  GNU as 2.40 lacks SHA512/SM3/SM4 (binutils 2.42);
# LLVM learned AVX-IFMA in 16 and SHA512/SM3/SM4 in 18.
NEW3 = {"sha512": "no", "sm3": "no", "sm4": "no"}
# Of the newer x86 extensions GNU as 2.40 lacks AMX-COMPLEX, AVX-VNNI-INT16,
# USER_MSR, MOVRS and AMX-MOVRS; clang-16 (not 15) knows AMX-FP16,
# AVX-VNNI-INT8, AVX-NE-CONVERT, CMPccXADD and PREFETCHI, clang-19 (not 16)
# AMX-COMPLEX, AVX-VNNI-INT16 and USER_MSR, and only clang-22 MOVRS and
# AMX-MOVRS.  Measured with each assembler directly.
# Beyond those: clang-19 (not clang-16, nor GNU as 2.40) knows APX_F and
# its CCMP/CTEST; only
# clang-22 AVX10.2, AMX-FP8, AMX-TF32 and AMX-AVX512; AVX10.1's FP16
# arithmetic every assembler here but clang-13 (LLVM 14 added AVX512-FP16).
NEW_DMR = {f: "no" for f in ("avx10.2", "amx-fp8", "amx-tf32", "amx-avx512")}
NEW_APX = {"apx-f": "no", "apx-ccmp": "no"}
FP16 = {"avx10.1-256": "no", "avx10.1-512": "no"}
NEW_MOVRS = {"movrs": "no", "amx-movrs": "no", **NEW_DMR}
NEW_LLVM18 = {"amx-complex": "no", "avxvnniint16": "no", "usermsr": "no", **NEW_MOVRS}
GAS240 = {**NEW3, **NEW_LLVM18, **NEW_APX}
NEW_LLVM16 = {f: "no" for f in ("amx-fp16", "avxvnniint8", "avxneconvert", "cmpccxadd",
                                "prefetchi")}
OLD_LLVM = {"avxifma": "no", **NEW3, **NEW_LLVM18, **NEW_LLVM16, **NEW_APX}
NOT_COFF = {"seh": "skipped"}
NOT_ELF = {"gnu-property": "skipped", "elf-directives": "skipped"}
# nasm 2.16.01 has no {vex} VNNI form nor CFI/SEH directives (skipped) and
# does not know the SHA512/SM3/SM4 mnemonics yet (no; 2.16.02 added them)
# (nor GNU's macro language: `# nasm: none`)
GNU_MACRO = {"altmacro": "skipped", "macro-vararg": "skipped"}
NASM = {"avxvnni": "skipped", "cfi": "skipped", "seh": "skipped", "intel-syntax": "skipped",
        "elf-directives": "skipped", **GNU_MACRO, **NEW3}
# llvm-ml 19 has no {vex} pseudo-prefix ("unexpected token at start of
# statement"); MASM has no CFI directives and no .intel_syntax switch
MASM = {"avxifma": "no", "avxvnni": "no", "avxvnniint8": "no", "avxneconvert": "no",
        "cfi": "skipped", "intel-syntax": "skipped", **GNU_MACRO, **NOT_ELF}
# the 64-bit-only ones: llvm-ml 19 knows neither MOVRS nor AMX-MOVRS, and
# AVX-VNNI-INT16 needs {vex} too
MASM64 = {**MASM, **NEW_MOVRS, "avxvnniint16": "no"}
# nasm 2.16.01 has no mnemonics for these (`# nasm: none`), and encodes
# VFMADD132PH as VFNMADD132PH (9c, not 98: the SDM, GNU objdump and
# llvm-mc agree on 98), so AVX10.1's FP16 snippets are broken there
NASM_MISENCODED = {"avx10.1-256", "avx10.1-512"}
NASM64 = {**NASM, **{f: "skipped" for f in ("amx-fp16", "amx-complex", "amx-movrs",
                                             "avxvnniint16", "prefetchi", "usermsr", "movrs",
                                             *NEW_APX, *NEW_DMR)},
          **{f: "broken" for f in NASM_MISENCODED}}
EXCEPT = {
    "gcc": {**GAS240, **NOT_COFF},
    "gcc-m32": NEW3,
    "gcc-wig": {**GAS240, **NOT_COFF},
    "gcc-sse2avx": {**GAS240, **NOT_COFF, "aesni": "broken", "pclmul": "broken",
                    "gfni": "broken", "ssse3": "broken", "sse4.1": "broken", "sse4.2": "broken"},
    "clang-13": {**OLD_LLVM, **FP16, **NOT_COFF},
    "clang-14": {**OLD_LLVM, **NOT_COFF},
    "clang-15": {**OLD_LLVM, **NOT_COFF},
    "clang-16": {**NEW3, **NEW_LLVM18, **NEW_APX, **NOT_COFF},
    "clang-19": {**NEW_MOVRS, **NOT_COFF},
    "clang-22": NOT_COFF,
    "clang-14-m32": OLD_LLVM,
    "clang-22-m32": {},
    "clang-14-gas": {**GAS240, **NOT_COFF},
    "clang-14-macho": {**OLD_LLVM, **NOT_COFF, **NOT_ELF},
    "clang-22-macho": {**NOT_COFF, **NOT_ELF},
    "clang-14-coff": {**OLD_LLVM, **NOT_ELF},
    "mingw-as": {**GAS240, **NOT_ELF},
    "nasm-elf64": {**NASM64, **NOT_COFF},
    "nasm-win64": {**NASM64, **NOT_ELF},
    "nasm-macho64": {**NASM64, **NOT_COFF, **NOT_ELF},
    "nasm-elf32": NASM,
    "llvm-ml": MASM64,
    "llvm-ml-32": MASM,
}


def expected(tc_id, arch):
    """feature -> status for toolchain tc_id (every feature of arch)."""
    from catalog_files import load
    return {name: EXCEPT[tc_id].get(name, "yes") for name in load(arch)}


NASM_FLAVOUR = {"elf64": "elf", "win64": "nasm", "macho64": "macosx"}


def asmcap_args(tc):
    """build/asmcap options that probe toolchain tc; None where asmcap has
    no way to ask for it (nasm's flavours are 64-bit only)."""
    tc_id, way, prog, flags = tc[:4]
    if way == "cc":
        return ["--cc", prog] + (["--cflags", " ".join(flags)] if flags else [])
    if way == "as":
        return ["--as", prog, *(["--asflags", " ".join(flags)] if flags else [])]
    if way == "masm":
        return ["--masm", " ".join([prog, *flags])]
    flavour = NASM_FLAVOUR.get(flags[-1])
    return ["--nasm", prog, "--flavour", flavour] if flavour else None


def clang_for(name):
    """The newest installed clang, or clang-22 itself for a feature only it
    knows (clang-19 rejects it): a root without clang-22 (bookworm-security)
    skips those, naming the source, instead of failing."""
    from conftest import need_tool
    if EXCEPT["clang-19"].get(name) == "no":
        return need_tool("clang-22")
    return next((c for c in ("clang-22", "clang-19", "clang-18") if shutil.which(c)), None)
