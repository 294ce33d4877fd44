"""asmcap legacy: OpenSSL perlasm's ADX version rules, era by era, beside
the probe.  The fake compilers print fixed version banners and pass real
work to a real compiler, so the probe's verdict is measured, not scripted."""
import subprocess

import pytest

from conftest import FAKES, asmcap

ERAS = ("pre-10855", "post-10855", "post-12725")
HEAD = "era         adx  rules"


def legacy(*args):
    r = asmcap("legacy", *args)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def era_rows(lines):
    i = lines.index(HEAD)
    return lines[i + 1:i + 4], lines[i + 4], lines[i + 5:]


@pytest.mark.parametrize("fake, verdicts, rules, explain", [
    ("legacy-gcc-gas240", ("yes", "yes", "yes"),
     ["gnu-as: 2.40 >= 2.23"] * 3, []),
    ("legacy-clang9", ("yes", "yes", "yes"),
     ["gnu-as: no match; clang: 9.00 >= 3.03"] * 3, []),
    ("legacy-clang10", ("no", "yes", "yes"),
     ["gnu-as: no match; clang: no match"] + ["gnu-as: no match; clang: 10.00 >= 3.03"] * 2,
     ['pre-10855: this rule would drop ADX: the clang major has two digits ("10.0") '
      'and the pattern reads one, [3-9]']),
    ("legacy-debian-clang14", ("no", "no", "yes"),
     ["gnu-as: no match; clang: no match"] * 2 + ["gnu-as: no match; clang: 14.00 >= 3.03"],
     [f'{era}: this rule would drop ADX: "^clang" matches only at the start of the whole '
      '`-v` output (Perl, no /m), which begins "Debian clang version 14.0.6"'
      for era in ERAS[:2]]),
    ("legacy-apple-clang10", ("no", "yes", "yes"),
     ["gnu-as: no match; clang: no match"] + ["gnu-as: no match; clang: 10.00 >= 3.03"] * 2,
     ['pre-10855: this rule would drop ADX: the clang major has two digits ("10.0") '
      'and the pattern reads one, [3-9]']),
    ("legacy-apple-clang4", ("no", "no", "no"),
     ["gnu-as: no match; clang: 3.01 < 3.03"] * 3,
     [f"{era}: this rule would drop ADX: clang 3.01 < 3.03, yet the assembler encodes ADX"
      for era in ERAS]),
])
def test_eras_against_an_adx_capable_assembler(asmcap_bin, fake, verdicts, rules, explain):
    lines = legacy("--cc", FAKES / fake)
    rows, probe, why = era_rows(lines)
    assert rows == [f"{e:<11} {v:<4} {r}" for e, v, r in zip(ERAS, verdicts, rules)]
    assert probe.startswith("probe       yes  "), probe
    assert why == explain


def test_clang_driver_over_old_gnu_as(asmcap_bin):
    """GNU as rule says no; the later clang rules say yes from the compiler's
    version although its assembler rejects adcx/adox; the probe says no."""
    lines = legacy("--cc", FAKES / "legacy-gas222")
    assert "as -v: GNU assembler version 2.22 (x86_64-linux-gnu) using BFD version (GNU Binutils) 2.22" in lines
    rows, probe, why = era_rows(lines)
    assert rows == ["pre-10855   no   gnu-as: 2.22 < 2.23; clang: no match",
                    "post-10855  yes  gnu-as: 2.22 < 2.23; clang: 10.00 >= 3.03",
                    "post-12725  yes  gnu-as: 2.22 < 2.23; clang: 10.00 >= 3.03"]
    assert probe.startswith("probe       no   "), probe
    assert len(why) == 2
    for era, line in zip(ERAS[1:], why):
        assert line.startswith(
            f"{era}: this rule would emit ADX the assembler rejects: the clang rule judged "
            "the compiler (10.00 >= 3.03), but the assembler it runs is GNU as 2.22, which "
            "the GNU as rule had found too old (probe: no"), line


def test_nasm_rule_runs_for_the_nasm_flavour(asmcap_bin):
    lines = legacy("--cc", FAKES / "legacy-debian-clang14", "--nasm", FAKES / "legacy-nasm209")
    assert "nasm -v: NASM version 2.09.10 compiled on Jul 16 2011" in lines
    rows, probe, why = era_rows(lines)
    assert rows[0] == "pre-10855   no   gnu-as: no match; nasm: 2.09 < 2.10; clang: no match"
    assert rows[2] == "post-12725  yes  gnu-as: no match; nasm: 2.09 < 2.10; clang: 14.00 >= 3.03"
    assert probe.startswith("probe       yes  "), probe
    assert [w.split(":")[0] for w in why] == list(ERAS[:2])


def test_usage_and_unusable_toolchain(asmcap_bin):
    r = asmcap("legacy", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: asmcap legacy [--cc CMD] [--nasm CMD]")
    r = asmcap("legacy", "--frobnicate")
    assert r.returncode == 2 and "unknown option `--frobnicate'" in r.stderr
    r = asmcap("legacy", "--cc", "'unterminated")
    assert r.returncode == 2 and "bad command" in r.stderr
    r = asmcap("legacy", "--cc", "/nonexistent/cc")
    assert r.returncode == 3 and "/nonexistent/cc" in r.stderr


# The rules as Perl ran them (whole `2>&1` output, no /m), one era per
# regex; asmcap's POSIX-regex model must reach the same verdicts.
PERL_RULES = r"""
my ($as, $cc) = do { local $/; split /\0/, <STDIN> };
for my $re (qr/((?:^clang|LLVM) version|.*based on LLVM) ([3-9])\.([0-9]+)/,
            qr/((?:^clang|LLVM) version|.*based on LLVM) ([0-9]+)\.([0-9]+)/,
            qr/((?:clang|LLVM) version|.*based on LLVM) ([0-9]+)\.([0-9]+)/) {
    my $addx = 0;
    $addx = ($1 >= 2.23) if $as =~ /GNU assembler version ([2-9]\.[0-9]+)/;
    $addx = ($2 + $3 / 100.0 >= 3.03) if !$addx && $cc =~ $re;
    print $addx ? "yes\n" : "no\n";
}
"""


@pytest.mark.parametrize("fake", ["legacy-gcc-gas240", "legacy-clang9", "legacy-clang10",
                                  "legacy-debian-clang14", "legacy-apple-clang10",
                                  "legacy-apple-clang4", "legacy-gas222"])
def test_model_agrees_with_perl(asmcap_bin, fake):
    cc = str(FAKES / fake)

    def out(*args):
        p = subprocess.run([cc, *args], capture_output=True, text=True)
        return p.stdout + p.stderr

    text = out("-Wa,-v", "-c", "-o", "/dev/null", "-x", "assembler", "/dev/null") + "\0" + out("-v")
    perl = subprocess.run(["perl", "-e", PERL_RULES], input=text, capture_output=True,
                          text=True, check=True).stdout.split()
    rows, _, _ = era_rows(legacy("--cc", cc))
    assert [r.split()[1] for r in rows] == perl
