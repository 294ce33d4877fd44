# SPDX-License-Identifier: MIT
"""asmcap frame: -fstack-usage in gcc's and clang's formats, the prologue
fallback, code size, unavailable variants."""
import json

import pytest

from conftest import FAKES, ROOT, asmcap, need_tool

KNOB = ROOT / "tests" / "ccprobe" / "data" / "knob.c"


def frame(cc, *variants, cflags="-O2"):
    args = ["frame", str(KNOB), "--func", "knob_sum", "--cc", cc, "--cflags", cflags, "--format", "json"]
    for v in variants:
        args += ["--variant", v]
    r = asmcap(*args)
    assert r.returncode == 0, r.stderr
    return {v["name"]: v for v in json.loads(r.stdout)["variants"]}


@pytest.mark.parametrize("cc", ["gcc", "clang-14", "clang-19"])
def test_big_buffer_shows_in_the_frame(cc):
    need_tool(cc)
    v = frame(cc, "small=", "big=-DBIG=1")
    assert v["small"]["frame_from"] == "stack-usage"
    assert 0 <= v["small"]["frame"] < 256
    # A leaf function may keep 128 bytes of the buffer in the red zone.
    assert 4096 - 128 <= v["big"]["frame"] < 4096 + 256
    assert v["small"]["code"] > 10 and v["big"]["code"] > v["small"]["code"]


def test_prologue_fallback_agrees_with_stack_usage():
    su = frame("gcc", "big=-DBIG=1")["big"]
    pro = frame(str(FAKES / "cc-no-stack-usage"), "big=-DBIG=1")["big"]
    assert pro["frame_from"] == "prologue"
    # -fstack-usage counts the same pushes and adjustment the prologue makes.
    assert abs(pro["frame"] - su["frame"]) <= 16, (pro, su)
    assert pro["code"] == su["code"]


@pytest.mark.tools("clang-14")
def test_rejected_variant_is_unavailable_not_an_error():
    v = frame("clang-14", "plain=", "nohoist=-fno-code-hoisting")
    assert v["nohoist"]["status"] == "unavailable"
    assert "-fno-code-hoisting" in v["nohoist"]["reason"]
    assert v["plain"]["status"] == "ok"


def test_text_output_and_errors(tmp_path):
    r = asmcap("frame", str(KNOB), "--func", "knob_sum", "--cc", "gcc", "--variant", "os=-Os")
    assert r.returncode == 0 and r.stdout.splitlines()[1].startswith("os ")
    # Bad input is exit 2; 3 means the toolchain itself is unusable.
    r = asmcap("frame", str(KNOB), "--func", "no_such_function", "--cc", "gcc")
    assert r.returncode == 2 and "no function no_such_function" in r.stderr
    r = asmcap("frame", str(tmp_path / "missing.c"), "--func", "f", "--cc", "gcc")
    assert r.returncode == 2 and "cannot read" in r.stderr
    r = asmcap("frame", str(KNOB), "--func", "knob_sum", "--cc", "/nonexistent/cc")
    assert r.returncode == 3 and "/nonexistent/cc" in r.stderr
    assert asmcap("frame", str(KNOB), "--cc", "gcc").returncode == 2        # no --func
    assert asmcap("frame", str(KNOB), "--func", "knob_sum", "--variant", "noequals").returncode == 2
    bad = tmp_path / "bad.c"
    bad.write_text("int f( {\n")
    r = asmcap("frame", str(bad), "--func", "f", "--cc", "gcc")
    assert r.returncode == 2 and "does not compile" in r.stderr


def test_variant_without_code_is_unavailable():
    # -flto leaves GIMPLE, not machine code: that variant has no frame to report.
    v = frame("gcc", "plain=", "lto=-flto")
    assert v["plain"]["status"] == "ok"
    assert v["lto"]["status"] == "unavailable" and v["lto"]["reason"] == "not machine code (LTO): cannot measure knob_sum"


# gcc's own slim objects (its default with the linker plugin), clang's bitcode
SLIM_LTO = [("gcc", "-O2 -flto -fno-fat-lto-objects"), ("clang-14", "-O2 -flto")]


@pytest.mark.parametrize("cc,cflags", SLIM_LTO)
def test_slim_lto_says_lto(cc, cflags):
    """Slim -flto objects hold GIMPLE (gcc) or bitcode (clang), no machine
    code: the row and the error say LTO, not "no function"."""
    need_tool(cc)
    args = ["frame", str(KNOB), "--func", "knob_sum", "--cc", cc, "--cflags", cflags]
    r = asmcap(*args)
    assert r.returncode == 2, r.stderr
    assert "not machine code (LTO): cannot measure knob_sum" in r.stderr and "no function" not in r.stderr
    r = asmcap(*args, "--variant", "lto=", "--variant", "plain=-fno-lto")
    assert r.returncode == 0, r.stderr
    rows = {l.split()[0]: l for l in r.stdout.splitlines()[1:]}
    assert "unavailable" in rows["lto"] and "(not machine code (LTO): cannot measure knob_sum)" in rows["lto"]
    assert "unavailable" not in rows["plain"]
