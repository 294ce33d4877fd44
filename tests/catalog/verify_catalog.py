#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Assemble every catalog snippet with every installed real toolchain, read
the object and compare the bytes: prints the verdict table (feature x
toolchain), independent of build/asmcap.

  python3 tests/catalog/verify_catalog.py [--arch x86_64|i386] [TOOLCHAIN-ID...]
  python3 tests/catalog/verify_catalog.py --why FEATURE TOOLCHAIN-ID
"""
import sys

import catalog_files as cf
import toolchains as tcs


def table(arch, ids):
    chains = [t for t in tcs.TOOLCHAINS if t[4] == arch and tcs.installed(t)
              and (not ids or t[0] in ids)]
    feats = cf.load(arch)
    print("feature".ljust(14) + " ".join(t[0][:14].ljust(14) for t in chains))
    fmts = {t[0]: cf.object_format_of(t[1], tcs.argv(t), arch) for t in chains}
    for name, t in feats.items():
        row = [cf.verdict(t, c[1], tcs.argv(c), fmts[c[0]])[0] for c in chains]
        print(name.ljust(14) + " ".join(v.ljust(14) for v in row))


def why(feature, tc_id):
    tc = next(t for t in tcs.TOOLCHAINS if t[0] == tc_id)
    t = cf.load(tc[4])[feature]
    fmt = cf.object_format_of(tc[1], tcs.argv(tc), tc[4])
    print(fmt, *cf.verdict(t, tc[1], tcs.argv(tc), fmt))


def main(args):
    if args[:1] == ["--why"]:
        return why(args[1], args[2])
    arch = "x86_64"
    if args[:1] == ["--arch"]:
        arch, args = args[1], args[2:]
    table(arch, args)


if __name__ == "__main__":
    main(sys.argv[1:])
