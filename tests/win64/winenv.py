# SPDX-License-Identifier: MIT
"""libmont for Windows x64, built here and run under Wine: one place that
says how each Win64 flavour is probed, generated, assembled and linked.

    python3 tests/win64/winenv.py FLAVOUR BUILD_DIR [ASMCAP]

probes the flavour's assembler into BUILD_DIR/win64-caps.json and prints the
environment (KEY=VALUE lines) under which tests/mont (montlib) builds
BUILD_DIR/mont-harness.exe with MinGW-w64's gcc and runs it through wine64;
ci/matrix uses it for its mingw64, nasm, yasm and llvm-ml rows, tests/win64
imports it.
"""
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

WINE = "/usr/lib/wine/wine64"           # Debian's wine64: not on PATH
WINESERVER = "/usr/lib/wine/wineserver"
MINGW_CC = "x86_64-w64-mingw32-gcc"
LLVM_ML = "/usr/lib/llvm-19/bin/llvm-ml"
# ci/matrix row: (asmcap options naming its assembler, the assembler make
# runs, the generator's flavour, how that assembler names object and source)
# -- MASM takes /Fo and /Ta, as a path may start with `/' (make expands $@, $<)
FLAVOURS = {
    "mingw64": (["--as", "x86_64-w64-mingw32-as", "--flavour", "mingw64"], "x86_64-w64-mingw32-as",
                "mingw64", None),
    "nasm": (["--nasm", "nasm", "--flavour", "nasm"], "nasm -f win64", "nasm", None),
    "yasm": (["--nasm", "yasm", "--flavour", "nasm"], "yasm -f win64", "nasm", None),
    "llvm-ml": (["--masm", f"{LLVM_ML} -m64", "--flavour", "masm"], f"{LLVM_ML} -m64 /c", "masm",
                "/Fo$@ /Ta$<"),
}


def missing(flavour):
    """The programs this flavour needs that are not installed (names)."""
    need = [MINGW_CC, FLAVOURS[flavour][1].split()[0]]
    return [p for p in need if not shutil.which(p)] + ([] if os.access(WINE, os.X_OK) else ["wine64"])


def prefix(flavour):
    """A Wine prefix of this flavour's own, made ready (wineboot) and idle.
    Rows run side by side (ci/matrix --jobs) must not share one: they
    would share its wineserver, whose shutdown after one row's last
    program races the other row's next start.  Kept between runs in the
    user's cache, as Wine keeps ~/.wine: making one takes seconds."""
    cache = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    path = cache / "asmcap" / f"wine-{flavour}"
    path.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, WINEPREFIX=str(path), WINEDEBUG="-all")
    for argv in ([WINE, "wineboot", "--init"], [WINESERVER, "-w"]):
        with open(os.devnull, "w") as null:   # files, not pipes: see montlib.run_program
            p = subprocess.run(argv, env=env, stdout=null, stderr=null, timeout=300)
        if p.returncode:
            raise RuntimeError(f"{' '.join(argv)} (WINEPREFIX={path}) exited {p.returncode}")
    return str(path)


def environment(flavour, build, asmcap):
    """Probe the flavour's assembler into build/win64-caps.json; return the env
    for montlib: make variables, the runner and the .exe name."""
    build = pathlib.Path(build)
    build.mkdir(parents=True, exist_ok=True)
    # not caps.json: make would rebuild it with its own rule (and $(CC))
    caps = build / "win64-caps.json"
    opts, assembler, gen, io = FLAVOURS[flavour]
    p = subprocess.run([str(asmcap), *opts, "--format", "json", "-o", str(caps)],
                       capture_output=True, text=True, timeout=300)
    if p.returncode:
        raise RuntimeError(f"asmcap {' '.join(opts)} failed: {p.stderr.strip()}")
    # -static: no MinGW DLLs to find
    make = [f"CC={MINGW_CC}", "CFLAGS=-O2 -static", f"CAPS={caps}",
            f"MONT_FLAVOUR={gen}", f"MONT_AS={assembler}", *([f"MONT_AS_IO={io}"] if io else [])]
    return {
        "MONT_TEST_BUILD": str(build),
        "MONT_TEST_MAKEFLAGS": " ".join(shlex.quote(m) for m in make),
        "MONT_TEST_RUNNER": WINE,
        "MONT_TEST_EXE": ".exe",
        "WINEDEBUG": "-all",
        "WINEPREFIX": prefix(flavour),
    }


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in FLAVOURS:
        sys.exit(f"usage: winenv.py {{{'|'.join(FLAVOURS)}}} BUILD_DIR [ASMCAP]")
    root = pathlib.Path(__file__).resolve().parents[2]
    asmcap = sys.argv[3] if len(sys.argv) == 4 else root / "build" / "asmcap"
    try:
        env = environment(sys.argv[1], pathlib.Path(sys.argv[2]).resolve(), asmcap)
    except RuntimeError as e:
        sys.exit(f"winenv.py: {e}")
    for k, v in env.items():
        print(f"{k}={v}")
