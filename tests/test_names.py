# SPDX-License-Identifier: MIT
"""Names follow their files and types, so a rename leaves no leftovers: a
header's include guard is made from its file name (probe/x/asmrun.h is
ASMCAP_ASMRUN_H; mont/ is MONT_, its public mont.h MONT_H), and the
constants of a named enum share one prefix that starts its name
(enum outcome: OUTCOME_OK; enum status: ST_YES)."""
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

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


# ---- exported names carry their part ----

PROBE = ROOT / "probe"
# Exported names may also start with a type of their part (struct probe,
# struct verdict, struct asm_run, the catalog's cat_*; struct buf and the
# string vectors of lib/), with xalloc's x* wrappers, or with the module
# a file is a piece of (x86dec.c and x86keys.c: x86_; armattr.c: arm_;
# gates30.c is legacy's table).
TYPE_PREFIXES = {
    "engine": ("probe_", "verdict", "asm_run_", "cat_"),
    "lib/out.c": ("buf_",), "lib/argv.c": ("strv_",), "lib/xalloc.c": ("x",),
    "engine/baseline.c": ("caps_",), "arch/x86dec.c": ("x86_",), "arch/x86keys.c": ("x86_",),
    "arch/armattr.c": ("arm_",), "cmd/gates30.c": ("legacy_",),
}


def allowed_prefixes(rel):
    """probe/<part>/<stem>.c exports <stem>_* or <part>_* (lib/ has no
    part name of its own: its files are the parts); a file named a-b.c is
    a piece of a's job and may use a_ too (audit-walk.c: audit_,
    cc-probe-run.c: cc_probe_)."""
    parts = rel.split("/")
    words = parts[-1][:-2].split("-")
    mine = ["_".join(words[:i]) + "_" for i in range(len(words), max(1, len(words) - 1) - 1, -1)]
    if len(parts) > 1 and parts[0] != "lib":
        mine.append(f"{parts[0]}_")
    return (*mine, *TYPE_PREFIXES.get(parts[0], ()), *TYPE_PREFIXES.get(rel, ()))


def exported(path, tmp):
    """The external names path defines, from the object the compiler makes
    of it (nm: what the linker sees, not what a regex guesses)."""
    obj = tmp / (path.relative_to(PROBE).as_posix().replace("/", "_") + ".o")
    inc = [f"-I{d}" for d in sorted({p.parent for p in PROBE.rglob("*.h")})]
    subprocess.run(["cc", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE",
                    *inc, f"-I{ROOT / 'build'}", "-c", str(path), "-o", str(obj)], check=True)
    out = subprocess.run(["nm", "-g", "--defined-only", str(obj)], check=True,
                         capture_output=True, text=True).stdout
    return [l.split()[2] for l in out.splitlines() if len(l.split()) == 3]


def test_exported_names_carry_their_part(tmp_path):
    sources = sorted(p for p in PROBE.rglob("*.c") if p.parent.name != "driver")
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        names = dict(zip(sources, pool.map(lambda p: exported(p, tmp_path), sources)))
    assert sum(map(len, names.values())) > 100      # the walk sees the exports
    bad = [f"{p.relative_to(PROBE)}: {n}" for p, ns in names.items() for n in ns
           if n != "main" and not n.startswith(allowed_prefixes(p.relative_to(PROBE).as_posix()))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel,name,ok", [
    ("engine/asmrun.c", "asmrun_prepare", True),
    ("engine/asmrun.c", "engine_complaint", True),      # its part
    ("engine/asmrun.c", "prepare", False),              # no prefix
    ("lib/run.c", "now_ms", False),
    ("lib/run.c", "lib_now_ms", False),                 # lib/ is no part
    ("cmd/cc-flag.c", "cc_flag_compile", True),
    ("lib/out.c", "buf_puts", True),
    ("cmd/audit-walk.c", "audit_code", True),           # a piece of audit's job
    ("cmd/cc-probe-run.c", "cc_probe_all", True),
    ("cmd/cc-probe-run.c", "cc_all", False),            # cc is another part's
    ("engine/plan.c", "verdicts_free", True),           # its part's type
    ("lib/run.c", "verdict_set", False),                # not lib's
])
def test_prefix_rule(rel, name, ok):
    assert name.startswith(allowed_prefixes(rel)) == ok
