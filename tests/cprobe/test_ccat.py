# SPDX-License-Identifier: MIT
"""The C-level probe catalog (templates/<arch>/c/*.c): its header keys,
and what the engine relies on in each body."""
import json
import re

import pytest

from conftest import ROOT, asmcap

FILES = sorted((ROOT / "templates").glob("*/c/*.c"))
KEYS = {"feature", "summary", "since", "insn", "target", "mflags", "holds", "reloc"}
# a holds: line: alternatives of bytes HH or HH/MM (bits under a mask)
HOLDS = re.compile(r"[0-9a-f]{2}(/[0-9a-f]{2})?( [0-9a-f]{2}(/[0-9a-f]{2})?)*( \| [0-9a-f]{2}(/[0-9a-f]{2})?( [0-9a-f]{2}(/[0-9a-f]{2})?)*)*")


def header(path):
    h, body = {}, []
    lines = path.read_text().splitlines()
    while lines and lines[0].startswith("//"):
        k, v = lines.pop(0)[2:].split(":", 1)
        if k.strip() == "holds":        # the one key that repeats: every line must be found
            h.setdefault("holds", []).append(v.strip())
            continue
        assert k.strip() not in h, f"{path}: {k} twice"
        h[k.strip()] = v.strip()
    return h, "\n".join(lines)


def test_there_are_probes_of_each_kind():
    names = [p.stem for p in FILES]
    assert any(n.endswith("-inline") for n in names) and any(n.endswith("-intrinsic") for n in names)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_probe_file(path):
    h, body = header(path)
    arch = path.parent.parent.name
    assert set(h) <= KEYS and h["feature"] == path.stem
    assert h["summary"] and h["since"]
    # the evidence: a catalog feature's instructions, bytes the code holds, or both
    assert "insn" in h or "holds" in h
    assert "insn" not in h or (ROOT / "templates" / arch / f"{h['insn']}.s").exists(), h["insn"]
    for line in h.get("holds", []):
        assert HOLDS.fullmatch(line), line
    # one function, prototyped (clean under -Wmissing-prototypes -Werror)
    assert len(re.findall(r"\basmcap_probe\(", body)) == 2
    # the answers: an intrinsic (or builtin) under its target attribute and
    # its -m flags; inline asm with the build's flags alone
    kind = path.stem.rsplit("-", 1)[1]
    assert kind in ("intrinsic", "builtin", "inline"), path.stem
    if kind != "inline":
        assert h["target"] and h["mflags"].startswith("-m") and "ASMCAP_TARGET" in body
        if kind == "intrinsic":
            assert re.search(r"#include <(immintrin|arm_neon|arm_acle|arm_sve|riscv_vector|lsxintrin|lasxintrin|vecintrin|altivec)\.h>", body)
    else:
        assert "target" not in h and "mflags" not in h and "__asm__" in body
    if kind == "inline" and arch == "x86_64":
        # AT&T and Intel forms: -masm=intel in CFLAGS must not turn a yes into a no
        assert re.search(r"\{[^|}]*\|[^}]*\}", body), "no {att|intel} alternatives"


def test_the_binary_carries_every_probe():
    # every file is an answer, an intrinsic twice (NAME and NAME-m)
    want = set()
    for p in FILES:
        want |= {p.stem, p.stem + "-m"} if "mflags" in header(p)[0] else {p.stem}
    r = asmcap("cc-probe", "--cc", "gcc-12", "--features", "adx-inline", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)["features"]) == want
