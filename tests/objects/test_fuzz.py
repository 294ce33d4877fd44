# SPDX-License-Identifier: MIT
"""`make fuzz`: every libFuzzer target (ELF, COFF, Mach-O, ar readers and
the x86 decoder) runs a bounded time on its seed corpus without a finding."""
import re
import subprocess

from conftest import BUILD, ROOT


def test_make_fuzz():
    r = subprocess.run(["make", "-s", "fuzz", f"BUILD={BUILD}", "FUZZ_TIME=10"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    runs = re.findall(r"^#(\d+)\s+DONE\s+cov: (\d+)", r.stdout, re.M)
    assert len(runs) == 5, r.stdout
    for execs, cov in runs:
        assert int(execs) > 1000 and int(cov) > 50, r.stdout
    assert not list((BUILD / "fuzz").glob("crash-*")), "a fuzzer left a crash input"
