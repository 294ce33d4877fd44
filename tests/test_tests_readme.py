# SPDX-License-Identifier: MIT
"""tests/README.md has a row for every folder of tests/: what it covers,
what it needs and how to run it alone."""
import re

from conftest import ROOT

TESTS = ROOT / "tests"


def rows():
    """folder -> its row's cells, from the README's table."""
    out = {}
    for line in (TESTS / "README.md").read_text().splitlines():
        m = re.match(r"\| `([\w-]+)/` \|(.*)\|\s*$", line)
        if m:
            out[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return out


def test_every_folder_has_its_row():
    folders = {d.name for d in TESTS.iterdir() if d.is_dir() and not d.name.startswith((".", "__"))}
    table = rows()
    assert folders <= set(table), f"no row in tests/README.md for {sorted(folders - set(table))}"
    assert set(table) <= folders, f"rows for folders that are gone: {sorted(set(table) - folders)}"
    for name, cells in table.items():
        assert len(cells) == 3 and cells[0], (name, cells)
        # a folder of tests says how to run it alone; data folders say `—'
        has_tests = any((TESTS / name).glob("test_*.py"))
        assert (cells[2] == f"`make check T=tests/{name}`") == has_tests, (name, cells)
