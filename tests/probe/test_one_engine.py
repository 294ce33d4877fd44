# SPDX-License-Identifier: MIT
"""The assembler probe, cc-probe and cc-flag share one engine: one rule for
a toolchain that fails now and then (probe/engine/retry.c), and one cache
file format whose entries carry a payload of their kind's own."""
import json
import re

from conftest import FAKES, asmcap
from test_hostile import fnv_entry as fnv      # the entry checksum, as a writer computes it

DROP = str(FAKES / "drop-text")
PROBE_TRIES = 3         # probe/engine/retry.h

# One question of each kind whose answer is `yes' from gcc (x86_64), with no
# `requires:' or `enable:' that would add runs of their own.
KINDS = {
    "probe": (["--features", "aesni"], "aesni"),
    "cc-probe": (["cc-probe", "--features", "bmi2-intrinsic"], "bmi2-intrinsic"),
}


def status_and_runs(kind, every, tmp_path):
    """The answer through drop-text (every `every'-th successful run loses
    its .text), and the runs the wrapper saw."""
    args, name = KINDS[kind]
    counter = tmp_path / f"{kind}-{every}"
    r = asmcap(*args, "--cc", f"{DROP} gcc", "--jobs", "1", "--format", "json",
               env={"DROP_COUNTER": str(counter), "DROP_EVERY": str(every)})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"][name]["status"], counter.read_text()


def test_a_broken_answer_is_confirmed_by_one_rule_for_every_kind(tmp_path):
    """A wrapper that loses the code of every object gives a consistent
    `broken'.  Before it stands, each later round (PROBE_TRIES in all) runs
    a passing control and then the answer alone twice, one run after the
    other: the same runs for a snippet as for a C probe."""
    extra = {}
    for kind in KINDS:
        clean, runs_clean = status_and_runs(kind, 10 ** 6, tmp_path)
        broken, runs_broken = status_and_runs(kind, 1, tmp_path)
        assert (clean, broken) == ("yes", "broken"), kind
        assert set(runs_clean) == {"r"} and set(runs_broken) == {"d"}
        extra[kind] = len(runs_broken) - len(runs_clean)
    assert extra == {kind: (PROBE_TRIES - 1) * (1 + 2) for kind in KINDS}


def entries(text):
    """Each entry's lines, from `entry' to `end'."""
    found, cur = [], None
    for line in text.split("\n"):
        if line.startswith("entry\t"):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if line == "end":
                found.append(cur)
                cur = None
    return found


def kind_runs(cc, cache):
    """One command of each kind on one --cache file."""
    return {"probe": ["--cc", cc, "--features", "aesni", "--cache", cache],
            "cc-probe": ["cc-probe", "--cc", cc, "--features", "bmi2-intrinsic", "--cache", cache],
            "cc-flag": ["cc-flag", "--cc", cc, "--cache", cache, "--", "-O2"]}


def switchable(tmp_path):
    """gcc, or with FAIL set a compiler that fails at once: then only a
    cache hit can answer."""
    cc = tmp_path / "cc"
    cc.write_text('#!/bin/sh\n[ -n "$FAIL" ] && exit 1\nexec gcc "$@"\n')
    cc.chmod(0o755)
    return cc


def test_one_cache_file_holds_every_kind_in_one_format(tmp_path):
    cache, cc = tmp_path / "cache", switchable(tmp_path)
    first = {}
    for kind, args in kind_runs(cc, cache).items():
        r = asmcap(*args)
        assert r.returncode == 0, (kind, r.stderr)
        first[kind] = r.stdout
    text = cache.read_text()
    assert text.startswith("asmcap-cache 4\n") and text.count("asmcap-cache") == 1
    got = entries(text)
    assert sorted(e[1] for e in got) == ["kind\tcc-flag", "kind\tcc-probe", "kind\tprobe"]
    for e in got:
        # the same frame for every kind: key, kind, words, stamps, payload, sum
        assert e[2].startswith("word\t") and e[-1] == "end", e[:3]
        assert e[-2] == "sum\t%016x" % fnv(e[:-2]), e[1]
        assert any(line.startswith("dep\t") for line in e), e[1]
    # every kind answers from its entry: the compiler now fails at once
    for kind, args in kind_runs(cc, cache).items():
        r = asmcap(*args, env={"FAIL": "1"})
        assert r.returncode == 0 and r.stdout == first[kind], (kind, r.stderr)


def test_an_entry_of_another_kind_is_a_miss(tmp_path):
    cache, cc = tmp_path / "cache", switchable(tmp_path)
    args = kind_runs(cc, cache)["cc-probe"]
    assert asmcap(*args).returncode == 0
    lines = cache.read_text().split("\n")
    e = next(i for i, line in enumerate(lines) if line.startswith("entry\t"))
    s = next(i for i, line in enumerate(lines) if line.startswith("sum\t"))
    assert lines[e + 1] == "kind\tcc-probe"
    lines[e + 1] = "kind\tprobe"
    lines[s] = "sum\t%016x" % fnv(lines[e:s])
    cache.write_text("\n".join(lines))
    r = asmcap(*args, env={"FAIL": "1"})
    assert r.returncode == 3 and "toolchain unusable" in r.stderr, r.stderr


def test_a_cache_of_an_older_format_is_ignored_without_error(tmp_path):
    cache, cc = tmp_path / "cache", switchable(tmp_path)
    args = kind_runs(cc, cache)["probe"]
    assert asmcap(*args).returncode == 0
    old = re.sub(r"\Aasmcap-cache 4\n", "asmcap-cache 3\n", cache.read_text())
    old = re.sub(r"^kind\t[^\n]*\n", "", old, flags=re.M)       # 3 had no kind line
    cache.write_text(old)
    assert asmcap(*args, env={"FAIL": "1"}).returncode == 3     # nothing in it is read
    r = asmcap(*args, env={"ASMCAP_STATS": "1"})
    # no error and no warning: the stats line alone
    assert r.returncode == 0 and len(r.stderr.splitlines()) == 1 and "cached=0" in r.stderr, r.stderr
    new = cache.read_text()
    assert new.startswith("asmcap-cache 4\n") and len(entries(new)) == 1


# gcc's answers, from its documentation: -Wall and -O2 are options;
# -fbogus and -Wfrobnicate (how -Wno-frobnicate is tried) are not
GCC_FLAGS = {"-Wall": "yes", "-fbogus": "no", "-O2": "yes", "-Wno-frobnicate": "no"}
FLAKY = str(FAKES / "flaky-launcher")


def test_cc_flag_follows_the_same_rule_through_a_flaky_launcher(tmp_path):
    """A launcher that fails at random (30%) never turns a flag into `no':
    its failure names no flag, so it is run again around passing controls
    like a snippet or a C probe; the answer is gcc's, or exit 3."""
    answered_through_failures = 0
    for seed in range(8):
        counter = tmp_path / f"count{seed}"
        r = asmcap("cc-flag", "--cc", f"{FLAKY} gcc", "--format", "sh", "--", *GCC_FLAGS,
                   env={"FLAKY_SEED": str(seed), "FLAKY_COUNTER": str(counter)})
        if r.returncode == 3:
            assert len(r.stderr.splitlines()) == 1 and "Connection refused" in r.stderr, r.stderr
            continue
        assert r.returncode == 0, r.stderr
        got = dict(l.split("=", 1) for l in r.stdout.splitlines() if l and not l.startswith("#"))
        assert got == {"ASMCAP_CFLAG_" + f.lstrip("-").upper().replace("-", "_"): v
                       for f, v in GCC_FLAGS.items()}, (seed, counter.read_text())
        answered_through_failures += "f" in counter.read_text()
    assert answered_through_failures >= 2        # the seeds do meet failures


def test_cc_flag_with_a_launcher_that_always_fails_is_exit_3(tmp_path):
    counter = tmp_path / "count"
    r = asmcap("cc-flag", "--cc", f"{FLAKY} gcc", "--", "-Wall",
               env={"FLAKY_COUNTER": str(counter), "FLAKY_RATE": "1"})
    assert r.returncode == 3 and r.stdout == "" and len(r.stderr.splitlines()) == 1
    assert "toolchain unusable" in r.stderr and "Connection refused" in r.stderr
    assert counter.read_text() == "f" * PROBE_TRIES      # the control, PROBE_TRIES times
