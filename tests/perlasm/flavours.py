# SPDX-License-Identifier: MIT
"""Generate every flavour of a perlasm source, assemble each with its real
assembler and check the objects (used by `make flavours` and the tests).

    python3 tests/perlasm/flavours.py --caps build/caps.json --out build/flavours SOURCE

SOURCE is a generator (`perl SOURCE FLAVOUR CAPS`, e.g. perlasm/x86_64-mont.pl)
or a dialect file (*.s, translated with perlasm/Xlate.pm). COFF and Mach-O
objects cannot run here: they are assembled and checked (symbols, SEH
unwind data against the instructions, disassembly against the ELF object)
and reported as "not run". The nasm-elf objects (nasm and yasm) are checked
against the elf object (disassembly, symbol kinds, notes) and, for the
Montgomery generator, run against it on random inputs."""
import argparse
import difflib
import pathlib
import random
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
XLATE = ROOT / "perlasm" / "Xlate.pm"
FLAVOURS = ("elf", "macosx", "mingw64", "nasm", "masm", "elf-win64", "nasm-elf")
INTEL_SYNTAX = ("nasm", "masm", "nasm-elf")      # their sources are .asm
# the Win64 flavours: COFF objects with .pdata/.xdata, not run here
WIN64 = ("mingw64", "nasm", "masm")
LLVM_ML = "/usr/lib/llvm-19/bin/llvm-ml"

# flavour -> [(assembler label, argv before "-o OBJ SRC")]
ASSEMBLERS = {
    "elf": [("gcc", ["gcc", "-c", "-x", "assembler"]),
            ("clang-14", ["clang-14", "-c", "-x", "assembler"])],
    "macosx": [("clang-14 macos", ["clang-14", "-target", "x86_64-apple-macos10.15",
                                   "-c", "-x", "assembler"])],
    "mingw64": [("mingw64-as", ["x86_64-w64-mingw32-as"])],
    "nasm": [("nasm", ["nasm", "-f", "win64", "-g"])],
    "masm": [("llvm-ml", [LLVM_ML, "-m64", "/c"])],
    "elf-win64": [("gcc", ["gcc", "-c", "-x", "assembler"])],
    "nasm-elf": [("nasm", ["nasm", "-f", "elf64"]), ("yasm", ["yasm", "-f", "elf64"])],
}
OBJDUMP = {"elf": "objdump", "elf-win64": "objdump", "nasm-elf": "objdump",
           "mingw64": "x86_64-w64-mingw32-objdump",
           "nasm": "x86_64-w64-mingw32-objdump", "masm": "x86_64-w64-mingw32-objdump",
           "macosx": "llvm-objdump-14"}
# What the Win64 translation adds to each function (objdump's AT&T text).
ABI_ENTRY = {"push %rdi", "push %rsi", "mov %rcx,%rdi", "mov %rdx,%rsi", "mov %r8,%rdx",
             "mov %r9,%rcx", "mov 0x38(%rsp),%r8", "mov 0x40(%rsp),%r9"}
ABI_EXIT = ["pop %rsi", "pop %rdi"]


class CheckError(Exception):
    pass


def run(argv, **kw):
    p = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=120, **kw)
    if p.returncode:
        raise CheckError(f"{' '.join(map(str, argv))}: exit {p.returncode}\n{p.stderr.strip()}")
    return p.stdout


def generate(source, flavour, caps, out):
    """Translate SOURCE to FLAVOUR into file OUT; returns OUT."""
    source = pathlib.Path(source)
    if source.suffix == ".s":
        argv = ["perl", XLATE, flavour, caps, source]
    else:
        argv = ["perl", source, flavour, caps]
    text = run(argv)
    pathlib.Path(out).write_text(text)
    return pathlib.Path(out)


def assemble(flavour, src, obj, which=0):
    label, argv = ASSEMBLERS[flavour][which]
    # ml64's options start with /, so its paths go joined to /Fo and /Ta
    run([*argv, f"/Fo{obj}", f"/Ta{src}"] if flavour == "masm" else [*argv, "-o", obj, src])
    return label


def symbols(flavour, obj):
    """{name: (type letter, address)} of defined symbols, as the object names them."""
    tool = {"macosx": ["llvm-nm-14", "-m"]}.get(flavour, ["x86_64-w64-mingw32-nm"] if flavour in WIN64 else ["nm"])
    out = run([*tool, obj])
    syms = {}
    for line in out.splitlines():
        if flavour == "macosx":  # 0000 (__TEXT,__text) [private] external _name
            m = re.match(r"([0-9a-f]+) \(__TEXT,__text\) (.*?)(\S+)$", line)
            if m:
                kind = m.group(2)
                letter = "t" if "non-external" in kind else ("h" if "private external" in kind else "T")
                syms[m.group(3)] = (letter, int(m.group(1), 16))
            continue
        m = re.match(r"([0-9a-f]+) (\w) (\S+)$", line)
        if m:
            syms[m.group(3)] = (m.group(2), int(m.group(1), 16))
    return syms


def global_name(flavour, name):
    return "_" + name if flavour == "macosx" else name


def disassembly(flavour, obj, functions, tool=None):
    """[(function, normalised text, address, jump target address or None)] in
    address order; a "<fn>" entry starts each of FUNCTIONS (other symbols,
    such as the local labels nasm keeps, do not split functions). Jumps read
    "jcc TARGET": where they go is checked by check_targets."""
    out = run([tool or OBJDUMP[flavour], "-d", "--no-show-raw-insn", obj])
    names = {global_name(flavour, f): f for f in functions}
    seq, fn = [], None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\S+)>:$", line)
        if m:
            if m.group(1) in names:
                fn = names[m.group(1)]
                seq.append((fn, "<fn>", None, None))
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S.*)$", line)
        if not m or fn is None:
            continue
        addr, text, target = int(m.group(1), 16), m.group(2), None
        raw = text
        text = re.sub(r"\s*#.*$", "", text)             # objdump's comments
        text = re.sub(r"\s*<[^>]*>", "", text)           # <sym+off>
        text = re.sub(r"-?0x[0-9a-f]+\(%rip\)", "X(%rip)", text)
        text = re.sub(r",\s+", ",", text.strip())
        text = re.sub(r"\s+", " ", text)
        text = re.sub(r"\$(\d+)(?=,|$)", lambda m: f"${int(m.group(1)):#x}", text)  # llvm: decimal
        # nasm writes mov $imm31,%r64 as the shorter, equivalent mov $imm31,%r32
        m = re.match(r"mov \$(0x[0-9a-f]+),%(e\w\w|r\d+d)$", text)
        if m and int(m.group(1), 16) < 0x80000000:
            r = m.group(2)
            text = f"mov ${m.group(1)},%" + ("r" + r[1:] if r[0] == "e" else r[:-1])
        mn = text.split(" ", 1)[0]
        if mn.startswith("j") or mn == "loop":
            t = re.match(r"\S+\s+(?:0x)?([0-9a-f]+)", raw)
            target = int(t.group(1), 16)
            text = mn + " TARGET"
        if mn in ("nop", "nopw", "nopl", "xchg", "data16", "cs", "int3", "endbr64") and (
                "nop" in text or text in ("xchg %ax,%ax", "int3", "endbr64")):
            continue                                     # padding, CET marker
        seq.append((fn, text, addr, target))
    return seq


def check_targets(a, b, amap):
    """Every jump of A and its counterpart in B (amap: index in A -> index in
    B) land on counterpart instructions. Where B has the inserted Win64 exit
    (pop %rsi; pop %rdi) before a ret, a jump to that ret must land on the
    inserted pops: the label stands before them."""
    def index(seq):
        addrs = [(x[2], i) for i, x in enumerate(seq) if x[2] is not None]
        def at(target):   # first kept instruction at or after target (padding dropped)
            return min((i for addr, i in addrs if addr >= target), default=None)
        return at
    at_a, at_b = index(a), index(b)
    mapped = set(amap.values())
    for i, j in amap.items():
        if a[i][3] is None:
            continue
        ta, tb = at_a(a[i][3]), at_b(b[j][3])
        want = amap.get(ta)
        n = len(ABI_EXIT)
        if want is not None and want >= n and [x[1] for x in b[want - n:want]] == ABI_EXIT \
                and not mapped & set(range(want - n, want)):
            want -= n
        if tb != want:
            def show(seq, k):
                return f"'{seq[k][1]}' at {seq[k][2]:#x}" if k is not None and k < len(seq) else "nowhere"
            raise CheckError(f"{a[i][0]}: '{a[i][1]}' at {a[i][2]:#x} goes to {show(a, ta)},"
                             f" its counterpart at {b[j][2]:#x} to {show(b, tb)} (expected {show(b, want)})")


def _rsp_imm(text, op):
    m = re.match(rf"{op} \$(0x[0-9a-f]+),%rsp$", text)
    return int(m.group(1), 16) if m else None


def xmm_frame(a, b):
    """Where Win64 saved vector registers 6-15: A's `sub $N,%rsp` is B's ABI
    entry (if any), `sub $M,%rsp` and movups saves to 16-byte slots from N
    rounded up to 16 (M covering them), or A's `add $N,%rsp` is B's movups
    restores from the same slots, `add $M,%rsp` and the ABI exit (if any).
    B's index of the sub or add, or None."""
    n = _rsp_imm(a[0], "sub") if len(a) == 1 else None
    k = next((i for i, t in enumerate(b) if t not in ABI_ENTRY), len(b))
    slot = r"%(xmm(?:[6-9]|1[0-5])),(0x[0-9a-f]+)\(%rsp\)"
    if n is not None and k < len(b) and _rsp_imm(b[k], "sub") is not None:
        moves, at = [re.match(rf"movups {slot}$", t) for t in b[k + 1:]], k
    else:
        n = _rsp_imm(a[0], "add") if len(a) == 1 else None
        tail = b[len(b) - 2:] == ABI_EXIT and 2 or 0
        at = len(b) - tail - 1
        if n is None or at < 1 or _rsp_imm(b[at], "add") is None:
            return None
        moves = [re.match(r"movups (0x[0-9a-f]+)\(%rsp\),%(xmm(?:[6-9]|1[0-5]))$", t) for t in b[:at]]
        moves = [m and re.match(rf"movups {slot}$", f"movups %{m.group(2)},{m.group(1)}(%rsp)")
                 for m in moves]
    first = (n + 15) & ~15
    offs = [int(m.group(2), 16) if m else -1 for m in moves]
    if not offs or offs != list(range(first, first + 16 * len(offs), 16)) \
            or _rsp_imm(b[at], "sub" if at == k else "add") < first + 16 * len(offs):
        return None
    return at


def compare_disassembly(native, win64):
    """The Win64 object must be the SysV one plus only the ABI entry after each
    function start and `pop %rsi; pop %rdi` before each ret, and where it saves
    vector registers 6-15, their saves and restores (xmm_frame). Returns a
    summary."""
    a = [x[1] for x in native]
    b = [x[1] for x in win64]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    inserted = 0
    amap = {}
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            amap.update(zip(range(i1, i2), range(j1, j2)))
            continue
        at = xmm_frame(a[i1:i2], b[j1:j2]) if op == "replace" else None
        if at is not None:
            amap[i1] = j1 + at
            inserted += j2 - j1 - 1
            continue
        if op != "insert":
            raise CheckError(f"disassembly differs beyond the ABI code: {op} {a[i1:i2]} -> {b[j1:j2]}")
        block = b[j1:j2]
        at_entry = j1 > 0 and b[j1 - 1] == "<fn>" and all(t in ABI_ENTRY for t in block)
        at_exit = block == ABI_EXIT and j2 < len(b) and b[j2].startswith("ret")
        if not (at_entry or at_exit):
            raise CheckError(f"unexpected inserted instructions {block} (after {b[j1 - 1] if j1 else 'start'})")
        inserted += len(block)
    check_targets(native, win64, amap)
    return f"{len(a) - a.count('<fn>')} insns equal, {inserted} ABI insns added"


def compare_same(x, y, what):
    a = [t[1] for t in x]
    b = [t[1] for t in y]
    if a != b:
        diff = "\n".join(list(difflib.unified_diff(a, b, lineterm=""))[:20])
        raise CheckError(f"{what}: disassembly differs\n{diff}")
    check_targets(x, y, {i: i for i in range(len(a))})
    return f"{len(a) - a.count('<fn>')} insns identical"


def unwind_info(obj):
    """Parse `objdump -x` of a COFF object: [{begin, end, prologue, codes}]."""
    out = run(["x86_64-w64-mingw32-objdump", "-x", obj])
    table = []
    m = re.search(r"The Function Table.*?\n(.*?)\n\n", out, re.S)
    if not m:
        raise CheckError("no .pdata function table")
    for line in m.group(1).splitlines():
        f = re.match(r"\s*[0-9a-f]+:\s+([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+)", line)
        if f:
            table.append({"begin": int(f.group(1), 16), "end": int(f.group(2), 16),
                          "xdata": int(f.group(3), 16)})
    infos = {}
    for blk in re.finditer(r"\n ([0-9a-f]+) \(rva: [0-9a-f]+\): ([0-9a-f]+) - ([0-9a-f]+)\n(.*?)(?=\n [0-9a-f]+ \(rva|\n\n|\Z)",
                           out, re.S):
        body = blk.group(4)
        v = re.search(r"Version: (\d+), Flags: (\S+)", body)
        p = re.search(r"Nbr codes: (\d+), Prologue size: 0x([0-9a-f]+), Frame offset: 0x([0-9a-f]+), Frame reg: (\S+)", body)
        if not (v and p):
            raise CheckError(f"cannot read unwind info:\n{body}")
        codes = []
        for c in re.finditer(r"pc\+0x([0-9a-f]+): (.*)", body):
            codes.append((int(c.group(1), 16), c.group(2).strip()))
        infos[int(blk.group(1), 16)] = {"version": int(v.group(1)), "flags": v.group(2),
                                        "count": int(p.group(1)), "prologue": int(p.group(2), 16),
                                        "framereg": p.group(4), "codes": codes}
    for t in table:
        if t["xdata"] not in infos:
            raise CheckError(f"pdata entry {t} points at no unwind info")
        t.update(infos[t["xdata"]])
    return table


def check_unwind(flavour, obj, functions):
    """Every function has a .pdata entry whose unwind codes name, at each code
    offset, the instruction that really ends there (push REG / sub $N,%rsp /
    movups %xmmN,OFF(%rsp))."""
    syms = symbols(flavour, obj)
    table = unwind_info(obj)
    ends = {addr + len(b): text for insns in function_code(flavour, obj, functions).values()
            for addr, b, text in insns}
    by_begin = {t["begin"]: t for t in table}
    report = []
    for name in functions:
        addr = syms[name][1]
        t = by_begin.get(addr)
        if not t:
            raise CheckError(f"{name}: no .pdata entry at {addr:#x}")
        if t["version"] != 1 or t["flags"] != "none" or t["framereg"] != "none":
            raise CheckError(f"{name}: unexpected unwind header {t}")
        if not t["end"] > t["begin"]:
            raise CheckError(f"{name}: empty range {t}")
        pcs = [pc for pc, _ in t["codes"]]
        if pcs != sorted(pcs, reverse=True) or not pcs or pcs[0] != t["prologue"]:
            raise CheckError(f"{name}: code offsets {pcs} not descending from prologue size {t['prologue']}")
        for pc, what in t["codes"]:
            insn = ends.get(addr + pc, "(no instruction ends here)")
            m = re.match(r"push (\w+)$", what)
            a = re.match(r"alloc (?:small|large) area: rsp = rsp - 0x([0-9a-f]+)$", what)
            x = re.match(r"save (xmm\d+) at rsp \+ 0x([0-9a-f]+)$", what)
            ok = (m and insn == f"push %{m.group(1)}") or (
                a and insn == f"sub ${int(a.group(1), 16):#x},%rsp") or (
                x and insn == f"movups %{x.group(1)},{_disp(int(x.group(2), 16))}(%rsp)")
            if not ok:
                raise CheckError(f"{name}: unwind code '{what}' at pc+{pc:#x}, instruction there: {insn}")
        if t["codes"][-1][1] != "push rdi" or t["codes"][-2][1] != "push rsi":
            raise CheckError(f"{name}: rdi/rsi saves not the first prologue operations: {t['codes']}")
        report.append(f"{name}: " + ", ".join(w for _, w in t["codes"]))
    return report


def function_code(flavour, obj, functions):
    """{function: [(address, [bytes], text)]} from objdump -d, each function
    running from its symbol to the next one's (or the end of .text)."""
    syms = symbols(flavour, obj)
    starts = sorted((syms[global_name(flavour, f)][1], f) for f in functions)
    insns = []
    for line in run([OBJDUMP[flavour], "-d", "--insn-width=16", obj]).splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), [int(x, 16) for x in m.group(2).split()],
                          re.sub(r"\s+", " ", m.group(3).strip())))
    code = {}
    for k, (start, f) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else float("inf")
        code[f] = [x for x in insns if start <= x[0] < end]
    return code


def _disp(off):
    """A displacement as objdump writes it (no 0x0)."""
    return f"{off:#x}" if off else ""


def stack_states(insns):
    """Simulate %rsp through a function: for each instruction, the CFA offset
    before it (CFA = %rsp + depth; 8 at entry: the return address) and
    {register: depth right after its push} (saved at CFA - depth; an xmm
    register stored to the stack likewise, at CFA - depth + offset)."""
    depth, saved, body, states = 8, {}, 8, []
    for _, _, text in insns:
        states.append((depth, dict(saved)))
        m = re.match(r"(push|pop) %(\w+)$", text)
        a = re.match(r"(sub|add) \$0x([0-9a-f]+),%rsp$", text)
        x = re.match(r"movups %(xmm\d+),(0x[0-9a-f]+)?\(%rsp\)$", text)
        if x:
            saved[x.group(1)] = depth - int(x.group(2) or "0", 16)
        elif m and m.group(1) == "push":
            depth += 8
            saved[m.group(2)] = depth
            body = depth
        elif m:
            depth -= 8
        elif a:
            depth += int(a.group(2), 16) * (1 if a.group(1) == "sub" else -1)
            body = max(body, depth)
        elif text.startswith("ret"):
            depth = body          # what follows a ret is body code
    return states


def check_cfi(flavour, obj, functions):
    """The .eh_frame rules (readelf -wF) against the simulated stack: at every
    instruction CFA = %rsp + depth, and in the body each pushed register is
    saved where its push put it."""
    fdes = {}
    for blk in re.finditer(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)\n(.*?)(?:\n\n|\Z)",
                           run(["readelf", "-wF", obj]), re.S):
        lines = blk.group(3).splitlines()
        cols = lines[0].split()
        rows = [dict(zip(cols, r.split())) for r in lines[1:] if r.strip()]
        fdes[int(blk.group(1), 16)] = [(int(r["LOC"], 16), r) for r in rows]
    for name, insns in function_code(flavour, obj, functions).items():
        rows = fdes.get(insns[0][0])
        if not rows:
            raise CheckError(f"{name}: no FDE in .eh_frame")
        body = max(d for d, _ in stack_states(insns))
        for (addr, _, text), (depth, saved) in zip(insns, stack_states(insns)):
            row = [r for loc, r in rows if loc <= addr][-1]
            where = f"{name}+{addr - insns[0][0]:#x} ({text})"
            if row["CFA"] != f"rsp+{depth}":
                raise CheckError(f"{where}: CFA {row['CFA']}, stack says rsp+{depth}")
            if depth == body:
                # the Win64 vector saves have no DWARF rule: SysV has no
                # callee-saved vector registers
                for reg, off in ((r, o) for r, o in saved.items() if not r.startswith("xmm")):
                    if row.get(reg) != f"c-{off}":
                        raise CheckError(f"{where}: {reg} rule {row.get(reg)}, pushed at c-{off}")
    return f"CFI matches the stack ({len(functions)} FDEs)"


REG_NUM = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"] + [f"r{i}" for i in range(8, 16)]


def win64_epilogue(insns, i):
    """What the Windows unwinder sees at instruction i: None if it is not in an
    epilogue, else the remaining ops [("add", n) | ("pop", reg) | ("ret",)]
    (add $imm,%rsp, then pops, then ret: the forms it recognises)."""
    ops, j = [], i
    b = insns[j][1]
    if b[:3] == [0x48, 0x83, 0xc4] and len(b) == 4:
        ops.append(("add", b[3] - 256 * (b[3] > 127)))
        j += 1
    elif b[:3] == [0x48, 0x81, 0xc4] and len(b) == 7:
        ops.append(("add", int.from_bytes(bytes(b[3:]), "little", signed=True)))
        j += 1
    while j < len(insns):
        b = insns[j][1]
        if len(b) == 1 and 0x58 <= b[0] <= 0x5f:
            ops.append(("pop", REG_NUM[b[0] - 0x58]))
        elif len(b) == 2 and b[0] == 0x41 and 0x58 <= b[1] <= 0x5f:
            ops.append(("pop", REG_NUM[8 + b[1] - 0x58]))
        else:
            break
        j += 1
    if j < len(insns) and insns[j][1] == [0xc3]:
        return ops + [("ret",)]
    return None


def check_seh_walk(flavour, obj, functions):
    """Unwind from every instruction of every function the way Windows does
    (simulate the rest of an epilogue, else apply the unwind codes of the
    prologue operations done so far) and check against the simulated stack:
    the return address found where the call left it, every restored register
    read from where its push saved it."""
    table = {t["begin"]: t for t in unwind_info(obj)}
    walked = 0
    for name, insns in function_code(flavour, obj, functions).items():
        t = table[insns[0][0]]
        for i, ((addr, _, text), (depth, saved)) in enumerate(zip(insns, stack_states(insns))):
            if addr >= t["end"]:
                break
            off, ep = addr - t["begin"], win64_epilogue(insns, i)
            consumed, restored = 0, {}
            if ep is not None:
                for op in ep:
                    if op[0] == "add":
                        consumed += op[1]
                    elif op[0] == "pop":
                        restored[op[1]] = consumed
                        consumed += 8
            else:
                for pc, what in t["codes"]:
                    if off < t["prologue"] and pc > off:
                        continue      # that prologue operation has not run yet
                    m = re.match(r"push (\w+)$", what)
                    a = re.match(r"alloc (?:small|large) area: rsp = rsp - 0x([0-9a-f]+)$", what)
                    x = re.match(r"save (xmm\d+) at rsp \+ 0x([0-9a-f]+)$", what)
                    if m:
                        restored[m.group(1)] = consumed
                        consumed += 8
                    elif x:
                        restored[x.group(1)] = consumed + int(x.group(2), 16)
                    else:
                        consumed += int(a.group(1), 16)
            where = f"{name}+{off:#x} ({text}){' in epilogue' if ep else ''}"
            if consumed != depth - 8:
                raise CheckError(f"{where}: unwinding finds the return address at rsp+{consumed},"
                                 f" it is at rsp+{depth - 8}")
            for reg, at in restored.items():
                if reg not in saved or at != depth - saved[reg]:
                    raise CheckError(f"{where}: unwinding restores {reg} from rsp+{at}, saved at "
                                     + (f"rsp+{depth - saved[reg]}" if reg in saved else "no slot"))
            walked += 1
    return f"SEH unwinds from all {walked} instructions"


def link_dll(obj):
    """Link a COFF object into a PE DLL (no entry point), so the image's
    function table shows the .pdata relocations resolved."""
    dll = pathlib.Path(f"{obj}.dll")
    run(["x86_64-w64-mingw32-ld", "-shared", "-e", "0", "--export-all-symbols", "-o", dll, obj])
    return dll


def elf_symbol_kinds(obj, functions):
    """{function: (type, binding, visibility, has a size)} from readelf -s."""
    kinds = {}
    for line in run(["readelf", "-sW", obj]).splitlines():
        f = line.split()
        if len(f) == 8 and f[7] in functions:
            kinds[f[7]] = (f[3], f[4], f[5], int(f[2]) > 0)
    return kinds


def elf_notes(obj):
    """(.note.GNU-stack flags or None, the x86 feature property or None)."""
    stack = re.search(r"\.note\.GNU-stack\s+(\S+)(?:\s+\S+){4}\s+([A-Z]*)\s+\d", run(["readelf", "-SW", obj]))
    prop = re.search(r"Properties: x86 feature: (.*)$", run(["readelf", "-nW", obj]), re.M)
    return (stack.group(2) if stack else None, prop.group(1) if prop else None)


def check_like_elf(obj, ref, functions):
    """An ELF object from another assembler (nasm-elf) declares the functions
    and the notes the way the elf flavour's object does."""
    got, want = elf_symbol_kinds(obj, functions), elf_symbol_kinds(ref, functions)
    if got != want:
        raise CheckError(f"symbol kinds (type, binding, visibility, sized) {got}, elf has {want}")
    stack, prop = elf_notes(obj)
    if stack is None or "X" in stack:
        raise CheckError(f".note.GNU-stack missing or executable (flags {stack!r}): executable stack")
    if prop != elf_notes(ref)[1]:
        raise CheckError(f"x86 feature property {prop!r}, elf has {elf_notes(ref)[1]!r}"
                         " (ld reads it only from a SHT_NOTE section)")
    return f"symbols {'/'.join(sorted({' '.join(k[:3]) for k in got.values()}))}, GNU-stack note"


def functions_of(dialect_elf_text):
    """Global function names, from the elf translation (.globl lines)."""
    return re.findall(r"^\s*\.globl\s+(\w+)", dialect_elf_text, re.M)


HERE = ROOT / "tests" / "perlasm"
CFLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]


def build_abi_run(source, caps, out, driver, cc="gcc", incl=()):
    """Link DRIVER with SOURCE translated to elf (SysV) and to elf-win64
    (symbols renamed w64_...) and the register-check harness; returns the
    executable."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    objs = []
    for fl in ("elf", "elf-win64"):
        src = generate(source, fl, caps, out / f"{fl}.s")
        assemble(fl, src, out / f"{fl}.o")
        objs.append(out / f"{fl}.o")
    run(["objcopy", "--prefix-symbols=w64_", objs[1], out / "w64.o"])
    exe = out / "run"
    run([cc, *CFLAGS, f"-I{HERE}", *(f"-I{i}" for i in incl), "-o", exe, driver,
         HERE / "abicheck.c", HERE / "abicheck.S", objs[0], out / "w64.o"])
    return exe


def run_abi(source, caps, out):
    """Run the SysV and the Win64 (ms_abi) code side by side: the sample's
    own driver, or for the Montgomery generator the kernel comparison.
    Returns the driver's summary line; raises CheckError on failure."""
    source = pathlib.Path(source)
    out = pathlib.Path(out) / "abi-run"
    incl = []
    if source.suffix == ".s":
        driver = HERE / "sample_run.c"
    else:
        out.mkdir(parents=True, exist_ok=True)
        (out / "mont-kernels.h").write_text(run(["perl", source, "--header", caps]))
        driver, incl = HERE / "kernels_w64.c", [out]
    exe = build_abi_run(source, caps, out, driver, incl=incl)
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    if p.returncode:
        raise CheckError(f"{exe}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    return p.stdout.strip().splitlines()[-1]


KERNEL_DRIVER = ROOT / "tests" / "kernels" / "driver.c"


def kernel_cases(adx, seed=1):
    """Random cases for tests/kernels/driver.c: every kernel, num 4..20 and
    some larger sizes, every aliasing; returns (input text, cases)."""
    rnd = random.Random(seed)
    kernels = ["mul_mulq", "sqr_mulq"] + (["mul_adx", "sqr_adx"] if adx else [])
    cases = []
    for k in kernels:
        for num in [*range(4, 21), 31, 32, 33, 64, 127, 128]:
            for alias in ("none", "ra", "rb", "rab"):
                n = rnd.getrandbits(64 * num) | 1 << (64 * num - 1) | 1
                cases.append((k, alias, num, n, rnd.randrange(n), rnd.randrange(n)))
    def limbs(x, num):
        return " ".join(f"{(x >> (64 * i)) & (2**64 - 1):x}" for i in range(num))
    text = "".join(f"{k} {al} {num} {(-pow(n, -1, 2**64)) % 2**64:x} {limbs(n, num)} "
                   f"{limbs(a, num)} {limbs(b, num)}\n" for k, al, num, n, a, b in cases)
    return text, cases


def run_kernels_against_elf(source, caps, out, which):
    """The Montgomery kernels assembled from nasm-elf (ASSEMBLERS[which]) and
    from elf (gcc), each linked into tests/kernels/driver.c: both must give
    the same results on random inputs, and those results must be right.
    Returns a summary; raises CheckError."""
    label = ASSEMBLERS["nasm-elf"][which][0]
    out = pathlib.Path(out) / f"nasm-elf-run-{label}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "mont-kernels.h").write_text(run(["perl", source, "--header", caps]))
    exes = {}
    for fl, k in (("elf", 0), ("nasm-elf", which)):
        src = generate(source, fl, caps, out / f"{fl}.{'asm' if fl in INTEL_SYNTAX else 's'}")
        assemble(fl, src, out / f"{fl}.o", k)
        exes[fl] = out / f"driver-{fl}"
        run(["gcc", *CFLAGS, f"-I{out}", "-o", exes[fl], KERNEL_DRIVER, out / f"{fl}.o"])
    generated = "#define MONT_HAVE_ADX 1" in (out / "mont-kernels.h").read_text()
    runs_adx = run([exes["elf"], "cpu"]).split() == ["adx", "1"]
    text, cases = kernel_cases(generated and runs_adx)
    got = {fl: run([exe], input=text).splitlines() for fl, exe in exes.items()}
    if len(got["nasm-elf"]) != len(cases):
        raise CheckError(f"nasm-elf ({label}) driver printed {len(got['nasm-elf'])} lines for {len(cases)} cases")
    for (k, alias, num, n, a, b), x, y in zip(cases, got["elf"], got["nasm-elf"]):
        r = sum(int(w, 16) << (64 * i) for i, w in enumerate(y.split()))
        bb = a if k.startswith("sqr") or alias == "rab" else b
        if x != y or r != a * bb * pow(2, -64 * num, n) % n:
            raise CheckError(f"nasm-elf ({label}) {k} alias={alias} num={num}: {y[:40]}..., "
                             f"elf gives {x[:40]}...")
    adx = ("ADX kernels included" if generated and runs_adx else
           "ADX kernels generated, not run: this CPU lacks ADX/BMI2" if generated else
           "no ADX kernels generated")
    return f"ok: {len(cases)} cases equal to elf and correct ({adx})"


def check_all(source, caps, out, execute=False):
    """Generate, assemble and check every flavour. Returns (rows, errors)."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = pathlib.Path(source).stem
    rows, errors, objs = [], [], {}   # objs: flavour -> [(assembler label, object)]
    funcs = []
    for fl in FLAVOURS:
        src = out / f"{stem}.{fl}.{'asm' if fl in INTEL_SYNTAX else 's'}"
        try:
            generate(source, fl, caps, src)
        except CheckError as e:
            rows.append((fl, "-", "generate FAILED", "", "")); errors.append(str(e)); continue
        if fl == "elf":
            funcs = functions_of(src.read_text())
        for k, (label, _) in enumerate(ASSEMBLERS[fl]):
            obj = out / f"{stem}.{fl}.{k}.o"
            notes = []
            try:
                assemble(fl, src, obj, k)
                syms = symbols(fl, obj)
                missing = [f for f in funcs if global_name(fl, f) not in syms]
                if missing:
                    raise CheckError(f"{fl}/{label}: symbols missing: {missing}")
                notes.append(f"{len(funcs)} symbols")
                objs.setdefault(fl, []).append((label, obj))
                if fl == "nasm-elf" and "elf" in objs:
                    notes.append(check_like_elf(obj, objs["elf"][0][1], funcs))
                if fl in WIN64:
                    check_unwind(fl, obj, funcs)
                    check_unwind(fl, link_dll(obj), funcs)
                    notes.append(".pdata/.xdata match prologues, also linked into a DLL")
                    notes.append(check_seh_walk(fl, obj, funcs))
                if ".cfi_startproc" in src.read_text():
                    if fl == "macosx":
                        fdes = run(["llvm-dwarfdump-14", "--eh-frame", obj]).count(" FDE ")
                        if fdes != len(funcs):
                            raise CheckError(f"{fl}: {fdes} FDEs in __eh_frame for {len(funcs)} functions")
                        notes.append(f"{fdes} FDEs")
                    else:
                        notes.append(check_cfi(fl, obj, funcs))
                run_state = "not run" if fl in ("macosx", *WIN64) else (
                    "see runs below" if execute else "")
                rows.append((fl, label, "assembled", "; ".join(notes), run_state))
            except (CheckError, KeyError) as e:
                rows.append((fl, label, "FAILED", str(e).splitlines()[0][:60], ""))
                errors.append(f"{fl}/{label}: {e}")
    # (object, reference, disassembler for both or None, ABI code added?)
    comparisons = [("macosx", "elf", "llvm-objdump-14", False), ("elf-win64", "elf", None, True),
                   ("mingw64", "elf", None, True), ("nasm", "mingw64", None, False),
                   ("masm", "mingw64", None, False),
                   ("nasm-elf", "elf", None, False)]
    for x, y, tool, abi in comparisons:
        if x not in objs or y not in objs:
            continue
        for k, (label, obj) in enumerate(objs[x]):   # every assembler of x against y's first
            name = f"{x} vs {y}" if k == 0 else f"{x}/{label} vs {y}"
            try:
                ref = disassembly(y, objs[y][0][1], funcs, tool)
                got = disassembly(x, obj, funcs, tool)
                res = compare_disassembly(ref, got) if abi else compare_same(ref, got, name)
                rows.append((name, tool or "objdump -d", "disassembly", res, ""))
            except CheckError as e:
                rows.append((name, tool or "objdump -d", "FAILED", str(e).splitlines()[0][:60], ""))
                errors.append(f"{name}: {e}")
    if execute and pathlib.Path(source).suffix != ".s":   # the kernels: driver.c runs them
        for k, (label, _) in enumerate(ASSEMBLERS["nasm-elf"]):
            try:
                rows.append(("nasm-elf vs elf", label, "ran",
                             run_kernels_against_elf(source, caps, out, k), "run"))
            except CheckError as e:
                rows.append(("nasm-elf vs elf", label, "FAILED", str(e).splitlines()[0][:60], "run"))
                errors.append(f"nasm-elf/{label} run: {e}")
    if execute:
        try:
            rows.append(("elf + elf-win64", "gcc", "ran", run_abi(source, caps, out), "run"))
        except CheckError as e:
            rows.append(("elf + elf-win64", "gcc", "FAILED", str(e).splitlines()[0][:60], "run"))
            errors.append(f"abi run: {e}")
    return rows, errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--caps", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("source")
    a = ap.parse_args(argv)
    rows, errors = check_all(a.source, a.caps, a.out, execute=True)
    head = ("flavour", "assembler", "result", "checks", "executed")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(5)]
    print(f"flavours of {a.source} (caps {a.caps}):")
    for r in [head, *rows]:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
