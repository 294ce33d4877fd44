# SPDX-License-Identifier: MIT
"""Helpers for the object reader and audit tests: assemble snippets with
real toolchains, run `asmcap audit`, build the reader test helper."""
import json
import subprocess

import pytest

from conftest import BUILD, ROOT, asmcap, built, probe_includes, probe_sources

# The object readers are the folder probe/obj (and audit's x86 decoder, the
# arm module's .ARM.attributes reader).
READER_SRC = [*probe_sources("obj"), *(str(ROOT / "probe" / "arch" / f) for f in ("x86dec.c", "armattr.c"))]

# How each kind of object is made from a snippet (AT&T, or Intel for nasm).
ASSEMBLE = {
    "elf64": lambda src, out: ["gcc", "-c", "-x", "assembler", src, "-o", out],
    "elf32": lambda src, out: ["gcc", "-m32", "-c", "-x", "assembler", src, "-o", out],
    "clang-elf64": lambda src, out: ["clang-14", "-c", "-x", "assembler", src, "-o", out],
    "clang19-elf64": lambda src, out: ["clang-19", "-c", "-x", "assembler", src, "-o", out],
    "clang19-elf32": lambda src, out: ["clang-19", "-m32", "-c", "-x", "assembler", src, "-o", out],
    "coff64": lambda src, out: ["x86_64-w64-mingw32-as", src, "-o", out],
    "coff32": lambda src, out: ["x86_64-w64-mingw32-as", "--32", src, "-o", out],
    "nasm": lambda src, out: ["nasm", "-f", "win64", src, "-o", out],
    "nasm-elf64": lambda src, out: ["nasm", "-f", "elf64", src, "-o", out],
    "macho64": lambda src, out: ["clang-14", "-target", "x86_64-apple-macos10.15", "-c",
                                 "-x", "assembler", src, "-o", out],
}


def assemble(tmp_path, kind, text, name="snip"):
    src = tmp_path / f"{name}-{kind}.{'asm' if kind.startswith('nasm') else 's'}"
    out = tmp_path / f"{name}-{kind}.o"
    src.write_text(text)
    subprocess.run(ASSEMBLE[kind](str(src), str(out)), check=True, capture_output=True)
    return out


def audit(*args):
    """asmcap audit ARGS --format json: (returncode, parsed json or None, stderr)."""
    r = asmcap("audit", *args, "--format", "json")
    data = json.loads(r.stdout) if r.stdout.strip() else None
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    return r.returncode, data, r.stderr


def functions(data):
    """{name: features dict} over every object of an audit."""
    out = {}
    for o in data["objects"]:
        for f in o["functions"]:
            out[f["name"]] = f["features"]
    return out


def elf_function(name, *insns):
    """AT&T text of the global ELF function NAME: INSNS (one a line), then ret."""
    body = "".join(f"\t{i}\n" for i in insns)
    return (f"\t.globl\t{name}\n\t.type\t{name},@function\n{name}:\n{body}"
            f"\tret\n\t.size\t{name},.-{name}\n")


def elf_quad(name, value):
    """AT&T text of the ELF data object NAME, one quadword."""
    return f"\t.type\t{name},@object\n{name}:\t.quad\t{value:#x}\n\t.size\t{name},8\n"


def write_template(catalog, name, summary="x", section=None, expect="90", audit=None,
                   body="\tnop\n"):
    """Write the template of feature NAME into the x86_64 folder of a
    scratch catalog; returns the catalog, what --templates takes."""
    folder = catalog / "x86_64"
    folder.mkdir(parents=True, exist_ok=True)
    heads = [("feature", name), ("summary", summary), ("section", section), ("expect", expect),
             ("audit", audit)]
    (folder / f"{name}.s").write_text("".join(f"# {k}: {v}\n" for k, v in heads if v) + body)
    return catalog


def sanitized_tool(tmp_path_factory, main, sources, *defines):
    """tests/objects/MAIN.c linked with SOURCES, under ASan/UBSan."""
    exe = tmp_path_factory.mktemp(main) / main
    subprocess.run(["clang-14", "-std=c11", "-g", "-O1", "-Wall", "-Wextra", "-Werror",
                    "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", *defines,
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    *probe_includes(), "-o", str(exe), f"tests/objects/{main}.c", *sources],
                   cwd=ROOT, check=True)
    return exe


@pytest.fixture(scope="session")
def reader_helper(tmp_path_factory):
    """tests/objects/objdump.c with the readers."""
    return sanitized_tool(tmp_path_factory, "objdump", READER_SRC)


@pytest.fixture(scope="session")
def rules_helper(tmp_path_factory):
    """objdump.c with everything asmcap is made of but its main(): the
    readers with the modules' ELF rules (mapping symbols, the Thumb bit,
    BE8 order) installed."""
    sources = [c for c in probe_sources() if not c.endswith("/probe/main.c")]
    return sanitized_tool(tmp_path_factory, "objdump", [*sources, str(built(BUILD / "catalog.c"))],
                          "-DOBJDUMP_RULES")
