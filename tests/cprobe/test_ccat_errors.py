# SPDX-License-Identifier: MIT
"""A C-level probe file with a bad `holds:' or `reloc:' line: the binary
built with it refuses to run cc-probe, naming the file, the line and what
is wrong (the catalog is compiled in, so each case is a build of asmcap
with one bad file added to a copy of templates/)."""
import shutil
import subprocess

import pytest

from conftest import ROOT, need_tool

DIRS = ["probe", "probe/arch", "probe/cmd", "probe/engine", "probe/lib", "probe/obj"]
FLAGS = ["-std=c11", "-O0", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-D_FILE_OFFSET_BITS=64",
         *[f"-I{ROOT / d}" for d in DIRS]]
GOOD = """// feature: bad-inline
// summary: a probe
// since: never
{}void asmcap_probe(void);
void asmcap_probe(void)
{{
	__asm__ volatile("nop");
}}
"""


@pytest.fixture(scope="module")
def objects(tmp_path_factory):
    """The probe's sources compiled once; each case links them with its catalog."""
    out = tmp_path_factory.mktemp("objs")
    cc = need_tool("gcc")
    srcs = sorted(p for d in DIRS for p in (ROOT / d).glob("*.c"))
    subprocess.run([cc, *FLAGS, "-c", *map(str, srcs)], cwd=out, check=True)
    return sorted(out.glob("*.o"))


def build_with(tmp_path, objects, header):
    tpl = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", tpl)
    (tpl / "x86_64" / "c" / "bad-inline.c").write_text(GOOD.format(header))
    cat = tmp_path / "catalog.c"
    with open(cat, "w") as f:
        subprocess.run([need_tool("perl"), str(ROOT / "probe/engine/embed-catalog.pl"), str(tpl), "--text",
                        "choose_driver_c", str(ROOT / "probe/cmd/driver/choose-driver.c"), "--line",
                        "asmcap_version_line", str(ROOT / "VERSION")], stdout=f, check=True)
    exe = tmp_path / "asmcap"
    subprocess.run([need_tool("gcc"), *FLAGS, "-o", str(exe), *map(str, objects), str(cat)], check=True)
    return exe


@pytest.mark.parametrize("header,line,why", [
    ("// holds: 83 c3 5\n", 4, "a byte is HH or HH/MM (two hex digits each)"),
    ("// holds: 0x83\n", 4, "a byte is HH or HH/MM"),
    ("// holds: 01/fd c1/c0\n", 4, "HH has no bit outside it"),
    ("// holds: 90 |\n", 4, "an empty alternative"),
    ("// holds: 90\n// holds: | 90\n", 5, "an empty alternative"),
    ("// holds: " + " ".join(["90"] * 33) + "\n", 4, "more than 32 bytes"),
    ("// holds: 90\n// reloc: asmcap_nowhere\n", 1, "`reloc:' names a symbol the body never says"),
    ("", 1, "neither `insn:' nor `holds:' lines"),
])
def test_a_bad_probe_file_is_named(tmp_path, objects, header, line, why):
    exe = build_with(tmp_path, objects, header)
    r = subprocess.run([str(exe), "cc-probe", "--cc", "gcc", "--features", "bad-inline"], capture_output=True,
                       text=True)
    assert r.returncode == 3
    assert f"templates/x86_64/c/bad-inline.c:{line}: " in r.stderr and why in r.stderr, r.stderr


def test_a_good_one_is_answered(tmp_path, objects):
    # the same build path with a well-formed file: the errors above are the file's
    exe = build_with(tmp_path, objects, "// holds: 90\n")
    r = subprocess.run([str(exe), "cc-probe", "--cc", "gcc", "--features", "bad-inline", "--format", "sh"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "ASMCAP_C_BAD_INLINE=yes" in r.stdout, r.stderr + r.stdout
