# SPDX-License-Identifier: MIT
"""The README's runnable blocks (marked <!-- runnable -->) run as written,
so the documentation cannot rot.  Long or recursive commands (make test,
make matrix) are in unmarked blocks."""
import os
import re
import subprocess

import pytest

from conftest import ASMCAP, ROOT

BLOCK = re.compile(r"<!-- runnable -->\n```sh\n(.*?)```", re.S)
BLOCKS = BLOCK.findall((ROOT / "README.md").read_text())
# one command per line; a trailing backslash continues it
COMMANDS = [c.strip() for b in BLOCKS for c in b.replace("\\\n", " ").splitlines() if c.strip()]


README = (ROOT / "README.md").read_text()


def section(title):
    """The text of README section `## title`, up to the next `## `."""
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_readme_has_runnable_blocks():
    assert len(BLOCKS) >= 2 and len(COMMANDS) >= 8


def test_the_tour_needs_only_what_make_does():
    """Right after `make`: asmcap is build/asmcap (not on PATH), and the
    only compiler is the default cc (the one the README's apt line
    installs; clang-14 and the others come with `make test`)."""
    tour = BLOCK.findall(section("A tour"))
    assert len(tour) == 1
    for command in tour[0].splitlines():
        assert command.startswith("build/asmcap "), command
        assert re.findall(r"--cc (\S+)", command) in ([], ["cc"]), command


def test_the_first_screen_prints_what_it_shows():
    """The first section's asmcap line (after `make install` asmcap is on
    PATH: here the same binary, from build/) prints the sample under it."""
    first = section("Install and use it in a build")
    assert README.index("## Install and use it in a build") < 2000     # the first screen
    block, sample = re.findall(r"```sh\n(.*?)```\n\nprints[^\n]*\n\n```\n(.*?)```", first, re.S)[0]
    line = next(l for l in block.splitlines() if l.startswith("asmcap "))
    env = dict(os.environ, PATH=f"{ASMCAP.parent}:{os.environ['PATH']}")
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", line], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout == sample


@pytest.mark.parametrize("command", COMMANDS, ids=[c[:40] for c in COMMANDS])
def test_command_runs(command):
    """Each command succeeds (pipefail: `asmcap … | head` fails when asmcap
    does) and prints what it is shown for, as written: no PATH is added."""
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{command}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{command}: no output"


def projects_table():
    """(check, answer) cells of the table of what other projects check."""
    text = README.split("### What other projects check", 1)[1].split("\n\n| Project |", 1)[1]
    rows = text.split("\n\n", 1)[0].splitlines()[2:]
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    assert {len(c) for c in cells} == {4}, "a `|' inside a cell"
    return [(c[1], c[3]) for c in cells]


def test_projects_table_names_exist():
    """The answer each row leads with (the names before its first note) is a
    catalog feature, or a C-level probe after `cc-probe`: a renamed or
    dropped feature cannot leave a stale row.  Names still being built are
    marked "(this round)" and not looked up."""
    features = {p.stem for p in (ROOT / "templates").glob("*/*.s")}
    probes = {p.stem for p in (ROOT / "templates").glob("*/c/*.c")}
    rows = projects_table()
    assert len(rows) > 60
    stale = []
    for check, answer in rows:
        if "(this round)" in answer:
            continue
        lead = re.split(r" \(|:|;| whose|'s ", answer, maxsplit=1)[0]
        names = [n for n in re.findall(r"`([^`]+)`", lead) if " " not in n]
        known = probes if names[:1] == ["cc-probe"] else features
        stale += [(check, n) for n in names if n != "cc-probe" and n not in known]
    assert stale == []
