# SPDX-License-Identifier: MIT
"""ci/choices: one row per compiler, one cell per example spec, each naming
an existing variant of that spec with every variant's frame/code/cycles;
cross rows (code that cannot run here) decided by frame size and saying
so, their frames the same from -fstack-usage and from the object."""
import re
import subprocess

import pytest

from conftest import ROOT, need_tool


def choices(tmp_path, *args):
    r = subprocess.run([str(ROOT / "ci" / "choices"), "--out", str(tmp_path), *args],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    cells = {}
    for line in (tmp_path / "choices.md").read_text().splitlines()[2:]:
        label, *rest = [c.strip() for c in line.strip("|").split("|")]
        cells[label] = rest
    return r, cells


def variants(cell):
    """{variant: (frame, code, cycles)} as the cell shows them."""
    return {n: (f, c, y) for n, f, c, y in re.findall(r"(\w+) (-|\d+)/(-|\d+)/(-|\d+(?:\.\d+)?)", cell)}


def test_choices_table(tmp_path):
    r, cells = choices(tmp_path, "--only", "gcc,no-such-cc")
    assert "no-such-cc not installed" in r.stderr
    assert list(cells) == ["gcc"]
    specs = sorted(ROOT.glob("examples/*/*.spec"))
    assert len(cells["gcc"]) == len(specs)
    for spec, cell in zip(specs, cells["gcc"]):
        names = re.findall(r"^variant:\s*(\w+)", spec.read_text(), re.M)
        pick = re.search(r"\*\*(\w+)\*\*", cell).group(1)
        assert pick in names, (spec, cell)
        assert re.search(r"\*\* \((default kept|wins|overridden)\) — ", cell), cell
        v = variants(cell)
        assert sorted(v) == sorted(names), cell
        for n in names:   # gcc builds every variant: frame and code bytes known
            assert v[n][0] != "-" and int(v[n][1]) > 0, (n, cell)
        timed = "bench:" in spec.read_text()
        assert all((y != "-") == timed for _, _, y in v.values()), cell


def test_rows_read_frames_from_both_sources(tmp_path):
    """aarch64 through clang-19: the frame decides (nothing is timed), qemu
    checks the results; a clang without -fstack-usage (frames read from the
    prologues in the objects) gives the same row.  Natively, gcc and a gcc
    without -fstack-usage (tests/fake) agree on code bytes, and on frames
    within what -fstack-usage adds (x86-64's return address and pushes)."""
    need_tool("clang-19")
    qemu = need_tool("qemu-aarch64")
    wrapper = tmp_path / "cc-no-su"
    wrapper.write_text("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -fstack-usage ] && "
                       "{ echo \"error: unknown argument: '-fstack-usage'\" >&2; exit 1; }; done\n"
                       "exec clang-19 --target=aarch64-linux-gnu \"$@\"\n")
    wrapper.chmod(0o755)
    rows = tmp_path / "rows"
    run = f"{qemu} -L /usr/aarch64-linux-gnu"
    rows.write_text(f"a64\tclang-19 --target=aarch64-linux-gnu\t{run}\n"
                    f"a64-no-su\t{wrapper}\t{run}\n"
                    "gcc\tgcc\t\n"
                    f"gcc-no-su\t{ROOT / 'tests' / 'fake' / 'cc-no-stack-usage'}\t\n")
    _, cells = choices(tmp_path, "--rows", str(rows))
    assert list(cells) == ["a64", "a64-no-su", "gcc", "gcc-no-su"]
    assert cells["a64"] == cells["a64-no-su"]
    for su, pro in zip(cells["gcc"], cells["gcc-no-su"]):
        su, pro = variants(su), variants(pro)
        assert sorted(su) == sorted(pro)
        for n in su:
            assert su[n][1] == pro[n][1] and 0 <= int(su[n][0]) - int(pro[n][0]) <= 16, (n, su, pro)
    specs = sorted(ROOT.glob("examples/*/*.spec"))
    sha1 = cells["a64"][[s.name for s in specs].index("sha1.spec")]
    # metric cycles, but the code cannot run here: the frame decides, and
    # qemu-aarch64 checked the results (no "unchecked")
    assert "(by frame: cannot run) — " in sha1, sha1
    v = variants(sha1)
    assert all(y == "-" for _, _, y in v.values()), sha1
    frames = {n: int(f) for n, (f, _, _) in v.items()}
    pick = re.search(r"\*\*(\w+)\*\*", sha1).group(1)
    assert frames[pick] == min(frames.values()) and len(set(frames.values())) >= 3, sha1


def stack_usage(tmp_path, cc, flags, func):
    """The frame `cc -fstack-usage` reports for func (its .su file)."""
    obj = tmp_path / "su.o"
    subprocess.run([*cc.split(), "-O2", *flags, "-fstack-usage", "-c",
                    str(ROOT / "examples" / "sha1" / "sha1.c"), "-o", str(obj)], check=True)
    line = next(l for l in (tmp_path / "su.su").read_text().splitlines() if f":{func}\t" in l)
    return int(line.split("\t")[1])


@pytest.mark.parametrize("cc", ["clang-19", "clang-22"])
def test_loongarch64_rows_are_decided_by_frame(tmp_path, cc):
    """loongarch64 (the default rows): nothing links there (no libc in
    Debian 12) and no emulator checks, so the SHA-1 store is chosen by
    frame, unchecked; each variant's frame is what -fstack-usage says for
    that variant's flags, and the pick is the smallest."""
    need_tool(cc)
    _, cells = choices(tmp_path, "--only", f"loongarch64/{cc}")
    specs = sorted(ROOT.glob("examples/*/*.spec"))
    sha1 = cells[f"loongarch64/{cc}"][[s.name for s in specs].index("sha1.spec")]
    assert "(by frame: cannot run, unchecked) — " in sha1, sha1
    frames = {n: int(f) for n, (f, _, _) in variants(sha1).items()}
    spec = (ROOT / "examples" / "sha1" / "sha1.spec").read_text()
    for name, flags in re.findall(r"^variant:\s*(\w+)\s*=\s*(.*)$", spec, re.M):
        want = stack_usage(tmp_path, f"{cc} --target=loongarch64-linux-gnu", flags.split(), "sha1_block")
        assert frames[name] == want, (name, frames, want)
    pick = re.search(r"\*\*(\w+)\*\*", sha1).group(1)
    assert frames[pick] == min(frames.values()), sha1
