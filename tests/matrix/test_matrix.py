# SPDX-License-Identifier: MIT
"""ci/matrix on real toolchains: gcc-12 (ADX everywhere) and the old-assembler
fake (GNU as 2.22 behind a clang driver: no ADX, though the later version
rules say yes), then a toolchain that lies only under load, which must fail
the run.  Each run probes, generates, builds, audits and tests for real."""
import json
import os
import re
import subprocess

import pytest

from conftest import ASMCAP, FAKES, ROOT

MATRIX = ROOT / "ci" / "matrix"
COLUMNS = ["toolchain", "identity", "bmi2", "adx", "avx2", "avx512f", "avx512ifma",
           "legacy ADX (pre-10855/post-10855/post-12725)",
           "C level (adx inline / adx intrinsic / ifma intrinsic)", "bytes verified",
           "ADX code generated", "tests"]


def matrix(out, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("ASMCAP_BUILD", "CC", "CAPS")}
    env["ASMCAP_BIN"] = str(ASMCAP)
    return subprocess.run([str(MATRIX), "--out", str(out), *args], capture_output=True,
                          text=True, timeout=1500, env=env)


def table(out):
    """The Markdown table of matrix.md as {toolchain: {column: cell}}."""
    lines = [l for l in (out / "matrix.md").read_text().splitlines() if l.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("| ").split(" | ")]
    assert head == COLUMNS
    rows = {}
    for l in lines[1:]:
        cells = [c.strip() for c in re.split(r"(?<!\\) \| ", l.strip()[2:-2])]
        assert len(cells) == len(COLUMNS), l
        rows[cells[0].split()[0]] = dict(zip(COLUMNS, cells))
    return rows


@pytest.fixture(scope="module")
def two_rows(tmp_path_factory, asmcap_bin):
    out = tmp_path_factory.mktemp("matrix")
    return out, matrix(out, "--only", "gcc-12,old-as", "--jobs", "2")   # rows built side by side


def test_two_toolchains_agree_and_pass(two_rows):
    out, r = two_rows
    assert r.returncode == 0, r.stdout + r.stderr
    rows = table(out)
    assert list(rows) == ["gcc-12", "old-as"]
    gcc = rows["gcc-12"]
    assert gcc["identity"].startswith("gcc")
    assert (gcc["bmi2"], gcc["adx"]) == ("yes", "yes")
    assert gcc["legacy ADX (pre-10855/post-10855/post-12725)"] == "yes/yes/yes"
    # C level, checked in the objects: inline-asm ADCX yes, _addcarryx_u64
    # lowered to ADC (broken), _mm512_madd52lo_epu64 yes
    assert gcc["C level (adx inline / adx intrinsic / ifma intrinsic)"] == "yes/broken/yes"
    assert gcc["bytes verified"] == "audit: adx bmi2"
    assert gcc["ADX code generated"] == "yes"
    assert re.fullmatch(r"elf64 pass \(\d+\)", gcc["tests"]), gcc["tests"]
    old = rows["old-as"]
    assert (old["bmi2"], old["adx"]) == ("yes", "no")
    assert old["legacy ADX (pre-10855/post-10855/post-12725)"] == "no/yes/yes"
    assert old["bytes verified"] == "audit: no adx/bmi2"
    assert old["ADX code generated"] == "no"
    assert re.fullmatch(r"elf64 pass \(\d+\)", old["tests"]), old["tests"]
    # The terminal gets the same table; the JSON carries the details.
    assert (out / "matrix.md").read_text().split("\n\n", 1)[1] in r.stdout + "\n"
    j = {row["name"]: row for row in json.loads((out / "matrix.json").read_text())["rows"]}
    assert j["old-as"]["probe_adx"] == 0 and j["old-as"]["problems"] == []
    assert j["gcc-12"]["c_level"]["adx-intrinsic"]["reason"].endswith("the compiler emitted other code")
    assert any("would emit ADX the assembler rejects" in w for w in j["old-as"]["legacy_why"])


def test_nasm_and_yasm_elf64_rows_build_and_run(tmp_path, asmcap_bin):
    """The elf64 rows of nasm and yasm: kernels generated as nasm-elf,
    assembled by that assembler into the row's libmont, tested like gcc's."""
    r = matrix(tmp_path, "--only", "nasm-elf64,yasm-elf64")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = table(tmp_path)
    for name, asm in (("nasm-elf64", "nasm"), ("yasm-elf64", "yasm")):
        row = rows[name]
        assert re.fullmatch(r"elf64 nasm-elf pass \(\d+\)", row["tests"]), row["tests"]
        assert row["ADX code generated"] == "yes" and row["bytes verified"] == "audit: adx bmi2"
        log = (tmp_path / "matrix" / name / "log").read_text()
        assert f"MONT_AS={asm} -f elf64 MONT_FLAVOUR=nasm-elf" in log
        obj = tmp_path / "matrix" / name / "elf" / "mont" / "mont-x86_64.o"
        syms = subprocess.run(["readelf", "-sW", str(obj)], capture_output=True, text=True).stdout
        assert re.search(r"FUNC\s+GLOBAL\s+HIDDEN\s+\d+ montk_mul_adx$", syms, re.M), syms


def test_a_row_whose_built_code_lost_adx_fails_the_run(tmp_path, asmcap_bin):
    """The probe says ADX yes and the generator emits the ADX kernel, but the
    fake drops adcx/adox from big files: the audit must catch it."""
    r = matrix(tmp_path, "--only", "dropadx", "--cc", f"dropadx={FAKES / 'matrix-dropadx'}")
    assert r.returncode == 1, r.stdout + r.stderr
    bad = table(tmp_path)["dropadx"]
    assert bad["toolchain"] == "dropadx **FAIL**"
    assert bad["adx"] == "yes" and bad["ADX code generated"] == "yes"
    assert bad["bytes verified"] == "audit: bmi2"
    assert ("- dropadx: the generated code has the ADX kernel but the audit of the built "
            "code finds no ADX instructions") in r.stdout


def test_a_missing_toolchain_asked_for_by_name_fails(tmp_path, asmcap_bin):
    r = matrix(tmp_path, "--only", "ghost", "--cc", "ghost=/nonexistent/cc")
    assert r.returncode == 1
    assert table(tmp_path)["ghost"]["identity"] == "not installed (/nonexistent/cc)"
    assert "- ghost: not installed: /nonexistent/cc" in r.stdout


def test_usage_errors():
    r = subprocess.run([str(MATRIX), "--only", "gcc-12,nosuch"], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown toolchain(s): nosuch" in r.stderr
    r = subprocess.run([str(MATRIX), "--cc", "nameless"], capture_output=True, text=True)
    assert r.returncode == 2 and "--cc wants NAME=CMD" in r.stderr


def test_hosted_ci_has_one_job_per_row():
    rows = subprocess.run([str(MATRIX), "--list"], capture_output=True, text=True,
                          check=True).stdout.split()
    wf = (ROOT / ".github" / "workflows" / "matrix.yml").read_text()
    jobs = [b.split("steps:", 1)[0] for b in wf.split("toolchain:\n")[1:]]
    listed = [re.findall(r"^\s+- (\S+)$", b, re.M) for b in jobs]
    assert sum(listed, []) == rows
    # The gcc cross compilers (they remove gcc-multilib) in a job of their own.
    assert listed[-1] == [r for r in rows if re.fullmatch(r"gcc-\d+-(aarch64|armv7|riscv64|s390x|ppc64le)", r)]
    assert "container: debian:12" in wf and "ci/deps --matrix=${{ matrix.toolchain }}" in wf


def test_cross_rows_have_their_own_tables(tmp_path, asmcap_bin):
    """An aarch64 and a riscv64 row: the probe's two answers per feature and
    what the audit finds in ci/cross-sample.c, in a table per architecture."""
    r = matrix(tmp_path, "--only", "clang-19-aarch64,clang-14-riscv64")
    assert r.returncode == 0, r.stdout + r.stderr
    md = (tmp_path / "matrix.md").read_text()
    assert "### aarch64" in md and "### riscv64" in md and "| bmi2 |" not in md
    row = {x["name"]: x for x in json.loads((tmp_path / "matrix.json").read_text())["rows"]}
    a64, rv = row["clang-19-aarch64"], row["clang-14-riscv64"]
    # clang-19 assembles SHA3 under its directive; the default -march does not enable it.
    assert a64["probe_verdict"]["sha3"] == "yes" and a64["probe_flags"]["sha3"] == "no"
    assert a64["audit_cross"] == {"default": "none", "march": "crc32 sha3"}
    # clang-14 rejects `.option arch, +zba` yet builds Zba code from -march.
    assert rv["probe_verdict"]["zba"] == "no"
    assert rv["audit_cross"] == {"default": "none", "march": "zba zbb"}
    # Each row's libmont, built with its compiler, passed the library tests under qemu-user.
    assert re.fullmatch(r"qemu-aarch64 pass \(\d+\)", a64["tests"]), a64["tests"]
    assert re.fullmatch(r"qemu-riscv64 pass \(\d+\)", rv["tests"]), rv["tests"]
    assert "| libmont tests |" in md and "qemu-aarch64 pass" in md
    assert not a64["problems"] and not rv["problems"]


def test_loongarch64_rows(tmp_path, asmcap_bin):
    """The loongarch64 rows: every feature yes from the assembler, the
    second answer the build facts (clang's default la64v1.0 has LSX, not
    LASX), the -mlasx build's use_lsx/use_lasx found by the audit, and
    libmont's harness not run, saying why (no libc for it in Debian 12)."""
    r = matrix(tmp_path, "--only", "clang-19-loongarch64")
    assert r.returncode == 0, r.stdout + r.stderr
    md = (tmp_path / "matrix.md").read_text()
    assert "### loongarch64" in md and "no directive enables these" in md
    la = {x["name"]: x for x in json.loads((tmp_path / "matrix.json").read_text())["rows"]}["clang-19-loongarch64"]
    assert la["probe_flags"] == {"lsx": "yes", "lasx": "no"}, la["probe_flags"]
    assert la["audit_cross"]["march"] == "lsx lasx"
    assert la["tests"] == "not run: no loongarch64 libc in Debian 12 for the harness"
    assert not la["problems"]


def test_ppc64le_gas_row(tmp_path, asmcap_bin):
    """GNU as behind clang-19 for ppc64le: its POWER8 default refuses ISA
    3.00 and 3.1 without `.machine' (clang's integrated assembler takes
    both: test_cross.py); -mcpu=power10 builds VCIPHER and MMA code the
    audit sees, and libmont passes under qemu-ppc64le."""
    r = matrix(tmp_path, "--only", "clang-19-gas-ppc64le")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "### ppc64le" in (tmp_path / "matrix.md").read_text()
    row = json.loads((tmp_path / "matrix.json").read_text())["rows"][0]
    assert row["probe_verdict"]["arch-3-00"] == row["probe_verdict"]["mma"] == "yes"
    assert row["probe_flags"]["arch-3-00"] == row["probe_flags"]["mma"] == "no"
    assert row["probe_flags"]["vcipher"] == "yes"
    assert row["audit_cross"] == {"default": "none", "march": "vcipher mma"}
    assert re.fullmatch(r"qemu-ppc64le pass \(\d+\)", row["tests"]), row["tests"]
    assert not row["problems"]
