# SPDX-License-Identifier: MIT
"""Shared pytest fixtures: where the tree, the build and the probe binary are."""
import glob
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The architecture modules, in probe/arch/modules.h's order (its one list).
MODULES = [l.split("M(")[1].split(")")[0] for l in (ROOT / "probe" / "arch" / "modules.h").read_text().splitlines()
           if l.lstrip().startswith(("M(", "SEP M("))]
BUILD = pathlib.Path(os.environ.get("ASMCAP_BUILD", ROOT / "build"))   # ci/matrix: another build
# ASMCAP_BIN lets the same suite run against the ASan/UBSan build.
ASMCAP = pathlib.Path(os.environ.get("ASMCAP_BIN", BUILD / "asmcap"))
FAKES = ROOT / "tests" / "fake"


def probe_dirs(root=ROOT):
    """The folders of asmcap's C sources (the Makefile's PROBE_DIRS): probe/
    and each folder under it that holds C files.  Tests that compile parts
    of asmcap take their files and -I flags from here, never a list."""
    top = pathlib.Path(root) / "probe"
    return [top, *sorted(d for d in top.iterdir() if d.is_dir() and any(d.glob("*.c")))]


def probe_includes(root=ROOT):
    return [f"-I{d}" for d in probe_dirs(root)]


def probe_sources(*folders, root=ROOT):
    """The C files of the given folders of probe/ ("obj", "lib", ...), or of
    all of them (main.c included) when none is given."""
    dirs = [pathlib.Path(root) / "probe" / f for f in folders] if folders else probe_dirs(root)
    return sorted(str(c) for d in dirs for c in d.glob("*.c"))

# An ASan or UBSan report exits with a code asmcap never uses (it exits
# 0-4), so a sanitizer finding cannot pass for a verdict. One code for both:
# in a combined build the last options parsed (UBSan's) set it for either.
# Every program the tests run inherits these; later options override earlier.
SANITIZER_EXIT = 86
for var, opts in (("ASAN_OPTIONS", f"exitcode={SANITIZER_EXIT}"),
                  ("UBSAN_OPTIONS", f"halt_on_error=1:print_stacktrace=1:exitcode={SANITIZER_EXIT}")):
    os.environ[var] = ":".join(filter(None, (os.environ.get(var), opts)))


LA64 = ROOT / "tests" / "la64"


def la64_program(exe, *sources, include=()):
    """A static loongarch64 program from sources and tests/la64/rt.c, built
    freestanding by clang-19 (Debian 12 has no libc for loongarch64): the
    runtime's _start, system calls and <string.h>; include: more -I
    directories.  The tests run it under qemu-loongarch64, whose 7.2
    emulates no LSX: -march=loongarch64, not clang's default la64v1.0, which
    vectorises plain loops with LSX (SIGILL there)."""
    need_tool("clang-19")
    need_tool("ld.lld-19")
    subprocess.run(["clang-19", "--target=loongarch64-linux-gnu", "-march=loongarch64", "-O2", "-std=c11",
                    "-Wall", "-Wextra",
                    "-Werror", "-ffreestanding", "-fno-stack-protector", "-nostdlib", "-nostdlibinc",
                    "-static", "-fuse-ld=lld", f"-I{LA64 / 'include'}", f"-I{LA64}",
                    *(f"-I{d}" for d in include), "-o", str(exe), *map(str, sources),
                    str(LA64 / "rt.c")], check=True)
    return exe


def asmcap(*args, env=None, timeout=120, **kw):
    """Run the probe binary; returns CompletedProcess (text)."""
    e = dict(os.environ)
    e.pop("ASMCAP_DISABLE", None)
    e.pop("ASMCAP_ADD_TEMPLATES", None)   # a user's additions would change every verdict
    if env:
        e.update(env)
    r = subprocess.run([str(built(ASMCAP)), *map(str, args)], capture_output=True,
                       text=True, env=e, timeout=timeout, **kw)
    if r.returncode == SANITIZER_EXIT:
        pytest.fail(f"asmcap {' '.join(map(str, args))}: sanitizer report\n{r.stderr}")
    return r


def make_target(path):
    """The make target that builds `path` (relative to the tree when it is
    inside it: `build/asan/asmcap`)."""
    p = pathlib.Path(path).resolve()
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)


def built(path):
    """path, a file the build makes (build/asmcap, build/catalog.c,
    build/libmont.a, ...); when it is missing the test fails naming the make
    target that builds it, never with a bare FileNotFoundError or a skip."""
    if not pathlib.Path(path).exists():
        pytest.fail(f"{path} is not built: run `make {make_target(path)}`", pytrace=False)
    return path


@pytest.fixture(scope="session")
def asmcap_bin():
    return built(ASMCAP)


# --- external tools: declared in ci/tools (TOOL PACKAGE SCOPE) ---------------
TOOLS_FILE = ROOT / "ci" / "tools"


def declared_tools():
    """{tool: (package, scope)} from ci/tools."""
    tools = {}
    for line in TOOLS_FILE.read_text().splitlines():
        f = line.split()
        if len(f) == 3 and not f[0].startswith("#"):
            tools[f[0]] = (f[1], f[2])
    return tools


def find_tool(name):
    """The path of a declared tool (a program on PATH or a file glob), or None."""
    if name.startswith("/"):
        return next(iter(sorted(glob.glob(name))), None)
    return shutil.which(name)


# Where Debian 12 has the packages of the `security' scope (ci/tools).
SECURITY_SOURCE = "deb URI bookworm-security main (URI: the Debian security archive, as a stock Debian 12 lists it)"


def missing_message(name):
    package, scope = declared_tools()[name]
    if scope == "base":
        return f"{name} not installed: run ci/deps (package {package})"
    if scope == "security":
        return (f"{name} not installed: package {package} is only in bookworm-security; add "
                f"`{SECURITY_SOURCE}' to the apt sources, then run ci/deps")
    return f"{name} not installed (optional: package {package}, ci/deps --optional)"


def need_tool(name):
    """The path of tool `name`, declared in ci/tools. Missing: a base tool
    fails the test, an optional or security one skips it (the reason, with
    the package or the apt source to add, is printed at the end of `make
    test`); an undeclared one fails."""
    tools = declared_tools()
    if name not in tools:
        pytest.fail(f"{name} is not declared: declare it in ci/tools", pytrace=False)
    path = find_tool(name)
    if path is None:
        if tools[name][1] == "base":
            pytest.fail(missing_message(name), pytrace=False)
        pytest.skip(missing_message(name))
    return path


def have(cmd):
    """Whether a declared tool is present (for tests that adapt, not skip)."""
    if cmd not in declared_tools():
        raise KeyError(f"{cmd} is not declared: declare it in ci/tools")
    return find_tool(cmd) is not None


def cpu_flags():
    """This machine's CPU flags as /proc/cpuinfo names them."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def pytest_configure(config):
    config.addinivalue_line("markers", "tools(*names): the test needs these ci/tools tools")


def pytest_runtest_setup(item):
    for mark in item.iter_markers("tools"):
        for name in mark.args:
            need_tool(name)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that ran a declared tool directly and found it missing says
    which package brings it, instead of a bare FileNotFoundError."""
    outcome = yield
    exc = call.excinfo.value if call.excinfo else None
    if isinstance(exc, FileNotFoundError) and exc.filename in declared_tools():
        rep = outcome.get_result()
        rep.longrepr = f"{rep.longrepr}\n\n{missing_message(exc.filename)}"
