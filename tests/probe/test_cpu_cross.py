# SPDX-License-Identifier: MIT
"""asmcap cpu on aarch64, arm, riscv64, s390x and ppc64le: asmcap built statically with
clang for each target and run under qemu-user with a CPU that has a feature
and one that lacks it.  qemu 7.2 (Debian 12) gives AT_HWCAP/AT_HWCAP2 from
the emulated CPU on aarch64, arm and ppc64le; on riscv64 it passes only the I, M, A,
F, D, C letters in AT_HWCAP and has no riscv_hwprobe (ENOSYS), so there the
hwprobe answers are `unknown` and V reads as absent (what a kernel without
V support says too).  qemu-s390x 7.2 runs three useful models: `max' (MSA,
VX and VXE in AT_HWCAP, no VXE2 nor DFLT), `max,vxeh=off' (a z13: VX
without VXE) and `z900-base' (none); its z13/z14 models ask for facilities
TCG lacks and refuse to start."""
import json
import subprocess
import sys

import pytest

from conftest import BUILD, LA64, ROOT, built, have, la64_program, need_tool, probe_includes, probe_sources

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
    # the shipped catalog's keys are asked (test_s390x_cpus): none here
    "s390x": ("s390x-linux-gnu", "qemu-s390x", {}),
    "ppc64le": ("powerpc64le-linux-gnu", "qemu-ppc64le", {
        # arch/powerpc/include/uapi/asm/cputable.h: PPC_FEATURE_HAS_ALTIVEC
        # 0x10000000; PPC_FEATURE2_VEC_CRYPTO 0x02000000, ARCH_3_00 0x00800000,
        # ARCH_3_1 0x00040000, MMA 0x00020000
        "altivec": "# hwcap: AT_HWCAP bit=28",
        "vcipher": "# hwcap2: AT_HWCAP2 bit=25",
        "arch-3-00": "# hwcap2: AT_HWCAP2 bit=23",
        "power10-prefix": "# hwcap2: AT_HWCAP2 bit=18",
        "mma": "# hwcap2: AT_HWCAP2 bit=17",
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


# qemu's POWER models: what each sets of the bits under test (its
# PPC_FEATURE2_* per model, target/ppc/cpu_init.c)
@pytest.mark.parametrize("qcpu,has", [
    ("power8", {"altivec", "vcipher"}),
    ("power9", {"altivec", "vcipher", "arch-3-00"}),
    ("power10", {"altivec", "vcipher", "arch-3-00", "power10-prefix", "mma"}),
])
def test_ppc64le_power_models(cross_asmcap, tmp_path, qcpu, has):
    got, why = cpu(cross_asmcap, tmp_path, "ppc64le", qcpu)
    names = TARGETS["ppc64le"][2]
    assert {n for n in names if got[f"ASMCAP_CPU_{n.upper().replace('-', '_')}"] == "yes"} == has
    for n in set(names) - has:
        assert why[n] == f"AT_HWCAP2 bit {names[n].split('=')[1]} clear"


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


# ---- loongarch64: no libc to build asmcap with; the catalog's keys instead ----

def test_loongarch64_hwcap_bits_are_what_runs(tmp_path):
    """Debian 12 has no loongarch64 libc, so asmcap itself cannot be built
    for it; what asmcap's reader would read is checked instead: under
    qemu-loongarch64 -cpu la464 (qemu 7.2's only model) each feature's
    AT_HWCAP bit from the catalog is set exactly when its snippet's
    instruction runs (tests/la64/run.c executes it: SIGILL where the CPU
    lacks it).  lvz is privileged and left out; features without a key too.
    Measured: AT_HWCAP 0x4e (LAM, UAL, FPU, CRC32): crc32 runs; qemu 7.2
    emulates neither LSX, LASX nor LBT, and their bits are clear."""
    sys.path.insert(0, str(ROOT / "tests" / "catalog"))
    import cross_catalog as cc
    need_tool("qemu-loongarch64")
    exe = la64_program(tmp_path / "run", LA64 / "run.c")
    qemu = ["qemu-loongarch64", "-cpu", "la464", str(exe)]
    r = subprocess.run([*qemu, "hwcap"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    hwcap = int(r.stdout, 16)
    ran = {}
    for name, t in cc.load("loongarch64").items():
        key = cc.cpu_key("loongarch64", t)
        if key is None or name == "lvz":
            continue
        word = cc.words("loongarch64", bytes.fromhex(t["expect"][0]))[0][0]
        r = subprocess.run([*qemu, f"{word:08x}"], capture_output=True, timeout=60)
        assert r.returncode in (0, -4), (name, r)          # runs, or SIGILL
        ran[name] = r.returncode == 0
        assert ran[name] == bool(hwcap >> key[2] & 1), (name, hex(hwcap), key)
    # both sides seen: a CPU that has one feature and lacks another
    assert True in ran.values() and False in ran.values(), ran


@pytest.mark.parametrize("qcpu,msa,vx,vxe", [("max", "yes", "yes", "yes"),
                                            ("max,vxeh=off", "yes", "yes", "no"),
                                            ("z900-base", "no", "no", "no")])
def test_s390x_cpus(cross_asmcap, qcpu, msa, vx, vxe):
    """The shipped s390x catalog's hwcap keys against qemu's models (bits
    from glibc's <bits/hwcap.h>: MSA 3, VXRS 11, VXRS_EXT 13, VXRS_EXT2
    15, DFLT 18); msa8 has no hwcap bit, so cpu does not list it."""
    exe = cross_asmcap("s390x")
    run = [["qemu-s390x", "-cpu", qcpu, str(exe), "cpu", *fmt] for fmt in (["--format", "json"], [])]
    js, text = (subprocess.run(a, capture_output=True, text=True, timeout=60) for a in run)
    assert js.returncode == 0 and text.returncode == 0, js.stderr + text.stderr
    got = json.loads(js.stdout)
    why = {l.split()[0]: " ".join(l.split()[2:]) for l in text.stdout.splitlines()}
    assert (got["ASMCAP_CPU_MSA"], got["ASMCAP_CPU_VX"], got["ASMCAP_CPU_VXE"]) == (msa, vx, vxe)
    assert got["ASMCAP_CPU_VXE2"] == got["ASMCAP_CPU_DFLT"] == "no"
    assert why["vxe2"] == "AT_HWCAP bit 15 clear" and "msa8" not in why
    hwcap = word(got["ASMCAP_CPU_HWCAP"])
    assert [hwcap >> b & 1 for b in (3, 11, 13)] == [int(v == "yes") for v in (msa, vx, vxe)]


def test_builtin_ppc64le_catalog(cross_asmcap):
    """The shipped catalog's keys: ISA 3.00 from POWER9 on, MMA on POWER10
    only, VSX and the POWER8 crypto on all three."""
    exe = cross_asmcap("ppc64le")
    got = {}
    for qcpu in ("power8", "power9", "power10"):
        r = subprocess.run(["qemu-ppc64le", "-cpu", qcpu, str(exe), "cpu", "--format", "json"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        got[qcpu] = json.loads(r.stdout)
    row = {f: tuple(got[q][f"ASMCAP_CPU_{f}"] for q in ("power8", "power9", "power10"))
           for f in ("VSX", "VPMSUMD", "ARCH_3_00", "MMA")}
    assert row == {"VSX": ("yes",) * 3, "VPMSUMD": ("yes",) * 3, "ARCH_3_00": ("no", "yes", "yes"),
                   "MMA": ("no", "no", "yes")}


def test_ppc64le_cache_block(cross_asmcap, tmp_path):
    """ASMCAP_CPU_DCACHE_BLOCK is the aux vector's AT_DCACHEBSIZE (19, the
    kernel's uapi auxvec.h), as a program of our own reads it under the
    same qemu: 128 on qemu's POWER models."""
    src, exe = tmp_path / "block.c", tmp_path / "block"
    src.write_text('#include <stdio.h>\n#include <sys/auxv.h>\n'
                   'int main(void) { printf("%lu\\n", getauxval(19)); return 0; }\n')
    subprocess.run(["clang-19", "--target=powerpc64le-linux-gnu", "-static", "-fuse-ld=lld", "-O1", "-o",
                    str(exe), str(src)], check=True)
    want = subprocess.run(["qemu-ppc64le", "-cpu", "power9", str(exe)], capture_output=True, text=True,
                          check=True).stdout.strip()
    got, _ = cpu(cross_asmcap, tmp_path, "ppc64le", "power9")
    assert str(got["ASMCAP_CPU_DCACHE_BLOCK"]) == want == "128"
