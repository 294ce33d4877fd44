# SPDX-License-Identifier: MIT
"""ci/tools is the one list of the programs the tests run: every program a
test names is declared there, every base package is one ci/deps installs,
every base tool is present, and need_tool() fails, skips or refuses as the
declaration says."""
import re
import subprocess
import sys

import pytest

import conftest
from conftest import ROOT, declared_tools, find_tool, need_tool

TOOLS = declared_tools()
TESTS = ROOT / "tests"
sys.path[:0] = [str(TESTS / "perlasm"), str(TESTS / "catalog")]
import flavours  # noqa: E402  (the assemblers test_xlate runs)
import toolchains  # noqa: E402  (the toolchains the catalog tests probe)

NEEDS = re.compile(r'(?:need_tool|have|mark\.tools)\(\s*((?:"[^"]+"\s*,?\s*)+)\)')
ARGV = re.compile(r'(?:subprocess\.|(?<![\w.]))(?:run|check_output|check_call|Popen)\(\s*\[\s*"([^"/ ]+)"')


def named_by_tests():
    """{tool: first file naming it}: need_tool/have/mark.tools arguments and
    the literal argv[0] of subprocess calls, in every test source."""
    names = {}
    for f in sorted(TESTS.rglob("*.py")):
        if f.name == "test_tools.py":   # its fake tools are its own
            continue
        text = f.read_text()
        for m in NEEDS.finditer(text):
            for n in re.findall(r'"([^"]+)"', m.group(1)):
                names.setdefault(n, f)
        for m in ARGV.finditer(text):
            names.setdefault(m.group(1), f)
    for runs in flavours.ASSEMBLERS.values():
        for _, argv in runs:
            names.setdefault(argv[0], TESTS / "perlasm" / "flavours.py")
    for tc in toolchains.TOOLCHAINS:
        names.setdefault(tc[2], TESTS / "catalog" / "toolchains.py")
    return names


def test_the_scan_sees_the_tools_tests_run():
    # guards the scan itself: these are run by tests in the ways scanned above
    assert {"objdump", "nasm", "yasm", "man", "cmake", "valgrind",
            "x86_64-w64-mingw32-as", "clang-14"} <= set(named_by_tests())


def test_every_tool_a_test_names_is_declared():
    undeclared = {n: str(f.relative_to(ROOT)) for n, f in named_by_tests().items()
                  if n not in TOOLS}
    assert not undeclared, f"declare these in ci/tools: {undeclared}"


def test_declarations_are_well_formed():
    for line in (ROOT / "ci" / "tools").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            assert len(f) == 3 and f[2] in ("base", "optional", "security"), f"ci/tools: bad line {line!r}"


def test_every_base_package_is_installed_by_ci_deps():
    listed = set(subprocess.run([str(ROOT / "ci" / "deps"), "--list"], capture_output=True,
                                text=True, check=True).stdout.split())
    base = {pkg for pkg, scope in TOOLS.values() if scope in ("base", "security")}
    assert base <= listed, f"not in ci/deps' base list: {sorted(base - listed)}"
    optional = set(subprocess.run([str(ROOT / "ci" / "deps"), "--list", "--optional"],
                                  capture_output=True, text=True, check=True).stdout.split())
    assert {pkg for pkg, _ in TOOLS.values()} <= optional


@pytest.mark.parametrize("tool", sorted(t for t, (_, scope) in TOOLS.items() if scope == "base"))
def test_base_tool_present(tool):
    """What ci/deps installed really brings the tool (a wrong package fails here)."""
    assert find_tool(tool), conftest.missing_message(tool)


@pytest.mark.parametrize("tool", sorted(t for t, (_, scope) in TOOLS.items() if scope == "security"))
def test_security_tool_present_or_its_source_named(tool):
    """A security tool is there, or the test skips naming the apt source
    (a root listing only `bookworm main')."""
    assert need_tool(tool) == find_tool(tool)


def fake_apt(tmp_path, candidates):
    """dpkg-query saying only sh's package is installed, apt-cache giving a
    candidate to the packages in `candidates', apt-get logging its argv."""
    bin_ = tmp_path / "bin"
    bin_.mkdir(parents=True)
    log = tmp_path / "apt-get.log"
    log.write_text("")
    scripts = {
        "dpkg-query": 'case "$*" in *" dash") echo "install ok installed";; *) exit 1;; esac',
        "apt-cache": f'case " {" ".join(candidates)} " in *" $2 "*) echo "  Candidate: 1.0";; '
                     '*) echo "  Candidate: (none)";; esac',
        "apt-get": f'echo "$*" >>"{log}"',
        "id": "echo 0",
    }
    for name, body in scripts.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_ / name).chmod(0o755)
    return {"PATH": f"{bin_}:/usr/bin:/bin"}, log


def test_ci_deps_names_the_source_a_bare_root_lacks(tmp_path):
    """On a root whose apt lists only `bookworm main', the security packages
    have no candidate: ci/deps installs the rest, says which line to add for
    them and succeeds (apt-get's own `Unable to locate package' used to stop
    it); a base package without a candidate is an error naming it."""
    # apt's packages (the npm: ones ci/deps installs with npm, not apt)
    want = {p for p in subprocess.run([str(ROOT / "ci" / "deps"), "--list"], capture_output=True, text=True,
                                      check=True).stdout.split() if not p.startswith("npm:")}
    security = {pkg for pkg, scope in TOOLS.values() if scope == "security"}
    assert security, "ci/tools declares no security package: this test has nothing to check"
    env, log = fake_apt(tmp_path, want - security)
    r = subprocess.run([str(ROOT / "ci" / "deps")], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert f"ci/deps:   {conftest.SECURITY_SOURCE}" in r.stderr
    installed = log.read_text().splitlines()[-1].split()
    assert installed[:4] == ["install", "-y", "-qq", "--no-install-recommends"]
    assert set(installed[4:]) == want - security - {"dash"}
    env, log = fake_apt(tmp_path / "2", want - {"make"})
    r = subprocess.run([str(ROOT / "ci" / "deps")], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "no package make in this machine's apt sources" in r.stderr


@pytest.fixture
def fake_tools(tmp_path, monkeypatch):
    f = tmp_path / "tools"
    f.write_text("# test\nasmcap-no-such-base   pkg-b  base\n"
                 "asmcap-no-such-opt    pkg-o  optional\nsh  dash  base\n")
    monkeypatch.setattr(conftest, "TOOLS_FILE", f)


def test_need_tool_fails_on_a_missing_base_tool(fake_tools):
    with pytest.raises(pytest.fail.Exception,
                       match=r"^asmcap-no-such-base not installed: run ci/deps \(package pkg-b\)$"):
        need_tool("asmcap-no-such-base")


def test_need_tool_skips_a_missing_optional_tool(fake_tools):
    with pytest.raises(pytest.skip.Exception, match=r"asmcap-no-such-opt not installed \(optional: package pkg-o"):
        need_tool("asmcap-no-such-opt")


def test_need_tool_refuses_an_undeclared_tool(fake_tools):
    with pytest.raises(pytest.fail.Exception, match=r"^nasm is not declared: declare it in ci/tools$"):
        need_tool("nasm")


def test_need_tool_returns_the_path(fake_tools):
    assert need_tool("sh") == find_tool("sh") and find_tool("sh").endswith("/sh")


def test_a_missing_tool_run_directly_names_its_package(tmp_path):
    """The report hook: a test that runs a declared base tool which is not
    there (FileNotFoundError) says which package brings it."""
    t = tmp_path / "test_x.py"
    t.write_text("import subprocess\n"
                 "def test_x():\n    subprocess.run(['yasm', '--version'])\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "conftest", "-c", "/dev/null", str(t)], capture_output=True,
                       text=True, env={"PATH": "/nonexistent", "PYTHONPATH": str(TESTS)},
                       cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "yasm not installed: run ci/deps (package yasm)" in r.stdout, r.stdout
