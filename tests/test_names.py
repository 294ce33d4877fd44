# SPDX-License-Identifier: MIT
"""Names follow their files and types, so a rename leaves no leftovers: a
header's include guard is made from its file name (probe/x/asmrun.h is
ASMCAP_ASMRUN_H; mont/ is MONT_, its public mont.h MONT_H), and the
constants of a named enum share one prefix that starts its name
(enum outcome: OUTCOME_OK; enum status: ST_YES)."""
import re

import pytest

from conftest import ROOT

ENUM = re.compile(r"\benum\s+(\w+)\s*\{([^}]*)\}", re.S)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def headers():
    return sorted([*(ROOT / "probe").rglob("*.h"), *(ROOT / "mont").glob("*.h")])


def expected_guard(path):
    stem = re.sub(r"[^A-Za-z0-9]", "_", path.stem).upper()
    if path.parent.name == "mont":
        return "MONT_H" if stem == "MONT" else f"MONT_{stem}_H"
    return f"ASMCAP_{stem}_H"


def guard(text):
    m = re.search(r"^#ifndef (\w+)\n#define (\w+)$", text, re.M)
    return m.group(1) if m and m.group(1) == m.group(2) else None


@pytest.mark.parametrize("path", headers(), ids=lambda p: str(p.relative_to(ROOT)))
def test_header_guard_is_its_file_name(path):
    assert guard(path.read_text()) == expected_guard(path)


def enum_prefix_ok(name, constants):
    """One prefix (the part before the first `_') for every constant, and
    it starts the enum's name (ST for status, OUTCOME for outcome)."""
    prefixes = {c.split("_", 1)[0] for c in constants}
    if len(prefixes) != 1 or not all("_" in c for c in constants):
        return False
    p = prefixes.pop()
    return len(p) >= 2 and name.replace("_", "").upper().startswith(p)


def enums():
    for path in sorted([*(ROOT / "probe").rglob("*.[ch]"), *(ROOT / "mont").glob("*.[ch]")]):
        for m in ENUM.finditer(COMMENT.sub("", path.read_text())):
            consts = [c.split("=")[0].strip() for c in m.group(2).split(",") if c.strip()]
            yield f"{path.relative_to(ROOT)}:{m.group(1)}", m.group(1), consts


def test_enum_constants_share_a_prefix_from_its_name():
    found = list(enums())
    assert len(found) > 10      # the walk sees the enums (outcome, status, opt_kind ...)
    bad = [(where, consts) for where, name, consts in found if not enum_prefix_ok(name, consts)]
    assert not bad, bad


@pytest.mark.parametrize("name,consts,ok", [
    ("outcome", ["OUTCOME_OK", "OUTCOME_FAILED"], True),
    ("status", ["ST_YES", "ST_NO"], True),
    ("x86_map", ["X86_MAP_0F", "X86_MAP_0F38"], True),
    ("outcome", ["U_OK", "U_FAILED"], False),           # a leftover of a rename
    ("change", ["SAME", "LOST"], False),                # no prefix at all
    ("only", ["ANY_ARCH", "ONLY_X86"], False),          # two prefixes
])
def test_enum_rule(name, consts, ok):
    """The rule itself, on the leftovers it is there to catch."""
    assert enum_prefix_ok(name, consts) == ok
