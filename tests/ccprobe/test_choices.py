"""ci/choices: one row per compiler, one cell per example spec, each naming
an existing variant of that spec."""
import re
import subprocess

from conftest import ROOT


def test_choices_table(tmp_path):
    r = subprocess.run([str(ROOT / "ci" / "choices"), "--only", "gcc,no-such-cc", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "no-such-cc not installed" in r.stderr
    rows = [l for l in (tmp_path / "choices.md").read_text().splitlines() if l.startswith("| gcc ")]
    assert len(rows) == 1
    specs = sorted(ROOT.glob("examples/*/*.spec"))
    cells = rows[0].strip("|").split("|")[1:]
    assert len(cells) == len(specs)
    for spec, cell in zip(specs, cells):
        names = re.findall(r"^variant:\s*(\w+)", spec.read_text(), re.M)
        pick = re.search(r"\*\*(\w+)\*\*", cell).group(1)
        assert pick in names, (spec, cell)
        assert re.search(r"\*\* \((default kept|wins|by frame: cannot run|overridden)\) — ", cell), cell
        for n in names:   # each variant's frame bytes / cycles per byte
            assert re.search(rf"\b{n} \d+/(\d+(\.\d+)?|-)(,|\s*$)", cell), (n, cell)
