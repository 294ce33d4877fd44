# SPDX-License-Identifier: MIT
"""cc-probe's inline-asm questions (FFmpeg's and x264's: ebx as an operand
and as a clobber, 6 and 7 free registers, xmm clobbers, local and
non-local labels, a C global named directly, arm's %Q/%R and plain inline
asm), answered by the `holds:' bytes in asmcap_probe's code and the
`reloc:' relocation against the global.  Each answer is derived here
without asmcap: the template compiled with the same flags, -Werror, and
the function's disassembly (GNU objdump) read for the instruction with the
register the constraint asked for, the callee-saved ebx pushed, the
branch's target at the label, the relocation against asmcap_symbol.  Measured (2026-12, Debian 12):
  x86_64 -O2, every compiler                     every answer yes
  -m32 -O2: gcc-12 rejects "xmm0" as a clobber without SSE ('cannot be
  clobbered ... for the current target'); clang-14/19 take it
  -m32 -O0 -fPIC: no compiler finds 7 registers (ebp is the frame pointer)
  -masm=intel: clang reads `1b' as a binary number: asm-labels no
A fake compiler that drops the clobber, moves the "b" operand to another
register, aims the branch outside the function or names another symbol
gets `broken' (a no)."""
import json
import re
import subprocess
import tempfile
import pathlib

import pytest

from conftest import FAKES, ROOT, asmcap, need_tool

TEMPLATES = ROOT / "templates"
X86 = ["ebx-operand", "ebx-clobber", "xmm-clobber", "asm-labels", "asm-nonlocal-labels", "x86-6regs",
       "x86-7regs", "asm-direct-symbol-refs"]
ARM = ["arm-asm-mod-q", "arm-basic"]
ARM_FLAGS = ["--target=armv7a-linux-gnueabihf", "-march=armv7-a", "-mfpu=vfpv3-d16"]
CONFIGS = ["-O2", "-O0", "-m32 -O2", "-m32 -O0 -fPIC", "-O2 -masm=intel"]
# the measured `no's (every other answer of the config is yes)
NO = {("gcc-12", "-m32 -O2"): {"xmm-clobber"}, ("gcc-12", "-m32 -O0 -fPIC"): {"xmm-clobber", "x86-7regs"},
      ("clang-14", "-m32 -O0 -fPIC"): {"x86-7regs"}, ("clang-19", "-m32 -O0 -fPIC"): {"x86-7regs"},
      ("clang-14", "-O2 -masm=intel"): {"asm-labels"}, ("clang-19", "-O2 -masm=intel"): {"asm-labels"}}
FAKE = FAKES / "cc-cprobe"


def path_of(name, m32):
    if name.startswith("arm-"):
        return TEMPLATES / "arm" / "c" / f"{name}-inline.c"
    return TEMPLATES / ("i386" if m32 else "x86_64") / "c" / f"{answer_name(name, m32)}.c"


def disassemble(cc, flags, path, objdump):
    """asmcap_probe's objdump lines, or None when the compile fails."""
    with tempfile.TemporaryDirectory() as tmp:
        obj = pathlib.Path(tmp, "p.o")
        r = subprocess.run([*cc.split(), *flags, "-Werror", "-c", str(path), "-o", str(obj)], capture_output=True)
        if r.returncode:
            return None
        dis = subprocess.run([need_tool(objdump), "-dr", "--no-show-raw-insn", str(obj)], capture_output=True,
                             text=True, check=True).stdout
    # the named label's own heading is not the end of the function
    dis = re.sub(r"\n\n[0-9a-f]+ <asmcap_nonlocal_label>:\n", "\n", dis)
    return [l.strip() for l in dis.split("<asmcap_probe>:", 1)[1].split("\n\n", 1)[0].splitlines() if l.strip()]


def branch_to_label(code):
    """dec %ecx, then a jne whose target is the dec's own address."""
    for a, b in zip(code, code[1:]):
        ma, mb = re.match(r"([0-9a-f]+):\s+dec\s+%ecx$", a), re.match(r"[0-9a-f]+:\s+jne\s+([0-9a-f]+) <", b)
        if ma and mb and int(ma.group(1), 16) == int(mb.group(1), 16):
            return True
    return False


def chained_adds(code, n):
    """n-1 consecutive register-to-register adds."""
    adds = "".join("A" if re.search(r"\badd[lq]?\s+%\w+,%\w+$", l) else "." for l in code)
    return "A" * (n - 1) in adds


def found(name, code):
    text = "\n".join(code)
    return {"ebx-operand": lambda: re.search(r"add\s+\$0x55,%ebx$", text, re.M),
            "ebx-clobber": lambda: re.search(r"mov\s+\$0x55,%ebx$", text, re.M) and
            re.search(r"push\s+%[re]bx$", text, re.M),
            "xmm-clobber": lambda: re.search(r"pxor\s+%xmm0,%xmm0$", text, re.M),
            "asm-labels": lambda: branch_to_label(code),
            "asm-nonlocal-labels": lambda: branch_to_label(code),
            "x86-6regs": lambda: chained_adds(code, 6),
            "x86-7regs": lambda: chained_adds(code, 7),
            "asm-direct-symbol-refs": lambda: re.search(r"mov\s+%eax,0x0(\(%rip\))?.*\n.*R_(X86_64_PC32|386_32)"
                                                        r"\s+asmcap_symbol\b", text),
            "arm-asm-mod-q": lambda: re.search(r"adds\s+r4, r4, r6\n.*adc(\.w)?\s+r5, r5, r7$", text, re.M),
            "arm-basic": lambda: re.search(r"add(\.w)?\s+r0, r1, r2$", text, re.M)}[name]()


def independent(cc, flags, name, objdump="objdump"):
    code = disassemble(cc, flags, path_of(name, "-m32" in flags), objdump)
    return "no" if code is None else "yes" if found(name, code) else "broken"


def answer_name(name, m32):
    return f"i386-{name}-inline" if m32 and not name.startswith("arm-") else f"{name}-inline"


def verdicts(cc, cflags, names, env=None):
    m32 = "-m32" in cflags
    r = asmcap("cc-probe", "--cc", cc, "--cflags", cflags, "--features",
               ",".join(answer_name(n, m32) for n in names), "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)["features"]
    return {n: (d[answer_name(n, m32)]["status"], d[answer_name(n, m32)]["reason"]) for n in names}


@pytest.mark.parametrize("cflags", CONFIGS)
@pytest.mark.parametrize("cc", [pytest.param(cc, marks=pytest.mark.tools(cc))
                                for cc in ("gcc-12", "clang-14", "clang-19")])
def test_x86_inline_asm_agrees_with_the_objects(cc, cflags):
    got = {n: s for n, (s, _) in verdicts(cc, cflags, X86).items()}
    mine = {n: independent(cc, cflags.split(), n) for n in X86}
    assert got == mine
    assert mine == {n: "no" if n in NO.get((cc, cflags), ()) else "yes" for n in X86}


@pytest.mark.parametrize("thumb", [[], ["-mthumb"]], ids=["arm", "thumb"])
@pytest.mark.parametrize("cc", [pytest.param(cc, marks=pytest.mark.tools(cc)) for cc in ("clang-14", "clang-19")])
def test_arm_inline_asm_agrees_with_the_objects(cc, thumb):
    flags = ["-O2", *ARM_FLAGS[1:], *thumb]
    got = {n: s for n, (s, _) in verdicts(f"{cc} {ARM_FLAGS[0]}", " ".join(flags), ARM).items()}
    mine = {n: independent(cc, [ARM_FLAGS[0], *flags], n, "arm-linux-gnueabihf-objdump") for n in ARM}
    assert got == mine == {n: "yes" for n in ARM}


@pytest.mark.parametrize("cflags", ["-O2", "-m32 -O2"])
@pytest.mark.parametrize("mode,names", [("noclobber", ["ebx-clobber"]), ("reg", ["ebx-operand"]),
                                        ("farlabel", ["asm-labels", "asm-nonlocal-labels"]),
                                        ("othersym", ["asm-direct-symbol-refs"])])
def test_a_compiler_that_loses_the_effect_is_not_yes(mode, names, cflags):
    assert {n: verdicts("gcc-12", cflags, [n])[n][0] for n in names} == {n: "yes" for n in names}
    got = verdicts(str(FAKE), cflags, names, env={"CPROBE_FAKE": mode})
    for name, (status, reason) in got.items():
        assert status == "broken", (name, reason)
        assert ("does not hold `" in reason and "(holds:)" in reason) or "no relocation against asmcap_symbol (reloc:" \
            in reason, (name, reason)


@pytest.mark.tools("x86_64-w64-mingw32-gcc")
def test_win64_inline_asm_agrees_with_the_objects():
    # LLP64: `long' is 32 bits there, so the register-budget probes' 64-bit
    # operands are `long long'.  COFF relocations are not read (reloc:),
    # and at -O0 a named label ends the function for a reader without
    # symbol sizes: -O2, without asm-direct-symbol-refs.
    cc, names = "x86_64-w64-mingw32-gcc", [n for n in X86 if n != "asm-direct-symbol-refs"]
    got = {n: s for n, (s, _) in verdicts(cc, "-O2", names).items()}
    mine = {n: independent(cc, ["-O2"], n) for n in names}
    assert got == mine == {n: "yes" for n in names}
