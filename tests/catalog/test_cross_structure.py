# SPDX-License-Identifier: MIT
"""Structure of the fixed-width catalogs (templates/aarch64, arm, riscv64,
loongarch64, s390x, ppc64le):
keys, bytes, audit patterns against the snippet's own words, CPU keys
against the kernel's uapi values, requires; and probe/engine/catalog.c's loader and template.c's parser
(through tests/catalog/catalog_dump.c, under ASan/UBSan) agreeing with
this reading and rejecting malformed values with file:line.  No cross
toolchain needed: test_cross_catalog.py runs those."""
import pathlib
import re
import subprocess

import pytest

import catalog_files as cf
import cross_catalog as cc
from catalog_files import ROOT, TEMPLATES, hexbytes
from conftest import need_tool, probe_includes, probe_sources

KNOWN = {"feature", "summary", "requires", "since", "expect", "enable", "audit",
         "audit-thumb", "hwcap", "hwcap2", "hwprobe", "isa", "section", "as-flag", "attribute"}
# Snippet words that another feature's patterns also recognise, beyond
# `requires:`: the instruction belongs to both extensions (templates/README.md).
OVERLAPS = {("zbkc", "zbc"), ("zvkb", "zvbb"), ("zvknha", "zvknhb"), ("zvknhb", "zvknha")}

ALL = [(arch, name) for arch in cc.ARCHES for name in cc.load(arch)]


def tmpl(arch, name):
    return cc.load(arch)[name]


def plain_body(arch, name):
    """The body's instructions as plain lines (a directive feature's PLAIN)."""
    plain = cc.DIRECTIVES[arch].get(name, (None,))[0]
    return tmpl(arch, name)["body"] if plain is None else plain


def instruction_lines(body):
    """Body lines that are instructions, not directives."""
    return [l.strip() for l in body.splitlines() if l.strip() and not l.strip().startswith(".")]


def test_the_folders_are_told_apart():
    """The x86 folders and the fixed-width ones, as the tests read them."""
    assert set(cc.ARCHES) | set(cf.ARCHES) == set(cf.FOLDERS)
    assert not set(cc.ARCHES) & set(cf.ARCHES) and cc.ARCHES and cf.ARCHES


def test_no_stray_files():
    for arch in cc.ARCHES:
        for p in (TEMPLATES / arch).iterdir():
            # c/: the C-level probes (tests/cprobe/test_ccat.py checks them)
            assert p.suffix == ".s" or (p.name == "c" and p.is_dir()), p


@pytest.mark.parametrize("arch,name", ALL)
def test_header(arch, name):
    t = tmpl(arch, name)
    assert set(t) - {"body", "path"} <= KNOWN, set(t) - KNOWN
    assert t["feature"] == name
    for key in ("summary", "since"):
        assert t.get(key), f"{name}: no {key}"
    body = t["body"]
    assert "section" not in t or cc.is_directive(arch, name), "an instruction is checked in .text"
    if cc.is_directive(arch, name):
        # its bytes are the answer; no audit: built code does not show the directive
        assert t["expect"] and not t["audit"] and not t["audit-thumb"]
        assert instruction_lines(plain_body(arch, name)), "a directive-only body"
        # a flag question: its flag is the only enabling form
        assert (name in cc.FLAG_QUESTIONS[arch]) == ("as-flag" in t)
        assert "as-flag" not in t or (t["as-flag"].startswith("-") and not t["enable"])
    else:
        # loongarch64: no directive gates an extension (the assemblers take
        # every instruction: test_cross_catalog's IN_BASE holds them)
        assert t["expect"] and (t["enable"] or arch == "loongarch64") and (t["audit"] or t["audit-thumb"])
        assert instruction_lines(body), "a directive-only body"
    assert not re.search(r"^\s*[#;@/]", body, re.M), "comments in a body"
    for e in t["enable"]:
        assert e.startswith("."), f"enable `{e}' is not a directive"
        assert e not in body, f"the body repeats its enable line `{e}'"
    if arch == "riscv64":
        assert not re.search(r"\.option\s+(push|pop)", body), "push/pop is the engine's"
        assert all(e.startswith(".option arch, +") for e in t["enable"])
        assert "isa" not in t and not t["audit-thumb"]
    if arch == "arm":
        lines = [l.strip() for l in body.splitlines() if l.strip()]
        assert t.get("isa") in ("arm", "thumb")
        assert lines[:2] == [".syntax unified", "." + t["isa"]], lines
        if t["isa"] == "thumb":
            assert lines[-1] == ".arm", "a Thumb body must switch back"
    else:
        assert "isa" not in t and not t["audit-thumb"]


@pytest.mark.parametrize("arch,name", ALL)
def test_expect_bytes(arch, name):
    t = tmpl(arch, name)
    seqs = [hexbytes(e) for e in t["expect"]]
    assert len(set(seqs)) == len(seqs), "duplicate expect lines"
    if "section" in t:
        return              # data, not instructions (test_eh_frame_negate_ra_state)
    for s in seqs:
        ws = cc.words(arch, s, t.get("isa") == "thumb")
        assert sum(n for _, n in ws) == len(s), "bytes end inside an instruction"
        # one word per instruction line: no hidden expansion
        assert len(ws) == len(instruction_lines(plain_body(arch, name))), (name, ws)
        if arch == "s390x":
            continue        # 2-, 4- and 6-byte instructions, each its only encoding
        if arch != "riscv64" or name != "zcb":   # zcb is 16-bit by definition
            assert all(n == 4 or (arch, name) == ("ppc64le", "power10-prefix") for _, n in ws), \
                f"{name}: a 16-bit (compressed) or prefixed encoding"


@pytest.mark.parametrize("arch,name", ALL)
def test_audit_matches_own_words(arch, name):
    t = tmpl(arch, name)
    if cc.is_directive(arch, name):
        assert not t["audit"] and not t["audit-thumb"]
        return
    key = "audit-thumb" if t.get("isa") == "thumb" else "audit"
    pats = cc.patterns(t, key)
    other = "audit" if key == "audit-thumb" else "audit-thumb"
    cc.patterns(t, other)                     # well formed too
    for e in t["expect"]:
        for w, n in cc.words(arch, hexbytes(e), t.get("isa") == "thumb"):
            assert cc.matches(pats, w, n), f"{name}: {w:0{2 * n}x} not in its {key}"


def uleb(b, i):
    """(value, next index) of the ULEB128 at b[i] (DWARF 5, 7.6)."""
    v = shift = 0
    while True:
        v |= (b[i] & 0x7f) << shift
        shift += 7
        i += 1
        if not b[i - 1] & 0x80:
            return v, i


def test_eh_frame_negate_ra_state():
    """Each expected .eh_frame, read as the LSB's .eh_frame format and DWARF
    call frame instructions say: one CIE (augmentation "zR", return
    address x30), one FDE covering the two hints whose instructions are an
    advance by one instruction (4 bytes, in the CIE's code alignment
    factor) and DW_CFA_AARCH64_negate_ra_state (0x2d), then DW_CFA_nop."""
    t = tmpl("aarch64", "cfi-negate-ra-state")
    assert t["section"] == ".eh_frame"
    for line in t["expect"]:
        b = hexbytes(line)
        order = "little" if b[0] else "big"       # the CIE's length, 0x10, says it

        def num(i, b=b, order=order):
            return int.from_bytes(b[i:i + 4], order)
        cie_len = num(0)
        assert num(4) == 0 and b[8] == 1 and b[9:12] == b"zR\0"   # CIE id, version
        caf, i = uleb(b, 12)
        i += 1                                      # data alignment factor (SLEB, one byte)
        assert b[i] == 30                           # return address register: x30
        fde = 4 + cie_len
        fde_len = num(fde)
        assert num(fde + 4) == fde + 4              # CIE pointer: back to offset 0
        assert num(fde + 12) == 8 and b[fde + 16] == 0   # pc_range: two instructions; no augmentation data
        insns = b[fde + 17:fde + 4 + fde_len]
        assert insns[0] == 0x40 | 4 // caf and insns[1] == 0x2d, insns.hex()
        assert set(insns[2:]) <= {0}, insns.hex()
        assert len(b) == fde + 4 + fde_len


def closure(cat, name):
    seen, todo = set(), [name]
    while todo:
        for r in cc.requires(cat[todo.pop()]):
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_audit_tells_features_apart(arch):
    """A snippet's words match no other feature's patterns except the ones
    it requires and the documented shared instructions."""
    cat = cc.load(arch)
    wrong = []
    for name, t in cat.items():
        if cc.is_directive(arch, name):
            continue        # the same instruction as its extension's feature, by design
        key = "audit-thumb" if t.get("isa") == "thumb" else "audit"
        for other, u in cat.items():
            if other == name or other in closure(cat, name) or (name, other) in OVERLAPS:
                continue
            pats = cc.patterns(u, key)
            if any(cc.matches(pats, w, n) for w, n in cc.snippet_words(arch, t)):
                wrong.append((name, other))
    assert not wrong


@pytest.mark.parametrize("arch,name", ALL)
def test_cpu_key_is_the_kernels(arch, name):
    t = tmpl(arch, name)
    assert cc.cpu_key(arch, t) == cc.expected_cpu_key(arch, name)
    if cc.cpu_key(arch, t) is None:
        assert "hwcap" in t["summary"].lower(), "a feature without a CPU key says so"


def test_uapi_table_is_consistent():
    """The recorded uapi values: no two macros on one bit."""
    for table in cc.UAPI.values():
        assert len(set(table.values())) == len(table)
    assert len(set(cc.UAPI_RISCV.values())) == len(cc.UAPI_RISCV)


def test_s390x_hwcaps_are_glibcs():
    """The recorded s390x bits against glibc's <bits/hwcap.h> for s390
    (HWCAP_S390_X is 1 << bit), read here rather than copied."""
    text = pathlib.Path(need_tool("/usr/s390x-linux-gnu/include/bits/hwcap.h")).read_text()
    defs = dict(re.findall(r"#define\s+(HWCAP_S390_\w+)\s+(\w+)", text))
    values = {m: int(defs.get(v, v)) for m, v in defs.items()}     # VXRS is VX: one alias deep
    assert {m: (1, values[m].bit_length() - 1) for m in cc.UAPI_S390X} == cc.UAPI_S390X
    assert all(values[m] == 1 << b for m, (_, b) in cc.UAPI_S390X.items())


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_requires_resolvable(arch):
    cat = cc.load(arch)
    for name, t in cat.items():
        for r in cc.requires(t):
            assert r in cat, f"{name} requires unknown {r}"
            assert name not in closure(cat, r), f"{name}: a requires cycle"


# -- probe/engine/catalog.c and template.c through the dump harness ---------------------------------

@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    exe = tmp_path_factory.mktemp("dump") / "catalog_dump"
    subprocess.run(["cc", "-std=c11", "-g", "-Wall", "-Wextra", "-Werror",
                    "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                    *probe_includes(), "-o", str(exe), str(ROOT / "tests/catalog/catalog_dump.c"),
                    # the catalog asks the architecture modules for each folder's dialect
                    *(str(ROOT / "probe/engine" / c) for c in ("catalog.c", "template.c")),
                    *probe_sources("lib", "arch", "obj")],
                   check=True)

    def run(directory, arch):
        return subprocess.run([str(exe), str(directory), arch], capture_output=True,
                              text=True, timeout=60)
    return run


def expected_dump(arch):
    """What catalog_dump must print, from this file's own reading."""
    out = []
    for name, t in sorted(cc.load(arch).items()):
        out.append(f"feature {name}")
        out += [f"enable {e}" for e in t["enable"]]
        out += [f"requires {r}" for r in cc.requires(t)]
        key = cc.cpu_key(arch, t)
        if key:
            out.append(f"{key[0]} {key[1]} {key[2]}")
        if "isa" in t:
            out.append(f"isa {t['isa']}")
        if "attribute" in t:
            name, value = cc.attribute(t)
            out.append(f"attribute {cc.ARM_ATTRIBUTE_TAGS[name]} {value}")
        out += [f"expect {e}" for e in t["expect"]]
        for k in ("audit", "audit-thumb"):
            out += [f"{k} {m:0{2 * n}x} {v:0{2 * n}x}" for m, v, n in cc.patterns(t, k)]
    return out


@pytest.mark.parametrize("arch", cc.ARCHES)
def test_parser_agrees(dump, arch):
    r = dump(TEMPLATES, arch)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == expected_dump(arch)


def test_parser_keeps_x86_text_audit(dump):
    r = dump(TEMPLATES, "x86_64")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert sum(l.startswith("audit-text ") for l in lines) > 20
    assert not [l for l in lines if l.startswith(("audit ", "hwcap", "hwprobe", "enable"))]


GOOD = "# feature: bad\n# enable: .arch_extension crc\n# expect: 20 4c c2 9a\n"
BODY = "\tcrc32x\tw0, w1, x2\n"


@pytest.mark.parametrize("arch,header,message", [
    ("aarch64", "# audit: 7fe0e000\n", "bad audit"),
    ("aarch64", "# audit: 7fe0e000 1ac04000 ; 0000ffff 1234\n", "bad audit"),
    ("aarch64", "# audit: 0000ff00 000000ff\n", "bad audit"),          # value outside mask
    ("aarch64", "# audit: 00000000 00000000\n", "bad audit"),          # matches everything
    ("aarch64", "# audit: 7fe0e00g 1ac04000\n", "bad audit"),
    ("aarch64", "# audit: ff00000000 e700000000\n", "bad audit"),      # 10 digits: no width
    ("aarch64", "# audit: ff00000000ff e7000006\n", "bad audit"),       # widths differ
    ("aarch64", "# audit: 7fe0e000 1ac04000 junk\n", "bad audit"),
    ("aarch64", "# audit:\n", "bad audit"),
    ("aarch64", "# audit: 7fe0e000 1ac04000\n# audit: ;\n", "bad audit"),
    ("aarch64", "# hwcap: AT_HWCAP2 bit=3\n", "bad hwcap"),
    ("aarch64", "# hwcap: AT_HWCAP bit=64\n", "bad hwcap"),
    ("aarch64", "# hwcap: AT_HWCAP bit=-1\n", "bad hwcap"),
    ("aarch64", "# hwcap2: AT_HWCAP2 bit=x\n", "bad hwcap2"),
    ("aarch64", "# hwcap: AT_HWCAP bit=7\n# hwcap2: AT_HWCAP2 bit=1\n", "a second hwcap"),
    ("aarch64", "# enable:\n", "empty `enable:'"),
    # a spelling is written as a #define body and a .S line: no escapes or comments
    ("aarch64", "# enable: .arch armv8-a \\\n", "holds `\\'"),
    ("aarch64", "# enable: .arch armv8-a # x\n", "holds `# '"),
    ("aarch64", "# enable: .arch armv8-a /* x */\n", "holds `/*'"),
    ("aarch64", "# enable: .arch armv8-a\t\n".replace("\t", "\x01"), "holds byte 0x01"),
    ("aarch64", "".join(f"# enable: .arch armv8.{k}-a\n" for k in range(10)), "more than ten"),
    ("aarch64", "# as-flag: Wa,-march=armv8.2-a\n", "bad as-flag"),
    ("aarch64", "# as-flag: -Wa,-march=armv8.2-a -O2\n", "bad as-flag"),
    # the flag is the only enabling form: GOOD's `enable:' beside it is refused
    ("aarch64", "# as-flag: -Wa,-march=armv8.2-a\n", "`as-flag:' and `enable:' together"),
    ("aarch64", "# cpuid: leaf=1 subleaf=0 reg=ecx bit=1\n", "`cpuid:' does not apply to aarch64"),
    ("aarch64", "# nasm: none\n", "`nasm:' does not apply"),
    ("riscv64", "# hwprobe: key=4\n", "bad hwprobe"),
    ("riscv64", "# hwprobe: key=4 bit=64\n", "bad hwprobe"),
    ("riscv64", "# hwprobe: key=-1 bit=3\n", "bad hwprobe"),
    ("riscv64", "# hwprobe: key=4 bit=3\n# hwprobe: key=4 bit=4\n", "`hwprobe:' given twice"),
    ("arm", "# isa: mips\n", "bad isa"),
    ("arm", "# attribute: Tag_CPU_arch\n", "bad attribute"),
    ("arm", "# attribute: Tag_CPU_name=1\n", "bad attribute"),     # string-valued: not in the table
    ("arm", "# attribute: Tag_CPU_arch=v4\n", "bad attribute"),
    ("arm", "# attribute: Tag_CPU_arch=1\n# attribute: Tag_CPU_arch=2\n", "`attribute:' given twice"),
    ("aarch64", "# attribute: Tag_CPU_arch=1\n", "`attribute:' does not apply to aarch64"),
    ("riscv64", "# attribute: Tag_CPU_arch=1\n", "`attribute:' does not apply to riscv64"),
    ("arm", "# audit-thumb: f800 e8000000\n", "bad audit-thumb"),
    ("x86_64", "# hwcap: AT_HWCAP bit=7\n", "`hwcap:' does not apply to x86_64"),
    ("x86_64", "# audit-thumb: f800 e800\n", "`audit-thumb:' does not apply"),
    ("x86_64", "# attribute: Tag_CPU_arch=1\n", "`attribute:' does not apply to x86_64"),
])
def test_parser_rejects(dump, tmp_path, arch, header, message):
    d = tmp_path / arch
    d.mkdir()
    text = GOOD + header + BODY
    (d / "bad.s").write_text(text)
    r = dump(tmp_path, arch)
    assert r.returncode == 2, r.stdout
    line = text.split("\n").index(header.split("\n")[-2]) + 1
    assert f"{d / 'bad.s'}:" in r.stderr and message in r.stderr, r.stderr
    assert re.search(rf"bad\.s:{line}:", r.stderr), (line, r.stderr)
    assert "runtime error" not in r.stderr and "Sanitizer" not in r.stderr


@pytest.mark.parametrize("audit,stored", [
    ("# audit: fc43 9c41 ; b3c0707f 81c04073\n# audit: f003 8000\n",
     ["audit fc43 9c41", "audit b3c0707f 81c04073", "audit f003 8000"]),
    # 12 digits are a 6-byte instruction (s390x has 2-, 4- and 6-byte
    # ones), kept whole: VL's opcode is split between its first and last
    # byte (e7 ... 06), so the high bits and the low byte must both stay
    ("# audit: ff00000000ff e70000000006 ; ffff 0707\n",
     ["audit ff00000000ff e70000000006", "audit ffff 0707"]),
])
def test_parser_accepts_every_width(dump, tmp_path, audit, stored):
    d = tmp_path / "riscv64"
    d.mkdir()
    (d / "ok.s").write_text("# feature: ok\n# enable: .option arch, +zcb\n"
                            "# hwprobe: key=4 bit=44\n# expect: 61 9d\n" + audit +
                            "\tc.zext.b\ta0\n")
    r = dump(tmp_path, "riscv64")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "feature ok", "enable .option arch, +zcb", "hwprobe 4 44", "expect 61 9d", *stored]


def test_readme_documents_every_key():
    text = (TEMPLATES / "README.md").read_text()
    for key in KNOWN:
        assert f"`{key}:" in text, key
