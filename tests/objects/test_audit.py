# SPDX-License-Identifier: MIT
"""`asmcap audit`: features found by decoding instructions, never by
searching bytes; every object format, archives, stripped libraries,
--expect, bad input."""
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ASMCAP, BUILD, ROOT, asmcap, built, need_tool
from objtools import assemble, audit, elf_function, elf_quad, functions, write_template

sys.path.insert(0, str(ROOT / "tests" / "catalog"))
# the catalog folders in the SDM's opcode notation (x86_64, i386): the ones
# gcc assembles here, taken from templates/
from catalog_files import ARCHES as OPCODE_FOLDERS  # noqa: E402

# ADCX's encoding, 66 48 0f 38 f6 d8, planted where it is not an instruction:
# in a data object, in an immediate and in a displacement.
DECOYS_ELF = ("\t.text\n" + elf_function("real", "adcx\t%rax,%rbx")
              + elf_quad("konst", 0xd8f6380f4866)
              + elf_function("imm", "movabs\t$0xd8f6380f4866, %rax")
              + elf_function("disp", "leaq\t-0x9c7f09a(%rax),%rbx", "shlq\t$0x3b, %rax"))


def test_decoys_do_not_count(tmp_path, asmcap_bin):
    obj = assemble(tmp_path, "elf64", DECOYS_ELF)
    raw = obj.read_bytes()
    assert raw.count(bytes.fromhex("66480f38f6d8")) >= 3     # the decoys are really there
    assert bytes.fromhex("660f38f6") in raw                  # ...the displacement one too
    rc, data, err = audit(obj)
    assert rc == 0, err
    f = functions(data)
    assert f["real"] == {"adx": 1}
    assert f["imm"] == {} and f["disp"] == {}
    assert "konst" not in f                                  # data is not decoded


@pytest.mark.parametrize("kind", ["coff64", "macho64", "nasm", "clang-elf64"])
def test_other_formats(tmp_path, asmcap_bin, kind):
    if kind == "nasm":
        src = ("section .text\nglobal real\nreal: adcx rbx, rax\nmulx rbx, rax, rdx\nret\n"
               "global imm\nimm: mov rax, 0xd8f6380f4866\nret\n"
               "section .rdata rdata\nkonst: dq 0xd8f6380f4866\n")
    else:
        under = "_" if kind == "macho64" else ""
        rdata = {"coff64": '.section .rdata,"dr"', "macho64": ".section __TEXT,__const",
                 "clang-elf64": ".section .rodata"}[kind]
        src = (f"\t.text\n\t.globl {under}real\n{under}real:\tadcx %rax,%rbx\n"
               f"\tmulx %rdx,%rax,%rbx\n\tret\n"
               f"\t.globl {under}imm\n{under}imm:\tmovabs $0xd8f6380f4866,%rax\n\tret\n"
               f"\t{rdata}\nkonst:\t.quad 0xd8f6380f4866\n")
    obj = assemble(tmp_path, kind, src)
    rc, data, err = audit(obj)
    assert rc == 0, err
    f = functions(data)
    under = "_" if kind == "macho64" else ""
    if kind == "clang-elf64":   # no .type: ELF NOTYPE labels, so the section is one row
        assert f == {".text": {"adx": 1, "bmi2": 1}}
        return
    assert f[under + "real"] == {"adx": 1, "bmi2": 1}
    assert f[under + "imm"] == {}
    assert data["objects"][0]["format"] == {"coff64": "coff-x86-64", "nasm": "coff-x86-64",
                                            "macho64": "macho64"}[kind]


def test_i386(tmp_path, asmcap_bin):
    src = DECOYS_ELF.replace("%rax", "%eax").replace("%rbx", "%ebx").replace("leaq", "leal") \
        .replace("movabs\t$0xd8f6380f4866", "movl\t$0xf6380f66").replace("shlq\t$0x3b", "shll\t$0x1b")
    obj = assemble(tmp_path, "elf32", src)
    rc, data, err = audit(obj, "--expect", "adx")
    assert rc == 0, err
    f = functions(data)
    assert f["real"] == {"adx": 1} and f["imm"] == {} and f["disp"] == {}
    assert data["objects"][0]["format"] == "elf32"


def test_expect(tmp_path, asmcap_bin):
    obj = assemble(tmp_path, "elf64", DECOYS_ELF)
    plain = assemble(tmp_path, "elf64", DECOYS_ELF.replace("adcx\t%rax,%rbx", "adc\t%rax,%rbx"),
                     name="plain")
    assert asmcap("audit", obj, "--expect", "adx").returncode == 0
    r = asmcap("audit", obj, plain, "--expect", "adx,avx2")
    assert r.returncode == 1
    missing = [l for l in r.stderr.splitlines() if "expected" in l]
    assert len(missing) == 3, r.stderr                 # avx2 in both, adx in plain
    assert any(str(plain) in l and "adx" in l for l in missing)
    assert not any(str(obj) in l and "adx" in l for l in missing)
    r = asmcap("audit", obj, "--expect", "no-such-feature")
    assert r.returncode == 2 and "no-such-feature" in r.stderr


def test_archive_and_text_output(tmp_path, asmcap_bin):
    a = assemble(tmp_path, "elf64", DECOYS_ELF)
    b = assemble(tmp_path, "coff64", "\t.text\n\t.globl w\nw:\tadox %r9,%r8\n\tret\n")
    long = tmp_path / "member_with_a_long_name.o"
    long.write_bytes(a.read_bytes())
    lib = tmp_path / "libx.a"
    subprocess.run(["ar", "rcs", str(lib), str(long), str(b)], check=True)
    r = asmcap("audit", lib, "--expect", "adx")
    assert r.returncode == 0, r.stderr
    assert f"{lib}(member_with_a_long_name.o): elf64" in r.stdout
    assert f"{lib}({b.name}): coff-x86-64" in r.stdout
    assert re.search(r"^\s+real\s.*\sadx:1$", r.stdout, re.M), r.stdout
    assert re.search(r"^\s+w\s.*\sadx:1$", r.stdout, re.M), r.stdout
    assert re.search(r"^\s+imm\s.*\s-$", r.stdout, re.M), r.stdout


def test_stripped_shared_library(tmp_path, asmcap_bin):
    """Hidden functions of a stripped library have no symbol left: their
    code is still decoded, as the section's uncovered part."""
    src = tmp_path / "lib.s"
    src.write_text("""\
	.text
	.globl	hidden_adx
	.hidden	hidden_adx
	.type	hidden_adx,@function
hidden_adx:
	adcx	%rax,%rbx
	ret
	.size	hidden_adx,.-hidden_adx
	.globl	visible
	.type	visible,@function
visible:
	call	hidden_adx
	movabs	$0xd8f6380f4866, %rax
	ret
	.size	visible,.-visible
""")
    so = tmp_path / "libx.so"
    subprocess.run(["gcc", "-shared", "-nostdlib", "-o", str(so), str(src)], check=True)
    rc, data, err = audit(so)
    assert rc == 0, err
    assert functions(data)["hidden_adx"] == {"adx": 1}      # .symtab present
    subprocess.run(["strip", str(so)], check=True)
    rc, data, err = audit(so, "--expect", "adx")
    assert rc == 0, err
    rows = [f for o in data["objects"] for f in o["functions"]]
    assert "hidden_adx" not in [f["name"] for f in rows]     # only .dynsym is left
    visible = [f for f in rows if f["name"] == "visible"]
    assert visible and visible[0]["features"] == {}
    assert any(f["name"] is None and f["features"].get("adx") == 1 for f in rows), rows


def test_json_shape(tmp_path, asmcap_bin):
    obj = assemble(tmp_path, "elf64", DECOYS_ELF)
    r = asmcap("audit", obj, "--format", "json")
    data = json.loads(r.stdout)
    o = data["objects"][0]
    assert o["file"] == str(obj) and o["member"] is None and o["format"] == "elf64"
    real = [f for f in o["functions"] if f["name"] == "real"][0]
    assert real == {"name": "real", "section": ".text", "offset": 0, "size": 7, "undecoded": 0,
                    "features": {"adx": 1}}


def test_bad_input(tmp_path, asmcap_bin):
    obj = assemble(tmp_path, "elf64", DECOYS_ELF).read_bytes()
    cases = {"missing.o": None, "empty.o": b"", "text.o": b"not an object at all\n",
             "cut.o": obj[:100], "arch.a": b"!<arch>\n" + b"x" * 30}
    for name, data in cases.items():
        p = tmp_path / name
        if data is not None:
            p.write_bytes(data)
        r = asmcap("audit", p)
        assert r.returncode == 2, (name, r.returncode, r.stderr)
        assert r.stderr.startswith(f"asmcap audit: {p}"), (name, r.stderr)
        assert "Sanitizer" not in r.stderr
    assert asmcap("audit").returncode == 2
    assert asmcap("audit", "--format", "yaml", "x.o").returncode == 2
    assert asmcap("audit", "--bogus", "x.o").returncode == 2


def test_truncations_through_audit(tmp_path, asmcap_bin):
    """The whole command, on a real object cut at many lengths."""
    obj = assemble(tmp_path, "elf64", DECOYS_ELF).read_bytes()
    p = tmp_path / "cut.o"
    for cut in range(0, len(obj), max(1, len(obj) // 40)):
        p.write_bytes(obj[:cut])
        r = asmcap("audit", p)
        assert r.returncode in (0, 2), (cut, r.returncode, r.stderr)   # never a signal
        assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr
        if r.returncode:
            assert "unreadable object:" in r.stderr, (cut, r.stderr)


def template(path):
    head, body = {}, []
    for line in path.read_text().splitlines():
        m = re.match(r"# (\w[\w-]*): (.*)", line)
        if m and not body:
            head[m.group(1)] = m.group(2)
        elif not line.startswith("#"):
            body.append(line)
    return head, "\n".join(body) + "\n"


@pytest.mark.parametrize("arch", OPCODE_FOLDERS)
def test_every_feature_finds_its_own_snippet(tmp_path, asmcap_bin, arch):
    """Each catalog snippet the local assembler takes, wrapped in a function,
    is reported as that feature: patterns and decoder agree with the catalog."""
    tested, rejected = [], []
    for t in sorted((ROOT / "templates" / arch).glob("*.s")):
        head, body = template(t)
        if "audit" not in head:
            continue
        feat = head["feature"]
        src = (f"\t.text\n\t.globl f\n\t.type f,@function\nf:\n{body}\tret\n\t.size f,.-f\n")
        obj = None
        for kind in ("elf32", "clang19-elf32") if arch == "i386" else ("elf64", "clang19-elf64"):
            try:
                obj = assemble(tmp_path, kind, src, name=feat)
                break
            except subprocess.CalledProcessError:
                pass
        if not obj:
            rejected.append(feat)      # no local assembler knows it yet
            continue
        rc, data, err = audit(obj, "--expect", feat)
        assert rc == 0, (feat, err)
        assert feat in functions(data)["f"], (feat, data)
        tested.append(feat)
    print(arch, "tested", tested, "rejected", rejected)
    assert len(tested) >= 20, (tested, rejected)


def objdump_counts(obj):
    """Per function: ADCX/ADOX and MULX counts as binutils disassembles them."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)], capture_output=True,
                         text=True, check=True).stdout
    counts, fn = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            fn = m.group(1)
            counts[fn] = {"adx": 0, "bmi2": 0}
        elif fn and re.search(r"\t(adcx|adox)\s", line):
            counts[fn]["adx"] += 1
        elif fn and re.search(r"\t(mulx|rorx|sarx|shlx|shrx|pdep|pext|bzhi)\s", line):
            counts[fn]["bmi2"] += 1
    return counts


def test_libmont(tmp_path, asmcap_bin):
    """The library the build made: ADX kernels hold ADCX/ADOX/MULX, the
    MULQ kernels none, exactly as objdump counts them."""
    lib = built(BUILD / "libmont.a")
    caps = json.loads(built(BUILD / "caps.json").read_text())
    adx_yes = all(caps["features"].get(f, {}).get("status") == "yes" for f in ("adx", "bmi2"))
    rc, data, err = audit(lib)
    assert rc == 0, err
    f = functions(data)
    kernels = {k: v for k, v in f.items() if k and k.startswith("montk_")}
    assert {"montk_mul_mulq", "montk_sqr_mulq"} <= set(kernels), kernels
    for k in ("montk_mul_mulq", "montk_sqr_mulq"):
        assert "adx" not in kernels[k] and "bmi2" not in kernels[k], (k, kernels[k])
    if not adx_yes:
        assert not any(k.endswith("_adx") for k in kernels), kernels
        pytest.skip("caps say this toolchain has no ADX: the library has no ADX kernels")
    for k in ("montk_mul_adx", "montk_sqr_adx"):
        assert kernels[k].get("adx") and kernels[k].get("bmi2"), (k, kernels[k])
    assert asmcap("audit", lib, "--expect", "adx,bmi2").returncode == 0
    # the same counts as binutils' disassembler
    subprocess.run(["ar", "x", str(lib)], cwd=tmp_path, check=True)
    for obj in tmp_path.glob("*.o"):
        for fn, want in objdump_counts(obj).items():
            if fn.startswith("montk_"):
                got = {k: kernels[fn].get(k, 0) for k in ("adx", "bmi2")}
                assert got == want, (fn, got, want)


def test_every_nasm_body_finds_its_feature(tmp_path, asmcap_bin):
    """The same for the nasm bodies (Intel syntax), as nasm -f elf64 builds them."""
    tested, rejected = [], []
    for t in sorted((ROOT / "templates" / "x86_64").glob("*.nasm")):
        feat = t.stem
        head, _ = template(t.with_suffix(".s"))
        if "audit" not in head:
            continue
        src = f"section .text\nglobal f:function\nf:\n{t.read_text()}\nret\n"
        try:
            obj = assemble(tmp_path, "nasm-elf64", src, name=feat)
        except subprocess.CalledProcessError:
            rejected.append(feat)
            continue
        rc, data, err = audit(obj, "--expect", feat)
        assert rc == 0, (feat, err)
        assert feat in functions(data)["f"], (feat, data)
        tested.append(feat)
    assert len(tested) >= 15, (tested, rejected)


def test_valgrind_clean(tmp_path, asmcap_bin):
    """No leak and no invalid access on good, bad and archived input, also
    when --expect fails and with JSON output."""
    if os.environ.get("ASMCAP_BIN"):
        pytest.skip("ASMCAP_BIN may be an ASan build, which valgrind cannot run")
    a = assemble(tmp_path, "elf64", DECOYS_ELF)
    b = assemble(tmp_path, "macho64", "\t.text\n_f:\tadox %r9,%r8\n\tret\n")
    lib = tmp_path / "lib.a"
    subprocess.run(["ar", "rcs", str(lib), str(a), str(b)], check=True)
    cut = tmp_path / "cut.o"
    cut.write_bytes(a.read_bytes()[:200])
    for fmt in ("text", "json"):
        r = subprocess.run(["valgrind", "-q", "--leak-check=full", "--error-exitcode=99",
                            "--errors-for-leak-kinds=definite,indirect,possible",
                            str(ASMCAP), "audit", str(lib), str(a), str(cut),
                            "--expect", "adx,avx2", "--format", fmt],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 2, (fmt, r.returncode, r.stderr[-3000:])   # cut.o unreadable
        assert "unreadable object" in r.stderr and "expected avx2" in r.stderr


def test_directive_sections(tmp_path, asmcap_bin):
    """Directive features are reported from their sections: Mach-O's
    "__TEXT,__eh_frame" answers to the catalog's "__eh_frame"."""
    src = "\t.text\n{u}f:\n\t.cfi_startproc\n\tret\n\t.cfi_endproc\n"
    for kind, u in (("elf64", ""), ("macho64", "_")):
        with_cfi = assemble(tmp_path, kind, src.format(u=u), name="cfi")
        without = assemble(tmp_path, kind, f"\t.text\n{u}f:\tret\n", name="nocfi")
        rc, data, err = audit(with_cfi, "--expect", "cfi")
        assert rc == 0 and data["objects"][0]["sections"] == ["cfi"], (kind, err, data)
        rc, data, err = audit(without, "--expect", "cfi")
        assert rc == 1 and data["objects"][0]["sections"] == [], (kind, err, data)
        assert "expected cfi" in err


def test_custom_catalog(tmp_path, asmcap_bin):
    """--templates: a one-feature catalog (one architecture only) and the
    pattern grammar's REX.W and one-byte opcodes; a bad pattern is refused."""
    tpl = write_template(tmp_path / "tpl", "addq", summary="64-bit add", expect="48 01 d8",
                         audit="REX.W 01 /r", body="\taddq %rbx,%rax\n")
    obj = assemble(tmp_path, "elf64", "\t.text\n\t.type f,@function\nf:\taddl %ebx,%eax\n\tret\n"
                   "\t.type g,@function\ng:\taddq %rbx,%rax\n\tret\n")
    rc, data, err = audit("--templates", tpl, obj, "--expect", "addq")
    assert rc == 0, err
    assert functions(data) == {"f": {}, "g": {"addq": 1}}
    write_template(tpl, "bad", audit="0f /9")
    r = asmcap("audit", "--templates", tpl, obj)
    assert r.returncode == 2 and 'feature bad: bad audit pattern "0f /9"' in r.stderr, r.stderr


def strict_json(text):
    """json.loads that also refuses duplicate keys."""
    def pairs(kv):
        keys = [k for k, _ in kv]
        assert len(keys) == len(set(keys)), keys
        return dict(kv)
    return json.loads(text, object_pairs_hook=pairs)


SECTION_FEATURES = {"s-text": ".text", "s-data": ".data", "s-rodata": ".rodata",
                    "s-comment": ".comment", "s-eh": ".eh_frame"}


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_json_lists_of_every_length(tmp_path, asmcap_bin, n):
    """Every JSON list and object audit writes (objects, functions, features,
    sections) with 0, 1, 2 and many elements is valid JSON with the same
    elements the text output shows."""
    tpl = tmp_path / "tpl"
    for name, sec in SECTION_FEATURES.items():
        write_template(tpl, name, summary=f"{sec} present", section=sec, expect="nonempty")
    insns = [("adx", "adcx %rax,%rbx", "REX? 66 REX? 0f 38 f6 /r"),
             ("bmi2", "mulx %rax,%rbx,%rcx", "VEX.LZ.F2.0F38.W1 f6 /r"),
             ("popcnt", "popcnt %rax,%rbx", "f3 REX? 0f b8 /r"),
             ("cpuid", "cpuid", "0f a2"),
             ("rdtsc", "rdtsc", "0f 31")]
    for name, _, pat in insns:
        write_template(tpl, name, audit=pat)
    # n functions, the k-th using k+1 features; n sections present beside .text
    secs = [".data", ".rodata", ".comment", ".eh_frame"][:max(n - 1, 0)]
    src = "\t.text\n" if n else "\t.section .data\n\t.long 1\n"
    for k in range(n):
        body = "\n".join(f"\t{i}" for _, i, _ in insns[:k + 1])
        src += f"\t.globl f{k}\n\t.type f{k},@function\nf{k}:\n{body}\n\tret\n\t.size f{k},.-f{k}\n"
    for s in secs:
        src += f"\t.section {s},\"a\"\n\t.byte 1\n"
    obj = assemble(tmp_path, "elf64", src)
    files = [obj] * n
    if not n:
        files = [tmp_path / "missing.o"]          # no object at all: an empty list
    r = asmcap("audit", "--templates", tpl, *files, "--format", "json")
    data = strict_json(r.stdout)
    assert len(data["objects"]) == n, r.stdout
    assert r.returncode == (2 if not n else 0), r.stderr
    for o in data["objects"]:
        funcs = {f["name"]: f["features"] for f in o["functions"]}
        assert len(funcs) == n
        for k in range(n):
            assert funcs[f"f{k}"] == {name: 1 for name, _, _ in insns[:k + 1]}, funcs
        want = {"s-text"} | {f for f, s in SECTION_FEATURES.items() if s in secs}
        assert sorted(o["sections"]) == sorted(want) and len(o["sections"]) == n, o["sections"]
    # an object without code nor catalog sections: empty functions and sections
    data_only = assemble(tmp_path, "elf64", "\t.section .note.x,\"a\"\n\t.long 1\n", name="data")
    subprocess.run(["objcopy", "-R", ".text", str(data_only)], check=True)
    r = asmcap("audit", "--templates", tpl, data_only, "--format", "json")
    o = strict_json(r.stdout)["objects"][0]
    assert r.returncode == 0 and o["functions"] == [] and o["sections"] == [], r.stdout


def suite_objects(tmp_path):
    """Objects the suite builds: the build's library and objects, and every
    catalog snippet of both architectures assembled by gcc (with -m32 for
    i386), the directive features all in one object too."""
    objs = sorted(p for p in BUILD.rglob("*") if p.suffix in (".o", ".a", ".so"))
    directives = []
    for arch in OPCODE_FOLDERS:
        for t in sorted((ROOT / "templates" / arch).glob("*.s")):
            head, body = template(t)
            src = f"\t.text\n\t.globl f\n\t.type f,@function\nf:\n{body}\tret\n\t.size f,.-f\n"
            if "section" in head and arch == "x86_64" and head["feature"] != "seh":
                directives.append(body)
            try:
                objs.append(assemble(tmp_path, "elf32" if arch == "i386" else "elf64", src,
                                     name=f"{arch}-{head['feature']}"))
            except subprocess.CalledProcessError:
                pass                                   # gcc's as does not know it yet
    src = "\t.text\nf:\n" + "".join(directives) + "\tret\n"
    objs.append(assemble(tmp_path, "elf64", src, name="directives"))
    return objs


def test_json_of_every_object_the_suite_builds(tmp_path, asmcap_bin):
    """audit --format json over all of them, one run and one run each,
    parses with Python's json; the all-directives object lists them all."""
    objs = suite_objects(tmp_path)
    assert len(objs) > 40, objs
    r = asmcap("audit", *objs, "--format", "json", timeout=300)
    assert r.returncode == 0, r.stderr
    data = strict_json(r.stdout)
    assert len(data["objects"]) >= len(objs)      # archives give one per member
    for obj in objs:
        r = asmcap("audit", obj, "--format", "json")
        assert r.returncode == 0, (obj, r.stderr)
        strict_json(r.stdout)
    last = data["objects"][-1]
    assert last["file"].endswith("directives-elf64.o")
    assert sorted(last["sections"]) == ["cfi", "gnu-property"], last


@pytest.mark.parametrize("kind", ["elf64", "clang19-elf64", "elf32"])
def test_vex128_aes_pclmul_count_as_avx_and_xop_is_recognised(tmp_path, asmcap_bin, kind):
    """VEX.128 AES/PCLMUL need AVX as well as AES-NI/PCLMUL; VEX-encoded
    BMI2 does not; legacy AES-NI does not; AMD XOP (8f e8/e9) is xop."""
    src = ("\t.text\n"
           "\t.type vaes128,@function\nvaes128:\tvaesenc %xmm2,%xmm1,%xmm0\n"
           "\tvaesenclast %xmm2,%xmm1,%xmm0\n\tvaesimc %xmm1,%xmm0\n\tret\n"
           "\t.type vclmul128,@function\nvclmul128:\tvpclmulqdq $0x11,%xmm2,%xmm1,%xmm0\n\tret\n"
           "\t.type legacy,@function\nlegacy:\taesenc %xmm1,%xmm0\n"
           "\tpclmulqdq $0,%xmm1,%xmm0\n\tret\n"
           "\t.type bmi,@function\nbmi:\tmulx %edx,%eax,%ecx\n\tret\n"
           "\t.type xop,@function\nxop:\tvprotq $3,%xmm1,%xmm0\n\tvpperm %xmm3,%xmm2,%xmm1,%xmm0\n"
           "\tvpshad %xmm2,%xmm1,%xmm0\n\tvpcomuq $1,%xmm2,%xmm1,%xmm0\n\tret\n")
    rc, data, err = audit(assemble(tmp_path, kind, src))
    assert rc == 0, err
    f = functions(data)
    assert f["vaes128"] == {"aesni": 3, "avx": 3, "avx-aes": 3}
    assert f["vclmul128"] == {"pclmul": 1, "avx": 1, "avx-pclmul": 1}
    assert f["legacy"] == {"aesni": 1, "pclmul": 1}
    assert f["bmi"] == {"bmi2": 1}
    assert f["xop"] == {"xop": 4}
    assert all(r["undecoded"] == 0 for o in data["objects"] for r in o["functions"])


def test_xop_pattern_grammar(tmp_path, asmcap_bin):
    """XOP patterns name map 08/09/0A; a 0F map or an unknown map is refused."""
    tpl = write_template(tmp_path / "tpl", "rot", audit="XOP.09.WIG 90 /r ; XOP.08.W0 c0 /r ib")
    obj = assemble(tmp_path, "elf64", "\t.text\n\t.type f,@function\nf:\tvprotb %xmm2,%xmm1,%xmm0\n"
                   "\tvprotb $1,%xmm1,%xmm0\n\tvprotd $1,%xmm1,%xmm0\n\tret\n")
    rc, data, err = audit("--templates", tpl, obj)
    assert rc == 0 and functions(data) == {"f": {"rot": 2}}, (err, data)
    for bad in ("XOP.0F38.W0 90 /r", "XOP.0B.W0 90 /r"):
        write_template(tpl, "rot", audit=bad)
        r = asmcap("audit", "--templates", tpl, obj)
        assert r.returncode == 2 and f'bad audit pattern "{bad}"' in r.stderr, r.stderr


def test_apx_and_map_pattern_grammar(tmp_path, asmcap_bin):
    """`REX2 *` is every REX2 instruction (either map), `EVEX.MAP4 *` every
    promoted one; a REX? pattern takes a REX2 instruction, one without
    REX? does not; `EVEX.<len>.<pp>.MAP5.<W>` names map 5 and its length
    counts; a legacy `*` without REX2, `*` with bytes after it, REX2 in a
    VEX pattern and an unknown map are refused.  (clang-19 assembles APX
    and AVX512-FP16: d5 58 03 08, d5 d8 af c8, 62 ec ec 10 03 08 and
    62 f5 74 48 58 c2, as llvm-mc-19 -show-encoding gives them.)"""
    tpl = write_template(tmp_path / "tpl", "egpr", audit="REX2 * ; EVEX.MAP4 *")
    write_template(tpl, "imul", audit="REX? 0f af /r")
    write_template(tpl, "imulnorex", audit="0f af /r")
    write_template(tpl, "fp16", audit="EVEX.512.NP.MAP5.W0 58 /r")
    src = ("\t.text\n\t.type r2,@function\nr2:\tadd (%r16),%r17\n\timul %r16,%r17\n\tret\n"
           "\t.type ndd,@function\nndd:\tadd (%r16),%r17,%r18\n\tret\n"
           "\t.type plain,@function\nplain:\timul %rax,%rbx\n\timul %ebx,%ecx\n\tret\n"
           "\t.type ph,@function\nph:\tvaddph %zmm2,%zmm1,%zmm0\n\tvaddph %ymm2,%ymm1,%ymm0\n\tret\n")
    obj = assemble(tmp_path, "clang19-elf64", src)
    rc, data, err = audit("--templates", tpl, obj)
    assert rc == 0, err
    assert functions(data) == {"r2": {"egpr": 2, "imul": 1}, "ndd": {"egpr": 1},
                               "plain": {"imul": 2, "imulnorex": 1}, "ph": {"fp16": 1}}, data
    for bad in ("*", "0f *", "REX2 * 01", "VEX.NP.MAP5.W0 REX2 58 /r", "EVEX.NP.MAP8.W0 58 /r",
                "EVEX.NP.MAP.W0 58 /r", "EVEX.NP.MAP44.W0 58 /r"):
        write_template(tpl, "egpr", audit=bad)
        r = asmcap("audit", "--templates", tpl, obj)
        assert r.returncode == 2 and f'bad audit pattern "{bad}"' in r.stderr, (bad, r.stderr)


def test_map7_and_map5_forms_count_for_usermsr_and_movrs(tmp_path, asmcap_bin):
    """The catalog probes USER_MSR and MOVRS by their legacy forms; audit
    also counts URDMSR/UWRMSR $imm (VEX map 7 c4 e7 7b/7a f8 c0 id, and
    APX's EVEX map 7 for r16) and VMOVRS* (EVEX map 5 F2/F3 6f), while
    VMOVDQU8 (EVEX F2 0F 6f) stays AVX512-BW's: the map tells them apart."""
    clang = need_tool("clang-22")
    src = tmp_path / "m7.s"
    src.write_text("\t.text\n\t.type u,@function\nu:\turdmsr $0x1234,%rax\n\tuwrmsr %rax,$0x1234\n"
                   "\turdmsr $0x1234,%r16\n\tret\n"
                   "\t.type m,@function\nm:\tvmovrsb (%rax),%zmm0\n\tvmovrsq (%rax),%ymm0\n"
                   "\tvmovdqu8 (%rax),%zmm0\n\tret\n")
    obj = tmp_path / "m7.o"
    subprocess.run([clang, "-c", str(src), "-o", str(obj)], check=True)
    rc, data, err = audit(obj)
    assert rc == 0, err
    assert functions(data) == {"u": {"usermsr": 3}, "m": {"movrs": 2, "avx512bw": 1}}, data


def test_waitpkg_is_the_register_form_only(tmp_path, asmcap_bin):
    """TPAUSE/UMWAIT/UMONITOR share 0F AE /6 with CLWB, XSAVEOPT and
    CLRSSBSY-like memory forms: only ModRM mod=11 is WAITPKG."""
    src = ("\t.text\n\t.type w,@function\nw:\ttpause %ecx\n\tumwait %r9d\n\tumonitor %rax\n\tret\n"
           "\t.type m,@function\nm:\tclwb (%rax)\n\txsaveopt (%rbx)\n\tret\n")
    rc, data, err = audit(assemble(tmp_path, "elf64", src))
    assert rc == 0, err
    assert functions(data) == {"w": {"waitpkg": 3}, "m": {}}


def property_note(*words, descsz=None, prop_type=0xc0000002):
    """A .note.gnu.property section holding one FEATURE_1_AND word per
    argument (descsz: a lying descriptor size)."""
    body = "".join(f"\t.long\t{prop_type:#x}\n\t.long\t4\n\t.long\t{w}\n\t.long\t0\n" for w in words)
    return ("\t.text\n\t.globl\tf\n\t.type\tf,@function\nf:\tret\n\t.size\tf,.-f\n"
            "\t.section\t.note.gnu.property,\"a\",@note\n\t.p2align\t3\n"
            f"\t.long\t4\n\t.long\t{descsz if descsz is not None else 16 * len(words)}\n\t.long\t5\n"
            f"\t.asciz\t\"GNU\"\n{body}")


@pytest.mark.parametrize("text,marked", [
    (property_note(3), ["ibt", "shstk"]),
    (property_note(1), ["ibt"]),
    (property_note(0), []),
    (property_note(0x11), ["ibt", "bit4"]),                    # a bit with no name yet
    (property_note(3, prop_type=0xc0000001), None),            # another property only
    (property_note(3, descsz=0x7ffffff0), None),               # descriptor past the section
    (property_note(3, descsz=10), None),                       # property data cut short
], ids=["ibt-shstk", "ibt", "none", "unnamed-bit", "other-property", "desc-too-long", "data-cut"])
def test_gnu_property_marks(tmp_path, asmcap_bin, text, marked):
    """The protections an ELF object's property note marks it for (x86:
    IBT, SHSTK), read bounds-checked: a note that does not parse is none."""
    rc, data, err = audit(assemble(tmp_path, "elf64", text))
    assert rc == 0, err
    assert data["objects"][0]["marked"] == marked, data
    r = asmcap("audit", str(tmp_path / "snip-elf64.o"))
    assert ("  marked: " in r.stdout) == (marked is not None), r.stdout
    if marked == []:
        assert "  marked: none (" in r.stdout


# ---- hostile sizes (issue 21 item 10): the cost grows with the input, not its square ----

def hostile_elf(nsec, nsym, shared=False, size=4096, spread=False):
    """An x86-64 ELF relocatable object: nsec code sections of `size` bytes
    of NOPs with one ADCX each (all over the same bytes when shared), and
    nsym zero-size global functions at offset 0 of the last one (spread:
    function k at offset k, reaching to the section's end)."""
    import struct
    code = b"\x66\x48\x0f\x38\xf6\xd8" + b"\x90" * (size - 6)
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    strtab = b"\0f\0"
    data = b"".join([code] if shared else [code] * nsec)
    text_off = 64
    sym_off = text_off + len(data)
    syms = b"\0" * 24 + b"".join(struct.pack("<IBBHQQ", 1, 0x12, 0, nsec, k if spread else 0,
                                              size - k if spread else 0) for k in range(nsym))
    str_off = sym_off + len(syms)
    shs_off = str_off + len(strtab)
    sh_off = (shs_off + len(shstr) + 7) & ~7
    sh = [b"\0" * 64]
    for k in range(nsec):
        off = text_off + (0 if shared else k * size)
        sh.append(struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0, off, size, 0, 0, 16, 0))
    sh.append(struct.pack("<IIQQQQIIQQ", 7, 2, 0, 0, sym_off, len(syms), nsec + 2, 1, 8, 24))
    sh.append(struct.pack("<IIQQQQIIQQ", 15, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0))
    sh.append(struct.pack("<IIQQQQIIQQ", 23, 3, 0, 0, shs_off, len(shstr), 0, 0, 1, 0))
    ehdr = (b"\x7fELF\x02\x01\x01" + b"\0" * 9 +
            struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, sh_off, 0, 64, 0, 0, 64, len(sh), len(sh) - 1))
    body = ehdr + data + syms + strtab + shstr
    return body + b"\0" * (sh_off - len(body)) + b"".join(sh)


def audit_seconds(tmp_path, name, blob):
    """The fastest of three runs (the machine is shared), and the result."""
    import time
    p = tmp_path / name
    p.write_bytes(blob)
    best = None
    for _ in range(3):
        t = time.monotonic()
        r = asmcap("audit", p, "--format", "json")
        t = time.monotonic() - t
        best = t if best is None else min(best, t)
    return best, r


@pytest.mark.parametrize("what, small, big", [
    ("symbols at one address", dict(nsec=1, nsym=20000), dict(nsec=1, nsym=160000)),
    ("sections with symbols", dict(nsec=1000, nsym=4000, size=16), dict(nsec=8000, nsym=32000, size=16)),
    ("functions over the same bytes", dict(nsec=1, nsym=2000, size=4096, spread=True),
     dict(nsec=1, nsym=16000, size=32768, spread=True)),
])
def test_hostile_objects_cost_near_linear_time(tmp_path, asmcap_bin, what, small, big):
    """160,000 zero-size symbols at one address, thousands of code sections
    beside tens of thousands of symbols, or thousands of functions over the
    same bytes: 8 times the input may cost about 8 times the time (a
    generous 24 here), never the 64 times a quadratic walk costs."""
    t1, r1 = audit_seconds(tmp_path, "small.o", hostile_elf(**small))
    t2, r2 = audit_seconds(tmp_path, "big.o", hostile_elf(**big))
    for r, nsec in ((r1, small["nsec"]), (r2, big["nsec"])):
        assert r.returncode == 0, r.stderr
        rows = json.loads(r.stdout)["objects"][0]["functions"]
        assert sum(f["features"].get("adx", 0) for f in rows) == nsec      # each section's ADCX once
    assert t2 < 24 * max(t1, 0.02), (what, t1, t2)


def test_code_sections_over_the_same_bytes_are_refused(tmp_path, asmcap_bin):
    """8,000 code section headers over one 4 KiB would each be decoded
    again; no toolchain writes sections that overlap: refused, named."""
    p = tmp_path / "shared.o"
    p.write_bytes(hostile_elf(8000, 1, shared=True))
    r = asmcap("audit", p)
    assert r.returncode == 2
    assert f"asmcap audit: {p}: code sections 1 (.text) and 2 (.text) overlap in the file" in r.stderr


def test_probe_and_audit_find_one_section(tmp_path):
    """A `section:` line is found by one rule in the probe and in audit: an
    ELF section named "x,y" is not section y (only Mach-O's "SEG,sect"
    answers to its sect part).  The probe used to take it for y, audit
    did not."""
    tpl = tmp_path / "tpl"
    bodies = {"s-comma": ("y", '\t.section "x,y","a"\n\t.byte 1\n'),
              "s-plain": (" .data.z ,y", '\t.section .data.z,"a"\n\t.byte 1\n')}
    for name, (sec, body) in bodies.items():
        write_template(tpl, name, section=sec, expect="nonempty", body=body)
    r = asmcap("--templates", tpl, "--cc", "gcc", "--format", "json")
    assert r.returncode == 0, r.stderr
    probed = {k: v["status"] for k, v in json.loads(r.stdout)["features"].items()}
    obj = assemble(tmp_path, "elf64", "".join(b for _, b in bodies.values()))
    rc, data, err = audit("--templates", tpl, obj)
    assert rc == 0, err
    assert probed == {"s-comma": "broken", "s-plain": "yes"}, probed
    assert data["objects"][0]["sections"] == ["s-plain"], data["objects"][0]
