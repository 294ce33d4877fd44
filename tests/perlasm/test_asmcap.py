# SPDX-License-Identifier: MIT
"""perlasm/Asmcap.pm: loading caps files, has()/status()/build(), and the
errors for missing, malformed and inconsistent files."""
import json
import os
import subprocess

import pytest

from conftest import ASMCAP, BUILD, ROOT, built


def caps_doc(features=None, build=None, **top):
    doc = {"schema": 1, "asmcap": {"version": "0.1.0", "catalog": "t"},
           "toolchain": {"way": "cc", "argv": ["gcc"], "arch": "x86_64",
                         "format": "elf64", "flavour": "elf"},
           "build": {"cet_ibt": False, "cet_shstk": False, "pic": 2, "ilp32": False,
                     "apple": False, "win64": False},
           "features": {"bmi2": {"status": "yes"},
                        "adx": {"status": "yes", "requires": ["bmi2"]}}}
    if features is not None:
        doc["features"] = features
    if build:
        doc["build"].update(build)
    doc.update(top)
    return doc


def perl(code, caps_path):
    """Run CODE with $c = Asmcap->load(caps_path); returns CompletedProcess."""
    prog = f"use Asmcap; my $c = Asmcap->load($ARGV[0]); {code}"
    return subprocess.run(["perl", f"-I{ROOT / 'perlasm'}", "-e", prog, str(caps_path)],
                          capture_output=True, text=True, timeout=60)


def write(tmp_path, doc):
    p = tmp_path / "caps.json"
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return p


def test_has_needs_status_yes_and_requirements(tmp_path):
    f = write(tmp_path, caps_doc())
    r = perl("print join(' ', map { $c->has($_) } qw(adx bmi2))", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "1 1"


@pytest.mark.parametrize("bmi2", ["no", "broken", "skipped", "disabled", "unprobed"])
def test_has_false_when_a_requirement_is_not_yes(tmp_path, bmi2):
    doc = caps_doc(features={"bmi2": {"status": bmi2},
                             "adx": {"status": "yes", "requires": ["bmi2"]}})
    r = perl("print $c->has('adx'), ' ', $c->status('adx'), ' ', $c->status('bmi2')",
             write(tmp_path, doc))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"0 yes {bmi2}"


def test_requires_chain_is_followed_recursively(tmp_path):
    feats = {"a": {"status": "yes", "requires": ["b"]},
             "b": {"status": "yes", "requires": ["c", "d"]},
             "c": {"status": "yes"}, "d": {"status": "yes", "requires": ["c"]}}
    f = write(tmp_path, caps_doc(features=feats))
    assert perl("print map { $c->has($_) } qw(a b c d)", f).stdout == "1111"
    feats["c"]["status"] = "broken"
    f = write(tmp_path, caps_doc(features=feats))
    assert perl("print map { $c->has($_) } qw(a b c d)", f).stdout == "0000"


def test_has_agrees_with_the_probe_on_a_transitive_chain(tmp_path):
    """ASMCAP_DISABLE=avx2: avx512f assembles, but avx512ifma -> avx512f ->
    avx2 is not usable; has() and the file's "usable" agree with sh."""
    env = dict(os.environ, ASMCAP_DISABLE="avx2")
    out = subprocess.run([str(ASMCAP), "--cc", "gcc", "--features", "avx512ifma", "--format", "json"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    f = write(tmp_path, out.stdout)
    r = perl("print join(',', map { $c->has($_) } qw(avx512ifma avx512f avx2 avx))", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "0,0,0,1"
    feats = json.loads(out.stdout)["features"]
    assert [feats[n]["usable"] for n in ("avx512ifma", "avx512f", "avx2", "avx")] == [False, False, False, True]


def test_has_follows_an_edited_status_and_checks_usable(tmp_path):
    doc = caps_doc(features={"bmi2": {"status": "no", "usable": True},
                             "adx": {"status": "yes", "requires": ["bmi2"], "usable": True}})
    r = perl("print $c->has('adx'), $c->has('bmi2')", write(tmp_path, doc))
    assert r.returncode == 0 and r.stdout == "00", r.stderr
    doc["features"]["adx"]["usable"] = "yes"
    r = perl("print $c->has('adx')", write(tmp_path, doc))
    assert r.returncode != 0 and '"usable" is not true or false' in r.stderr


def test_requires_loop_dies(tmp_path):
    feats = {"a": {"status": "yes", "requires": ["b"]}, "b": {"status": "yes", "requires": ["a"]}}
    r = perl("print $c->has('a')", write(tmp_path, caps_doc(features=feats)))
    assert r.returncode != 0
    assert "loop" in r.stderr and "a -> b -> a" in r.stderr


def test_unknown_feature_dies_naming_it(tmp_path):
    r = perl("print $c->has('adxx')", write(tmp_path, caps_doc()))
    assert r.returncode != 0
    assert '"adxx"' in r.stderr and "caps.json" in r.stderr and "adx bmi2" in r.stderr
    r = perl("print $c->known('adxx'), $c->known('adx')", write(tmp_path, caps_doc()))
    assert r.stdout == "01"


def test_another_architectures_feature_is_skipped(tmp_path):
    """sha3 is in the catalog for aarch64 only: asked of an x86_64 file (which
    does not list it) it is skipped, has() 0, not a death; asked of an
    aarch64 file that lacks it (a stale file) it still dies."""
    f = write(tmp_path, caps_doc())
    r = perl("print $c->has('sha3'), ' ', $c->status('sha3'), ' ', $c->has_flags('sha3'), ' ', $c->known('sha3')", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "0 skipped 0 0"
    doc = caps_doc()
    doc["toolchain"]["arch"] = "aarch64"
    r = perl("print $c->has('sha3')", write(tmp_path, doc))
    assert r.returncode != 0 and '"sha3" is not in' in r.stderr


def test_build_section(tmp_path):
    f = write(tmp_path, caps_doc(build={"cet_ibt": True, "pic": 1}))
    r = perl("print join(' ', map { $c->build($_) } qw(cet_ibt cet_shstk pic ilp32 win64)),"
             " ' ', $c->flavour, ' ', $c->format, ' ', $c->arch", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "1 0 1 0 0 elf elf64 x86_64"
    r = perl("print $c->build('cet')", f)
    assert r.returncode != 0 and '"cet"' in r.stderr and "cet_ibt" in r.stderr


def test_missing_file_names_file_and_fix(tmp_path):
    missing = tmp_path / "nope.json"
    r = perl("", missing)
    assert r.returncode != 0
    # the fix is the user's own command, naming their file (not this tree's `make caps`)
    assert f'asmcap --cc "$CC" --cflags "$CFLAGS" --format json -o {missing}' in r.stderr
    assert "make caps" not in r.stderr


@pytest.mark.parametrize("text, why", [
    ("{\"schema\": 1, ", "not valid JSON"),
    ("", "not valid JSON"),
    ("[1, 2]", "not a JSON object"),
    ("{\"features\": {}}", "no \"schema\""),
])
def test_malformed_file_dies_with_fix(tmp_path, text, why):
    f = write(tmp_path, text)
    r = perl("", f)
    assert r.returncode != 0
    assert why in r.stderr and f"regenerate it: asmcap --cc" in r.stderr and f"-o {f}" in r.stderr


@pytest.mark.parametrize("mutate, why", [
    (lambda d: d.update(schema=2), "schema 2"),
    (lambda d: d.pop("build"), '"build" missing'),
    (lambda d: d["features"]["adx"].update(status="maybe"), 'status "maybe"'),
    (lambda d: d["features"]["adx"].pop("status"), "status (none)"),
    (lambda d: d["features"]["adx"].update(requires=["avx9"]), 'requires "avx9"'),
    (lambda d: d["features"]["adx"].update(requires="bmi2"), "not a list"),
])
def test_wrong_schema_dies(tmp_path, mutate, why):
    doc = caps_doc()
    mutate(doc)
    f = write(tmp_path, doc)
    r = perl("", f)
    assert r.returncode != 0
    assert why in r.stderr and f"regenerate it: asmcap --cc" in r.stderr and f"-o {f}" in r.stderr


def test_real_caps_file_agrees_with_its_statuses():
    """build/caps.json as the probe wrote it: has() is status yes with every
    requirement (recursively) yes, computed here independently."""
    path = built(BUILD / "caps.json")
    doc = json.loads(path.read_text())
    feats = doc["features"]

    def has(name):
        f = feats[name]
        return f["status"] == "yes" and all(has(r) for r in f.get("requires", []))

    names = sorted(feats)
    assert names, "caps file lists no features"
    r = subprocess.run(["perl", f"-I{ROOT / 'perlasm'}", "-e",
                        "use Asmcap; my $c = Asmcap->load(shift); print join(' ', map { $c->has($_) } @ARGV)",
                        str(path), *names], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(int(has(n))) for n in names]


def test_has_decides_each_feature_once(tmp_path):
    # l_i requires l_(i-1) and l_(i-2): walked without memory that is
    # ~1.6 million lookups for 30 features; each feature once is 30.
    feats = {f"l{i}": {"status": "yes", "requires": [f"l{j}" for j in (i - 1, i - 2) if j >= 0]}
             for i in range(30)}
    code = ("my $n = 0; my $orig = \\&Asmcap::_feature; no warnings 'redefine'; "
            "local *Asmcap::_feature = sub { $n++; $orig->(@_) }; "
            "print $c->has('l29'), ' ', $n")
    r = perl(code, write(tmp_path, caps_doc(features=feats)))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "1 30"


def test_level_counts_the_leading_steps_whose_features_all_hold(tmp_path):
    """level() is OpenSSL's $avx: a step counts only when it and every step
    before it hold; a step of 'a+b' needs both."""
    feats = {"avx": {"status": "yes"}, "xop": {"status": "no"},
             "avx2": {"status": "yes", "requires": ["avx"]},
             "avx512f": {"status": "yes", "requires": ["avx2"]},
             "avx512vl": {"status": "broken", "requires": ["avx512f"]}}
    f = write(tmp_path, caps_doc(features=feats))
    r = perl("print join(',', $c->level(qw(avx avx2 avx512f)), $c->level(qw(avx avx2 avx512f+avx512vl)),"
             " $c->level(qw(avx+xop avx2)), $c->level(qw(avx512vl avx)), $c->level())", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3,2,0,0,0"


def test_level_names_an_unknown_feature(tmp_path):
    r = perl("print $c->level(qw(adx adx+avx9))", write(tmp_path, caps_doc()))
    assert r.returncode != 0
    assert 'feature "avx9" is not in' in r.stderr
