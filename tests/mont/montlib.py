# SPDX-License-Identifier: MIT
"""Helpers for the libmont tests: build and drive the C harness (harness.c)
and compute the expected answers with Python integers."""
import json
import os
import pathlib
import random
import re
import shlex
import signal
import subprocess
import tempfile

import pytest

from conftest import BUILD as DEFAULT_BUILD, ROOT

# MONT_TEST_BUILD runs the suite against another build directory (an ASan
# build, a library from another toolchain's caps); make builds it there.
BUILD = pathlib.Path(os.environ.get("MONT_TEST_BUILD", DEFAULT_BUILD))

BACKENDS = ("c", "a64", "mulq", "adx", "ifma")

# MONT_TEST_RUNNER runs the harness through another program: wine64 for a
# Windows build (MONT_TEST_EXE=.exe, the name MinGW's gcc gives it), or an
# emulator for a cross build.  Empty: the harness runs directly.
RUNNER = tuple(shlex.split(os.environ.get("MONT_TEST_RUNNER", "")))
EXE = os.environ.get("MONT_TEST_EXE", "")
# How a harness that called abort() ends: Windows' abort() exits with 3.
ABORTED = 3 if EXE == ".exe" else -signal.SIGABRT


def program_stderr(text):
    """The harness's own stderr: without the line qemu-user adds when the
    program it runs dies of a signal."""
    return "".join(l for l in text.splitlines(True) if not l.startswith("qemu: uncaught target signal"))


def make(*targets, build=None, **variables):
    """Build targets with the top-level Makefile (quietly); fail with its output.
    MONT_TEST_MAKEFLAGS (e.g. "CAPS=x.json CFLAGS=-O1") is passed on."""
    args = ["make", "-s", "-C", str(ROOT), f"BUILD={build or BUILD}"]
    args += shlex.split(os.environ.get("MONT_TEST_MAKEFLAGS", ""))
    args += [f"{k}={v}" for k, v in variables.items()]
    p = subprocess.run(args + [str(t) for t in targets], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, f"make {' '.join(map(str, targets))} failed:\n{p.stdout}{p.stderr}"


def run_program(argv, input="", env=None, timeout=600):
    """subprocess.run with output through files, not pipes: under Wine, the
    helpers a program starts (wineserver, services.exe) outlive it holding
    its pipes, and waiting for their end would wait for them.  Text in and
    out, like capture_output=True, text=True.  A run that Wine itself cut
    off (its client lost the wineserver: "wine client error", seen on a
    loaded machine) says nothing of the program and is made again, at most
    twice more."""
    for attempt in range(3):
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            p = subprocess.run(argv, input=input, stdout=out, stderr=err, text=True, env=env,
                               timeout=timeout)
            out.seek(0)
            err.seek(0)
            r = subprocess.CompletedProcess(argv, p.returncode, out.read(), err.read())
        if not (r.returncode and r.stderr.startswith("wine client error:")):
            break
    return r


def limbs_hex(x):
    return format(x, "x")


class Harness:
    """One harness process per batch of commands."""

    def __init__(self, path):
        self.path = path

    def argv(self, wrapper=()):
        return [*wrapper, *RUNNER, str(self.path)]

    def run(self, commands, env=None, wrapper=(), timeout=600, returncodes=(0,)):
        e = {k: v for k, v in os.environ.items()
             if k not in ("MONT_BACKEND", "MONT_ASSUME_CPU")}
        e.update(env or {})
        p = run_program(self.argv(wrapper), "".join(c + "\n" for c in commands), env=e,
                        timeout=timeout)
        assert p.returncode in returncodes, f"harness exit {p.returncode}: {p.stderr}"
        out = p.stdout.splitlines()
        assert len(out) == len(commands), f"{len(out)} lines for {len(commands)} commands: {p.stderr}"
        return out, p.stderr

    def lines(self, commands, **kw):
        return self.run(commands, **kw)[0]

    def runnable(self, env=None):
        """Backends mont_select accepts here (built and the CPU can run them)."""
        codes = self.lines([f"select {b}" for b in BACKENDS], env=env)
        return [b for b, c in zip(BACKENDS, codes) if c == "0"]


@pytest.fixture(scope="session")
def harness():
    make(BUILD / "mont-harness")
    return Harness(BUILD / ("mont-harness" + EXE))


@pytest.fixture(scope="session")
def test_build_harness():
    """The harness on the test build (libmont-test.a): MONT_ASSUME_CPU
    claims features CPUID hides, as the valgrind tests need.  The shipped
    library only narrows CPUID with it."""
    make(BUILD / "mont-harness-test")
    return Harness(BUILD / ("mont-harness-test" + EXE))


def make_variable(name):
    """A variable MONT_TEST_MAKEFLAGS sets for the build under test, or None."""
    for word in shlex.split(os.environ.get("MONT_TEST_MAKEFLAGS", "")):
        if word.startswith(name + "="):
            return word[len(name) + 1:]
    return None


def build_caps():
    """The caps the library under test was generated from (make's CAPS)."""
    caps = make_variable("CAPS")
    return json.loads((ROOT / caps if caps else BUILD / "caps.json").read_text())


# The compiler flags of the build under test: a program linked against an
# ASan library is compiled with them too.
BUILD_CFLAGS = shlex.split(make_variable("CFLAGS") or "")
SANITIZED = any(f.startswith("-fsanitize=") for f in BUILD_CFLAGS)


def kernels_header(build=BUILD):
    """What the generator produced: None in a C-only build (target not x86_64)."""
    h = build / "mont-kernels.h"
    return h.read_text() if h.exists() else None


def kernel_limits(header):
    """(MONTK_MIN_NUM, MONTK_MAX_NUM) of a kernels header: the sizes the
    64-bit kernels take."""
    got = [re.search(rf"^#define MONTK_{w}_NUM (\d+)$", header, re.M) for w in ("MIN", "MAX")]
    assert all(got), f"no MONTK_MIN_NUM/MONTK_MAX_NUM in the kernels header:\n{header}"
    return tuple(int(m.group(1)) for m in got)


def built_backends(header):
    """The backends a library holds, slowest first, from its generated
    kernels header (None: the C code only)."""
    if header is None:
        return ["c"]
    if "#define MONT_HAVE_A64" in header:
        return ["c", "a64"]
    return ["c", "mulq"] + (["adx"] if "#define MONT_HAVE_ADX" in header else [])


def mont_mul(a, b, n, num):
    return a * b * pow(2, -64 * num, n) % n


def random_modulus(rng, num, kind="random"):
    bits = 64 * num
    if kind == "ones":
        return (1 << bits) - 1
    if kind == "topbit":
        return (1 << (bits - 1)) + 1
    return rng.getrandbits(bits) | 1 | (rng.getrandbits(1) << (bits - 1))


@pytest.fixture
def rng():
    return random.Random(0x6d6f6e74)
