# SPDX-License-Identifier: MIT
"""The text table ends with one advice line per feature the toolchain could
not give: the assembler's own message, the assembler that would, and, when
this CPU could run the feature, what losing it costs."""
from conftest import FAKES, asmcap, cpu_flags


def advice(cc):
    r = asmcap("--cc", cc)
    assert r.returncode == 0, r.stderr
    text = r.stdout.split("\nadvice:\n", 1)
    return {l.split(":", 1)[0].strip(): l for l in text[1].splitlines()} if len(text) == 2 else {}


def test_old_assembler_gets_adx_advice():
    a = advice(str(FAKES / "legacy-gas222"))
    line = a["adx"]
    assert "no such instruction: `adcx" in line                 # its own message
    assert "an assembler that knows adx (binutils 2.23" in line
    if "adx" in cpu_flags():
        assert "This CPU has adx: Montgomery code is much slower without it" in line
        assert "montbench" in line and "modexp" in line         # the measured figure, named
    else:
        assert "This CPU has" not in line


def test_features_the_cpu_lacks_get_no_cost():
    flags = cpu_flags()
    for name, line in advice("gcc").items():
        assert "Fix: an assembler that knows" in line
        if name in ("sha512", "sm3", "sm4") and not flags & {"sha512", "sm3", "sm4"}:
            assert "This CPU has" not in line


def test_no_advice_for_what_works():
    a = advice("gcc")
    assert "adx" not in a and "bmi2" not in a
    r = asmcap("--cc", "gcc", "--format", "sh")
    assert "advice" not in r.stdout and "Fix:" not in r.stdout   # build-facing formats stay clean


def require_fails(*args):
    r = asmcap("--format", "sh", *args)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.splitlines()
    return lines, {l.split()[3]: lines[i + 1] for i, l in enumerate(lines) if "required feature" in l}


def test_require_failure_says_the_fix():
    """Each failed --require names the feature, why, and on the next line
    the same Fix the text table's advice gives."""
    lines, fix = require_fails("--cc", str(FAKES / "legacy-gas222"), "--require", "adx")
    assert "no such instruction: `adcx" in lines[0]
    assert fix["adx"].startswith("asmcap:   Fix: an assembler that knows adx (binutils 2.23")
    assert fix["adx"].split("Fix: ")[1] in advice(str(FAKES / "legacy-gas222"))["adx"]


def test_require_fix_names_the_flags_that_reject_it():
    _, fix = require_fails("--cc", "gcc", "--cflags", "-Wa,-march=generic64", "--features", "adx",
                           "--require", "adx")
    assert "Fix: the build's flags reject it (--cflags '-Wa,-march=generic64')" in fix["adx"]


def test_require_fix_of_what_is_not_probed_or_disabled():
    _, fix = require_fails("--cc", "gcc", "--features", "adx", "--require", "xop")
    assert fix["xop"] == "asmcap:   Fix: add it to --features."
    lines, fix = require_fails("--cc", "gcc", "--disable", "bmi2", "--require", "adx")
    assert "adx is yes, but it requires bmi2, which is disabled" in lines[0]
    assert fix["adx"] == "asmcap:   Fix: take it out of --disable and ASMCAP_DISABLE."
