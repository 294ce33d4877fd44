# SPDX-License-Identifier: MIT
"""The baseline guard: `asmcap diff OLD NEW`, `--baseline` on a probe and
`audit --baseline` exit 1 when something usable before is not any more
(the clang-10 story: ADX silently gone), 0 for gains, which are printed;
2 for a baseline that cannot be read or compared, naming what is wrong.
The baselines are written here by hand, or come from audits of code whose
bytes the test chose: no expectation is taken from asmcap's answers."""
import json
import subprocess

import pytest

from conftest import asmcap, need_tool


def caps(arch="x86_64", **features):
    """A caps.json with the given feature statuses (name=status or (status, reason))."""
    f = {}
    for name, st in features.items():
        st, why = st if isinstance(st, tuple) else (st, "")
        f[name] = {"status": st, "reason": why}
    return {"schema": 1, "toolchain": {"arch": arch}, "features": f}


def write(path, doc):
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def rows(text):
    """{feature: (change, before, now)} from diff's table."""
    out = {}
    for line in text.splitlines():
        w = line.split()
        if len(w) >= 4 and w[0] in ("LOST", "gained"):
            out[w[1]] = (w[0], w[2], w[3])
    return out


def test_diff_lost_exits_1_with_the_table(tmp_path):
    old = write(tmp_path / "old.json", caps(adx="yes", bmi2="yes", sha="no"))
    new = write(tmp_path / "new.json", caps(adx=("no", "Error: no such instruction: `adcx'"), bmi2="yes",
                                            sha="no"))
    r = asmcap("diff", old, new)
    assert r.returncode == 1, r.stderr
    assert rows(r.stdout) == {"adx": ("LOST", "yes", "no")}
    assert "no such instruction" in r.stdout          # why it is lost, from NEW
    assert "1 lost, 0 gained, 2 unchanged" in r.stdout


def test_diff_gains_exit_0_and_are_printed(tmp_path):
    old = write(tmp_path / "old.json", caps(adx="no", sha="broken"))
    new = write(tmp_path / "new.json", caps(adx="yes", sha="yes"))
    r = asmcap("diff", old, new)
    assert r.returncode == 0, r.stderr
    assert rows(r.stdout) == {"adx": ("gained", "no", "yes"), "sha": ("gained", "broken", "yes")}


@pytest.mark.parametrize("now", ["no", "broken", "skipped", "disabled"])
def test_yes_to_anything_else_is_lost(tmp_path, now):
    old = write(tmp_path / "old.json", caps(adx="yes"))
    new = write(tmp_path / "new.json", caps(adx=now))
    assert asmcap("diff", old, new).returncode == 1


def test_a_feature_gone_from_the_catalog_is_lost(tmp_path):
    old = write(tmp_path / "old.json", caps(adx="yes", bmi2="yes"))
    new = write(tmp_path / "new.json", caps(bmi2="yes"))
    r = asmcap("diff", old, new)
    assert r.returncode == 1 and rows(r.stdout) == {"adx": ("LOST", "yes", "absent")}


def test_unprobed_now_is_not_compared_and_said(tmp_path):
    old = write(tmp_path / "old.json", caps(adx="yes", bmi2="yes"))
    new = write(tmp_path / "new.json", caps(adx="unprobed", bmi2="yes"))
    r = asmcap("diff", old, new)
    assert r.returncode == 0 and rows(r.stdout) == {}
    assert "not compared (unprobed now): adx" in r.stdout


def test_the_flags_answer_is_compared_too(tmp_path):
    """Where a feature has two answers, losing the second (the build's
    flags no longer enable it: C code and directive-free assembly lose it)
    is a loss of its own, NAME/flags."""
    def sha3(flags):
        return {"schema": 1, "toolchain": {"arch": "aarch64"},
                "features": {"sha3": {"status": "yes", "reason": "", "flags": {"status": flags, "reason": ""}}}}
    old = write(tmp_path / "old.json", sha3("yes"))
    new = write(tmp_path / "new.json", sha3("no"))
    r = asmcap("diff", old, new)
    assert r.returncode == 1 and rows(r.stdout) == {"sha3/flags": ("LOST", "yes", "no")}
    assert rows(asmcap("diff", new, old).stdout) == {"sha3/flags": ("gained", "no", "yes")}


def test_probe_baseline_catches_the_flags_lost(tmp_path):
    """clang-19 for aarch64: SHA3 is optional from Armv8.2 (the Arm ARM), so
    -march=armv8.2-a+sha3 enables it and the default armv8-a does not; the
    directive answer stays yes either way."""
    need_tool("clang-19")
    cc = "clang-19 --target=aarch64-linux-gnu"
    base = tmp_path / "base.json"
    r = asmcap("--cc", cc, "--cflags", "-march=armv8.2-a+sha3", "--features", "sha3", "--format", "json",
               "-o", base)
    assert r.returncode == 0, r.stderr
    r = asmcap("--cc", cc, "--features", "sha3", "--format", "sh", "--baseline", base)
    assert r.returncode == 1 and rows(r.stderr) == {"sha3/flags": ("LOST", "yes", "no")}, r.stderr
    assert "ASMCAP_SHA3=yes" in r.stdout and "ASMCAP_SHA3_FLAGS=no" in r.stdout


def test_diff_json(tmp_path):
    old = write(tmp_path / "old.json", caps(adx="yes", vaes="no", sha="yes"))
    new = write(tmp_path / "new.json", caps(adx=("no", "rejected"), vaes="yes", sha="yes"))
    r = asmcap("diff", old, new, "--format", "json")
    assert r.returncode == 1, r.stderr
    d = json.loads(r.stdout)
    assert d["lost"] == [{"feature": "adx", "before": "yes", "now": "no", "reason": "rejected"}]
    assert d["gained"] == [{"feature": "vaes", "before": "no", "now": "yes", "reason": None}]
    assert d["unchanged"] == 1 and d["kind"] == "probe" and d["arch"] == "x86_64"


def test_json_escapes_are_decoded(tmp_path):
    """A baseline is JSON, whoever wrote it: \\u escapes name the same feature."""
    old = write(tmp_path / "old.json", '{"schema": 1, "toolchain": {"arch": "x86_64"}, '
                                       '"features": {"\\u0061dx": {"status": "y\\u0065s"}}}')
    new = write(tmp_path / "new.json", caps(adx="yes"))
    r = asmcap("diff", old, new)
    assert r.returncode == 0 and "0 lost, 0 gained, 1 unchanged" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("text,msg", [
    ('{"schema": 1,\n "features": {"adx": {"status": "yes"},}}', "line 2: an object key must be a string"),
    ('{"schema": 1,\n', "line 2: the text ends inside an object"),
    ('{"schema": 1, "features": {"adx": {}}}', "feature `adx' has no \"status\""),
    ('{"schema": 1, "features": {"sha3": {"status": "yes", "flags": {}}}}',
     "feature `sha3' has no \"status\" in \"flags\""),
    ('{"schema": 2, "features": {}}', "not an asmcap document of schema 1"),
    ('{"schema": 1, "other": []}', "neither a probe's caps.json"),
    ('{"schema": 1, "features": {"adx": {"status": "yes"}}} x', "text after the JSON value"),
    ('{"a": "\\ud800"}', "lone surrogate"),
    ('[' * 10000 + ']' * 10000, "nested too deep"),
])
def test_bad_baseline_is_exit_2_naming_it(tmp_path, text, msg):
    bad = write(tmp_path / "bad.json", text)
    good = write(tmp_path / "good.json", caps(adx="yes"))
    r = asmcap("diff", bad, good)
    assert r.returncode == 2 and f"asmcap diff: {bad}: " in r.stderr and msg in r.stderr, r.stderr
    # refused before anything ran: a probe of this compiler would exit 3
    r = asmcap("--cc", tmp_path / "no-such-cc", "--baseline", bad, "--format", "sh")
    assert r.returncode == 2 and msg in r.stderr and r.stdout == "" and "no-such-cc" not in r.stderr


def test_unlike_documents_are_not_compared(tmp_path):
    x86 = write(tmp_path / "x86.json", caps(adx="yes"))
    arm = write(tmp_path / "arm.json", caps("aarch64", sha3="yes"))
    audit = write(tmp_path / "audit.json", {"schema": 1, "objects": []})
    r = asmcap("diff", x86, arm)
    assert r.returncode == 2 and "is for x86_64" in r.stderr and "compare the same target" in r.stderr
    r = asmcap("diff", x86, audit)
    assert r.returncode == 2 and "compare like with like" in r.stderr
    assert asmcap("diff", x86).returncode == 2


def test_probe_baseline_catches_adx_lost(tmp_path):
    """GNU as with -march=generic64 has no ADX (the binutils manual's
    -march list): the same compiler, flags changed, ADX gone — exit 1,
    and the probe's own output is still written."""
    base = write(tmp_path / "base.json", caps(adx="yes"))
    r = asmcap("--cc", "gcc", "--cflags", "-Wa,-march=generic64", "--features", "adx", "--format", "sh",
               "--baseline", base)
    assert r.returncode == 1, r.stderr
    assert "ASMCAP_ADX=no" in r.stdout
    assert rows(r.stderr)["adx"][:2] == ("LOST", "yes") and "this probe" in r.stderr


def test_probe_baseline_gain_exit_0_and_printed(tmp_path):
    base = write(tmp_path / "base.json", caps(adx="no", bmi2="yes"))   # bmi2: adx requires it
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh", "--baseline", base)
    assert r.returncode == 0, r.stderr
    assert rows(r.stderr) == {"adx": ("gained", "no", "yes")}


def test_probe_baseline_nothing_changed_is_quiet(tmp_path):
    base = write(tmp_path / "base.json", caps(adx="yes", bmi2="yes", aesni="yes"))
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh", "--baseline", base)
    assert r.returncode == 0 and r.stderr == "", r.stderr   # aesni unprobed: not compared, not lost


def test_probe_baseline_other_target_is_exit_2(tmp_path):
    base = write(tmp_path / "base.json", caps("aarch64", sha3="yes"))
    r = asmcap("--cc", "gcc", "--features", "adx", "--baseline", base)
    assert r.returncode == 2 and "compare the same target" in r.stderr


def assemble(tmp_path, name, body):
    s = tmp_path / f"{name}.s"
    s.write_text(".text\n.globl f\n.type f,@function\nf:\n" + body + "\tret\n.size f,.-f\n")
    subprocess.run(["as", "-o", str(tmp_path / f"{name}.o"), str(s)], check=True)
    return tmp_path / f"{name}.o"


def test_audit_baseline_catches_the_adx_path_dropped(tmp_path):
    """Yesterday's build used ADCX (66 0f 38 f6); today's code does the
    same with ADD: the ADX path was dropped, as clang-10's builds did."""
    adx = assemble(tmp_path, "adx", "\tadcx %rax,%rbx\n\tmulx %rax,%rbx,%rcx\n")
    plain = assemble(tmp_path, "plain", "\tadd %rax,%rbx\n\tmulx %rax,%rbx,%rcx\n")
    r = asmcap("audit", adx, "--format", "json")
    assert r.returncode == 0, r.stderr
    base = write(tmp_path / "base.json", r.stdout)
    r = asmcap("audit", plain, "--baseline", base)
    assert r.returncode == 1
    assert rows(r.stderr) == {"adx": ("LOST", "found", "not")}   # "not found"
    assert "bmi2" in r.stdout                           # the audit's own report is still there
    assert asmcap("audit", adx, "--baseline", base).returncode == 0
    now = write(tmp_path / "now.json", asmcap("audit", plain, "--format", "json").stdout)
    r = asmcap("diff", base, now)
    assert r.returncode == 1 and rows(r.stdout) == {"adx": ("LOST", "found", "not")}
    r = asmcap("diff", now, base)
    assert r.returncode == 0 and rows(r.stdout) == {"adx": ("gained", "not", "found")}


def test_audit_baseline_unreadable_is_exit_2(tmp_path):
    r = asmcap("audit", "/bin/true", "--baseline", tmp_path / "none.json")
    assert r.returncode == 2 and "cannot read the baseline" in r.stderr and r.stdout == ""
