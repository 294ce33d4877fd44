# SPDX-License-Identifier: MIT
"""asmcap legacy: OpenSSL perlasm's ADX version rules, era by era, beside
the probe.  The fake compilers print fixed version banners and pass real
work to a real compiler, so the probe's verdict is measured, not scripted."""
import pathlib
import subprocess

import pytest

from conftest import FAKES, asmcap, need_tool

ERAS = ("pre-10855", "post-10855", "post-12725")
HEAD = "era         adx  rules"


def legacy(*args):
    r = asmcap("legacy", *args)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def era_rows(lines):
    """The era rows, the probe row and the explanations (up to the gate table)."""
    i = lines.index(HEAD)
    end = lines.index("", i)
    return lines[i + 1:i + 4], lines[i + 4], lines[i + 5:end]


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


@pytest.mark.tools("/usr/lib/llvm-19/bin/llvm-ml")
def test_ml64_rule_runs_for_the_masm_flavour(asmcap_bin):
    r"""ml64's rule (`ml64 2>&1` =~ /Version ([0-9]+)\./, $1 >= 12) reads
    the banner of ml64 11; llvm-ml behind it encodes ADX, so the probe
    says yes.  The 3.0 gates weigh the same number per generator."""
    lines = legacy("--cc", FAKES / "legacy-debian-clang14", "--masm", FAKES / "legacy-ml64-banner")
    assert "ml64: Microsoft (R) Macro Assembler (x64) Version 11.00.61030.0" in lines
    rows, probe, why = era_rows(lines)
    assert rows[0] == "pre-10855   no   gnu-as: no match; ml64: 11 < 12; clang: no match"
    assert rows[2] == "post-12725  yes  gnu-as: no match; ml64: 11 < 12; clang: 14.00 >= 3.03"
    assert probe.startswith("probe       yes  "), probe
    assert [w.split(":")[0] for w in why] == list(ERAS[:2])
    gates = {line.split()[0]: line for line in lines[lines.index("") + 3:]}
    assert gates["avx"].split()[1:3] == ["2/2", "2/2"] and gates["avx"].endswith("ml64: 11 -> 2")
    # poly1305 weighs ($1>=10)+($1>=12); its IFMA path is never in a Win64 build
    assert gates["avx-poly1305"].split()[1:3] == ["1/3", "3/3"]
    assert gates["addx"].endswith("ml64: 11 -> 0; clang: 14.00 >= 3.03")
    assert "avx-poly1305: loses the AVX2 Poly1305 (avx2 yes): OpenSSL's rules stop at 1 < 2" in lines


def test_usage_and_unusable_toolchain(asmcap_bin):
    r = asmcap("legacy", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: asmcap legacy [--cc CMD] [--nasm CMD | --masm CMD]")
    r = asmcap("legacy", "--nasm", "nasm", "--masm", "ml64")
    assert r.returncode == 2 and "--nasm or --masm, not both" in r.stderr
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


# --- the OpenSSL 3.0 gate table ----------------------------------------------
GATES_HEAD = "gate          openssl  probe  generators: rules"
GATES_PL = pathlib.Path(__file__).with_name("openssl30_gates.pl")
GATES = ["addx", "avx", "avx-gcm", "avx-chacha", "avx-poly1305", "avx512ifma", "shaext"]


def gate_table(lines):
    """{gate: (openssl level, probe level, total)} and the lines after."""
    i = lines.index(GATES_HEAD)
    rows = lines[i + 1:i + 1 + len(GATES)]
    assert [r.split()[0] for r in rows] == GATES, rows
    table = {}
    for r in rows:
        name, ours, probe = r.split()[:3]
        (o, n), (p, m) = ours.split("/"), probe.split("/")
        assert n == m
        table[name] = (int(o), int(p), int(n))
    return table, lines[i + 1 + len(GATES):]


def texts(cc, nasm=None, ml64=None):
    def out(cmd):
        p = subprocess.run(cmd, capture_output=True, text=True)
        return p.stdout + p.stderr
    return "\0".join([out([cc, "-Wa,-v", "-c", "-o", "/dev/null", "-x", "assembler", "/dev/null"]),
                      out([cc, "-v"]), out([nasm, "-v"]) if nasm else "", out([ml64]) if ml64 else ""])


def perl_gates(cc, nasm=None, ml64=None):
    r = subprocess.run(["perl", str(GATES_PL)], input=texts(cc, nasm, ml64), capture_output=True, text=True,
                       check=True)
    return {g: int(v) for g, v in (l.split() for l in r.stdout.splitlines())}


CLANG_CAP = ("and its clang rule ($2>=3.0)+($2>3.0) can never reach {}")
TOOLCHAINS = [(str(FAKES / f), None) for f in (
    "legacy-gcc-gas240", "legacy-clang9", "legacy-clang10", "legacy-debian-clang14",
    "legacy-apple-clang10", "legacy-apple-clang4", "legacy-gas222")] + [
    (str(FAKES / "legacy-debian-clang14"), str(FAKES / "legacy-nasm209")),
    ("gcc-12", None), ("clang-14", None), ("clang-19", None)]


@pytest.mark.parametrize("cc, nasm", TOOLCHAINS, ids=lambda x: pathlib.Path(x).name if x else "-")
def test_gate_table_agrees_with_perl(asmcap_bin, cc, nasm):
    need_tool(pathlib.Path(cc).name if "/" not in cc else "perl")
    lines = legacy("--cc", cc, *(["--nasm", nasm] if nasm else []))
    table, why = gate_table(lines)
    assert {g: v[0] for g, v in table.items()} == perl_gates(cc, nasm)
    # one line per code path lost (probe above OpenSSL) or wrongly emitted
    lost = [(g, l) for g, (o, p, n) in table.items() for l in range(o + 1, p + 1)]
    bad = [(g, l) for g, (o, p, n) in table.items() if g != "shaext" for l in range(p + 1, o + 1)]
    assert len(why) == len(lost) + len(bad), why
    for g, _ in lost:
        assert any(w.startswith(f"{g}: loses the ") for w in why), (g, why)
    for g, _ in bad:
        assert any(w.startswith(f"{g}: emits the ") and "the assembler rejects" in w for w in why), (g, why)


@pytest.mark.parametrize("cc", ["clang-14", "clang-19", str(FAKES / "legacy-clang10")])
def test_clang_loses_avx512_chacha_and_poly1305(asmcap_bin, cc):
    """OpenSSL 3.0's chacha/poly1305 clang rule stops at $avx=2: every clang
    build loses the AVX-512 ChaCha20 and the AVX-512/IFMA Poly1305, which
    the same clang assembles (probe: yes)."""
    if "/" not in cc:
        need_tool(cc)
    table, why = gate_table(legacy("--cc", cc))
    assert table["avx-chacha"] == (2, 3, 3) and table["avx-poly1305"] == (2, 4, 4)
    assert ("avx-chacha: loses the AVX-512 ChaCha20 (avx512f yes, avx512vl yes): OpenSSL's rules stop "
            "at 2 < 3, " + CLANG_CAP.format(3)) in why
    assert ("avx-poly1305: loses the IFMA (base 2^44) Poly1305 (avx512ifma yes, avx512vl yes): "
            "OpenSSL's rules stop at 2 < 4, " + CLANG_CAP.format(4)) in why
    # the common family's two levels are all clang can reach, and all it needs
    assert table["avx"] == (2, 2, 2) and table["addx"] == (1, 1, 1)


def test_gcc_loses_nothing(asmcap_bin):
    need_tool("gcc-12")
    table, why = gate_table(legacy("--cc", "gcc-12"))
    assert why == []
    assert table == {"addx": (1, 1, 1), "avx": (2, 2, 2), "avx-gcm": (2, 2, 2), "avx-chacha": (3, 3, 3),
                     "avx-poly1305": (4, 4, 4), "avx512ifma": (1, 1, 1), "shaext": (1, 1, 1)}


def test_gates_clang_over_old_gnu_as(asmcap_bin):
    """rsaz-avx512's clang rule runs even after the GNU as rule (it tests an
    unset variable), and $addx's clang rule judges the compiler: both emit
    what an assembler that rejects ADX would choke on; the probe says no."""
    table, why = gate_table(legacy("--cc", FAKES / "legacy-gas222"))
    assert table["addx"] == (1, 0, 1)
    assert any(w.startswith("addx: emits the ADCX/ADOX+MULX code the assembler rejects (adx no, bmi2 yes)")
               for w in why), why


GCC = "gcc version 12.2.0 (Debian 12.2.0-14)"
GAS = "GNU assembler version {} (x86_64-linux-gnu) using BFD version (GNU Binutils) {}"
BANNERS = (
    [(GCC, GAS.format(v, v), None) for v in
     ("2.18", "2.19", "2.20", "2.21", "2.22", "2.23", "2.24", "2.25", "2.26", "2.30")] +
    [(cc, None, None) for cc in (
        "clang version 3.0 (tags/RELEASE_30/final)", "clang version 3.2", "clang version 3.3",
        "clang version 6.0.1", "clang version 7.0.0",
        "Apple LLVM version 10.0.0 (clang-1000.11.45.5)", "Apple LLVM version 10.0.1 (clang-1001.0.46.4)",
        "Ubuntu clang version 3.4-1ubuntu3 (tags/RELEASE_34/final) (based on LLVM 3.4)")] +
    [(GCC, None, f"NASM version {v} compiled on Jan  1 2020") for v in
     ("2.08.02", "2.09.10", "2.10.07", "2.11.06", "2.11.08", "2.12.01", "2.16.01")])


@pytest.mark.parametrize("cc_banner, as_banner, nasm_banner", BANNERS)
def test_gate_thresholds_agree_with_perl(asmcap_bin, monkeypatch, cc_banner, as_banner, nasm_banner):
    """Each threshold of each gate, from just below to just above, against
    the Perl rules."""
    monkeypatch.setenv("LEGACY_CC_BANNER", cc_banner)
    if as_banner:
        monkeypatch.setenv("LEGACY_AS_BANNER", as_banner)
    else:
        monkeypatch.delenv("LEGACY_AS_BANNER", raising=False)
    monkeypatch.setenv("LEGACY_NASM_BANNER", nasm_banner or "")
    cc, nasm = str(FAKES / "legacy-banner"), str(FAKES / "legacy-nasm-banner") if nasm_banner else None
    table, _ = gate_table(legacy("--cc", cc, *(["--nasm", nasm] if nasm else [])))
    assert {g: v[0] for g, v in table.items()} == perl_gates(cc, nasm)


ML64_BANNER = "Microsoft (R) Macro Assembler (x64) Version {}"


@pytest.mark.tools("/usr/lib/llvm-19/bin/llvm-ml")
@pytest.mark.parametrize("banner", [ML64_BANNER.format(v) for v in
                                    ("9.00.30729.01", "10.00.40219.01", "11.00.61030.0",
                                     "12.00.21005.1", "14.29.30133.0")] +
                         ["USAGE: llvm-ml [ /options ] file"])      # no match: llvm-ml's own
def test_ml64_thresholds_agree_with_perl(asmcap_bin, monkeypatch, banner):
    """The ml64 rules (addx 12; avx, ghash, chacha 10 and 11; poly1305 10
    and 12) from below to above each threshold, against the Perl rules."""
    monkeypatch.setenv("LEGACY_CC_BANNER", "clang version 3.0 (tags/RELEASE_30/final)")
    monkeypatch.delenv("LEGACY_AS_BANNER", raising=False)
    monkeypatch.setenv("LEGACY_ML64_BANNER", banner)
    cc, ml64 = str(FAKES / "legacy-banner"), str(FAKES / "legacy-ml64-banner")
    table, _ = gate_table(legacy("--cc", cc, "--masm", ml64))
    assert {g: v[0] for g, v in table.items()} == perl_gates(cc, ml64=ml64)


def test_control_characters_from_cc_v_are_escaped(asmcap_bin, monkeypatch):
    """`cc -v` text is the toolchain's, not ours: a terminal escape or a
    carriage return in it is shown escaped, as the probe's text output
    shows toolchain text, never sent to the terminal."""
    monkeypatch.setenv("LEGACY_CC_BANNER", "\x1b]0;owned\x07clang version 14.0.6\r\x1b[2J")
    monkeypatch.delenv("LEGACY_AS_BANNER", raising=False)
    monkeypatch.setenv("LEGACY_NASM_BANNER", "")
    out = "\n".join(legacy("--cc", str(FAKES / "legacy-banner")))
    assert not any(c in out for c in "\x1b\x07\r"), repr(out)
    assert "cc -v: \\x1b]0;owned\\x07clang version 14.0.6\\x0d\\x1b[2J" in out
    assert 'which begins "\\x1b]0;owned\\x07clang version 14.0.6' in out
