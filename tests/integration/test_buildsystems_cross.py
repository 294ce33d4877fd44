# SPDX-License-Identifier: MIT
"""The build-system integrations in a cross build (clang-19 for aarch64,
libc6-dev-arm64-cross): each must probe the compiler the build really runs
(target, sysroot, external toolchain, flags), and an x86 feature asked of
an aarch64 toolchain is `skipped' (no), not a failed configure."""
import os
import shutil

import pytest

from conftest import ASMCAP, ROOT, have
from test_buildsystems import cmake_package, meson_setup, run

SAMPLE = ROOT / "tests" / "integration" / "cross"
CC = "clang-19 --target=aarch64-linux-gnu"


def need(*tools):
    missing = [t for t in tools if not have(t)]
    if missing:
        pytest.fail(f"{' '.join(missing)} missing: ci/deps installs them")


def result(path):
    return dict(l.split("=", 1) for l in path.read_text().splitlines())


def test_autoconf_host(tmp_path):
    need("autoreconf", "clang-19")
    d = tmp_path / "ac"
    shutil.copytree(SAMPLE, d)
    (d / "m4").mkdir()
    shutil.copy(ROOT / "m4" / "asmcap.m4", d / "m4")
    run(["autoreconf", "-fi"], d)
    r = run(["./configure", "--host=aarch64-linux-gnu", f"CC={CC}", "CFLAGS=-O2 -march=armv8.2-a+sha3",
             f"ASMCAP={ASMCAP}"], d, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"checking whether {CC} can assemble adx... skipped: not for this target" in r.stdout
    h = (d / "config.h").read_text()
    assert "/* #undef ASMCAP_ADX */" in h and "/* #undef ASMCAP_BMI2 */" in h
    assert "#define ASMCAP_SHA3 1" in h and "#define ASMCAP_CRC32 1" in h
    # the configured CFLAGS reached the probe: -march enables SHA3 itself,
    # and config.h carries that second answer too
    assert result(d / "result.txt") == {"arch": "aarch64", "sha3_flags": "yes"}
    assert "#define ASMCAP_SHA3_FLAGS 1" in h
    # and without them it does not
    r = run(["./configure", "--host=aarch64-linux-gnu", f"CC={CC}", "CFLAGS=-O2", f"ASMCAP={ASMCAP}"],
            d, check=False)
    assert r.returncode == 0 and result(d / "result.txt")["sha3_flags"] == "no"
    assert "/* #undef ASMCAP_SHA3_FLAGS */" in (d / "config.h").read_text()


def test_autoconf_host_cached(tmp_path):
    """./configure -C twice: the cached run keeps $ASMCAP_ARCH and the
    _FLAGS answers (they used to be empty) without running asmcap."""
    need("autoreconf", "clang-19")
    d = tmp_path / "ac"
    shutil.copytree(SAMPLE, d)
    (d / "m4").mkdir()
    shutil.copy(ROOT / "m4" / "asmcap.m4", d / "m4")
    run(["autoreconf", "-fi"], d)
    args = ["./configure", "-C", "--host=aarch64-linux-gnu", f"CC={CC}", "CFLAGS=-O2 -march=armv8.2-a+sha3",
            f"ASMCAP={ASMCAP}"]
    run(args, d)
    r = run(args, d)
    assert "assemble sha3... (cached) yes" in r.stdout and "--format sh" not in (d / "config.log").read_text()
    assert result(d / "result.txt") == {"arch": "aarch64", "sha3_flags": "yes"}
    assert "#define ASMCAP_SHA3_FLAGS 1" in (d / "config.h").read_text()


def cmake(tmp_path, *defs, env=None):
    b = tmp_path / "b"
    r = run(["cmake", "-S", str(SAMPLE), "-B", str(b), f"-DCMAKE_PREFIX_PATH={cmake_package(tmp_path)}",
             f"-DASMCAP_EXECUTABLE={ASMCAP}", *defs], tmp_path, env=env, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return b, r


def test_cmake_cc_with_target_argument(tmp_path):
    """CC="clang-19 --target=aarch64-linux-gnu" (CMake's documented form; the
    argument lands in CMAKE_C_COMPILER_ARG1): the probe used to run bare
    clang-19 and answer for x86_64 (adx ON)."""
    need("clang-19", "cmake")
    b, r = cmake(tmp_path, "-DCMAKE_SYSTEM_NAME=Linux", "-DCMAKE_SYSTEM_PROCESSOR=aarch64",
                 "-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY", env={"CC": CC})
    res = result(b / "result.txt")
    assert res["adx"] == "OFF" and "not for this target" in res["adx_reason"]
    assert res["sha3"] == "ON" and res["crc32"] == "ON"


def test_cmake_compiler_target(tmp_path):
    """The issue's case: it used to probe the host's x86 assembler (adx: ON)."""
    need("clang-19", "cmake")
    b, r = cmake(tmp_path, "-DCMAKE_C_COMPILER=clang-19", "-DCMAKE_C_COMPILER_TARGET=aarch64-linux-gnu",
                 "-DCMAKE_SYSTEM_NAME=Linux", "-DCMAKE_SYSTEM_PROCESSOR=aarch64")
    res = result(b / "result.txt")
    assert res["adx"] == "OFF" and "not for this target" in res["adx_reason"]
    assert res["sha3"] == "ON" and res["crc32"] == "ON" and res["sha3_flags"] == "OFF"
    assert "asmcap: sha3: yes, build flags: no" in r.stdout


def test_cmake_toolchain_file(tmp_path):
    need("clang-19", "cmake")
    (tmp_path / "sysroot").mkdir()
    tc = tmp_path / "tc.cmake"
    tc.write_text(f"""set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER clang-19)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_SYSROOT {tmp_path / 'sysroot'})
set(CMAKE_C_COMPILER_EXTERNAL_TOOLCHAIN /usr)
set(CMAKE_C_FLAGS_INIT "-march=armv8.2-a+sha3")
set(CMAKE_C_FLAGS_RELEASE_INIT "-mbranch-protection=standard")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
""")
    b, r = cmake(tmp_path, f"-DCMAKE_TOOLCHAIN_FILE={tc}", "-DCMAKE_BUILD_TYPE=Release")
    res = result(b / "result.txt")
    assert res["adx"] == "OFF" and res["sha3"] == "ON" and res["sha3_flags"] == "ON"
    # what was probed: asmcap's cache in the build tree is keyed by the command and flags
    key = (b / "asmcap.cache").read_bytes().decode(errors="replace")
    assert f"--sysroot={tmp_path / 'sysroot'}" in key and "--gcc-toolchain=/usr" in key
    assert "-march=armv8.2-a+sha3" in key and "-mbranch-protection=standard" in key


def test_meson_cross_file(tmp_path):
    need("meson", "clang-19", "aarch64-linux-gnu-ar")
    cross = tmp_path / "a64.cross"
    cross.write_text("""[binaries]
c = ['clang-19', '--target=aarch64-linux-gnu']
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'

[built-in options]
c_args = ['-march=armv8.2-a+sha3']

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'armv8-a'
endian = 'little'
""")
    r = meson_setup(tmp_path, "--cross-file", str(cross), "-Dasmcap_features=adx,sha3,crc32")
    assert r.returncode == 0, r.stdout + r.stderr
    for line in ("ASMCAP_ARCH=aarch64", "ASMCAP_ADX=no", "ASMCAP_SHA3=yes", "ASMCAP_SHA3_FLAGS=yes",
                 "ASMCAP_CRC32=yes"):
        assert f"Message: {line}" in r.stdout, r.stdout
