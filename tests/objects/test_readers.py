# SPDX-License-Identifier: MIT
"""The object readers (probe/obj/) on real objects from gcc,
clang, mingw as, nasm and llvm-ar, and on truncated and corrupted copies."""
import re
import struct
import subprocess

import pytest

from conftest import ROOT
from objtools import assemble, elf_function, elf_quad, reader_helper  # noqa: F401 (a fixture)

CORPUS = ROOT / "tests" / "corpus"

SNIPPET = ("\t.text\n" + elf_function("addx", "adcx\t%rax,%rbx")
           + elf_quad("konst", 0x1122334455667788)
           + elf_function("plain", "add\t%rax,%rbx")
           + "\t.section .rodata.a_section_name_longer_than_eight_bytes,\"a\"\n\t.byte\t1\n")


def dump(helper, *files):
    r = subprocess.run([str(helper), *map(str, files)], capture_output=True, text=True)
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    return r


def parse(text):
    """{'format': ..., 'sections': {name: fields}, 'symbols': {name: fields}} per object."""
    objs = []
    for line in text.splitlines():
        w = line.split()
        if w[0] == "format":
            objs.append({"format": w[1], "bits": int(w[3]), "machine": int(w[5]),
                         "sections": {}, "symbols": {}, "order": []})
        elif w[0] == "section":
            objs[-1]["order"].append(w[2])
            objs[-1]["sections"][w[2]] = dict(zip(w[3::2], w[4::2]))
        elif w[0] == "symbol":
            objs[-1]["symbols"][w[1]] = dict(zip(w[2::2], map(int, w[3::2])))
    return objs


def test_elf64_relocatable(tmp_path, reader_helper):
    o = parse(dump(reader_helper, assemble(tmp_path, "elf64", SNIPPET)).stdout)[0]
    assert o["format"] == "elf64"
    assert o["sections"][".text"]["code"] == "1"
    assert o["sections"][".text"]["size"] == "19"     # adcx 6, ret 1, quad 8, add 3, ret 1
    assert ".rodata.a_section_name_longer_than_eight_bytes" in o["sections"]
    s = o["symbols"]
    text = o["order"].index(".text")
    assert s["addx"] == {"section": text, "value": 0, "size": 7, "func": 1, "data": 0, "global": 1,
                         "mapping": 0, "thumb": 0}
    assert s["konst"]["value"] == 7 and s["konst"]["data"] == 1 and s["konst"]["func"] == 0
    assert s["plain"]["value"] == 15 and s["plain"]["size"] == 4


def test_elf32(tmp_path, reader_helper):
    src = SNIPPET.replace("%rax", "%eax").replace("%rbx", "%ebx")
    o = parse(dump(reader_helper, assemble(tmp_path, "elf32", src)).stdout)[0]
    assert o["format"] == "elf32"
    assert o["symbols"]["plain"]["value"] == 14     # adcx %eax,%ebx is 5 bytes without REX
    assert o["symbols"]["addx"]["func"] == 1


COFF_SNIPPET = """\
	.text
	.def	addx;	.scl	2;	.type	32;	.endef
	.globl	addx
addx:	adcx	%rax,%rbx
	ret
	.globl	plain
plain:	add	%rax,%rbx
	ret
	.section .rdata$a_section_name_longer_than_eight_bytes,"dr"
	.quad	1
"""


def test_coff_mingw(tmp_path, reader_helper):
    o = parse(dump(reader_helper, assemble(tmp_path, "coff64", COFF_SNIPPET)).stdout)[0]
    assert o["format"] == "coff-x86-64"
    # the long name lives in the string table ("/4" in the section header)
    assert ".rdata$a_section_name_longer_than_eight_bytes" in o["sections"]
    s = o["symbols"]
    assert s["addx"]["func"] == 1 and s["addx"]["value"] == 0
    assert s["plain"]["func"] == 0 and s["plain"]["value"] == 7
    assert ".text" not in s      # section definition symbols are not code symbols


def test_coff_i386(tmp_path, reader_helper):
    src = COFF_SNIPPET.replace("addx", "_addx").replace("%rax", "%eax").replace("%rbx", "%ebx")
    o = parse(dump(reader_helper, assemble(tmp_path, "coff32", src)).stdout)[0]
    assert o["format"] == "coff-i386"
    assert o["symbols"]["_addx"]["func"] == 1


def test_coff_nasm(tmp_path, reader_helper):
    src = "section .text\nglobal addx\naddx: adcx rbx, rax\nret\nglobal plain\nplain: ret\n"
    o = parse(dump(reader_helper, assemble(tmp_path, "nasm", src)).stdout)[0]
    assert o["format"] == "coff-x86-64"
    assert o["symbols"]["plain"]["value"] == 7
    assert o["symbols"]["addx"]["section"] == o["order"].index(".text")


def test_macho(tmp_path, reader_helper):
    src = """\
	.text
	.globl	_addx
_addx:	adcx	%rax,%rbx
	ret
	.globl	_plain
_plain:	ret
	.section __TEXT,__const
_konst:	.quad	1
_konst2: .quad	2
"""
    o = parse(dump(reader_helper, assemble(tmp_path, "macho64", src)).stdout)[0]
    assert o["format"] == "macho64"
    sec = o["sections"]
    assert sec["__TEXT,__text"]["code"] == "1" and sec["__TEXT,__const"]["code"] == "0"
    # __const follows __text in the address space: n_value is an address,
    # the reader turns it into an offset in the section (n_sect is 1-based).
    assert int(sec["__TEXT,__const"]["addr"], 16) > 0
    s = o["symbols"]
    assert s["_plain"]["value"] == 7
    assert s["_konst"]["value"] == 0 and s["_konst2"]["value"] == 8
    assert s["_konst2"]["section"] == o["order"].index("__TEXT,__const")


def test_archives_long_names(tmp_path, reader_helper):
    elf = assemble(tmp_path, "elf64", SNIPPET)
    long1 = tmp_path / "a_member_name_longer_than_sixteen.o"
    long2 = tmp_path / "another_quite_long_member_name.o"
    long1.write_bytes(elf.read_bytes())
    long2.write_bytes(assemble(tmp_path, "macho64", "\t.text\n_f:\tret\n").read_bytes())
    for tool, fmt in (("ar", "gnu"), ("llvm-ar-14", "bsd")):
        lib = tmp_path / f"lib{fmt}.a"
        cmd = [tool, "rcs"] + (["--format=darwin"] if fmt == "bsd" else []) + [str(lib), str(long1), str(long2)]
        subprocess.run(cmd, check=True)
        r = dump(reader_helper, lib)
        assert r.returncode == 0, r.stderr
        members = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("member")]
        assert members == [long1.name, long2.name], (fmt, members)   # symbol index skipped
        assert [o["format"] for o in parse(r.stdout)] == ["elf64", "macho64"]


@pytest.mark.parametrize("path", sorted(p for p in CORPUS.glob("*/*") if p.parent.name != "x86"),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_truncated_and_corrupted(reader_helper, path):
    """Every truncation and 5 values at every byte, parsed in-process under
    ASan/UBSan: no crash, no read outside the input, every failure has a reason."""
    r = subprocess.run([str(reader_helper), "--mutate", str(path)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    ok, failed = map(int, r.stdout.split()[1::2])
    assert ok and failed     # both paths really ran


def corrupt(data, off, fmt, value):
    b = bytearray(data)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)


def test_hostile_headers(tmp_path, reader_helper):
    elf = assemble(tmp_path, "elf64", SNIPPET).read_bytes()
    coff = assemble(tmp_path, "coff64", COFF_SNIPPET).read_bytes()
    macho = assemble(tmp_path, "macho64", "\t.text\n_f:\tret\n").read_bytes()
    shoff = struct.unpack_from("<Q", elf, 40)[0]
    cases = {
        "elf-shoff": (corrupt(elf, 40, "<Q", 2**64 - 8), "section headers"),
        "elf-shnum": (corrupt(elf, 60, "<H", 0xfff0), "section header table"),
        # .text is section 1: its sh_offset near 2^64 must not wrap around
        "elf-sh_offset": (corrupt(elf, shoff + 64 + 24, "<Q", 2**64 - 4), "outside the file"),
        "elf-shentsize": (corrupt(elf, 58, "<H", 12), "section header size"),
        "coff-nsyms": (corrupt(coff, 12, "<I", 0x7fffffff), "symbol table"),
        "coff-rawptr": (corrupt(coff, 20 + 20, "<I", 0xfffffff0), "outside the file"),
        "macho-sizeofcmds": (corrupt(macho, 20, "<I", 0xffffff00), "load commands"),
        "macho-cmdsize": (corrupt(macho, 32 + 4, "<I", 4), "bad size"),
        "not-an-object": (b"hello world, not an object", "unknown format"),
        "empty": (b"", "too short"),
    }
    for name, (data, why) in cases.items():
        p = tmp_path / f"{name}.o"
        p.write_bytes(data)
        r = dump(reader_helper, p)
        assert r.returncode == 1, (name, r.stdout)
        assert "unreadable object:" in r.stderr and why in r.stderr, (name, r.stderr)


def test_hostile_archives(tmp_path, reader_helper):
    elf = assemble(tmp_path, "elf64", SNIPPET)
    lib = tmp_path / "lib.a"
    subprocess.run(["ar", "rc", str(lib), str(elf)], check=True)
    data = lib.read_bytes()
    # the offsets below are the first member header's (at 8, 60 bytes, ending "`\n")
    assert data.startswith(b"!<arch>\n") and data[8 + 58:8 + 60] == b"`\n", data[:68]
    bad = bytearray(data)
    bad[8 + 48:8 + 58] = b"99999999  "          # first member's size past the end
    (tmp_path / "big.a").write_bytes(bytes(bad))
    bad = bytearray(data)
    bad[8 + 58:8 + 60] = b"xx"                   # header terminator
    (tmp_path / "term.a").write_bytes(bytes(bad))
    (tmp_path / "cut.a").write_bytes(data[:30])
    for name, why in (("big.a", "past the end"), ("term.a", "terminator"), ("cut.a", "truncated")):
        r = dump(reader_helper, tmp_path / name)
        assert r.returncode == 1 and "unreadable archive:" in r.stderr and why in r.stderr, \
            (name, r.stderr)


def readelf_dynamic(path):
    """(DT_NEEDED names, DT_RUNPATH else DT_RPATH) as binutils' readelf -d prints them."""
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", out)
    paths = dict(re.findall(r"\((RUNPATH|RPATH)\)\s+Library \w+: \[(.*)\]", out))
    return needed, paths.get("RUNPATH", paths.get("RPATH"))


def reader_dynamic(helper, path):
    r = subprocess.run([str(helper), "--dynamic", str(path)], capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    lines = [l.split(" ", 1) for l in r.stdout.splitlines()]
    return [v for k, v in lines if k == "needed"], next((v for k, v in lines if k == "runpath"), None)


@pytest.mark.parametrize("name", ["exe-runpath", "exe32-rpath", "s390x.so"])
def test_dynamic_section(reader_helper, name):
    """The libraries a program needs and where it looks (the cache's
    dependencies), either class and byte order, as readelf reads them."""
    needed, runpath = readelf_dynamic(CORPUS / "elf" / name)
    assert needed       # every seed needs something: the comparison is not empty
    assert reader_dynamic(reader_helper, CORPUS / "elf" / name) == (needed, runpath)


def test_dynamic_section_several(tmp_path, reader_helper):
    """Several DT_NEEDED, in order, and a path list; a relocatable object needs nothing."""
    src = tmp_path / "m.c"
    src.write_text("#include <math.h>\n#include <pthread.h>\n"
                   "int main(int c, char **v) { (void)v; return (int)sqrt(c) + !pthread_self(); }\n")
    exe = tmp_path / "m"
    subprocess.run(["gcc", "-Wl,--no-as-needed", "-Wl,-rpath,/r1:$ORIGIN/r2", str(src), "-lm", "-lpthread",
                    "-o", str(exe)], check=True)
    needed, runpath = readelf_dynamic(exe)
    assert len(needed) >= 2 and runpath
    assert reader_dynamic(reader_helper, exe) == (needed, runpath)
    assert reader_dynamic(reader_helper, assemble(tmp_path, "elf64", SNIPPET)) == ([], None)


def test_dynamic_section_hostile(tmp_path, reader_helper):
    """A program header table or a string table outside the file is an error with a reason."""
    data = (CORPUS / "elf" / "exe-runpath").read_bytes()
    cases = {"phoff": (corrupt(data, 32, "<Q", 2**64 - 8), "program headers"),
             "phentsize": (corrupt(data, 54, "<H", 12), "program header size")}
    for name, (bad, why) in cases.items():
        p = tmp_path / name
        p.write_bytes(bad)
        r = subprocess.run([str(reader_helper), "--dynamic", str(p)], capture_output=True, text=True)
        assert r.returncode == 1 and "unreadable object:" in r.stderr and why in r.stderr, (name, r.stderr)
