# SPDX-License-Identifier: MIT
"""build/asmcap against every installed real toolchain: the exact verdict of
every feature (the table in toolchains.py, measured by hand and by
test_catalog_structure's direct assembler runs), exit code, arch and object
format, and never `broken` on a real toolchain but where toolchains.py shows
the assembler mis-encoding."""
import json
import shutil

import pytest

import catalog_files as cf
import toolchains as tcs
from conftest import asmcap, need_tool

PROBED = [t for t in tcs.TOOLCHAINS if tcs.asmcap_args(t)]


def probe(tc, *extra):
    r = asmcap(*tcs.asmcap_args(tc), *extra, "--format", "json")
    assert r.returncode == 0, f"{tc[0]}: exit {r.returncode}: {r.stderr}"
    return json.loads(r.stdout)


@pytest.mark.parametrize("tc", PROBED, ids=lambda t: t[0])
def test_verdicts(tc, asmcap_bin):
    need_tool(tc[2])
    d = probe(tc)
    assert d["toolchain"]["arch"] == tc[4]
    assert d["toolchain"]["format"] == tc[5]
    feats = d["features"]
    got = {name: f["status"] for name, f in feats.items()}
    assert got == tcs.expected(tc[0], tc[4]), {
        n: feats[n] for n in got if got[n] != tcs.expected(tc[0], tc[4]).get(n)}
    # gcc-sse2avx re-encodes on purpose; nasm mis-encodes what toolchains.py says
    if tc[0] != "gcc-sse2avx":
        broken = {n for n, s in got.items() if s == "broken"}
        assert broken <= (tcs.NASM_MISENCODED if tc[2] == "nasm" else set()), broken
    catalog = cf.load(tc[4])
    for name, f in feats.items():
        assert f["requires"] == cf.requires(catalog[name]), name
        if f["status"] in ("no", "skipped"):
            assert f["reason"], f"{name}: {f['status']} without a reason"


@pytest.mark.parametrize("tc_id", ["gcc", "clang-14", "clang-22"])
def test_mode_s_gives_the_same_verdicts(tc_id, asmcap_bin):
    tc = next(t for t in tcs.TOOLCHAINS if t[0] == tc_id)
    need_tool(tc[2])
    got = {n: f["status"] for n, f in probe(tc, "--mode", "s")["features"].items()}
    assert got == tcs.expected(tc_id, tc[4])


def test_assembler_that_emits_evex_for_vex_form_is_broken(asmcap_bin, tmp_path):
    """A catalog whose avxvnni snippet lacks {vex} gets EVEX bytes from a
    real assembler: the probe must say broken, not yes (the reason the
    catalog uses {vex})."""
    d = tmp_path / "x86_64"
    shutil.copytree(cf.TEMPLATES / "x86_64", d)
    (d / "avxvnni.s").write_text((d / "avxvnni.s").read_text().replace("{vex} ", ""))
    r = asmcap("--cc", "gcc", "--templates", tmp_path, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["features"]["avxvnni"]["status"] == "broken"
