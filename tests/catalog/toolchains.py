"""The real toolchains the catalog is verified against, and the verdict
each gives for every feature, measured by hand (assembling each snippet,
reading the bytes) and then kept here as the expected table.

A toolchain: (id, way, argv for asmcap, argv for a direct run, arch, object format).
For 'cc' the direct argv is the compiler words plus flags; asmcap gets the
compiler as --cc and the flags as --cflags."""
import shutil

# id, way, program, flags, arch, format
TOOLCHAINS = [
    ("gcc", "cc", "gcc", [], "x86_64", "elf64"),
    ("gcc-m32", "cc", "gcc", ["-m32"], "i386", "elf32"),
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
]


def installed(tc):
    return shutil.which(tc[2]) is not None


def argv(tc):
    return [tc[2], *tc[3]]
