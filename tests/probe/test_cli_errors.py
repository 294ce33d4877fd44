"""Bad command lines are refused before anything runs, naming what is
wrong; every subcommand's --help prints its usage and exits 0."""
import pytest

from conftest import asmcap


@pytest.mark.parametrize("args,msg", [
    (["--require", "adx,nosuch"], "--require: unknown feature"),
    (["--disable", "nosuch"], "--disable: unknown feature"),
    (["list", "--arch", "sparc"], "--arch takes x86_64, i386, aarch64, arm or riscv64"),
    (["--format", "yaml"], "unknown --format"),
    (["--cc", 'gcc "open'], "unterminated quote"),
    (["--timeout", "0"], "--timeout takes seconds"),
])
def test_usage_errors_exit_2_before_probing(args, msg):
    r = asmcap(*args, "--log", "/dev/null")
    assert r.returncode == 2
    assert msg in r.stderr
    assert "toolchain:" not in r.stdout          # nothing was probed


@pytest.mark.parametrize("cmd", ["cc-flag", "frame", "choose", "audit", "legacy"])
def test_help(cmd):
    r = asmcap(cmd, "--help")
    assert r.returncode == 0
    assert f"usage: asmcap {cmd}" in r.stderr + r.stdout
