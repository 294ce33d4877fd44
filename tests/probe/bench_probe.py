#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make bench-probe: how fast the probe is, against a bare `$CC -c` of an
empty file (the floor), the autoconf way (one compiler run per feature, in
sequence) and a cache hit.  Not a test: timings on a shared machine are
noise-prone, so every figure is a median of several runs made in one go.

usage: bench_probe.py [--asmcap BIN] [--runs N] CC..."""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def timed(argv, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env)
    return (time.perf_counter() - t0) * 1e3, r


def snippets():
    """Feature bodies of the catalog, headers stripped."""
    for p in sorted((ROOT / "templates" / "x86_64").glob("*.s")):
        body = [l for l in p.read_text().splitlines() if not l.startswith("#")]
        yield p.stem, "\t.text\n" + "\n".join(body) + "\n"


def stat(stderr, key):
    return stderr.split(key + "=")[1].split()[0]


def bench(cc, asmcap, runs, tmp):
    """Each round runs every measured command once, so a load change on the
    shared machine hits floor and probe alike; medians over the rounds."""
    empty_s, empty_S, obj = tmp / "e.s", tmp / "e.S", tmp / "e.o"
    empty_s.write_text("")
    empty_S.write_text("")
    env = dict(os.environ, ASMCAP_STATS="1")
    cache = tmp / "cache"
    subprocess.run([asmcap, "--cc", cc, "--cache", cache, "--format", "json"], capture_output=True)
    cmds = {
        "floor_s": ([cc, "-c", empty_s, "-o", obj], None),
        "floor_S": ([cc, "-c", empty_S, "-o", obj], None),
        "full": ([asmcap, "--cc", cc, "--format", "json", "-o", tmp / "caps.json"], env),
        "full_s": ([asmcap, "--cc", cc, "--mode", "s", "--format", "json", "-o", tmp / "caps-s.json"], env),
        "hit": ([asmcap, "--cc", cc, "--cache", cache, "--format", "json"], env),
    }
    times = {k: [] for k in cmds}
    last = {}
    for _ in range(runs):
        for k, (argv, e) in cmds.items():
            ms, r = timed(argv, e)
            if r.returncode:
                sys.exit(f"bench-probe: {' '.join(map(str, argv))} failed:\n{r.stderr}")
            times[k].append(ms)
            last[k] = r
    med = {k: statistics.median(v) for k, v in times.items()}

    # the autoconf way: one compiler run per feature, one after the other
    seq = []
    for _ in range(max(1, runs // 3)):
        t0 = time.perf_counter()
        for name, text in snippets():
            src = tmp / f"{name}.S"
            src.write_text(text)
            subprocess.run([cc, "-c", src, "-o", tmp / f"{name}.o"], capture_output=True)
        seq.append((time.perf_counter() - t0) * 1e3)
    return dict(med, cc=cc, procs=stat(last["full"].stderr, "processes"),
                procs_s=stat(last["full_s"].stderr, "processes"),
                hit_procs=stat(last["hit"].stderr, "processes"),
                hit_inner=float(stat(last["hit"].stderr, "ms")),
                seq=statistics.median(seq), nfeat=sum(1 for _ in snippets()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asmcap", default=str(ROOT / "build" / "asmcap"))
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("cc", nargs="+")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for cc in a.cc:
            rows.append(bench(cc, a.asmcap, a.runs, pathlib.Path(d)))
    print(f"probe speed, medians of {a.runs} runs (ms; wall time of the whole process)\n")
    hdr = ("cc", "floor .s", "floor .S", "full probe (mode S)", "procs", "x floor .S", "x floor .s",
           "full probe --mode s", "procs", "x floor .s", "autoconf way", "cache hit", "(inside)", "procs")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for r in rows:
        print(f"| {r['cc']} | {r['floor_s']:.1f} | {r['floor_S']:.1f} | {r['full']:.1f} | {r['procs']} "
              f"| {r['full'] / r['floor_S']:.1f} | {r['full'] / r['floor_s']:.1f} "
              f"| {r['full_s']:.1f} | {r['procs_s']} | {r['full_s'] / r['floor_s']:.1f} "
              f"| {r['seq']:.0f} ({r['nfeat']} runs) | {r['hit']:.2f} | {r['hit_inner']:.2f} | {r['hit_procs']} |")
    print("\nfloor: `$CC -c` of an empty .s, and of an empty .S (through cpp, what --mode S runs);"
          "\nfull probe: every catalog feature, cold (no cache); procs: processes the probe started"
          "\n(--mode s adds a parallel `-dM -E` for the build section);"
          "\ncache hit: whole asmcap process, (inside) its own clock from start to exit.")


if __name__ == "__main__":
    main()
