# SPDX-License-Identifier: MIT
"""The licence: LICENSE is the MIT licence, and every source file (C,
headers, Perl, Python, shell, CMake, m4, Make, Meson) says so with an SPDX
identifier in its first lines, so a file copied into another project keeps
its terms.  The tree is walked (a clean root has no git), skipping what is
not source: the catalog (its header format is data), fuzz corpora, test
data, and the build."""
import os
import pathlib

from conftest import ROOT

TAG = "SPDX-License-Identifier: MIT"
SKIP_DIRS = {".git", "build", "templates", ".pytest_cache", ".github", "__pycache__"}
SKIP_PATHS = {"tests/corpus", "tests/ccprobe/data"}
HASH_NAMES = {"Makefile", "CMakeLists.txt", "configure.ac", "meson.build", "meson_options.txt"}
HASH_EXTS = {".py", ".pl", ".pm", ".sh", ".cmake", ".m4"}


def is_source(rel, head):
    if rel.name.endswith("result.txt.in"):      # the samples' expected output, line by line
        return False
    if rel.suffix in (".c", ".h") or rel.suffix in HASH_EXTS or rel.name in HASH_NAMES:
        return True
    if rel.name.endswith((".cmake.in", ".pc.in")):
        return True
    return rel.suffix == "" and (head.startswith("#!") or rel.parts[:2] == ("tests", "fake"))


def sources():
    for dp, dns, fns in os.walk(ROOT):
        rel = pathlib.Path(dp).relative_to(ROOT)
        dns[:] = [d for d in dns if d not in SKIP_DIRS and (rel / d).as_posix() not in SKIP_PATHS]
        for f in fns:
            try:
                head = "".join((pathlib.Path(dp) / f).read_text().splitlines(True)[:3])
            except UnicodeDecodeError:
                continue
            if is_source(rel / f, head):
                yield (rel / f).as_posix(), head


def test_license_is_mit():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 The asmcap authors" in text
    assert "Permission is hereby granted, free of charge" in text


def test_every_source_names_its_licence():
    found = dict(sources())
    assert {"probe/main.c", "perlasm/Asmcap.pm", "m4/asmcap.m4", "cmake/AsmcapConfig.cmake", "ci/deps",
            "tests/conftest.py", "Makefile"} <= found.keys()
    missing = sorted(p for p, head in found.items() if TAG not in head)
    assert missing == [], f"no `{TAG}' in the first 3 lines of: {' '.join(missing)}"
