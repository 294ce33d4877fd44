# SPDX-License-Identifier: MIT
"""Assembler flags that insert instructions into the build's code: GNU as's
LVI mitigations (-mlfence-after-load, -mlfence-before-ret,
-mlfence-before-indirect-branch, as SGX enclave builds use) and branch
alignment (-mbranches-within-32B-boundaries, -malign-branch*).  The
snippet's own instructions must still be exact, but what the build's own
flags insert is recognised and named, not called a mis-encoding."""
import json
import subprocess

import pytest

from conftest import asmcap

LVI = ["-Wa,-mlfence-after-load=yes", "-Wa,-mlfence-before-ret=or", "-Wa,-mlfence-before-ret=not",
       "-Wa,-mlfence-before-ret=shl", "-Wa,-mlfence-before-indirect-branch=all"]
LFENCE = bytes.fromhex("0faee8")


def text_bytes(tmp_path, flags, body):
    """.text of body assembled by gcc with flags (objcopy -O binary)."""
    src, obj, raw = tmp_path / "own.s", tmp_path / "own.o", tmp_path / "own.bin"
    src.write_text("\t.text\n" + body)
    subprocess.run(["gcc", *flags, "-c", "-o", str(obj), str(src)], check=True)
    subprocess.run(["objcopy", "-O", "binary", "-j", ".text", str(obj), str(raw)], check=True)
    return raw.read_bytes()


def features(*args):
    r = asmcap("--cc", "gcc", "--format", "json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"]


@pytest.mark.parametrize("flag", LVI)
def test_lvi_lfences_are_not_a_misencoding(tmp_path, flag):
    # what the flag does to a load and to a ret, from the bytes
    load = LFENCE in text_bytes(tmp_path, [flag], "\tmovbe (%rdi),%rax\n")
    ret = LFENCE in text_bytes(tmp_path, [flag], "\tret\n")
    assert load or ret, f"{flag} inserted nothing: the test would prove nothing"
    f = features("--cflags", flag, "--features", "avx,movbe,intel-syntax,elf-directives,adx")
    touched = ["avx", "movbe", "intel-syntax"] * load + ["elf-directives"] * ret
    for name in touched:
        assert f[name]["status"] == "yes", (name, f[name])
        assert "the build's assembler flags insert" in f[name]["reason"] and "lfence" in f[name]["reason"]
    assert (f["adx"]["status"], f["adx"]["reason"]) == ("yes", "")     # untouched: a plain yes


def test_a_wrong_byte_in_the_snippets_own_instruction_is_still_broken(tmp_path):
    # movbe (%rdi),%rax is 48 0f 38 f0 07; the template expects a wrong ModRM
    d = tmp_path / "t" / "x86_64"
    d.mkdir(parents=True)
    (d / "wrongload.s").write_text("# feature: wrongload\n# expect: 48 0f 38 f0 06\n\tmovbe (%rdi),%rax\n")
    f = features("--cflags", LVI[0], "--add-templates", d.parent, "--features", "wrongload")
    assert f["wrongload"]["status"] == "broken"
    assert f["wrongload"]["reason"] == "mis-encoded: got 48 0f 38 f0 07 0f ae e8, expected 48 0f 38 f0 06"


def test_branch_alignment_padding_is_recognised(tmp_path):
    body = "\tmov %eax,%ebx\n" * 15 + "\tjz 1f\n1:\tnop\n"
    flag = "-Wa,-mbranches-within-32B-boundaries"
    plain = text_bytes(tmp_path, [], body)
    assert text_bytes(tmp_path, [flag], body) != plain        # the flag pads this code
    d = tmp_path / "t" / "x86_64"
    d.mkdir(parents=True)
    (d / "brpad.s").write_text(f"# feature: brpad\n# expect: {plain.hex(' ')}\n{body}")
    f = features("--cflags", flag, "--add-templates", d.parent, "--features", "brpad")
    assert f["brpad"]["status"] == "yes", f["brpad"]
    assert "padding" in f["brpad"]["reason"]
    assert features("--add-templates", d.parent, "--features", "brpad")["brpad"]["reason"] == ""
