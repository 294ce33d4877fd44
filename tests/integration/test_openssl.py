# SPDX-License-Identifier: MIT
"""integrations/openssl: the blocks its patches add to OpenSSL's x86_64
generators, run on caps files whose verdicts are set here, and the errors
of asmcap-openssl. (ci/peers builds real OpenSSL trees with them.)"""
import json
import os
import re
import subprocess

import pytest

from conftest import ROOT, asmcap

OSSL = ROOT / "integrations" / "openssl"
PATCHES = sorted(OSSL.glob("openssl-*.patch"))


def blocks(patch):
    """{generator: the lines the patch adds to it}."""
    out, name = {}, None
    for line in patch.read_text().splitlines():
        if line.startswith("+++ b/"):
            name = line[len("+++ b/"):]
            out[name] = []
        elif line.startswith("+") and name:
            out[name].append(line[1:])
    return out


@pytest.fixture(scope="module")
def caps_all_yes(tmp_path_factory):
    """A real x86_64 probe, every feature then set to yes."""
    p = tmp_path_factory.mktemp("ossl") / "caps.json"
    r = asmcap("--cc", "cc", "--format", "json", "-o", str(p))
    assert r.returncode == 0, r.stderr
    doc = json.loads(p.read_text())
    for f in doc["features"].values():
        f["status"] = "yes"
    p.write_text(json.dumps(doc))
    return doc


def decide(tmp_path, doc, code, statuses=None, caps=True):
    """Run one block with the gate variables preset to 9 (the stock rule's
    answer), return {variable: value} after it."""
    doc = json.loads(json.dumps(doc))
    for k, v in (statuses or {}).items():
        doc["features"][k]["status"] = v
    f = tmp_path / "caps.json"
    f.write_text(json.dumps(doc))
    names = sorted(set(re.findall(r"^\s*\$(\w+) =", "\n".join(code), re.M)))
    prog = ("no strict; " + "".join(f"${n} = 9; " for n in names) + "\n".join(code)
            + "\nprint join(',', map { \"$_=\" . ${$_} } qw(" + " ".join(names) + "));")
    env = dict(os.environ, PERL5LIB=str(ROOT / "perlasm"))
    env.pop("ASMCAP_CAPS", None)
    if caps:
        env["ASMCAP_CAPS"] = str(f)
    r = subprocess.run(["perl", "-e", prog], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return dict(kv.split("=") for kv in r.stdout.split(","))


# What each generator's comments and `if ($avx>N)` blocks say the top
# level is (OpenSSL 3.0 and 4.0 alike where the file exists).
TOP = {"crypto/chacha/asm/chacha-x86_64.pl": {"avx": "3"},
       "crypto/poly1305/asm/poly1305-x86_64.pl": {"avx": "4"},
       "crypto/bn/asm/x86_64-mont.pl": {"addx": "1"},
       "crypto/bn/asm/rsaz-avx2.pl": {"avx": "2", "addx": "1"},
       "crypto/ec/asm/ecp_nistz256-x86_64.pl": {"avx": "2", "addx": "1"},
       "crypto/sha/asm/sha512-x86_64.pl": {"avx": "2"},
       "crypto/modes/asm/aesni-gcm-x86_64.pl": {"avx": "2"},
       "crypto/aes/asm/aesni-sha256-x86_64.pl": {"avx": "2", "shaext": "1"},
       "crypto/modes/asm/ghash-x86_64.pl": {"avx": "1"}}


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_every_block_reaches_the_top_level_when_everything_assembles(tmp_path, caps_all_yes, patch):
    bl = blocks(patch)
    assert len(bl) >= 18
    for gen, code in bl.items():
        got = decide(tmp_path, caps_all_yes, code)
        assert all(v != "9" and int(v) >= 1 for v in got.values()), (gen, got)
        for var, want in TOP.get(gen, {}).items():
            assert got[var] == want, (gen, got)


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_avx512_levels_follow_the_verdicts(tmp_path, caps_all_yes, patch):
    bl = blocks(patch)
    chacha = bl["crypto/chacha/asm/chacha-x86_64.pl"]
    poly = bl["crypto/poly1305/asm/poly1305-x86_64.pl"]
    assert decide(tmp_path, caps_all_yes, chacha, {"avx512vl": "broken"}) == {"avx": "2"}
    assert decide(tmp_path, caps_all_yes, poly, {"avx512vl": "broken"}) == {"avx": "2"}
    assert decide(tmp_path, caps_all_yes, poly, {"avx512ifma": "no"}) == {"avx": "3"}
    # the 4xXOP code sits in level 1: an assembler without XOP gets none above
    assert decide(tmp_path, caps_all_yes, chacha, {"xop": "no"}) == {"avx": "0"}
    mont = bl["crypto/bn/asm/x86_64-mont.pl"]
    assert decide(tmp_path, caps_all_yes, mont, {"bmi2": "no"}) == {"addx": "0"}


def test_without_caps_the_stock_rule_stands(tmp_path, caps_all_yes):
    for patch in PATCHES:
        for gen, code in blocks(patch).items():
            got = decide(tmp_path, caps_all_yes, code, caps=False)
            assert set(got.values()) == {"9"}, (gen, got)


def run_script(*args):
    return subprocess.run([str(OSSL / "asmcap-openssl"), *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_script_refuses_a_tree_that_is_not_openssl(tmp_path):
    r = run_script("--cc", "cc", tmp_path)
    assert r.returncode == 1
    assert f"{tmp_path}: no VERSION.dat" in r.stderr


def test_script_names_the_releases_it_has_patches_for(tmp_path):
    (tmp_path / "VERSION.dat").write_text("MAJOR=9\nMINOR=1\nPATCH=0\n")
    r = run_script("--cc", "cc", tmp_path)
    assert r.returncode == 1
    assert "is OpenSSL 9.1; there is a patch for: 3.0 4.0" in r.stderr


def test_script_fails_on_a_tree_the_patch_does_not_fit(tmp_path):
    (tmp_path / "VERSION.dat").write_text("MAJOR=3\nMINOR=0\nPATCH=20\n")
    r = run_script("--cc", "cc", tmp_path)
    assert r.returncode == 1
    assert "openssl-3.0.patch does not apply to" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["VERSION.dat"]


def test_script_usage_errors(tmp_path):
    assert run_script().returncode == 2
    assert run_script("--cc").returncode == 2
    r = run_script("--bogus", tmp_path)
    assert r.returncode == 2 and "unknown option '--bogus'" in r.stderr
