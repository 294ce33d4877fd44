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


def test_readme_has_runnable_blocks():
    assert len(BLOCKS) >= 2 and len(COMMANDS) >= 8


@pytest.mark.parametrize("command", COMMANDS, ids=[c[:40] for c in COMMANDS])
def test_command_runs(command):
    """Each command succeeds (pipefail: `asmcap … | head` fails when asmcap
    does) and prints what it is shown for."""
    env = dict(os.environ, PATH=f"{ASMCAP.parent}:{os.environ['PATH']}")
    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{command}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-3000:]}"
    assert r.stdout.strip(), f"{command}: no output"
