# SPDX-License-Identifier: MIT
"""bash completion (completion/asmcap.bash): bash sources it and calls its
function with COMP_WORDS as bash would; what it offers is checked against
what the tool has — the subcommands the tests know, the options each one
parses, the feature names of the catalog's files — and `make install`
puts it where bash-completion loads it."""
import re
import subprocess

import pytest

from conftest import ASMCAP, BUILD, ROOT, need_tool
from test_cli_errors import COMMANDS, MISSING

SCRIPT = ROOT / "completion" / "asmcap.bash"

# COMP_WORDS as bash splits a command line (`=' is a word of its own);
# prints one offer a line
CALL = """. "$0"
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _asmcap
printf '%s\\n' "${COMPREPLY[@]}"
"""


def offers(*words, cwd=None, script=SCRIPT):
    bash = need_tool("bash")
    r = subprocess.run([bash, "-c", CALL, str(script), str(ASMCAP.resolve()), *words], capture_output=True,
                       text=True, cwd=cwd, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return [l for l in r.stdout.splitlines() if l]


def catalog_features():
    """The feature names the catalog's files declare (`# feature: NAME`)."""
    names = set()
    for f in (ROOT / "templates").glob("*/*.s"):
        m = re.search(r"^# feature: (\S+)", f.read_text(), re.M)
        names.add(m.group(1))
    return names


def test_registered_for_asmcap():
    bash = need_tool("bash")
    r = subprocess.run([bash, "-c", '. "$0"; complete -p asmcap', str(SCRIPT)], capture_output=True,
                       text=True, check=True)
    assert r.stdout.strip() == "complete -F _asmcap asmcap"


def test_subcommands():
    assert set(offers("")) == set(COMMANDS)
    assert offers("cc-") == ["cc-flag", "cc-probe"]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_options_are_the_subcommands_own(cmd):
    """Every option offered is one the subcommand parses (a value option
    missing its value is named as such, never unknown), and what list
    offers is not the probe's."""
    words = [] if cmd == "probe" else [cmd]
    got = offers(*words, "-")
    assert "--help" in got and len(got) >= 2, got
    for opt in set(got) - {"--help"}:
        r = subprocess.run([str(ASMCAP), *MISSING[cmd][:-1], opt], capture_output=True, text=True,
                           timeout=120)
        assert "unknown option" not in r.stderr, (cmd, opt, r.stderr)
    if cmd == "list":
        assert "--require" not in got and "--arch" in got


@pytest.mark.parametrize("words,want", [
    (["--format", ""], ["text", "json", "sh", "make", "h", "perl", "cmake"]),
    (["audit", "--format", ""], ["text", "json"]),
    (["--format", "=", "m"], ["make"]),               # --format=m
    (["--mode", ""], ["S", "s"]),
    (["list", "--arch", "aa"], ["aarch64"]),
    (["--jobs", ""], []),                             # a count: nothing to offer
    (["cc-flag", "--", "-O"], []),                    # after --: data, not options
])
def test_option_values(words, want):
    assert offers(*words) == want


def test_feature_names():
    assert set(offers("--require", "")) == catalog_features()
    assert offers("--features", "adx,bm") == ["adx,bmi1", "adx,bmi2"]
    assert offers("explain", "avx512if") == ["avx512ifma"]
    assert offers("audit", "x.o", "--expect", "ad") == ["adx"]


def test_files_and_commands(tmp_path):
    (tmp_path / "old.json").write_text("{}")
    (tmp_path / "templates").mkdir()
    assert offers("diff", "ol", cwd=tmp_path) == ["old.json"]
    assert offers("--baseline", "o", cwd=tmp_path) == ["old.json"]
    assert offers("--templates", "", cwd=tmp_path) == ["templates"]
    assert "gcc" in offers("--cc", "gc")


def test_make_install_puts_it_where_bash_completion_looks(tmp_path):
    stage = tmp_path / "stage"
    subprocess.run(["make", "-s", "install", f"DESTDIR={stage}", "PREFIX=/usr/local", f"BUILD={BUILD}"],
                   cwd=ROOT, check=True, capture_output=True, timeout=600)
    installed = stage / "usr/local/share/bash-completion/completions/asmcap"
    assert installed.read_text() == SCRIPT.read_text()
    assert offers("li", script=installed) == ["list"]
