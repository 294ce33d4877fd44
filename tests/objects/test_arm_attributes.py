# SPDX-License-Identifier: MIT
"""The .ARM.attributes reader (probe/arch/armattr.c, the arm module's) and the probe's
`attribute:' evidence: Tag_CPU_arch as readelf --arch-specific reads it,
in either byte order; a malformed section is an error with a reason (and
`broken' in the probe), never a crash (the helper runs under ASan/UBSan)."""
import json
import re
import stat
import subprocess
import sys

import pytest

from conftest import ROOT, asmcap
from objtools import reader_helper  # noqa: F401 (a fixture)

sys.path.insert(0, str(ROOT / "tests" / "catalog"))
from catalog_files import sections  # noqa: E402
from cross_catalog import CPU_ARCH_NAMES  # noqa: E402

BODY = "\t.syntax unified\n\t.arm\n\tadd\tr0, r0, r0\n"
GAS = "arm-linux-gnueabihf-as -march=armv7-a"
TOOLS = [(GAS, "le"), (f"{GAS} -EB", "be"),
         ("clang-19 --target=armv7a-linux-gnueabihf -c", "le"),
         ("clang-19 --target=armebv7a-linux-gnueabihf -c", "be")]


def assemble(tmp_path, tool, text, name="a"):
    src, obj = tmp_path / f"{name}.s", tmp_path / f"{name}.o"
    src.write_text(text)
    subprocess.run([*tool.split(), str(src), "-o", str(obj)], check=True, capture_output=True)
    return obj


def readelf_cpu_arch(obj):
    """Tag_CPU_arch's value as binutils' readelf names it, as a number."""
    out = subprocess.run(["readelf", "--arch-specific", str(obj)], capture_output=True, text=True,
                         check=True).stdout
    got = re.findall(r"^\s*Tag_CPU_arch: (\S+)$", out, re.M)
    return CPU_ARCH_NAMES.index(got[0]) if got else None


def attr(helper, obj, tag=6):
    r = subprocess.run([str(helper), "--arm-attr", str(obj), str(tag)], capture_output=True, text=True)
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    return r


@pytest.mark.parametrize("tool,order", TOOLS, ids=[f"{t.split()[0]}-{o}" for t, o in TOOLS])
@pytest.mark.parametrize("directive", ["", "\t.object_arch armv4\n"], ids=["plain", "object-arch"])
def test_cpu_arch_is_readelfs(tmp_path, reader_helper, tool, order, directive):
    obj = assemble(tmp_path, tool, directive + BODY)
    assert (open(obj, "rb").read()[5] == 2) == (order == "be")      # EI_DATA
    want = readelf_cpu_arch(obj)
    assert want is not None
    r = attr(reader_helper, obj)
    assert r.returncode == 0 and r.stdout.split() == ["attribute", "6", str(want)], r


def test_no_section_is_no_attribute(tmp_path, reader_helper):
    obj = assemble(tmp_path, "aarch64-linux-gnu-as", "\tadd x0, x0, x0\n")
    assert ".ARM.attributes" not in sections(obj)[1]
    r = attr(reader_helper, obj)
    assert r.returncode == 0 and r.stdout.split() == ["no", "attribute", "6"], r


def gas_object(tmp_path):
    """GNU as's object and the offset of its .ARM.attributes in the file."""
    obj = assemble(tmp_path, GAS, "\t.object_arch armv4\n" + BODY)
    data = obj.read_bytes()
    sec = sections(obj)[1][".ARM.attributes"]
    assert data.count(sec) == 1 and sec[:1] == b"A" and sec[5:11] == b"aeabi\0" and sec[11] == 1
    return obj, data, data.index(sec), len(sec)


def patched(obj, data, at, new):
    out = obj.with_name("bad.o")
    out.write_bytes(data[:at] + new + data[at + len(new):])
    return out


# (what, offset in the section, bytes written there, the reason's words)
# layout: 'A', uint32 length, "aeabi\0", tag 1, uint32 size, then pairs
MALFORMED = [
    ("format version", 0, b"B", "format version"),
    ("subsection length past the section", 1, (0x7fffffff).to_bytes(4, "little"), "subsection length"),
    ("subsection length below its header", 1, (2).to_bytes(4, "little"), "subsection length"),
    ("sub-subsection size past the subsection", 12, (0x7fffffff).to_bytes(4, "little"),
     "sub-subsection size"),
    ("unterminated ULEB128", 16, None, "bad ULEB128"),
]


@pytest.mark.parametrize("what,off,new,reason", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_is_an_error(tmp_path, reader_helper, what, off, new, reason):
    obj, data, at, size = gas_object(tmp_path)
    bad = patched(obj, data, at + off, new if new is not None else b"\x80" * (size - off))
    r = attr(reader_helper, bad)
    assert r.returncode == 1 and not r.stdout, r
    assert ".ARM.attributes: " in r.stderr and reason in r.stderr, r.stderr


def fake_as(tmp_path, old, new):
    """GNU as, then the first `old' in its object's .ARM.attributes
    replaced with `new' (of the same length), where it holds one."""
    script = tmp_path / "bad-as"
    script.write_text(f"""#!/usr/bin/python3
import subprocess, sys
sys.path.insert(0, {str(ROOT / 'tests' / 'catalog')!r})
from catalog_files import sections
r = subprocess.run([{GAS.split()[0]!r}, *sys.argv[1:]])
out = sys.argv[sys.argv.index("-o") + 1]
data = open(out, "rb").read()
sec = sections(out)[1].get(".ARM.attributes")
if r.returncode == 0 and sec and {old!r} in sec:
    at = data.index(sec) + sec.index({old!r})
    data = data[:at] + {new!r} + data[at + {len(new)}:]
    open(out, "wb").write(data)
sys.exit(r.returncode)
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def object_arch(*args):
    r = asmcap("--features", "object-arch", "--format", "json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"]["object-arch"]


def test_probe_yes_on_gas_no_on_clang():
    """The verdict follows the attribute: the bytes are right on both."""
    clang = "clang-19 --target=armv7a-linux-gnueabihf -march=armv7-a"
    assert object_arch("--as", GAS.split()[0])["status"] == "yes"
    assert object_arch("--cc", f"{clang} -fno-integrated-as")["status"] == "yes"     # GNU as again
    got = object_arch("--cc", clang)
    assert got["status"] == "no" and "attribute 6 = 10, not 1" in got["reason"], got


def test_probe_malformed_is_broken(tmp_path):
    got = object_arch("--as", fake_as(tmp_path, b"A", b"B"))
    assert got["status"] == "broken" and ".ARM.attributes: format version" in got["reason"], got


def test_probe_wrong_value_is_no(tmp_path):
    """Tag_CPU_arch (tag 6) 1 rewritten to 2 (v4T): the directive's value is gone."""
    got = object_arch("--as", fake_as(tmp_path, b"\x06\x01", b"\x06\x02"))
    assert got["status"] == "no" and "attribute 6 = 2, not 1" in got["reason"], got
