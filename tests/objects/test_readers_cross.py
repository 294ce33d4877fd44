# SPDX-License-Identifier: MIT
"""The object readers on aarch64, arm (Thumb), riscv64 and big-endian
objects: machine numbers, mapping symbols ($x $d $a $t, with suffixes),
the Thumb bit cleared in a function's value.  What a symbol means on its
machine is the module's rule (struct obj_rules), not the reader's: the
readers alone read symbols as written."""
import subprocess

import pytest

from conftest import ROOT
from objtools import reader_helper, rules_helper  # noqa: F401 (fixtures)
from test_readers import dump, parse

CORPUS = ROOT / "tests" / "corpus"


def obj(tmp_path, cc, text, name="m"):
    src, out = tmp_path / f"{name}.s", tmp_path / f"{name}.o"
    src.write_text(text)
    subprocess.run(cc.split() + ["-c", str(src), "-o", str(out)], check=True, capture_output=True)
    return out


def test_aarch64_mapping_symbols(tmp_path, rules_helper):
    o = parse(dump(rules_helper, obj(tmp_path, "clang-19 --target=aarch64-linux-gnu", """
	.text
	.globl f
	.type f,%function
f:	ret
	.word 0x12345678
	.size f, .-f
""")).stdout)[0]
    assert o["format"] == "elf64" and o["machine"] == 183
    s = o["symbols"]
    assert s["$x"]["mapping"] == ord("x") and s["$x"]["func"] == 0
    assert s["$d"]["mapping"] == ord("d") and s["$d"]["value"] == 4
    assert s["f"]["mapping"] == 0 and s["f"]["func"] == 1


# An A32 function, then a Thumb one.
ARM_AND_THUMB = """
	.syntax unified
	.text
	.arm
	.globl a
	.type a,%function
a:	bx lr
	.size a, .-a
	.thumb
	.globl t
	.type t,%function
	.thumb_func
t:	bx lr
	.size t, .-t
"""


def test_thumb_bit_and_arm_mapping(tmp_path, rules_helper):
    o = parse(dump(rules_helper, obj(tmp_path, "clang-19 --target=armv7a-linux-gnueabihf", ARM_AND_THUMB)).stdout)[0]
    assert o["format"] == "elf32" and o["machine"] == 40
    s = o["symbols"]
    assert s["a"]["value"] == 0 and s["a"]["thumb"] == 0
    assert s["t"]["value"] == 4 and s["t"]["thumb"] == 1      # 5 in the file: bit 0 is Thumb state
    assert s["$a"]["mapping"] == ord("a") and s["$t"]["mapping"] == ord("t")


def test_gnu_as_mapping_suffixes(tmp_path, rules_helper):
    """GNU as names them $x/$d and, for RISC-V, $x<ISA string>."""
    o = parse(dump(rules_helper, obj(tmp_path, "riscv64-linux-gnu-as", """
	.text
	.globl f
	.type f,@function
f:	ret
	.word 0x12345678
	.size f, .-f
""")).stdout)[0]
    assert o["machine"] == 243
    maps = {n: v["mapping"] for n, v in o["symbols"].items() if n.startswith("$")}
    assert maps and set(maps.values()) <= {ord("x"), ord("d")}, maps


def test_readers_alone_know_no_machine(tmp_path, reader_helper, rules_helper):
    """Without the modules' rules a Thumb function keeps bit 0 in its value
    and `$t' is a plain symbol; with them, the Thumb bit and mapping."""
    o = obj(tmp_path, "clang-19 --target=armv7a-linux-gnueabihf", ARM_AND_THUMB)
    plain, ruled = (parse(dump(h, o).stdout)[0]["symbols"] for h in (reader_helper, rules_helper))
    assert plain["t"]["value"] == 5 and plain["t"]["thumb"] == 0 and plain["$t"]["mapping"] == 0
    assert ruled["t"]["value"] == 4 and ruled["t"]["thumb"] == 1 and ruled["$t"]["mapping"] == ord("t")


@pytest.mark.parametrize("name,fmt,machine", [
    ("elf/aarch64.o", "elf64", 183), ("elf/riscv64.o", "elf64", 243), ("elf/thumb.o", "elf32", 40),
    ("elf/s390x.o", "elf64", 22), ("macho/arm64.o", "macho64", 0x0100000c),
    ("coff/arm64.obj", "coff-arm64", 0xaa64), ("elf/thumbeb.o", "elf32", 40),
    ("elf/aarch64_be.o", "elf64", 183),
])
def test_corpus_machines(reader_helper, name, fmt, machine):
    o = parse(dump(reader_helper, CORPUS / name).stdout)[0]
    assert o["format"] == fmt and o["machine"] == machine
    funcs = [n for n, v in o["symbols"].items() if v["func"]]
    assert funcs or fmt.startswith(("macho", "coff")), o["symbols"]
