# SPDX-License-Identifier: MIT
"""The built libmont: what the shared library exports, how it links, and
that the kernels stay inside it."""
import os
import re
import subprocess

import pytest

from montlib import BUILD, BUILD_CFLAGS, ROOT, build_caps, kernels_header, make

API = {"mont_n0", "mont_mul", "mont_sqr", "mont_modexp", "mont_modexp2", "mont_modexp_batch",
       "mont_backend", "mont_select"}


@pytest.fixture(scope="module")
def libs():
    make(BUILD / "libmont.a", BUILD / "libmont.so")
    return BUILD / "libmont.a", BUILD / "libmont.so"


def tool(*args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_so_exports_only_the_api(libs):
    out = tool("nm", "-D", "--defined-only", str(libs[1]))
    # lines: ADDRESS TYPE NAME; the version node MONT_1 is an absolute symbol
    names = {f[2].split("@")[0] for f in (line.split() for line in out.splitlines())
             if len(f) == 3 and f[1] != "A"}
    assert names == API


def test_so_has_no_text_relocations(libs):
    dyn = tool("readelf", "-d", str(libs[1]))
    assert "TEXTREL" not in dyn
    assert not re.search(r"FLAGS.*\bTEXTREL\b", dyn)
    # and the stack is not executable (the asm carries .note.GNU-stack)
    seg = tool("readelf", "-lW", str(libs[1]))
    stack = [line for line in seg.splitlines() if "GNU_STACK" in line]
    assert stack and "RWE" not in stack[0]


def test_kernels_are_hidden(libs):
    arch = build_caps()["toolchain"]["arch"]
    if arch != "x86_64":
        pytest.skip(f"a C-only build: the target is {arch}, not x86_64")
    assert kernels_header() is not None, "an x86_64 build without build/mont-kernels.h"
    syms = tool("readelf", "-sW", str(BUILD / "mont" / "mont-x86_64.o"))
    kernels = [line for line in syms.splitlines() if re.search(r"\bmontk_\w+$", line)]
    assert kernels, "no montk_ symbols in the asm object"
    assert all("HIDDEN" in line for line in kernels), kernels


def test_program_links_against_the_so(libs, tmp_path):
    """A user of mont.h alone, linked dynamically, gets right answers."""
    src = tmp_path / "user.c"
    src.write_text(r'''
#include <stdio.h>
#include "mont.h"
int main(void)
{
	uint64_t n[4] = {0xffffffffffffffc5u, ~0ull, ~0ull, 0x7fffffffffffffffu};
	uint64_t base[4] = {12345, 0, 0, 0}, exp[1] = {65537}, r[4];
	int rc = mont_modexp(r, base, exp, 1, n, 4);
	printf("%d %s %016llx%016llx%016llx%016llx\n", rc, mont_backend(),
	       (unsigned long long)r[3], (unsigned long long)r[2],
	       (unsigned long long)r[1], (unsigned long long)r[0]);
	return 0;
}
''')
    exe = tmp_path / "user"
    cc = os.environ.get("CC", "cc")
    tool(cc, *BUILD_CFLAGS, "-std=c11", "-Wall", "-Werror", f"-I{ROOT / 'mont'}",
         "-o", str(exe), str(src), f"-L{BUILD}", "-lmont", f"-Wl,-rpath,{BUILD}")
    out = tool(str(exe)).split()
    n = (1 << 255) - 59
    assert out[0] == "0" and out[1] in ("c", "mulq", "adx", "ifma")
    assert int(out[2], 16) == pow(12345, 65537, n)


@pytest.mark.parametrize("macro, value, message", [
    ("MONTK_MAX_NUM", "127", "every num up to MONT_MAX_NUM"),
    ("MONTK_MIN_NUM", "0", "smallest num"),
    ("MONTK_IFMA_MAX_NUM", "2", "ones the IFMA kernels take"),
])
def test_kernel_limits_checked_at_compile_time(tmp_path, macro, value, message):
    """mont/dispatch.c refuses to compile against a kernels header whose
    limits do not cover what the library asks of the kernels; the header
    as generated compiles."""
    header = kernels_header()
    if header is None or f"#define {macro} " not in header:
        pytest.skip(f"this build's kernels header has no {macro}")
    cc = ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-DMONT_ASM", f"-I{tmp_path}",
          "-c", "-o", str(tmp_path / "dispatch.o"), str(ROOT / "mont" / "dispatch.c")]
    (tmp_path / "mont-kernels.h").write_text(header)
    p = subprocess.run(cc, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    doctored, count = re.subn(rf"^#define {macro} \d+$", f"#define {macro} {value}", header,
                              flags=re.M)
    assert count == 1
    (tmp_path / "mont-kernels.h").write_text(doctored)
    p = subprocess.run(cc, capture_output=True, text=True)
    assert p.returncode != 0 and message in p.stderr, p.stderr
