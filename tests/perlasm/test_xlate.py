# SPDX-License-Identifier: MIT
"""perlasm/Xlate.pm: the dialect sample (tests/perlasm/sample.s) and the
Montgomery kernels in every flavour, assembled by the real assemblers;
symbols, CET, SEH unwind data; the Win64 ABI code run for real through
ms_abi (elf-win64) with callee-saved registers checked; the nasm-elf kernels
(nasm and yasm) run against the elf ones; dialect errors."""
import json
import re
import subprocess

import pytest

import flavours as fv
from conftest import ROOT

HERE = ROOT / "tests" / "perlasm"
SAMPLE = HERE / "sample.s"
GEN = ROOT / "perlasm" / "x86_64-mont.pl"
SAMPLE_FUNCS = ["xs_sum6", "xs_mul_1", "xs_forms", "xs_xmm"]
CFLAGS = fv.CFLAGS


def caps_file(dirpath, ibt=False, shstk=False, cfi=None):
    doc = {"schema": 1, "asmcap": {"version": "0.1.0", "catalog": "t"},
           "toolchain": {"way": "cc", "argv": ["gcc"], "arch": "x86_64", "format": "elf64",
                         "flavour": "elf"},
           "build": {"cet_ibt": ibt, "cet_shstk": shstk, "pic": 2, "ilp32": False,
                     "apple": False, "win64": False},
           # the toolchains used here assemble ADX: the kernels' ADX path is covered
           "features": {"bmi2": {"status": "yes"}, "adx": {"status": "yes", "requires": ["bmi2"]}}}
    if cfi:
        doc["features"]["cfi"] = {"status": cfi}
    p = dirpath / f"caps-{int(ibt)}{int(shstk)}{cfi or ''}.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("xlate")


@pytest.fixture(scope="module")
def caps(work):
    return caps_file(work)


def xlate(text, flavour, caps):
    return subprocess.run(["perl", str(ROOT / "perlasm" / "Xlate.pm"), flavour, str(caps)],
                          input=text, capture_output=True, text=True, timeout=60)


def translate(text, flavour, caps):
    r = xlate(text, flavour, caps)
    assert r.returncode == 0, r.stderr
    return r.stdout


# ---- every flavour, real assemblers --------------------------------------------------

@pytest.mark.parametrize("flavour, which", [(f, k) for f in fv.FLAVOURS
                                            for k in range(len(fv.ASSEMBLERS[f]))])
def test_sample_assembles_with_symbols(work, caps, flavour, which):
    src = fv.generate(SAMPLE, flavour, caps, work / f"sample-{flavour}.s")
    obj = work / f"sample-{flavour}-{which}.o"
    fv.assemble(flavour, src, obj, which)
    syms = fv.symbols(flavour, obj)
    for f in SAMPLE_FUNCS:
        letter, _ = syms[fv.global_name(flavour, f)]
        assert letter in "Th", (f, letter)
    # local labels stay local (nasm keeps them as static symbols, never global)
    for name, (letter, _) in syms.items():
        if re.match(r"_?\.?L", name):
            assert letter.islower(), name


def test_sample_visibility(work, caps):
    elf = work / "vis.o"
    fv.assemble("elf", fv.generate(SAMPLE, "elf", caps, work / "vis.s"), elf)
    out = subprocess.run(["readelf", "-sW", str(elf)], capture_output=True, text=True).stdout
    rows = {line.split()[-1]: line.split() for line in out.splitlines() if "xs_" in line}
    assert rows["xs_sum6"][3:6] == ["FUNC", "GLOBAL", "HIDDEN"]
    assert rows["xs_mul_1"][3:6] == ["FUNC", "GLOBAL", "DEFAULT"]
    assert all(int(rows[f][2]) > 0 for f in SAMPLE_FUNCS)   # .size
    macho = work / "vis-macho.o"
    fv.assemble("macosx", fv.generate(SAMPLE, "macosx", caps, work / "vis-m.s"), macho)
    syms = fv.symbols("macosx", macho)
    assert syms["_xs_sum6"][0] == "h" and syms["_xs_mul_1"][0] == "T"
    assert not any(n.startswith(("L", ".L")) for n in syms)


def test_flavours_consistent(work, caps):
    """What `make flavours` checks, on the sample: symbols, .pdata/.xdata
    against the instructions, disassembly of every flavour against elf."""
    rows, errors = fv.check_all(SAMPLE, caps, work / "all")
    assert not errors, "\n".join(errors)
    compared = {r[0] for r in rows if r[2] == "disassembly"}
    assert compared == {"macosx vs elf", "elf-win64 vs elf", "mingw64 vs elf", "nasm vs mingw64",
                        "masm vs mingw64", "nasm-elf vs elf", "nasm-elf/yasm vs elf"}
    like_elf = [r for r in rows if r[0] == "nasm-elf" and r[2] == "assembled"]
    assert [r[1] for r in like_elf] == ["nasm", "yasm"]
    assert all("GNU-stack note" in r[3] for r in like_elf), like_elf


def test_nasm_elf_text(caps):
    text = translate(SAMPLE.read_text(), "nasm-elf", caps)
    for want in ["global\txs_sum6:function hidden (L$xlate_xs_sum6_end - xs_sum6)\n",
                 "global\txs_mul_1:function (L$xlate_xs_mul_1_end - xs_mul_1)\n",
                 "section .text align=", "section .note.GNU-stack noalloc noexec nowrite progbits\n"]:
        assert want in text, want
    for unwanted in ["push\trdi", "mov\trdi, rcx", ".pdata", "..imagebase", ".hidden", ".type",
                     "code align", "gnu.property"]:
        assert unwanted not in text, unwanted


def test_masm_text(caps):
    """The masm flavour leaves the unwind data to MASM's prologue
    directives: one per push and allocation, .endprolog after the last."""
    text = translate(SAMPLE.read_text(), "masm", caps)
    for want in ["xs_mul_1\tPROC FRAME\n\tpush\trdi\n\t.pushreg\trdi\n\tpush\trsi\n\t.pushreg\trsi\n",
                 "\tsub\trsp, 24\n\t.allocstack\t24\n\t.endprolog\n",
                 "\tpush\trsi\n\t.pushreg\trsi\n\t.endprolog\n\tmov\trdi, rcx\n",   # xs_sum6
                 "\tmov\tr15, 05a5a5a5ah\n", "xs_mul_1\tENDP\n", "PUBLIC\txs_sum6\n"]:
        assert want in text, want
    assert text.startswith("_TEXT\tSEGMENT ALIGN(32) 'CODE'\n") and text.endswith("_TEXT\tENDS\nEND\n")
    assert text.count("PROC FRAME") == text.count(".endprolog") == text.count("ENDP") == len(SAMPLE_FUNCS)
    for unwanted in [".pdata", ".xdata", "imagebase", "0x", "rel ", "L$xlate_"]:
        assert unwanted not in text, unwanted


@pytest.mark.parametrize("old, new, message", [
    (":function hidden (", ":function (", "symbol kinds"),          # xs_sum6 exported
    ("section .note.GNU-stack noalloc noexec nowrite progbits\n", "", "GNU-stack missing"),
])
@pytest.mark.parametrize("which", [0, 1])
def test_nasm_elf_checks_catch(work, caps, old, new, message, which):
    """check_like_elf fails on a nasm-elf object that exports a hidden
    function or lacks the non-executable-stack note."""
    ref = work / "like-elf.o"
    fv.assemble("elf", fv.generate(SAMPLE, "elf", caps, work / "like-elf.s"), ref)
    text = translate(SAMPLE.read_text(), "nasm-elf", caps)
    assert old in text
    bad = work / f"like-bad-{which}.asm"
    bad.write_text(text.replace(old, new, 1))
    fv.assemble("nasm-elf", bad, work / f"like-bad-{which}.o", which)
    fv.check_like_elf(work / "like-elf.o", ref, SAMPLE_FUNCS)     # the reference passes
    with pytest.raises(fv.CheckError, match=message):
        fv.check_like_elf(work / f"like-bad-{which}.o", ref, SAMPLE_FUNCS)


def test_flavours_catch_a_broken_translation(work, caps):
    """The disassembly comparison fails when the Win64 code differs beyond the
    ABI entry/exit (here: one body instruction changed in the mingw64 text)."""
    good = fv.generate(SAMPLE, "elf", caps, work / "cmp-elf.s")
    bad = work / "cmp-mingw.s"
    text = translate(SAMPLE.read_text(), "mingw64", caps)
    assert "\taddq\t%r10,%rax\n" in text
    bad.write_text(text.replace("\taddq\t%r10,%rax\n", "\tsubq\t%r10,%rax\n", 1))
    fv.assemble("elf", good, work / "cmp-elf.o")
    fv.assemble("mingw64", bad, work / "cmp-mingw.o")
    ref = fv.disassembly("elf", work / "cmp-elf.o", SAMPLE_FUNCS)
    got = fv.disassembly("mingw64", work / "cmp-mingw.o", SAMPLE_FUNCS)
    with pytest.raises(fv.CheckError, match="differs beyond the ABI"):
        fv.compare_disassembly(ref, got)


def test_flavours_catch_a_retargeted_jump(work, caps):
    """Same instructions, one jump going elsewhere: the target check fails."""
    text = translate(SAMPLE.read_text(), "nasm", caps)
    assert "jnz\tL$forms_done" in text
    bad = work / "jump-bad.asm"
    bad.write_text(text.replace("jnz\tL$forms_done", "jnz\tL$mul_loop", 1))
    good = fv.generate(SAMPLE, "mingw64", caps, work / "jump-good.s")
    fv.assemble("nasm", bad, work / "jump-bad.o")
    fv.assemble("mingw64", good, work / "jump-good.o")
    ref = fv.disassembly("mingw64", work / "jump-good.o", SAMPLE_FUNCS)
    got = fv.disassembly("nasm", work / "jump-bad.o", SAMPLE_FUNCS)
    with pytest.raises(fv.CheckError, match="xs_forms: 'jne TARGET'"):
        fv.compare_same(ref, got, "nasm vs mingw64")


def test_flavours_catch_a_jump_past_the_win64_exit(work, caps):
    """A jump to the label before ret must run the inserted pops: a label
    moved after them (rdi/rsi never restored on that path) is caught."""
    text = translate(SAMPLE.read_text(), "mingw64", caps)
    exit_ = "\tpopq\t%rsi\n\tpopq\t%rdi\n"
    assert ".Lsum_done:\n" + exit_ in text
    bad = work / "exit-bad.s"
    bad.write_text(text.replace(".Lsum_done:\n" + exit_, exit_ + ".Lsum_done:\n"))
    fv.assemble("mingw64", bad, work / "exit-bad.o")
    good = fv.generate(SAMPLE, "elf", caps, work / "exit-elf.s")
    fv.assemble("elf", good, work / "exit-elf.o")
    ref = fv.disassembly("elf", work / "exit-elf.o", SAMPLE_FUNCS)
    got = fv.disassembly("mingw64", work / "exit-bad.o", SAMPLE_FUNCS)
    with pytest.raises(fv.CheckError, match=r"xs_sum6: 'je TARGET'.*expected 'pop %rsi'"):
        fv.compare_disassembly(ref, got)


# ---- SEH unwind data ------------------------------------------------------------------

EXPECTED_UNWIND = {
    "xs_sum6": ["push rsi", "push rdi"],
    "xs_mul_1": ["alloc small area: rsp = rsp - 0x18", "push r15", "push r14", "push r13",
                 "push r12", "push rbp", "push rbx", "push rsi", "push rdi"],
    "xs_forms": ["alloc large area: rsp = rsp - 0x108", "push r12", "push rbx", "push rsi",
                 "push rdi"],
    # sub $8 grows by ten 16-byte slots from offset 16, and by 8 more so that
    # %rsp is 16-aligned after it (entry 8 mod 16, two pushes)
    "xs_xmm": [f"save xmm{r} at rsp + {16 + 16 * (r - 6):#x}" for r in range(15, 5, -1)]
              + ["alloc large area: rsp = rsp - 0xb8", "push rsi", "push rdi"],
}


@pytest.mark.parametrize("flavour", fv.WIN64)
def test_unwind_codes(work, caps, flavour):
    src = fv.generate(SAMPLE, flavour, caps, work / f"seh-{flavour}.s")
    obj = work / f"seh-{flavour}.o"
    fv.assemble(flavour, src, obj)
    table = fv.unwind_info(obj)
    syms = fv.symbols(flavour, obj)
    by_begin = {t["begin"]: t for t in table}
    assert len(table) == len(SAMPLE_FUNCS)
    for f, codes in EXPECTED_UNWIND.items():
        t = by_begin[syms[f][1]]
        assert [c for _, c in t["codes"]] == codes, f
        # ALLOC_LARGE and SAVE_XMM128 take a second slot
        assert t["count"] == len(codes) + sum("large" in c or "save" in c for c in codes)
        assert t["prologue"] == t["codes"][0][0]
    # offsets name the instructions that really end there, in the object and
    # in a DLL linked from it (relocations resolved)
    fv.check_unwind(flavour, obj, SAMPLE_FUNCS)
    fv.check_unwind(flavour, fv.link_dll(obj), SAMPLE_FUNCS)


@pytest.mark.parametrize("flavour", fv.WIN64)
def test_seh_walk_from_every_instruction(work, caps, flavour):
    src = fv.generate(SAMPLE, flavour, caps, work / f"walk-{flavour}.s")
    obj = work / f"walk-{flavour}.o"
    fv.assemble(flavour, src, obj)
    ends = {t["begin"]: t["end"] for t in fv.unwind_info(obj)}
    n = sum(len([x for x in v if x[0] < ends[v[0][0]]])
            for v in fv.function_code(flavour, obj, SAMPLE_FUNCS).values())
    assert n > 100
    assert fv.check_seh_walk(flavour, obj, SAMPLE_FUNCS) == f"SEH unwinds from all {n} instructions"


@pytest.mark.parametrize("old, new, message", [
    # pops swapped: the unwinder would restore r14 from r15's slot
    ("\tpopq\t%r15\n\tpopq\t%r14\n", "\tpopq\t%r14\n\tpopq\t%r15\n", "restores r14 from"),
    # one push less in the prologue than the unwind codes say
    ("\tpushq\t%r13\n", "", "return address at"),
])
def test_seh_walk_catches(work, caps, old, new, message):
    text = translate(SAMPLE.read_text(), "mingw64", caps)
    assert old in text
    src = work / "walk-bad.s"
    src.write_text(text.replace(old, new, 1))
    fv.assemble("mingw64", src, work / "walk-bad.o")
    with pytest.raises(fv.CheckError, match=f"xs_mul_1.*{message}"):
        fv.check_seh_walk("mingw64", work / "walk-bad.o", SAMPLE_FUNCS)


def test_seh_walk_catches_a_moved_xmm_save(work, caps):
    """xmm6 saved 16 bytes higher than its UWOP_SAVE_XMM128 says."""
    text = translate(SAMPLE.read_text(), "mingw64", caps)
    old = "\tmovups\t%xmm6,16(%rsp)\n"
    assert old in text
    src = work / "walk-xmm.s"
    src.write_text(text.replace(old, "\tmovups\t%xmm6,32(%rsp)\n", 1))
    fv.assemble("mingw64", src, work / "walk-xmm.o")
    with pytest.raises(fv.CheckError, match=r"xs_xmm.*restores xmm6 from rsp\+16, saved at rsp\+32"):
        fv.check_seh_walk("mingw64", work / "walk-xmm.o", SAMPLE_FUNCS)


def test_unwind_check_catches_wrong_offsets(work, caps):
    text = translate(SAMPLE.read_text(), "mingw64", caps)
    # point the rbx push code of xs_mul_1 at the wrong instruction
    bad = re.sub(r"(\.Lxlate_xs_mul_1_p)(\d+)(-xs_mul_1,48)",
                 lambda m: f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}", text)
    assert bad != text
    src = work / "seh-bad.s"
    src.write_text(bad)
    fv.assemble("mingw64", src, work / "seh-bad.o")
    with pytest.raises(fv.CheckError, match="xs_mul_1: unwind code 'push rbx'"):
        fv.check_unwind("mingw64", work / "seh-bad.o", SAMPLE_FUNCS)


# ---- DWARF CFI ------------------------------------------------------------------------

@pytest.mark.parametrize("flavour", ["elf", "elf-win64"])
def test_cfi_matches_stack(work, flavour):
    c = caps_file(work, cfi="yes")
    src = fv.generate(SAMPLE, flavour, c, work / f"cfi-{flavour}.s")
    for which in range(len(fv.ASSEMBLERS[flavour])):
        obj = work / f"cfi-{flavour}-{which}.o"
        fv.assemble(flavour, src, obj, which)
        assert "4 FDEs" in fv.check_cfi(flavour, obj, SAMPLE_FUNCS)
    # a wrong rule is caught
    text = src.read_text()
    frame = 8 + 6 * 8 + 24 + (16 if flavour == "elf-win64" else 0)   # xs_mul_1 after sub
    bad = text.replace(f"\t.cfi_def_cfa_offset\t{frame}\n", "\t.cfi_def_cfa_offset\t88\n", 1)
    assert bad != text
    (work / "cfi-bad.s").write_text(bad)
    fv.assemble(flavour, work / "cfi-bad.s", work / "cfi-bad.o")
    with pytest.raises(fv.CheckError, match=rf"xs_mul_1.*CFA rsp\+88, stack says rsp\+{frame}"):
        fv.check_cfi(flavour, work / "cfi-bad.o", SAMPLE_FUNCS)


@pytest.mark.parametrize("cfi", [None, "no", "broken"])
def test_no_cfi_unless_caps_say_yes(work, cfi):
    c = caps_file(work, cfi=cfi)
    for fl in fv.FLAVOURS:
        assert ".cfi_" not in translate(SAMPLE.read_text(), fl, c)


def test_macho_eh_frame(work):
    c = caps_file(work, cfi="yes")
    obj = work / "cfi.macho.o"
    fv.assemble("macosx", fv.generate(SAMPLE, "macosx", c, work / "cfi-macho.s"), obj)
    dump = subprocess.run(["llvm-dwarfdump-14", "--eh-frame", str(obj)], capture_output=True,
                          text=True).stdout
    assert dump.count(" FDE ") == 4


# ---- CET -----------------------------------------------------------------------------

def starts(obj, names):
    """First 4 bytes of each function, from objdump -d."""
    out = subprocess.run(["objdump", "-d", str(obj)], capture_output=True, text=True).stdout
    res = {}
    for n in names:
        m = re.search(rf"<{n}>:\n\s*[0-9a-f]+:\t((?:[0-9a-f]{{2}} )+)", out)
        res[n] = m.group(1).split()[:4]
    return res


# yasm 1.3 has no `note` section type: the .note.gnu.property it is given
# becomes PROGBITS, which readelf and ld ignore, so a yasm object carries no
# CET property. A known defect, not a pass: strict, so a fix shows up.
YASM_NO_NOTE = pytest.mark.xfail(strict=True, reason="yasm 1.3 emits .note.gnu.property as "
                                 "PROGBITS: no CET property in the object (CET needs nasm)")


def cet_cases():
    for ibt, shstk, note in [(False, False, None), (True, False, "IBT"),
                             (False, True, "SHSTK"), (True, True, "IBT, SHSTK")]:
        for flavour in ("elf", "elf-win64", "nasm-elf"):
            for which, (label, _) in enumerate(fv.ASSEMBLERS[flavour]):
                marks = [YASM_NO_NOTE] if note and label == "yasm" else []
                yield pytest.param(flavour, which, ibt, shstk, note, marks=marks,
                                   id=f"{flavour}-{label}-{note or 'none'}")


@pytest.mark.parametrize("flavour, which, ibt, shstk, note", cet_cases())
def test_cet(work, flavour, which, ibt, shstk, note):
    c = caps_file(work, ibt, shstk)
    src = fv.generate(SAMPLE, flavour, c, work / f"cet-{flavour}-{ibt}{shstk}-{which}.s")
    obj = work / f"cet-{flavour}-{ibt}{shstk}-{which}.o"
    fv.assemble(flavour, src, obj, which)
    endbr = ["f3", "0f", "1e", "fa"]
    for f, b in starts(obj, SAMPLE_FUNCS).items():
        assert (b == endbr) == ibt, (f, b)
    sections = subprocess.run(["readelf", "-SW", str(obj)], capture_output=True, text=True).stdout
    assert ".note.GNU-stack" in sections
    notes = subprocess.run(["readelf", "-nW", str(obj)], capture_output=True, text=True).stdout
    if note is None:
        assert ".note.gnu.property" not in notes
    else:
        assert re.search(rf"Properties: x86 feature: {note}$", notes, re.M), notes


@pytest.mark.parametrize("cet", [True, False])
def test_cet_note_survives_the_link(work, cet):
    """ld merges GNU properties: linked (ld -r, as the whole program would be)
    with a C object built with -fcf-protection, our object keeps IBT and SHSTK
    only if it carries the note itself; ld -z cet-report=error names it if not.
    (A full executable cannot show it here: Debian's crt files lack the note.)"""
    d = work / f"cetlink-{cet}"
    d.mkdir(exist_ok=True)
    main = d / "main.c"
    main.write_text("#include <stdint.h>\n"
                    "uint64_t xs_sum6(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);\n"
                    "int main(void) { return xs_sum6(1, 1, 1, 1, 1, 1) != 21; }\n")
    subprocess.run(["gcc", *CFLAGS, "-fcf-protection=full", "-c", "-o", str(d / "main.o"), str(main)],
                   check=True)
    ours = d / "ours.o"
    fv.assemble("elf", fv.generate(SAMPLE, "elf", caps_file(work, cet, cet), d / "ours.s"), ours)
    r = subprocess.run(["ld", "-r", "-z", "cet-report=error", "-o", str(d / "merged.o"),
                        str(d / "main.o"), str(ours)], capture_output=True, text=True)
    notes = subprocess.run(["readelf", "-n", str(d / "merged.o")], capture_output=True,
                           text=True).stdout if r.returncode == 0 else ""
    if cet:
        assert r.returncode == 0, r.stderr
        assert "x86 feature: IBT, SHSTK" in notes, notes
    else:
        assert r.returncode != 0 and "ours.o" in r.stderr and "missing IBT and SHSTK" in r.stderr


@pytest.mark.parametrize("cflags, note", [("-fcf-protection=none", None),
                                           ("-fcf-protection=branch", "IBT"),
                                           ("-fcf-protection=return", "SHSTK"),
                                           ("-fcf-protection=full", "IBT, SHSTK")])
def test_cet_follows_the_probed_cflags(work, asmcap_bin, cflags, note):
    """End to end: asmcap probes gcc with these CFLAGS, the caps' build
    section decides endbr64 and the note."""
    caps = work / f"probed{cflags}.json"
    r = subprocess.run([str(asmcap_bin), "--cc", "gcc", "--cflags", cflags, "--features", "cfi",
                        "--format", "json", "-o", str(caps)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    obj = work / f"probed{cflags}.o"
    fv.assemble("elf", fv.generate(SAMPLE, "elf", caps, work / f"probed{cflags}.s"), obj)
    notes = subprocess.run(["readelf", "-n", str(obj)], capture_output=True, text=True).stdout
    ibt = note is not None and "IBT" in note
    assert all((b == ["f3", "0f", "1e", "fa"]) == ibt for b in starts(obj, SAMPLE_FUNCS).values())
    if note:
        assert re.search(rf"x86 feature: {note}$", notes, re.M), notes
    else:
        assert "x86 feature" not in notes


def test_no_cet_outside_elf(work):
    c = caps_file(work, True, True)
    for fl in ("macosx", "mingw64", "nasm"):
        text = translate(SAMPLE.read_text(), fl, c)
        assert "0xf3,0x0f,0x1e,0xfa" not in text and "gnu.property" not in text


# ---- the Win64 ABI, run for real (elf-win64 through ms_abi) ---------------------------

@pytest.mark.parametrize("cc", ["gcc", "clang-14"])
def test_sample_runs_through_ms_abi(work, caps, cc):
    exe = fv.build_abi_run(SAMPLE, caps, work / f"run-{cc}", HERE / "sample_run.c", cc=cc)
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
    assert r.stdout.startswith("ok: 800 xs_sum6, 68 xs_mul_1 and 4 xs_xmm calls"), r.stdout


def test_sample_ms_abi_valgrind_clean(work, caps):
    exe = fv.build_abi_run(SAMPLE, caps, work / "run-valgrind", HERE / "sample_run.c")
    r = subprocess.run(["valgrind", "-q", "--error-exitcode=99", str(exe)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok: ") and r.stderr == ""


@pytest.mark.parametrize("drop, expect", [
    # rsi no longer saved/restored: the register check must see it
    (["\tpushq\t%rsi\n", "\tpopq\t%rsi\n"], "rsi changed"),
    # an argument move missing: results differ
    (["\tmovq\t%r9,%rcx\n"], "FAIL xs_mul_1 ms_abi"),
    # xmm6 not restored: the register check must see it
    (["\tmovups\t16(%rsp),%xmm6\n"], "xs_xmm (win64): xmm6 changed"),
])
def test_ms_abi_harness_catches_broken_translation(work, caps, drop, expect):
    text = translate(SAMPLE.read_text(), "elf-win64", caps)
    for d in drop:
        assert d in text
        text = text.replace(d, "")
    broken = work / "broken.s"
    broken.write_text(SAMPLE.read_text())
    # build with the mutated elf-win64 text in place of the translation
    d = work / "broken"
    d.mkdir(exist_ok=True)
    (d / "w.s").write_text(text)
    fv.assemble("elf-win64", d / "w.s", d / "w.o")
    subprocess.run(["objcopy", "--prefix-symbols=w64_", str(d / "w.o"), str(d / "w64.o")], check=True)
    fv.assemble("elf", fv.generate(SAMPLE, "elf", caps, d / "e.s"), d / "e.o")
    subprocess.run(["gcc", *CFLAGS, f"-I{HERE}", "-o", str(d / "run"), str(HERE / "sample_run.c"),
                    str(HERE / "abicheck.c"), str(HERE / "abicheck.S"), str(d / "e.o"),
                    str(d / "w64.o")], check=True)
    r = subprocess.run([str(d / "run")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert expect in r.stdout, r.stdout


def test_kernels_all_flavours(work, caps):
    rows, errors = fv.check_all(GEN, caps, work / "kernels")
    assert not errors, "\n".join(errors)
    assert sum(r[2] == "assembled" for r in rows) == 9     # masm (llvm-ml) among them


def test_kernels_through_ms_abi(work, caps):
    """montk_* in elf-win64 through ms_abi against the elf (SysV) build, with
    the callee-saved registers of both ABIs checked."""
    line = fv.run_abi(GEN, caps, work / "kernels-run")
    assert line.startswith("ok: ") and " 0 failures" in line, line


@pytest.mark.parametrize("which", [0, 1])
def test_kernels_nasm_elf_run(work, caps, which):
    """montk_* assembled by nasm / yasm -f elf64 from nasm-elf, linked into
    tests/kernels/driver.c: same results as the elf build, and correct."""
    line = fv.run_kernels_against_elf(GEN, caps, work / "nasm-elf-run", which)
    # 184 cases per pair of kernels: 368 where the ADX ones run too
    assert re.match(r"ok: (184|368) cases equal to elf and correct", line), line


# ---- the dialect: what it refuses --------------------------------------------------------

FN = ".globl f\n.type f,@function,2\nf:\n"


@pytest.mark.parametrize("body, message", [
    (FN + "\tfrob %rax\n\tret\n", "line 4: unknown mnemonic 'frob'"),
    (FN + "\tmovdqa %xmm6,%xmm0\n\tret\n", "vector registers are not part"),
    (FN + "\tmovups %xmm6,%xmm0\n\tmovups %xmm15,%xmm1\n\tret\n",
     "f uses %xmm6, %xmm15 (callee-saved on Win64): its prologue needs a sub"),
    (FN + "\tmovq %xmm0,%rax\n\tret\n", "vector registers are not part"),
    (FN + "\tmovb $0,%spl\n\tret\n", "%rsp changed outside"),
    (FN + "\tmovq %rax,-8(%rsp)\n\tret\n", "no red zone"),
    (FN + "\tpushq %rbx\n\tnop\n\tpushq %rbp\n\tpopq %rbp\n\tpopq %rbx\n\tret\n",
     "line 6: push/pop outside the prologue"),
    (FN + "\tpushq %rbx\n\tpushq %rbp\n\tpopq %rbx\n\tpopq %rbp\n\tret\n",
     "expected: pop %rbp; pop %rbx; ret"),
    (FN + "\tsubq $16,%rsp\n\tret\n", "expected: add $16,%rsp; ret"),
    (FN + "\tsubq $12,%rsp\n\taddq $12,%rsp\n\tret\n", "multiple of 8"),
    (FN + "\tsubq $4096,%rsp\n\taddq $4096,%rsp\n\tret\n", "stack probes"),
    (FN + "\tandq $-64,%rsp\n\tret\n", "%rsp changed outside"),
    (FN + "\tleaq -16(%rsp),%rsp\n\tleaq 16(%rsp),%rsp\n\tret\n", "line 4: %rsp changed outside"),
    (FN + "\tcall g\n\tret\n", "call is not part"),
    (FN + "\tjmp *%rax\n", "indirect"),
    (FN + "\tmovq $010,%rax\n\tret\n", "leading 0"),
    (FN + "\tmovq $f,%rax\n\tret\n", "lea SYM(%rip)"),
    (FN + "\tmovq f(%rax),%rax\n\tret\n", "needs %rip"),
    (FN + "\tmovq (%rax,%rsp,2),%rax\n\tret\n", "index %rsp"),
    (FN + "\tmovq (%rax,%rbx,3),%rax\n\tret\n", "scale 3"),
    (FN + "\tmovq %rax,%rbx;ret\n", "separator"),
    (FN + "\tmovq %rqx,%rax\n\tret\n", "unknown register %rqx"),
    (FN + "\t.section .data\n\tret\n", "directive .section"),
    (".globl f\n.type f,@function\nf:\n\tret\n", "NARGS"),
    (".globl f\n.type f,@function,7\nf:\n\tret\n", "NARGS 7"),
    (".globl f\n.type f,@function,1\n", "no label"),
    ("\t.text\n\tret\n", "instruction outside a function"),
    (".globl g\n" + FN + "\tret\n", "g is not a function"),
    (FN + "\tmull (%rsi)\n\tret\n", None),     # fine: the suffix gives the size
])
def test_dialect_errors(caps, body, message):
    for fl in ("elf", "nasm", "masm"):
        r = xlate(body, fl, caps)
        if message is None:
            assert r.returncode == 0, r.stderr
            continue
        assert r.returncode != 0, f"{fl} accepted:\n{body}"
        assert message in r.stderr, r.stderr
        assert r.stderr.startswith("Xlate: ")


def test_size_needed_only_for_nasm(caps):
    body = FN + "\tmul (%rsi)\n\tret\n"
    r = xlate(body, "nasm", caps)
    assert r.returncode != 0 and "add a size suffix" in r.stderr and "line 4" in r.stderr


def test_rip_relative_needs_its_size_only_for_masm(caps, tmp_path):
    """llvm-ml reads an unsized [symbol] as an absolute address (an ADDR32
    relocation, which a DLL cannot load above 4 GB): masm writes the size
    of every RIP-relative operand, and one it cannot know dies."""
    tab = "\t.align 8\n.Ltab:\n\t.quad 1, 2\n"
    text = translate(FN + "\tleaq .Ltab(%rip),%rax\n\tmovq .Ltab+8(%rip),%rdx\n\tret\n" + tab, "masm", caps)
    assert "\tlea\trax, qword PTR [L$tab]\n" in text and "\tmov\trdx, qword PTR [L$tab+8]\n" in text
    src, obj = tmp_path / "rip.asm", tmp_path / "rip.o"
    src.write_text(text)
    fv.assemble("masm", src, obj)
    dis = subprocess.run(["x86_64-w64-mingw32-objdump", "-dr", str(obj)], capture_output=True,
                         text=True).stdout
    assert dis.count("(%rip)") == 2 and "IMAGE_REL_AMD64_ADDR32 " not in dis, dis
    r = xlate(FN + "\tvpandq .Ltab(%rip),%zmm1,%zmm0\n\tret\n" + tab, "masm", caps)
    assert r.returncode != 0 and "RIP-relative operand of unknown size" in r.stderr
    assert xlate(FN + "\tvpandq .Ltab(%rip),%zmm1,%zmm0\n\tret\n" + tab, "nasm", caps).returncode == 0


def test_bad_flavour_and_caps(work, caps):
    r = xlate(FN + "\tret\n", "win32", caps)
    assert r.returncode != 0 and "unknown flavour 'win32'" in r.stderr
    r = xlate(FN + "\tret\n", "elf", work / "missing.json")
    assert r.returncode != 0 and "missing.json" in r.stderr and "create it: asmcap --cc" in r.stderr


@pytest.mark.parametrize("change, message", [
    (lambda d: d["toolchain"].update(arch="i386"), "describes an i386 toolchain"),
    (lambda d: d["build"].update(ilp32=True), "ILP32"),
])
def test_caps_for_another_target_refused(work, caps, change, message):
    doc = json.loads(caps.read_text())
    change(doc)
    other = work / "other-target.json"
    other.write_text(json.dumps(doc))
    r = xlate(FN + "\tret\n", "elf", other)
    assert r.returncode != 0 and message in r.stderr and "other-target.json" in r.stderr


def test_nasm_operands(caps):
    body = FN + "\n".join([
        "\tmulxq 8(%rsi),%rax,%rbx", "\tadoxq 16(%rsi,%rcx,8),%r9", "\tmovq $0,-8+16(%rdi)",
        "\tshlq %cl,%rbx", "\tmovzbl %cl,%ecx", "\tleaq .Lx(%rip),%r8", "\tcmovcq (%rsi),%rbx",
        "\tjnz .Lx", ".Lx:", "\tret"]) + "\n"
    text = translate(body, "nasm", caps)
    for want in ["mulx\trbx, rax, qword [rsi+8]", "adox\tr9, qword [rsi+rcx*8+16]",
                 "mov\tqword [rdi-8+16], 0", "shl\trbx, cl", "movzx\tecx, cl",
                 "lea\tr8, [rel L$x]", "cmovc\trbx, qword [rsi]", "jnz\tL$x",
                 "default rel", "global\tf"]:
        assert want in text, want


@pytest.mark.parametrize("flavour", fv.FLAVOURS)
def test_empty_dialect_still_has_code(work, caps, flavour):
    text = translate("# nothing generated\n", flavour, caps)
    src = work / f"empty-{flavour}.s"
    src.write_text(text)
    obj = work / f"empty-{flavour}.o"
    fv.assemble(flavour, src, obj)   # nasm -f win64 -g crashes without code
    tool = "llvm-objdump-14" if flavour == "macosx" else fv.OBJDUMP[flavour]
    out = subprocess.run([tool, "-d", str(obj)], capture_output=True, text=True).stdout
    assert re.search(r"\bret", out), out


def test_data_directives(work, caps):
    body = FN + "\tret\n.Ltab:\n\t.quad 0x0123456789abcdef,2\n\t.long .Ltab-f\n\t.byte 1,2\n"
    for fl in ("elf", "mingw64", "nasm"):
        src = work / f"data-{fl}.s"
        src.write_text(translate(body, fl, caps))
        obj = work / f"data-{fl}.o"
        fv.assemble(fl, src, obj)
        tool = fv.OBJDUMP[fl]
        dump = subprocess.run([tool, "-s", "-j", ".text", str(obj)], capture_output=True,
                              text=True).stdout
        hexes = "".join(l[6:41].replace(" ", "") for l in dump.splitlines() if re.match(r"^ [0-9a-f]{4} ", l))
        assert "efcdab8967452301" + "0200000000000000" in hexes, (fl, hexes)
        tab = hexes.index("efcdab8967452301") // 2
        assert hexes[2 * tab + 32:2 * tab + 40] == f"{tab:02x}000000", fl
        assert hexes[2 * tab + 40:2 * tab + 44] == "0102", fl
