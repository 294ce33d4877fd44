# SPDX-License-Identifier: MIT
"""The sanitizer exit code conftest sets is the one an ASan or UBSan build
really exits with, for gcc and clang: never asmcap's 0-3."""
import subprocess

import pytest

from conftest import SANITIZER_EXIT, need_tool

BAD = r"""
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	if (argv[1][0] == 'u') {            /* signed overflow */
		int x = 0x7fffffff;
		x += argc;
		return x & 1;
	}
	char *p = malloc(4);                /* heap overflow */
	memset(p, 0, 4 + (size_t)argc);
	return p[0];
}
"""


def test_the_code_is_not_one_of_asmcaps():
    assert SANITIZER_EXIT not in (0, 1, 2, 3)


@pytest.mark.parametrize("cc", ["gcc", "clang-14"])
@pytest.mark.parametrize("error, report", [("u", "runtime error: signed integer overflow"),
                                           ("a", "AddressSanitizer: heap-buffer-overflow")])
def test_a_report_exits_with_the_sanitizer_code(tmp_path, cc, error, report):
    src = tmp_path / "bad.c"
    src.write_text(BAD)
    exe = tmp_path / "bad"
    subprocess.run([need_tool(cc), "-g", "-O0", "-fsanitize=address,undefined",
                    "-fno-sanitize-recover=undefined", "-o", str(exe), str(src)], check=True,
                   capture_output=True)
    r = subprocess.run([str(exe), error], capture_output=True, text=True, timeout=60)
    assert r.returncode == SANITIZER_EXIT and report in r.stderr, (r.returncode, r.stderr)
