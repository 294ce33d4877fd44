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


def test_readme_has_runnable_blocks():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:40] for b in BLOCKS])
def test_block_runs(block):
    env = dict(os.environ, PATH=f"{ASMCAP.parent}:{os.environ['PATH']}")
    r = subprocess.run(["bash", "-e", "-c", block], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{block}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-3000:]}"
    assert r.stdout.strip()
