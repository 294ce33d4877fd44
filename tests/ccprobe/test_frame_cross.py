# SPDX-License-Identifier: MIT
"""asmcap frame on aarch64, arm (A32 and Thumb), riscv64, loongarch64, s390x and ppc64le (and
big-endian ppc64) where
-fstack-usage is unavailable: the prologue readers of probe/arch/ against
the figures -fstack-usage gives for the same objects (clang-19 cross
compiles of examples/sha1, git's block-sha1 case), and the Thumb function
that ends its section."""
import json
import subprocess

import pytest

from conftest import ROOT, asmcap, have

SHA1 = ROOT / "examples" / "sha1" / "sha1.c"
TARGETS = {
    "aarch64": "clang-19 --target=aarch64-linux-gnu",
    "arm": "clang-19 --target=armv7a-linux-gnueabihf -marm",
    "thumb": "clang-19 --target=armv7a-linux-gnueabihf -mthumb",
    "riscv64": "clang-19 --target=riscv64-linux-gnu",
    "loongarch64": "clang-19 --target=loongarch64-linux-gnu",
    # stmg saves into the caller's area; aghi/lay %r15 makes the frame
    "s390x": "clang-19 --target=s390x-linux-gnu",
    "ppc64le": "clang-19 --target=powerpc64le-linux-gnu",
}
# git's four W[] stores (examples/sha1/sha1.spec)
VARIANTS = ["plain=-DW_STORE=0", "volatile=-DW_STORE=1", "asm_m=-DW_STORE=2", "barrier=-DW_STORE=3"]


def no_stack_usage(tmp_path, cc):
    """cc as a compiler that has never heard of -fstack-usage."""
    w = tmp_path / "cc-no-su"
    w.write_text("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -fstack-usage ] && "
                 "{ echo \"error: unknown argument: '-fstack-usage'\" >&2; exit 1; }; done\n"
                 f"exec {cc} \"$@\"\n")
    w.chmod(0o755)
    return str(w)


def frame(src, func, cc, cflags, variants):
    args = ["frame", str(src), "--func", func, "--cc", cc, "--cflags", cflags, "--format", "json"]
    for v in variants:
        args += ["--variant", v]
    r = asmcap(*args)
    assert r.returncode == 0, r.stderr
    return {v["name"]: v for v in json.loads(r.stdout)["variants"]}


@pytest.mark.parametrize("target,opt", [(t, "-O2") for t in TARGETS] + [("thumb", "-O0"), ("riscv64", "-Os"),
                                                                         ("loongarch64", "-O0"), ("ppc64le", "-O0")])
def test_prologue_matches_stack_usage(tmp_path, target, opt):
    if not have("clang-19"):
        pytest.skip("clang-19 not installed")
    cc = TARGETS[target]
    su = frame(SHA1, "sha1_block", cc, opt, VARIANTS)
    pro = frame(SHA1, "sha1_block", no_stack_usage(tmp_path, cc), opt, VARIANTS)
    for name in su:
        assert su[name]["frame_from"] == "stack-usage" and pro[name]["frame_from"] == "prologue"
        # The same object: the same code, and the frame its prologue sets up.
        assert pro[name]["frame"] == su[name]["frame"] > 0, (name, pro[name], su[name])
        assert pro[name]["code"] == su[name]["code"]


# Big-endian Power: the same stdu r1, its words stored big-endian.  ELFv2,
# because under ELFv1 (the target's default) a function's symbol is its
# descriptor in .opd, which `frame' does not follow to the code; no libc
# header, because Debian's big-endian glibc headers are ELFv1's only (no
# gnu/stubs-64-v2.h).  A frame of 300 bytes and more, at every level.
BE_FRAME = """void take(volatile char *p);
int fill(int n)
{
	volatile char buf[300];
	for (int i = 0; i < n && i < 300; i++)
		buf[i] = (char)i;
	take(buf);
	return buf[n % 300];
}
"""


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_ppc64_big_endian_prologue_matches_stack_usage(tmp_path, opt):
    if not have("clang-19"):
        pytest.skip("clang-19 not installed")
    src = tmp_path / "fill.c"
    src.write_text(BE_FRAME)
    cc = "clang-19 --target=powerpc64-linux-gnu -mabi=elfv2"
    (su,) = frame(src, "fill", cc, opt, []).values()
    (pro,) = frame(src, "fill", no_stack_usage(tmp_path, cc), opt, []).values()
    assert su["frame_from"] == "stack-usage" and pro["frame_from"] == "prologue"
    assert pro["frame"] == su["frame"] >= 300 and pro["code"] == su["code"], (pro, su)


def test_frames_differ_between_variants(tmp_path):
    """What git measured by hand in 2009: the W[] store changes the frame."""
    if not have("clang-19"):
        pytest.skip("clang-19 not installed")
    v = frame(SHA1, "sha1_block", no_stack_usage(tmp_path, TARGETS["aarch64"]), "-O2", VARIANTS)
    assert len({x["frame"] for x in v.values()}) >= 3, v


LAST = r"""
int first(int a) { return a + 1; }
int last(const int *p, int n)
{
	int b[40];
	for (int i = 0; i < 40; i++)
		b[i] = p[i] * n;
	return b[n & 31] + b[3];
}
"""


@pytest.mark.parametrize("opt", ["-O2", "-O0"])
def test_thumb_function_that_ends_its_section(tmp_path, opt):
    """Bit 0 of a Thumb function's address is not part of it: the function
    last in .text is found, with its frame read as Thumb."""
    if not have("clang-19"):
        pytest.skip("clang-19 not installed")
    src = tmp_path / "last.c"
    src.write_text(LAST)
    cc = TARGETS["thumb"]
    su = frame(src, "last", cc, opt, ["t="])["t"]
    pro = frame(src, "last", no_stack_usage(tmp_path, cc), opt, ["t="])["t"]
    assert su["status"] == pro["status"] == "ok", (su, pro)
    assert pro["frame_from"] == "prologue" and pro["frame"] == su["frame"] >= 160
    assert pro["code"] == su["code"]
    # It really is the section's last function, at an odd address.
    obj = tmp_path / "last.o"
    subprocess.run([*cc.split(), opt, "-c", str(src), "-o", str(obj)], check=True)
    syms = subprocess.run(["readelf", "-sW", str(obj)], capture_output=True, text=True,
                          check=True).stdout
    value = {l.split()[-1]: int(l.split()[1], 16) for l in syms.splitlines() if " FUNC " in l}
    assert value["last"] & 1 and value["last"] > value["first"]
