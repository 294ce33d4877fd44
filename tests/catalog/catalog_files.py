# SPDX-License-Identifier: MIT
"""Test-side reading of the catalog (templates/<arch>/<feature>.s), an object
section reader and a one-feature assembler run.  Written independently of
probe/ so that the catalog's bytes are checked against real assemblers by
a second, separate implementation."""
import pathlib
import re
import struct
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


def words_dialect(arch):
    """Does the folder write `audit:` as MASK VALUE words (the fixed-width
    catalogs, templates/README.md), not in the SDM's opcode notation?"""
    lines = [l.split(":", 1)[1] for p in sorted((TEMPLATES / arch).glob("*.s"))
             for l in p.read_text().splitlines() if l.startswith("# audit:")]
    word = re.compile(r"\s*(?:[0-9a-f]{4} [0-9a-f]{4}|[0-9a-f]{8} [0-9a-f]{8}|[0-9a-f]{12} [0-9a-f]{12})\s*$")
    return bool(lines) and all(word.match(pair) for l in lines for pair in l.split(";"))


# The catalog folders: this file's (the SDM opcode notation: x86) and
# cross_catalog.py's (MASK VALUE words), told apart by what they hold.
FOLDERS = sorted(d.name for d in TEMPLATES.iterdir() if d.is_dir())
ARCHES = tuple(a for a in FOLDERS if not words_dialect(a))
MULTI = ("expect", "cpuid")


def parse(path):
    """Header keys (expect/cpuid: lists) plus 'body', 'nasm_body',
    'masm_file' (the .masm body, or None) and 'path'."""
    t = parse_header(path, MULTI)
    for key, ext in (("nasm_body", ".nasm"), ("masm_file", ".masm")):
        f = t["path"].with_suffix(ext)
        t[key] = f.read_text() if f.exists() else None
    return t


def masm_body(t):
    """What the MASM way in assembles (DESIGN.md, the catalog): the .masm
    body, else the nasm one; None for `masm: none'."""
    if t.get("masm") == "none":
        return None
    return t["masm_file"] if t.get("masm_file") else t["nasm_body"]


def parse_header(path, multi):
    """Header keys (the `multi` ones as lists of their lines) plus 'body'
    and 'path'; a key given twice that is not in `multi` fails."""
    path = pathlib.Path(path)
    lines = path.read_text().split("\n")
    t = {k: [] for k in multi}
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        key, sep, val = lines[i][1:].partition(":")
        if sep:
            key, val = key.strip(), val.strip()
            if key in multi:
                t[key].append(val)
            else:
                assert key not in t, f"{path}:{i + 1}: `{key}' given twice"
                t[key] = val
        i += 1
    t["body"] = "\n".join(lines[i:])
    t["path"] = path
    return t


def load(arch):
    return {p.stem: parse(p) for p in sorted((TEMPLATES / arch).glob("*.s"))}


def hexbytes(s):
    """'0f 38 f6' -> b'\\x0f\\x38\\xf6'; ValueError unless pairs of hex digits."""
    toks = s.split()
    if not toks or any(len(x) != 2 for x in toks):
        raise ValueError(f"not hex bytes: {s!r}")
    return bytes(int(x, 16) for x in toks)


def requires(t):
    return t.get("requires", "").replace(",", " ").split()


def formats(t):
    return set(t.get("formats", "elf coff macho").replace(",", " ").split())


# -- object files: section name -> bytes (None for zero-fill sections) ------

def _cstr(b):
    return b.split(b"\0", 1)[0].decode()


def _elf(d):
    is64, e = d[4] == 2, "<" if d[5] == 1 else ">"     # EI_DATA: 2 is big-endian (s390x)
    if is64:
        shoff, = struct.unpack_from(e + "Q", d, 0x28)
        entsz, num, strndx = struct.unpack_from(e + "HHH", d, 0x3a)
    else:
        shoff, = struct.unpack_from(e + "I", d, 0x20)
        entsz, num, strndx = struct.unpack_from(e + "HHH", d, 0x2e)
    secs = []
    for i in range(num):
        o = shoff + i * entsz
        if is64:
            name, typ, _, _, off, size = struct.unpack_from(e + "IIQQQQ", d, o)
        else:
            name, typ, _, _, off, size = struct.unpack_from(e + "IIIIII", d, o)
        secs.append((name, typ, off, size))
    stroff = secs[strndx][2]
    return {_cstr(d[stroff + n:]): (None if typ == 8 else d[off:off + size])
            for n, typ, off, size in secs}


def _coff(d):
    nsec, _, symptr, nsym, optsz = struct.unpack_from("<HIIIH", d, 2)
    out = {}
    for i in range(nsec):
        o = 20 + optsz + i * 40
        raw = d[o:o + 8]
        size, ptr = struct.unpack_from("<II", d, o + 16)
        name = _cstr(raw)
        if name.startswith("/"):        # long name: offset into the string table
            name = _cstr(d[symptr + 18 * nsym + int(name[1:]):])
        out[name] = d[ptr:ptr + size] if ptr else None
    return out


def _macho64(d):
    ncmds, = struct.unpack_from("<I", d, 16)
    o, out = 32, {}
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", d, o)
        if cmd == 0x19:                 # LC_SEGMENT_64
            nsects, = struct.unpack_from("<I", d, o + 64)
            for s in range(nsects):
                so = o + 72 + s * 80
                size, off, _, _, _, flags = struct.unpack_from("<QIIIII", d, so + 40)
                zerofill = flags & 0xff in (1, 0xc)
                out[_cstr(d[so:so + 16])] = None if zerofill else d[off:off + size]
        o += cmdsize
    return out


def object_format(d):
    if d[:4] == b"\x7fELF":
        return "elf64" if d[4] == 2 else "elf32"
    if d[:4] == b"\xcf\xfa\xed\xfe":
        return "macho64"
    machine, = struct.unpack_from("<H", d, 0)
    return {0x8664: "coff-x86-64", 0x14c: "coff-i386"}.get(machine)


def sections(path):
    d = pathlib.Path(path).read_bytes()
    fmt = object_format(d)
    if fmt is None:
        raise ValueError(f"{path}: not an ELF, COFF or Mach-O object")
    reader = _elf if fmt.startswith("elf") else _macho64 if fmt == "macho64" else _coff
    return fmt, reader(d)


def family(fmt):
    return fmt.split("-")[0].rstrip("0123456789")    # elf, coff, macho


# -- one feature through one toolchain ----------------------------------------

def assemble(t, way, argv, tmp):
    """Assemble feature t alone; returns (ok, stderr, object path).
    way: 'cc' (argv = compiler words and flags), 'as', 'nasm' (argv incl. -f),
    'masm' (argv: ml64 or llvm-ml and its flags)."""
    name = t["path"].stem
    if way == "masm":
        src = pathlib.Path(tmp, name + ".asm")
        src.write_text(f".code\n{masm_body(t)}\nEND\n")
    elif way == "nasm":
        src = pathlib.Path(tmp, name + ".asm")
        bits = "32" if t["path"].parent.name == "i386" else "64"
        src.write_text(f"\tbits {bits}\n\tsection .text\n{t['nasm_body']}\n")
    else:
        src = pathlib.Path(tmp, name + ".S")
        src.write_text("\t.text\n" + t["body"] + "\n")
    obj = pathlib.Path(tmp, name + ".o")
    if way == "cc":
        cmd = [*argv, "-c", "-x", "assembler-with-cpp", str(src), "-o", str(obj)]
    elif way == "masm":
        cmd = [*argv, "/c", f"/Fo{obj}", f"/Ta{src}"]
    else:
        cmd = [*argv, str(src), "-o", str(obj)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.returncode == 0 and obj.exists(), r.stderr, obj


def matches(got, want, fmt):
    """Exact bytes; on COFF GNU as pads sections to 16 bytes with NOPs."""
    if got == want:
        return True
    tail = got[len(want):]
    return (family(fmt) == "coff" and got.startswith(want) and len(got) % 16 == 0
            and len(tail) < 16 and set(tail) == {0x90})


def object_format_of(way, argv, arch):
    """The object format a toolchain writes, from a one-NOP file."""
    t = {"path": TEMPLATES / arch / "nop.s", "body": "\tnop", "nasm_body": "\tnop", "masm_file": None}
    with tempfile.TemporaryDirectory() as tmp:
        ok, err, obj = assemble(t, way, argv, tmp)
        if not ok:
            raise RuntimeError(f"{argv}: cannot assemble a NOP: {err}")
        return sections(obj)[0]


def verdict(t, way, argv, fmt):
    """('yes'|'no'|'broken'|'skipped', detail) for feature t; fmt is the
    toolchain's object format (object_format_of)."""
    if family(fmt) not in formats(t):
        return "skipped", f"not for {fmt}"
    if way in ("nasm", "masm") and t.get(way) == "none":
        return "skipped", f"{way}: none"
    with tempfile.TemporaryDirectory() as tmp:
        ok, err, obj = assemble(t, way, argv, tmp)
        if not ok:
            return "no", err.strip().splitlines()[0] if err.strip() else "failed"
        secs = sections(obj)[1]
    names = t.get("section", ".text").split(",")
    if fmt == "macho64" and names == [".text"]:
        names = ["__text"]
    got = next((secs[n] for n in names if n in secs), None)
    if t["expect"] == ["nonempty"]:
        return ("yes", "") if got else ("broken", f"no {names} bytes")
    if got and any(matches(got, hexbytes(e), fmt) for e in t["expect"]):
        return "yes", ""
    return "broken", f"got {got.hex(' ') if got else None}"

