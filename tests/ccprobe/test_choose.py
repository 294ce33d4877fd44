# SPDX-License-Identifier: MIT
"""asmcap choose: a variant made slow must lose, a big frame must lose, a
variant computing something else is rejected, overrides win, a toolchain
whose code cannot run here falls back to the frame size."""
import subprocess

import pytest

from conftest import ROOT, asmcap, need_tool

DATA = ROOT / "tests" / "ccprobe" / "data"


def spec(tmp_path, metric, default, variants, bench=True):
    (tmp_path / "knob.c").write_text((DATA / "knob.c").read_text())
    lines = ["name: knob", "source: knob.c", "function: knob_sum", "check: knob_check",
             f"metric: {metric}", f"default: {default}"]
    if bench:
        lines.append("bench: knob_bench")
    lines += [f"variant: {n} = {f}" for n, f in variants]
    p = tmp_path / "knob.spec"
    p.write_text("\n".join(lines) + "\n")
    return p


def choose(p, *extra, env=None):
    return asmcap("choose", str(p), "--cc", "gcc", "--cflags", "-O2", "--format", "sh", *extra, env=env)


def test_slow_default_loses_to_fast(tmp_path):
    p = spec(tmp_path, "cycles", "slow", [("slow", "-DSLOW=1"), ("fast", "")])
    r = choose(p, "--rounds", "5")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=fast" in r.stdout
    assert "cyc/B" in r.stderr          # the figures are shown


def test_slow_variant_does_not_win(tmp_path):
    p = spec(tmp_path, "cycles", "fast", [("fast", ""), ("slow", "-DSLOW=1")])
    r = choose(p, "--rounds", "5")
    assert r.returncode == 0 and "ASMCAP_CHOICE_KNOB=fast" in r.stdout


def test_big_frame_loses(tmp_path):
    p = spec(tmp_path, "frame", "big", [("big", "-DBIG=1"), ("small", "")], bench=False)
    r = choose(p)
    assert r.returncode == 0 and "ASMCAP_CHOICE_KNOB=small" in r.stdout


def test_different_output_is_rejected(tmp_path):
    p = spec(tmp_path, "frame", "good", [("good", ""), ("wrong", "-DWRONG=1")], bench=False)
    r = choose(p)
    assert r.returncode == 1
    assert "variant wrong computes a different result" in r.stderr


def test_spec_naming_a_missing_function_is_an_error(tmp_path):
    p = spec(tmp_path, "frame", "a", [("a", "")], bench=False)
    p.write_text(p.read_text().replace("check: knob_check", "check: no_such_check"))
    r = choose(p)
    assert r.returncode == 2
    assert "no_such_check is not defined" in r.stderr


def test_override_wins_and_is_checked(tmp_path):
    p = spec(tmp_path, "frame", "small", [("small", ""), ("big", "-DBIG=1")], bench=False)
    r = choose(p, env={"ASMCAP_CHOICE_KNOB": "big"})
    assert r.returncode == 0 and "ASMCAP_CHOICE_KNOB=big" in r.stdout and "overridden" in r.stdout
    r = choose(p, env={"ASMCAP_CHOICE_KNOB": "nope"})
    assert r.returncode == 2 and "names no variant" in r.stderr


@pytest.mark.tools("clang-14")
def test_cross_toolchain_falls_back_to_frame(tmp_path):
    p = spec(tmp_path, "cycles", "big", [("big", "-DBIG=1"), ("small", "")])
    r = asmcap("choose", str(p), "--cc", "clang-14 -target x86_64-apple-macos10.15", "--cflags", "-O2 -ffreestanding",
               "--format", "sh")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=small" in r.stdout
    assert "chosen by frame size" in r.stdout and "cannot" in r.stdout


A64 = "clang-19 --target=aarch64-linux-gnu"
QEMU_A64 = "qemu-aarch64 -L /usr/aarch64-linux-gnu"


@pytest.mark.tools("clang-19")
def test_cross_code_is_never_run_here(tmp_path):
    """aarch64 code on this machine: not run (not even through a binfmt
    emulator), not timed, not checked; the frame decides and the output
    says so."""
    p = spec(tmp_path, "cycles", "big", [("big", "-DBIG=1"), ("small", "")])
    r = asmcap("choose", str(p), "--cc", A64, "--cflags", "-O2", "--format", "sh")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=small" in r.stdout
    assert "chosen by frame size: cannot run aarch64 elf64 code on this x86_64 machine" in r.stdout
    assert "the static metric decides: frame size" in r.stderr
    assert "results not checked" in r.stderr and "--run" in r.stderr
    rows = {l.split()[0]: l.split() for l in r.stderr.splitlines() if l.startswith(("big ", "small "))}
    assert rows["big"][3] == rows["small"][3] == "-"        # no cycles
    assert int(rows["big"][1]) > 4096 > int(rows["small"][1])


@pytest.mark.tools("clang-19", "qemu-aarch64")
def test_run_wrapper_checks_but_never_times(tmp_path):
    """--run: the check runs under qemu-aarch64 (a variant computing
    something else is caught there), the timing never does."""
    p = spec(tmp_path, "cycles", "big", [("big", "-DBIG=1"), ("small", "")])
    r = asmcap("choose", str(p), "--cc", A64, "--cflags", "-O2", "--run", QEMU_A64, "--format", "sh")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=small" in r.stdout and "chosen by frame size" in r.stdout
    assert f"results checked under `{QEMU_A64}' (correctness only: never timed)" in r.stderr
    p = spec(tmp_path, "frame", "good", [("good", ""), ("wrong", "-DWRONG=1")], bench=False)
    r = asmcap("choose", str(p), "--cc", A64, "--cflags", "-O2", "--run", QEMU_A64)
    assert r.returncode == 1 and "variant wrong computes a different result" in r.stderr


@pytest.mark.tools("clang-19")
def test_run_wrapper_missing_is_an_error(tmp_path):
    p = spec(tmp_path, "frame", "a", [("a", "")], bench=False)
    r = asmcap("choose", str(p), "--cc", A64, "--run", "no-such-emulator -L /x")
    assert r.returncode == 2 and "--run: cannot run `no-such-emulator -L /x " in r.stderr, r.stderr


def test_bad_specs_name_the_line(tmp_path):
    p = tmp_path / "bad.spec"
    for text, msg in [("name: x\nfrobnicate: 1\n", "bad.spec:2: unknown key"),
                      ("name: x\nsource: a.c\nfunction: f\ncheck: c\nmetric: speed\nvariant: a =\n",
                       "metric must be"),
                      ("name: x\nsource: a.c\nfunction: f\ncheck: c\nmetric: frame\nvariant: a b = -O2\n",
                       "variant name"),
                      ("name: x\nsource: a.c\nfunction: f\ncheck: c\nmetric: frame\ndefault: z\nvariant: a =\n",
                       "default names no variant")]:
        p.write_text(text)
        r = asmcap("choose", str(p), "--cc", "gcc")
        assert r.returncode == 2 and msg in r.stderr, (text, r.stderr)
    assert asmcap("choose", str(tmp_path / "missing.spec")).returncode == 2


@pytest.mark.parametrize("example", ["sha1/sha1.spec", "aes/aes-bounds.spec"])
def test_examples_run(example):
    r = asmcap("choose", str(ROOT / "examples" / example), "--cc", "gcc", "--cflags", "-O2", "--rounds", "3")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_" in r.stdout and "<- chosen" in r.stdout


@pytest.mark.parametrize("cc", ["gcc", "clang-14"])
@pytest.mark.parametrize("bench", [False, True])
def test_driver_compiles_clean_and_runs(tmp_path, cc, bench):
    """probe/cmd/driver/choose-driver.c, the program choose links with every
    variant, as a C file of its own: warning-free under -std=c11, its check
    prints the digest, its bench a positive cycles-per-byte figure."""
    cc = need_tool(cc)
    defs = ["-DCHOOSE_CHECK=knob_check"] + (["-DCHOOSE_BENCH=knob_bench"] if bench else [])
    exe = tmp_path / "driver"
    subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", *defs, "-o", str(exe),
                    str(ROOT / "probe" / "cmd" / "driver" / "choose-driver.c"), str(DATA / "knob.c")], check=True)
    data = bytes((i * 7 + 3) & 0xff for i in range(1024))
    s = 0
    for c in data:
        s = (s * 31 + c) % 2**64
    r = subprocess.run([str(exe), "check"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == f"{s:016x}\n", r
    r = subprocess.run([str(exe), "bench"], capture_output=True, text=True, timeout=60)
    if bench:
        assert r.returncode == 0 and float(r.stdout) > 0, r
    else:
        assert r.returncode == 2 and r.stdout == ""     # no bench entry point compiled in


NOLINK = ("nolink", "-Wl,-lasmcap-no-such-library")     # compiles, cannot link


def test_unlinkable_variant_leaves_the_others_checked(tmp_path):
    """One variant that cannot link (a missing runtime) is reported as such
    and never chosen; the rest are still checked against the default, so a
    variant computing another result is rejected."""
    p = spec(tmp_path, "frame", "big", [("big", "-DBIG=1"), ("wrong", "-DWRONG=1"), NOLINK], bench=False)
    r = choose(p)
    assert r.returncode == 1, r.stderr
    assert "variant wrong computes a different result" in r.stderr
    p = spec(tmp_path, "frame", "big", [("big", "-DBIG=1"), ("small", ""), NOLINK], bench=False)
    r = choose(p)
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=small" in r.stdout
    row = next(l for l in r.stderr.splitlines() if l.startswith("nolink "))
    assert "not checked: cannot link here" in row
    assert "results not checked" not in r.stderr


def test_unlinkable_variant_leaves_the_others_timed(tmp_path):
    p = spec(tmp_path, "cycles", "slow", [("slow", "-DSLOW=1"), ("fast", ""), NOLINK])
    r = choose(p, "--rounds", "5")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=fast" in r.stdout and "wins on cycles" in r.stdout
    assert "chosen by frame size" not in r.stdout
    rows = {l.split()[0]: l.split() for l in r.stderr.splitlines() if l.startswith(("slow ", "fast ", "nolink "))}
    assert rows["slow"][3] != "-" and rows["fast"][3] != "-" and rows["nolink"][3] == "-"


def test_unlinkable_variant_is_never_chosen(tmp_path):
    """Unchecked, it may compute anything: its smaller frame does not win
    over checked variants."""
    p = spec(tmp_path, "frame", "big", [("big", "-DBIG=1"), ("nolink", "-Wl,-lasmcap-no-such-library")],
             bench=False)
    r = choose(p)
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=big" in r.stdout


# gcc's own slim objects (its default with the linker plugin), clang's bitcode
SLIM_LTO = [("gcc", "-O2 -flto -fno-fat-lto-objects"), ("clang-14", "-O2 -flto")]


@pytest.mark.parametrize("cc,cflags", SLIM_LTO)
def test_slim_lto_says_lto(tmp_path, cc, cflags):
    need_tool(cc)
    p = spec(tmp_path, "frame", "a", [("a", ""), ("b", "-DBIG=1")], bench=False)
    r = asmcap("choose", str(p), "--cc", cc, "--cflags", cflags)
    assert r.returncode == 2
    assert "not machine code (LTO): cannot measure knob_sum" in r.stderr and "no function" not in r.stderr
