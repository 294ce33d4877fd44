# SPDX-License-Identifier: MIT
"""asmcap cc-flag's assembler side: `-Wa,-march=armv8.N-a' (the kernel's
AS_HAS_ARMV8_2..5) is yes only when the level's instruction, from the
catalog's `as-flag:' templates (templates/aarch64/march-*.s), assembles to
its `expect:' bytes with the flag.  Expected verdicts come from the bytes:
each toolchain assembles the template body with and without the flag here,
read by the test's own section reader.  A level that does not exist
(armv9.9-a, which clang takes silently when it compiles C) is no with the
assembler's reason; a driver that accepts the flag and drops it
(tests/fake/drop-wa-march) is no; a cache hit starts no assembler, and a
changed assembler misses."""
import json
import os
import subprocess
import sys

import pytest

from conftest import FAKES, ROOT, asmcap, need_tool

sys.path.insert(0, str(ROOT / "tests" / "catalog"))
from catalog_files import hexbytes, parse_header, sections  # noqa: E402

A64 = "--target=aarch64-linux-gnu"
LEVELS = [f"armv8.{n}-a" for n in range(1, 7)]
# (id, --cc, --cflags): clang's integrated assembler, and GNU as 2.40
# (binutils-aarch64-linux-gnu) behind clang's driver
TOOLCHAINS = [
    ("clang-14", "clang-14", A64),
    ("clang-19", "clang-19", A64),
    ("clang-22", "clang-22", A64),
    ("clang-19-gas", "clang-19", f"{A64} -fno-integrated-as"),
]
TOOLS = {"clang-14": ["clang-14"], "clang-19": ["clang-19"], "clang-22": ["clang-22"],
         "clang-19-gas": ["clang-19", "aarch64-linux-gnu-as"]}
# Measured (2026-12, Debian 12): every toolchain here raises its level for
# each of the six flags; the bytes below must keep saying so.
MEASURED = {tc[0]: {lv: "yes" for lv in LEVELS} for tc in TOOLCHAINS}


def template(level, arch="aarch64"):
    return parse_header(ROOT / "templates" / arch / f"march-{level}.s", ("expect",))


def need(tc_id):
    for t in TOOLS[tc_id]:
        need_tool(t)


def assemble(tmp_path, cc, cflags, text, *flags):
    """(ok, .text bytes or None): ok only with exit 0 and no warning."""
    src, obj = tmp_path / "s.S", tmp_path / "s.o"
    src.write_text(text)
    obj.unlink(missing_ok=True)
    r = subprocess.run([*cc.split(), *cflags.split(), *flags, "-c", "-x", "assembler-with-cpp",
                        str(src), "-o", str(obj)], capture_output=True, text=True, timeout=120)
    if r.returncode or "warning" in r.stderr.lower() or not obj.exists():
        return False, None
    return True, sections(obj)[1].get(".text")


def from_bytes(tmp_path, cc, cflags, level, arch="aarch64"):
    """yes when the body gives its bytes with the flag (and is refused
    without it: the flag is what enables it), else no."""
    t = template(level, arch)
    flag = f"-Wa,-march={level}" if arch == "aarch64" else f"-march={level}"
    assert t["as-flag"] == flag
    without, _ = assemble(tmp_path, cc, cflags, t["body"])
    ok, code = assemble(tmp_path, cc, cflags, t["body"], flag)
    assert not without, f"{level}: the body assembles without {flag}"
    return "yes" if ok and any(code == hexbytes(e) for e in t["expect"]) else "no"


def cc_flag(cc, cflags, *fl, fmt="sh", env=None, extra=()):
    r = asmcap("cc-flag", "--cc", cc, "--cflags", cflags, "--format", fmt, *extra, "--", *fl,
               env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def var(level, prefix="ASMCAP_CFLAG_WA__MARCH_"):
    return prefix + level.upper().replace(".", "_").replace("-", "_")


def text_rows(out):
    """{variable: (value, comment)} of the text format."""
    rows = {}
    for line in out.splitlines():
        name, value, comment = line.split(None, 2)
        rows[name] = (value, comment.strip("()"))
    return rows


@pytest.mark.parametrize("tc_id,cc,cflags", TOOLCHAINS)
def test_levels_answered_from_the_bytes(tmp_path, tc_id, cc, cflags):
    need(tc_id)
    want = {lv: from_bytes(tmp_path, cc, cflags, lv) for lv in LEVELS}
    assert want == MEASURED[tc_id]
    got = text_rows(cc_flag(cc, cflags, *[f"-Wa,-march={lv}" for lv in LEVELS], fmt="text"))
    assert {lv: got[var(lv)][0] for lv in LEVELS} == want, got


# The kernel's TOOLCHAIN_HAS_ZBB / _ZBA: `$(cc-option,-mabi=lp64 -march=rv64ima_zbb)'
RV = "--target=riscv64-linux-gnu -mabi=lp64"
RV_LEVELS = ["rv64ima_zbb", "rv64ima_zba"]
RV_TOOLCHAINS = [(tc, cc, cflags.replace(A64, RV)) for tc, cc, cflags in TOOLCHAINS]
RV_MEASURED = {tc[0]: {lv: "yes" for lv in RV_LEVELS} for tc in RV_TOOLCHAINS}


@pytest.mark.parametrize("tc_id,cc,cflags", RV_TOOLCHAINS)
def test_riscv_march_answered_from_the_bytes(tmp_path, tc_id, cc, cflags):
    need(tc_id)
    if tc_id.endswith("-gas"):
        need_tool("riscv64-linux-gnu-as")
    want = {lv: from_bytes(tmp_path, cc, cflags, lv, "riscv64") for lv in RV_LEVELS}
    assert want == RV_MEASURED[tc_id]
    got = text_rows(cc_flag(cc, cflags, *[f"-march={lv}" for lv in RV_LEVELS], fmt="text"))
    assert {lv: got[var(lv, "ASMCAP_CFLAG_MARCH_")][0] for lv in RV_LEVELS} == want, got


@pytest.mark.parametrize("tc_id,cc,cflags", TOOLCHAINS)
def test_a_level_that_does_not_exist_is_no(tmp_path, tc_id, cc, cflags):
    need(tc_id)
    flag = "-Wa,-march=armv9.9-a"
    if "-fno-integrated-as" not in cflags:
        # what the C-only check saw: clang compiles C with it, silently
        src = tmp_path / "t.c"
        src.write_text("int f(int x) { return x; }\n")
        r = subprocess.run([cc, *cflags.split(), "-Werror", flag, "-c", str(src), "-o",
                            str(tmp_path / "t.o")], capture_output=True, text=True)
        assert r.returncode == 0 and r.stderr == "", r.stderr
    value, why = text_rows(cc_flag(cc, cflags, flag, fmt="text"))[var("armv9.9-a")]
    assert value == "no" and "armv9.9-a" in why, why


def test_a_driver_that_drops_the_flag_is_no(tmp_path):
    need("clang-19")
    fake = f"{FAKES / 'drop-wa-march'} clang-19"
    for lv in LEVELS:
        # the fake takes the flag (exit 0) and the level's instruction is refused
        assert assemble(tmp_path, fake, A64, "\t.text\n", f"-Wa,-march={lv}")[0]
        assert not assemble(tmp_path, fake, A64, template(lv)["body"], f"-Wa,-march={lv}")[0]
    got = text_rows(cc_flag(fake, A64, *[f"-Wa,-march={lv}" for lv in LEVELS], fmt="text"))
    for lv in LEVELS:
        value, why = got[var(lv)]
        assert value == "no" and why.startswith(f"accepted, but not effective: march-{lv} is no"), why


def test_a_driver_that_drops_riscv_march_is_no(tmp_path):
    need("clang-19")
    fake, env = f"{FAKES / 'drop-wa-march'} clang-19", {"DROP_FLAG": "-march=rv64ima_*"}
    fl = [f"-march={lv}" for lv in RV_LEVELS]
    r = subprocess.run([*fake.split(), *RV.split(), fl[0], "-c", "-x", "assembler", "-", "-o",
                        str(tmp_path / "z.o")], input=template(RV_LEVELS[0], "riscv64")["body"],
                       capture_output=True, text=True, env={**os.environ, **env})
    assert r.returncode != 0, "the fake did not drop the flag"
    got = text_rows(cc_flag(fake, RV, *fl, fmt="text", env=env))
    for lv in RV_LEVELS:
        value, why = got[var(lv, "ASMCAP_CFLAG_MARCH_")]
        assert value == "no" and why.startswith(f"accepted, but not effective: march-{lv} is no"), why


def test_the_probe_asks_the_flag_too():
    """The engine adds a template's flag to its run: the probe answers the
    same question, through the driver and with GNU as run directly (the
    words after `-Wa,')."""
    need("clang-19-gas")
    names = [f"march-{lv}" for lv in LEVELS]
    for args in (["--cc", "clang-19", "--cflags", A64], ["--as", "aarch64-linux-gnu-as"],
                 ["--cc", f"{FAKES / 'drop-wa-march'} clang-19", "--cflags", A64]):
        r = asmcap(*args, "--features", ",".join(names), "--format", "json", timeout=600)
        assert r.returncode == 0, r.stderr
        st = {k: v["status"] for k, v in json.loads(r.stdout)["features"].items() if k in names}
        want = "no" if "drop-wa-march" in args[1] else "yes"
        assert st == {f"march-{lv}": want for lv in LEVELS}, (args, st)


def test_every_format_and_the_cache(tmp_path):
    """Each format carries yes for armv8.2-a and no for armv9.9-a; after the
    first run every format comes from the cache and starts no process (the
    wrapper counts the driver's runs; the assembler runs under them); a
    changed assembler (GNU as's mtime) is a miss."""
    need("clang-19-gas")
    counter, cache, bindir = tmp_path / "runs", tmp_path / "cache", tmp_path / "bin"
    bindir.mkdir()
    gas = bindir / "aarch64-linux-gnu-as"
    gas.write_text(f"#!/bin/sh\necho as >>{counter}\nexec {need_tool('aarch64-linux-gnu-as')} \"$@\"\n")
    cc = bindir / "cc"
    cc.write_text(f"#!/bin/sh\necho cc >>{counter}\nexec clang-19 \"$@\"\n")
    for f in (gas, cc):
        f.chmod(0o755)
    env = {"PATH": f"{bindir}:{os.environ['PATH']}"}
    cflags = f"{A64} -fno-integrated-as"
    fl = ("-Wa,-march=armv8.2-a", "-Wa,-march=armv9.9-a")
    yes, no = var("armv8.2-a"), var("armv9.9-a")
    want = {"sh": [f"{yes}=yes", f"{no}=no"], "make": [f"{yes} := yes", f"{no} := no"],
            "h": [f"#define {yes} 1", f"/* #undef {no} */"],
            "cmake": [f"set({yes} ON)", f"set({no} OFF)"],
            "perl": [f"{yes} => 'yes'", f"{no} => 'no'"]}
    first = json.loads(cc_flag(str(cc), cflags, *fl, fmt="json", env=env, extra=("--cache", str(cache))))
    assert first == {yes: "yes", no: "no"}
    runs = counter.read_text().splitlines()
    assert "as" in runs
    for fmt, lines in want.items():
        out = cc_flag(str(cc), cflags, *fl, fmt=fmt, env=env, extra=("--cache", str(cache)))
        assert all(l in out for l in lines), (fmt, out)
    assert counter.read_text().splitlines() == runs       # hits: no process
    os.utime(gas, (1, 1))                                  # another assembler at that path
    again = json.loads(cc_flag(str(cc), cflags, *fl, fmt="json", env=env, extra=("--cache", str(cache))))
    assert again == first and len(counter.read_text().splitlines()) > len(runs)
