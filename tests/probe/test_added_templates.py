# SPDX-License-Identifier: MIT
"""--add-templates / ASMCAP_ADD_TEMPLATES: a user's features added to the
built-in catalog, or replacing one of its features by name, probed with real
gcc; bad added files named with their line; the cache keyed on their text."""
import json

import pytest

from conftest import asmcap

LFENCE = "# feature: mytest\n# summary: a user's feature\n# expect: {}\n\tlfence\n"


def write(d, rel, text):
    p = d / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def probe(*args, env=None):
    r = asmcap("--cc", "gcc", "--format", "json", *args, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"]


@pytest.mark.parametrize("expect, status", [("0f ae e8", "yes"), ("0f ae f0", "broken")])
def test_added_feature_is_probed_like_a_catalog_one(asmcap_bin, tmp_path, expect, status):
    write(tmp_path, "x86_64/mytest.s", LFENCE.format(expect))
    f = probe("--add-templates", tmp_path, "--features", "mytest,adx")
    assert f["mytest"]["status"] == status and f["adx"]["status"] == "yes"
    # the environment way gives the same catalog
    f = probe("--features", "mytest", env={"ASMCAP_ADD_TEMPLATES": f"::{tmp_path}:"})
    assert f["mytest"]["status"] == status


def test_override_replaces_the_catalog_feature_whole(asmcap_bin, tmp_path):
    # adx redefined as lfence: the built-in snippet (and its requires: bmi2,
    # and its nasm body) are gone, the user's answers.
    write(tmp_path, "x86_64/adx.s", LFENCE.replace("mytest", "adx").format("0f ae f0"))
    f = probe("--add-templates", tmp_path, "--features", "adx")
    assert f["adx"]["status"] == "broken" and "0f ae e8" in f["adx"]["reason"].replace("0F AE E8", "0f ae e8")
    assert f["adx"].get("requires", []) == []
    r = asmcap("list", "--arch", "x86_64", "--add-templates", tmp_path)
    line = next(l for l in r.stdout.splitlines() if l.split()[:1] == ["adx"])
    assert f"[added: {tmp_path}/x86_64/adx.s]" in line
    assert "[added" not in next(l for l in r.stdout.splitlines() if l.split()[:1] == ["bmi2"])
    r = asmcap("explain", "adx", "--cc", "gcc", "--add-templates", tmp_path)
    assert r.stdout.startswith(f"feature:   adx ({tmp_path}/x86_64/adx.s)")
    assert "lfence" in r.stdout and "adcx" not in r.stdout


def test_later_directory_wins(asmcap_bin, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write(a, "x86_64/mytest.s", LFENCE.format("0f ae f0"))
    write(b, "x86_64/mytest.s", LFENCE.format("0f ae e8"))
    assert probe("--add-templates", a, "--add-templates", b, "--features", "mytest")["mytest"]["status"] == "yes"
    assert probe("--add-templates", b, "--add-templates", a, "--features", "mytest")["mytest"]["status"] == "broken"
    # the environment's directories come first, the options win
    f = probe("--add-templates", b, "--features", "mytest", env={"ASMCAP_ADD_TEMPLATES": str(a)})
    assert f["mytest"]["status"] == "yes"


@pytest.mark.parametrize("files, message", [
    ({"x86_64/bad.s": "# feature: bad\n# expect: 0f zz\n\tnop\n"},
     r"{d}/x86_64/bad.s:2: bad expect `0f zz'"),
    ({"x86_64/bad.s": "# feature: bad\n# expect: 90\n# requires: ghost\n\tnop\n"},
     r"{d}/x86_64/bad.s:3: requires unknown feature `ghost'"),
    ({"x86_64/bad.s": "# feature: other\n# expect: 90\n\tnop\n"},
     r"{d}/x86_64/bad.s:1: feature `other' does not match the file name `bad'"),
    ({"x86_64/adx.nasm": "adcx rax, rbx\n"},
     r"{d}/x86_64/adx.nasm:1: a .nasm file needs its .s beside it"),
    ({"mytest.s": LFENCE.format("0f ae e8")},
     r"{d}/mytest.s: added templates go in an architecture folder ({d}/x86_64/mytest.s)"),
    ({"x86_64/ADX.s": "# feature: ADX\n# expect: 90\n\tnop\n"},
     r"templates/x86_64/adx.s:1: feature `adx' and {d}/x86_64/ADX.s both become ASMCAP_ADX"),
])
def test_bad_added_file_is_named(asmcap_bin, tmp_path, files, message):
    for rel, text in files.items():
        write(tmp_path, rel, text)
    for args in (("--cc", "gcc", "--features", "adx"), ("list",), ("explain", "adx", "--cc", "gcc")):
        r = asmcap(*args, "--add-templates", tmp_path)
        assert r.returncode == 2, r.stdout
        assert message.format(d=tmp_path) in r.stderr, r.stderr


def test_missing_directory_is_an_error(asmcap_bin, tmp_path):
    r = asmcap("list", "--add-templates", tmp_path / "nope")
    assert r.returncode == 2
    assert f"added templates directory {tmp_path}/nope: No such file or directory" in r.stderr
    r = asmcap("list", env={"ASMCAP_ADD_TEMPLATES": str(tmp_path / "nope")})
    assert r.returncode == 2 and f"{tmp_path}/nope" in r.stderr


def test_directory_for_another_architecture_only(asmcap_bin, tmp_path):
    # an added aarch64 feature: the x86_64 catalog is untouched, probing works
    write(tmp_path, "aarch64/mine.s", "# feature: mine\n# expect: 1f 20 03 d5\n\tnop\n")
    f = probe("--add-templates", tmp_path, "--features", "adx")
    assert f["adx"]["status"] == "yes"
    r = asmcap("list", "--arch", "aarch64", "--add-templates", tmp_path)
    assert r.returncode == 0 and "mine" in r.stdout


def stats(r):
    line = next(l for l in r.stderr.splitlines() if l.startswith("asmcap: stats:"))
    return dict(kv.split("=") for kv in line.split()[2:])


def test_cache_key_covers_added_text(asmcap_bin, tmp_path):
    d = tmp_path / "t"
    p = write(d, "x86_64/mytest.s", LFENCE.format("0f ae e8"))
    cache = tmp_path / "c.cache"

    def run():
        r = asmcap("--cc", "gcc", "--add-templates", d, "--features", "mytest", "--cache", cache,
                   "--format", "sh", env={"ASMCAP_STATS": "1"})
        assert r.returncode == 0, r.stderr
        return "ASMCAP_MYTEST=yes" in r.stdout, stats(r)["cached"]

    assert run() == (True, "0")
    assert run() == (True, "1")           # unchanged: a hit
    p.write_text(LFENCE.format("0f ae f0"))
    assert run() == (False, "0")          # edited: re-probed, not the stale yes
    p.write_text(LFENCE.format("0f ae e8"))
    assert run() == (True, "1")           # back: the first entry is still valid


def test_override_takes_the_nasm_body_with_it(asmcap_bin, tmp_path):
    """The catalog's adx.nasm (adcx) must not stay paired with a user's adx.s:
    without the user's own .nasm, nasm has no form of it; with it, the
    user's body is what nasm assembles."""
    write(tmp_path, "x86_64/adx.s", LFENCE.replace("mytest", "adx").format("0f ae e8"))
    r = asmcap("--nasm", "nasm", "--add-templates", tmp_path, "--features", "adx", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["features"]["adx"]["status"] == "skipped"
    write(tmp_path, "x86_64/adx.nasm", "\tlfence\n")
    r = asmcap("--nasm", "nasm", "--add-templates", tmp_path, "--features", "adx", "--format", "json")
    assert json.loads(r.stdout)["features"]["adx"]["status"] == "yes"
