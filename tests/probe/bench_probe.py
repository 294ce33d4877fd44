#!/usr/bin/env python3
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


def median_ms(argv, runs, env=None):
    times = []
    for _ in range(runs):
        ms, r = timed(argv, env)
        if r.returncode:
            sys.exit(f"bench-probe: {' '.join(map(str, argv))} failed:\n{r.stderr}")
        times.append(ms)
    return statistics.median(times), r


def snippets():
    """Feature bodies of the catalog, headers stripped."""
    for p in sorted((ROOT / "templates" / "x86_64").glob("*.s")):
        body = [l for l in p.read_text().splitlines() if not l.startswith("#")]
        yield p.stem, "\t.text\n" + "\n".join(body) + "\n"


def bench(cc, asmcap, runs, tmp):
    empty_s, empty_S = tmp / "e.s", tmp / "e.S"
    empty_s.write_text("")
    empty_S.write_text("")
    obj = tmp / "e.o"
    floor_s, _ = median_ms([cc, "-c", empty_s, "-o", obj], runs)
    floor_S, _ = median_ms([cc, "-c", "-x", "assembler-with-cpp", empty_S, "-o", obj], runs)

    env = dict(os.environ, ASMCAP_STATS="1")
    full, r = median_ms([asmcap, "--cc", cc, "--format", "json", "-o", tmp / "caps.json"], runs, env)
    procs = r.stderr.split("processes=")[1].split()[0]

    # the autoconf way: one compiler run per feature, one after the other
    seq = []
    for _ in range(max(1, runs // 3)):
        t0 = time.perf_counter()
        for name, text in snippets():
            src = tmp / f"{name}.S"
            src.write_text(text)
            subprocess.run([cc, "-c", src, "-o", tmp / f"{name}.o"], capture_output=True)
        seq.append((time.perf_counter() - t0) * 1e3)
    nfeat = sum(1 for _ in snippets())

    cache = tmp / "cache"
    subprocess.run([asmcap, "--cc", cc, "--cache", cache, "--format", "json"], capture_output=True)
    hit, r = median_ms([asmcap, "--cc", cc, "--cache", cache, "--format", "json"], runs, env)
    hit_procs = r.stderr.split("processes=")[1].split()[0]
    inner = r.stderr.split("ms=")[1].split()[0]
    return {
        "cc": cc, "floor_s": floor_s, "floor_S": floor_S, "full": full, "procs": procs,
        "seq": statistics.median(seq), "nfeat": nfeat, "hit": hit, "hit_inner": float(inner),
        "hit_procs": hit_procs,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asmcap", default=str(ROOT / "build" / "asmcap"))
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("cc", nargs="+")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for cc in a.cc:
            rows.append(bench(cc, a.asmcap, a.runs, pathlib.Path(d)))
    print(f"probe speed, medians of {a.runs} runs (ms; wall time of the whole process)\n")
    hdr = ("cc", "floor .s", "floor .S", "full probe", "procs", "x floor .s", "x floor .S",
           "autoconf way", "cache hit", "(inside)", "procs")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for r in rows:
        print(f"| {r['cc']} | {r['floor_s']:.1f} | {r['floor_S']:.1f} | {r['full']:.1f} | {r['procs']} "
              f"| {r['full'] / r['floor_s']:.1f} | {r['full'] / r['floor_S']:.1f} "
              f"| {r['seq']:.0f} ({r['nfeat']} runs) | {r['hit']:.2f} | {r['hit_inner']:.2f} | {r['hit_procs']} |")
    print("\nfloor: `$CC -c` of an empty .s (and of an empty .S through cpp, what --mode S runs);"
          "\nfull probe: every catalog feature, cold (no cache); procs: processes the probe started;"
          "\ncache hit: whole asmcap process, (inside) its own clock from start to exit.")


if __name__ == "__main__":
    main()
