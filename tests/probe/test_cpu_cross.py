# SPDX-License-Identifier: MIT
"""asmcap cpu on aarch64, arm and riscv64: asmcap built statically with
clang for each target and run under qemu-user with a CPU that has a feature
and one that lacks it.  qemu 7.2 (Debian 12) gives AT_HWCAP/AT_HWCAP2 from
the emulated CPU on aarch64 and arm; on riscv64 it passes only the I, M, A,
F, D, C letters in AT_HWCAP and has no riscv_hwprobe (ENOSYS), so there the
hwprobe answers are `unknown` and V reads as absent (what a kernel without
V support says too)."""
import json
import subprocess

import pytest

from conftest import BUILD, built, have, probe_includes, probe_sources

# target: (clang target, qemu, {feature template text})
TARGETS = {
    "aarch64": ("aarch64-linux-gnu", "qemu-aarch64", {
        # bits from the kernel's arch/arm64/include/uapi/asm/hwcap.h
        "aes": "# hwcap: AT_HWCAP bit=3",
        "sha3": "# hwcap: AT_HWCAP bit=17",
        "sve2": "# hwcap2: AT_HWCAP2 bit=1",
    }),
    "arm": ("armv7a-linux-gnueabihf", "qemu-arm", {
        # arch/arm/include/uapi/asm/hwcap.h
        "idiv": "# hwcap: AT_HWCAP bit=17",
        "aes": "# hwcap2: AT_HWCAP2 bit=0",
        "crc32": "# hwcap2: AT_HWCAP2 bit=4",
    }),
    "riscv64": ("riscv64-linux-gnu", "qemu-riscv64", {
        # AT_HWCAP: bit 'X' - 'A'; hwprobe: RISCV_HWPROBE_KEY_IMA_EXT_0 (4)
        "d": "# hwcap: AT_HWCAP bit=3",
        "v": "# hwcap: AT_HWCAP bit=21\n# hwprobe: key=4 bit=2",
        "zba": "# hwprobe: key=4 bit=3",
    }),
}


def templates(tmp_path, arch):
    """A catalog folder holding only the CPU keys under test."""
    d = tmp_path / "templates" / arch
    d.mkdir(parents=True)
    for name, key in TARGETS[arch][2].items():
        (d / f"{name}.s").write_text(f"# feature: {name}\n# summary: {name}\n{key}\n"
                                     "# expect: 00 00 00 00\n\tnop\n")
    return d.parent


@pytest.fixture(scope="module")
def cross_asmcap(tmp_path_factory):
    """build/asmcap's sources, linked statically for each target."""
    src = [*probe_sources(), str(built(BUILD / "catalog.c"))]
    made = {}
    out = tmp_path_factory.mktemp("cross")

    def get(arch):
        if arch not in made:
            triple, qemu, _ = TARGETS[arch]
            if not have("clang-19") or not have(qemu):
                pytest.skip(f"not installed: clang-19 or {qemu}")
            exe = out / f"asmcap-{arch}"
            subprocess.run(["clang-19", f"--target={triple}", "-static", "-fuse-ld=lld", "-O1",
                            "-std=c11", "-Wall", "-Wextra", "-Werror", "-D_POSIX_C_SOURCE=200809L",
                            "-D_DEFAULT_SOURCE", "-D_FILE_OFFSET_BITS=64", *probe_includes(),
                            "-o", str(exe), *src], check=True)
            made[arch] = exe
        return made[arch]
    return get


def word(v):
    """A hwcap word from the JSON ("0x8fb", or 0 as a number)."""
    return int(str(v), 0)


def cpu(cross_asmcap, tmp_path, arch, qcpu):
    exe = cross_asmcap(arch)
    r = subprocess.run([TARGETS[arch][1], "-cpu", qcpu, str(exe), "cpu", "--templates",
                        str(templates(tmp_path / qcpu, arch)), "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    text = subprocess.run([TARGETS[arch][1], "-cpu", qcpu, str(exe), "cpu", "--templates",
                           str(tmp_path / qcpu / "templates")], capture_output=True, text=True,
                          timeout=60)
    assert text.returncode == 0, text.stderr
    reasons = {l.split()[0]: " ".join(l.split()[2:]) for l in text.stdout.splitlines()}
    return json.loads(r.stdout), reasons


def test_aarch64_max_and_cortex_a53_differ(cross_asmcap, tmp_path):
    new, _ = cpu(cross_asmcap, tmp_path, "aarch64", "max")
    old, why = cpu(cross_asmcap, tmp_path, "aarch64", "cortex-a53")
    assert new["ASMCAP_CPU_SHA3"] == "yes" and new["ASMCAP_CPU_SVE2"] == "yes"
    assert new["ASMCAP_CPU_AES"] == "yes" and old["ASMCAP_CPU_AES"] == "yes"
    assert old["ASMCAP_CPU_SHA3"] == "no" and old["ASMCAP_CPU_SVE2"] == "no"
    assert why["sha3"] == "AT_HWCAP bit 17 clear" and why["sve2"] == "AT_HWCAP2 bit 1 clear"
    # The raw words behind the answers.
    assert word(new["ASMCAP_CPU_HWCAP"]) >> 17 & 1
    assert not word(old["ASMCAP_CPU_HWCAP"]) >> 17 & 1
    assert word(old["ASMCAP_CPU_HWCAP2"]) == 0


@pytest.mark.parametrize("qcpu,idiv,aes", [("max", "yes", "yes"), ("cortex-a15", "yes", "no"),
                                           ("cortex-a7", "yes", "no"), ("cortex-a9", "no", "no")])
def test_arm_cpus(cross_asmcap, tmp_path, qcpu, idiv, aes):
    got, why = cpu(cross_asmcap, tmp_path, "arm", qcpu)
    assert (got["ASMCAP_CPU_IDIV"], got["ASMCAP_CPU_AES"]) == (idiv, aes)
    assert got["ASMCAP_CPU_CRC32"] == aes      # qemu's cpus have both or neither
    if aes == "no":
        assert why["aes"] == "AT_HWCAP2 bit 0 clear"


def test_riscv64_without_hwprobe_says_unknown(cross_asmcap, tmp_path):
    got, why = cpu(cross_asmcap, tmp_path, "riscv64", "rv64")
    assert got["ASMCAP_CPU_HWPROBE"] == "no"
    assert got["ASMCAP_CPU_ZBA"] == "unknown"
    assert "ENOSYS" in why["zba"]
    # hwprobe missing, the AT_HWCAP letter answers.
    assert got["ASMCAP_CPU_D"] == "yes"
    assert got["ASMCAP_CPU_V"] == "no" and "AT_HWCAP bit 21 clear" in why["v"]
    assert word(got["ASMCAP_CPU_HWCAP"]) & 0x112d == 0x112d   # I M A F D C


def test_other_architectures_features_are_not_this_cpus(cross_asmcap, tmp_path):
    """The aarch64 build reads the aarch64 folder only: an x86-only tree is an error."""
    exe = cross_asmcap("aarch64")
    (tmp_path / "x86_64").mkdir()
    r = subprocess.run(["qemu-aarch64", str(exe), "cpu", "--templates", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "aarch64" in r.stderr


def test_builtin_aarch64_catalog(cross_asmcap):
    """The shipped catalog's keys: sha3 and sve2 under -cpu max, not on a Cortex-A53."""
    exe = cross_asmcap("aarch64")
    got = {}
    for qcpu in ("max", "cortex-a53"):
        r = subprocess.run(["qemu-aarch64", "-cpu", qcpu, str(exe), "cpu", "--format", "json"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        got[qcpu] = json.loads(r.stdout)
    for feat in ("SHA3", "SVE2", "SM4", "I8MM"):
        assert (got["max"][f"ASMCAP_CPU_{feat}"], got["cortex-a53"][f"ASMCAP_CPU_{feat}"]) == ("yes", "no")
    assert got["max"]["ASMCAP_CPU_CRC32"] == got["cortex-a53"]["ASMCAP_CPU_CRC32"] == "yes"
