# SPDX-License-Identifier: MIT
"""The build-system integrations, tried the way a maintainer would: a sample
project per system (tests/integration/*), configured with real gcc, with a
pre-ADX assembler, and with a toolchain whose assembler crashes."""
import os
import shutil
import subprocess

import pytest

from conftest import ASMCAP, BUILD, FAKES, ROOT, built, need_tool

HERE = ROOT / "tests" / "integration"
OLD_AS = str(FAKES / "legacy-gas222")          # rejects adcx/adox
CRASH = str(FAKES / "cc-asm-crash")            # C fine, assembler SIGSEGV


def run(cmd, cwd, env=None, check=True):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run(cmd, cwd=cwd, env=e, capture_output=True, text=True, timeout=300)
    if check:
        assert r.returncode == 0, f"{cmd}: {r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r


@pytest.fixture(scope="module")
def configure_script(tmp_path_factory):
    for tool in ("autoreconf", "autoheader", "aclocal", "automake"):
        need_tool(tool)
    d = tmp_path_factory.mktemp("autoconf")
    shutil.copytree(HERE / "autoconf", d, dirs_exist_ok=True)
    (d / "m4").mkdir()
    shutil.copy(ROOT / "m4" / "asmcap.m4", d / "m4")
    run(["autoreconf", "-fi"], d)
    return d


def result(build):
    return dict(l.split("=", 1) for l in (build / "result.txt").read_text().splitlines())


def configure(src, tmp_path, *args):
    d = tmp_path / "b"
    shutil.copytree(src, d)
    return d, run(["./configure", f"ASMCAP={ASMCAP}", *args], d, check=False)


def test_autoconf_gcc_defines_features(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, "CC=gcc")
    assert r.returncode == 0, r.stdout + r.stderr
    h = (d / "config.h").read_text()
    assert "#define ASMCAP_ADX 1" in h and "#define ASMCAP_BMI2 1" in h
    assert (d / "result.txt").read_text().splitlines()[0] == "adx_path=yes"
    assert "checking whether gcc can assemble adx... yes" in r.stdout


def test_autoconf_log_answers_and_no_stray_file(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, "CC=gcc")
    assert r.returncode == 0, r.stdout + r.stderr
    # the command and its output reach config.log; nothing else is written
    log = (d / "config.log").read_text()
    assert f"{ASMCAP} --cc 'gcc' --cflags ' -g -O2' --format sh --features adx,bmi2" in log
    assert "\nASMCAP_ADX=yes\n" in log
    assert sorted(p.name for p in d.iterdir()) == sorted(
        [p.name for p in configure_script.iterdir()] + ["config.h", "config.log", "config.status", "result.txt"])
    # another architecture's feature is said to be skipped, with asmcap's reason
    assert "checking whether gcc can assemble sha3... skipped: not for this target" in r.stdout
    res = result(d)
    assert res["arch"] == "x86_64" and res["adx"] == "yes"
    # ASMCAP_CC_FLAG and ASMCAP_CC_PROBE: the flag gcc rejects is no, with gcc's message
    assert res["cflag_mavx2"] == "yes" and res["cflag_mno_such_flag"] == "no"
    assert "checking whether gcc accepts -mno-such-flag... no (gcc: error: unrecognized" in r.stdout
    assert res["c_adx_inline"] == "yes"
    h = (d / "config.h").read_text()
    assert "#define ASMCAP_CFLAG_MAVX2 1" in h and "/* #undef ASMCAP_CFLAG_MNO_SUCH_FLAG */" in h
    assert "#define ASMCAP_C_ADX_INLINE 1" in h


def test_autoconf_cached_run_keeps_every_variable(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, "CC=gcc", "-C")
    assert r.returncode == 0, r.stdout + r.stderr
    first = result(d)
    r = run(["./configure", f"ASMCAP={ASMCAP}", "CC=gcc", "-C"], d, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "checking whether gcc can assemble adx... (cached) yes" in r.stdout
    assert "assemble sha3... (cached) skipped" in r.stdout
    assert result(d) == first and first["arch"] == "x86_64"
    assert "--format sh" not in (d / "config.log").read_text()   # all from the cache: asmcap not run


def test_autoconf_undefined_macro_stops_autoreconf(tmp_path):
    need_tool("autoreconf")
    d = tmp_path / "nom4"
    shutil.copytree(HERE / "autoconf", d)
    (d / "m4").mkdir()
    r = run(["autoreconf", "-fi"], d, check=False)
    assert r.returncode != 0
    assert "possibly undefined macro: ASMCAP_CHECK" in r.stderr


def test_autoconf_old_assembler_says_no(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, f"CC={OLD_AS}")
    assert r.returncode == 0, r.stdout + r.stderr
    h = (d / "config.h").read_text()
    assert "/* #undef ASMCAP_ADX */" in h and "#define ASMCAP_BMI2 1" in h
    assert (d / "result.txt").read_text().splitlines()[0] == "adx_path=no"


def test_autoconf_cache_and_override(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, "CC=gcc", "-C", "asmcap_cv_adx=no")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "/* #undef ASMCAP_ADX */" in (d / "config.h").read_text()
    assert "asmcap_cv_adx=no" in (d / "config.cache").read_text() or \
        "asmcap_cv_adx=${asmcap_cv_adx=no}" in (d / "config.cache").read_text()
    assert "(cached) no" in r.stdout


def test_autoconf_unusable_toolchain_fails_configure(configure_script, tmp_path):
    d, r = configure(configure_script, tmp_path, f"CC={CRASH}")
    assert r.returncode != 0
    assert "asmcap failed" in r.stderr and "SIGSEGV" in r.stderr


def cmake_package(tmp_path):
    """The CMake package as `make install` lays it out (make writes the
    version file from VERSION)."""
    prefix = tmp_path / "prefix" / "lib" / "cmake" / "Asmcap"
    prefix.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "cmake" / "AsmcapConfig.cmake", prefix)
    version = built(BUILD / "AsmcapConfigVersion.cmake")
    shutil.copy(version, prefix)
    return tmp_path / "prefix"


def cmake(tmp_path, build, *defs, sample="cmake", env=None):
    return run(["cmake", "-S", str(HERE / sample), "-B", str(build),
                f"-DCMAKE_PREFIX_PATH={cmake_package(tmp_path)}", f"-DASMCAP_EXECUTABLE={ASMCAP}", *defs],
               tmp_path, env=env, check=False)


def test_cmake_compiler_arguments_in_cc(tmp_path):
    """CC="gcc -Wa,-march=generic64": CMake keeps the arguments in
    CMAKE_C_COMPILER_ARG1, and every compile gets them; so must the probe."""
    b = tmp_path / "b"
    r = cmake(tmp_path, b, env={"CC": "gcc -Wa,-march=generic64"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "OFF" and "generic64" in result(b)["adx_reason"]


def test_cmake_compiler_launcher(tmp_path):
    """CMAKE_C_COMPILER_LAUNCHER runs in front of every compile (ccache,
    distcc, or here a wrapper that adds -Wa,-march=generic64): the probe
    runs through it too."""
    launcher = tmp_path / "launch"
    launcher.write_text('#!/bin/sh\nexec "$@" -Wa,-march=generic64\n')
    launcher.chmod(0o755)
    b = tmp_path / "b"
    r = cmake(tmp_path, b, "-DCMAKE_C_COMPILER=gcc", f"-DCMAKE_C_COMPILER_LAUNCHER={launcher}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "OFF" and "generic64" in result(b)["adx_reason"]


@pytest.mark.parametrize("langs", ["C;ASM", "ASM"])
def test_cmake_asm_language_and_its_flags(tmp_path, langs):
    """The .S files are compiled with the ASM compiler and CMAKE_ASM_FLAGS:
    with -Wa,-march=generic64 there, ADX is OFF (it used to be ON from the
    C flags, and the .S failed to assemble); an ASM-only project probes too
    (it used to fail with `--cc: empty command')."""
    b = tmp_path / "b"
    r = cmake(tmp_path, b, f"-DSAMPLE_LANGS={langs}", "-DCMAKE_ASM_FLAGS=-Wa,-march=generic64",
              sample="cmake-asm")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "OFF" and "generic64" in result(b)["adx_reason"]
    run(["cmake", "--build", str(b)], tmp_path)
    # the configuration's own flags count too, and without them ADX is ON and the kernel builds
    b = tmp_path / "b2"
    r = cmake(tmp_path, b, f"-DSAMPLE_LANGS={langs}", "-DCMAKE_BUILD_TYPE=Release",
              "-DCMAKE_ASM_FLAGS_RELEASE=-Wa,-march=generic64", sample="cmake-asm")
    assert r.returncode == 0 and result(b)["adx"] == "OFF", r.stdout + r.stderr
    b = tmp_path / "b3"
    r = cmake(tmp_path, b, f"-DSAMPLE_LANGS={langs}", sample="cmake-asm")
    assert r.returncode == 0 and result(b)["adx"] == "ON", r.stdout + r.stderr
    run(["cmake", "--build", str(b)], tmp_path)
    assert (b / "libkernel.a").is_file()


@pytest.mark.parametrize("want,ok", [("0.1", True), ("0.1.0", True), ("0", False), ("0.2", False),
                                     ("1", False)])
def test_cmake_package_version(tmp_path, want, ok):
    """find_package(Asmcap VERSION): the version file made from VERSION; a
    0.x release meets requests for its own major.minor only."""
    have = (ROOT / "VERSION").read_text().strip()
    assert have.startswith("0.1."), "update the cases for the new version"
    b = tmp_path / "b"
    r = cmake(tmp_path, b, f"-DSAMPLE_VERSION={want}", sample="cmake-asm")
    assert (r.returncode == 0) == ok, r.stdout + r.stderr
    if ok:
        assert result(b)["version"] == have
    else:
        err = " ".join(r.stderr.split())
        assert f'package "Asmcap" that is compatible with requested version "{want}"' in err
        assert f"AsmcapConfig.cmake, version: {have}" in err




def test_cmake_probe_and_reprobe_on_flag_change(tmp_path):
    b = tmp_path / "build"
    r = cmake(tmp_path, b, "-DCMAKE_C_COMPILER=gcc")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "ON" and result(b)["bmi2"] == "ON" and result(b)["gnu_property"] == "ON"
    # Same build tree, new flags: gas told to target plain x86-64 rejects
    # ADX; a stale cached answer would still say ON.
    r = cmake(tmp_path, b, "-DCMAKE_C_FLAGS=-Wa,-march=generic64")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "OFF" and "generic64" in result(b)["adx_reason"]
    r = cmake(tmp_path, b, "-DCMAKE_C_FLAGS=")
    assert result(b)["adx"] == "ON"


def test_cmake_old_assembler_and_crash(tmp_path):
    b = tmp_path / "old"
    r = cmake(tmp_path, b, f"-DCMAKE_C_COMPILER={OLD_AS}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["adx"] == "OFF" and result(b)["bmi2"] == "ON"
    r = cmake(tmp_path, tmp_path / "crash", f"-DCMAKE_C_COMPILER={CRASH}")
    assert r.returncode != 0 and "SIGSEGV" in r.stderr


MESON_ENV = {"PATH": f"{ASMCAP.parent}:{os.environ['PATH']}"}   # asmcap found as the recipe finds it


def meson_setup(tmp_path, *args, env=None):
    return run(["meson", "setup", str(tmp_path / "b"), str(HERE / "meson"), *args], tmp_path,
               env={**MESON_ENV, **(env or {})}, check=False)


@pytest.mark.parametrize("cc,adx", [("gcc", "yes"), (OLD_AS, "no")])
def test_meson_recipe(tmp_path, cc, adx):
    r = meson_setup(tmp_path, env={"CC": cc})
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"ASMCAP_ADX={adx}" in r.stdout and "ASMCAP_ARCH=x86_64" in r.stdout
    h = (tmp_path / "b" / "caps.h").read_text()
    assert ("#define ASMCAP_ADX" in h) == (adx == "yes")
    assert "#define ASMCAP_BMI2" in h


def test_meson_flags_of_the_buildtype_and_c_args(tmp_path):
    """c_args reach the probe (-Wa,-march=generic64: ADX no), and so do the
    buildtype's optimization and debug flags; asmcap's cache is in the
    build dir, keyed by them."""
    r = meson_setup(tmp_path, "-Dbuildtype=debugoptimized", "-Dc_args=-Wa,-march=generic64",
                    env={"CC": "gcc"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ASMCAP_ADX=no" in r.stdout and "ASMCAP_BMI2=no" in r.stdout
    key = (tmp_path / "b" / "asmcap.cache").read_bytes().decode(errors="replace")
    assert "-Wa,-march=generic64 -O2 -g" in key


def test_meson_reprobes_when_the_compiler_changes(tmp_path):
    """The compiler changes under an existing build dir (an upgrade): the
    next ninja re-probes and the header, and what includes it, follow."""
    need_tool("ninja")
    cc = tmp_path / "cc"
    cc.write_text('#!/bin/sh\nexec gcc "$@"\n')
    cc.chmod(0o755)
    r = meson_setup(tmp_path, env={"CC": str(cc)})
    assert r.returncode == 0, r.stdout + r.stderr
    b = tmp_path / "b"
    run(["ninja", "-C", str(b)], tmp_path, env=MESON_ENV)
    assert "#define ASMCAP_ADX 1" in (b / "asmcap-caps.h").read_text()
    cc.write_text(f'#!/bin/sh\n# now the pre-ADX assembler\nexec "{OLD_AS}" "$@"\n')
    r = run(["ninja", "-C", str(b)], tmp_path, env=MESON_ENV)
    assert "/* #undef ASMCAP_ADX */" in (b / "asmcap-caps.h").read_text()
    assert "sample.c.o" in r.stdout      # recompiled against the new answer
    r = run(["ninja", "-C", str(b)], tmp_path, env=MESON_ENV)
    assert "sample.c.o" not in r.stdout  # unchanged answers rewrite nothing


def test_meson_unusable_toolchain_is_an_error(tmp_path):
    r = meson_setup(tmp_path, env={"CC": CRASH})
    assert r.returncode != 0
    assert "SIGSEGV" in r.stdout + r.stderr


def test_cmake_follows_requires(tmp_path):
    # adx without bmi2 is not usable: CMake must say OFF like every other format.
    b = tmp_path / "build"
    r = cmake(tmp_path, b, "-DCMAKE_C_COMPILER=gcc")
    assert result(b)["adx"] == "ON"
    prefix = tmp_path / "prefix" / "lib" / "cmake" / "Asmcap"
    e = dict(os.environ, ASMCAP_DISABLE="bmi2")
    r = subprocess.run(["cmake", "-S", str(HERE / "cmake"), "-B", str(tmp_path / "b2"),
                        f"-DCMAKE_PREFIX_PATH={tmp_path / 'prefix'}", f"-DASMCAP_EXECUTABLE={ASMCAP}",
                        "-DCMAKE_C_COMPILER=gcc"], cwd=tmp_path, env=e, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    res = result(tmp_path / "b2")
    assert res["adx"] == "OFF" and res["bmi2"] == "OFF"
    assert "requires bmi2, which is disabled" in res["adx_reason"]
    # the package found is the AsmcapConfig.cmake installed for this test
    assert f"Asmcap_DIR:PATH={prefix}\n" in (tmp_path / "b2" / "CMakeCache.txt").read_text()


# A project's own template through each recipe: lfence, with the right
# bytes (yes) or with wrong ones (broken: no) — the verdict is the
# template's, and it reaches the build's variables.
def user_template(d, right=True):
    p = d / "x86_64" / "mytest.s"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"# feature: mytest\n# expect: 0f ae {'e8' if right else 'f0'}\n\tlfence\n")
    return d


@pytest.mark.parametrize("right", [True, False])
def test_autoconf_added_templates(configure_script, tmp_path, right):
    d = tmp_path / "b"
    shutil.copytree(configure_script, d)
    user_template(d / "asm-templates", right)
    r = run(["./configure", f"ASMCAP={ASMCAP}", "CC=gcc"], d, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"checking whether gcc can assemble mytest... {'yes' if right else 'broken:'}" in r.stdout
    assert ("#define ASMCAP_MYTEST 1" in (d / "config.h").read_text()) == right
    assert f"mytest={'yes' if right else 'no'}" in (d / "result.txt").read_text()


def test_autoconf_bad_added_template_stops_configure(configure_script, tmp_path):
    d = tmp_path / "b"
    shutil.copytree(configure_script, d)
    (d / "asm-templates" / "x86_64").mkdir(parents=True)
    (d / "asm-templates" / "x86_64" / "mytest.s").write_text("# feature: mytest\n# expect: 0f zz\n\tlfence\n")
    r = run(["./configure", f"ASMCAP={ASMCAP}", "CC=gcc"], d, check=False)
    assert r.returncode != 0
    assert "asm-templates/x86_64/mytest.s:2: bad expect" in r.stderr


def test_cmake_added_templates_and_no_stale_verdict(tmp_path):
    t = user_template(tmp_path / "t")
    b = tmp_path / "build"
    r = cmake(tmp_path, b, "-DCMAKE_C_COMPILER=gcc", f"-DSAMPLE_TEMPLATES={t}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["mytest"] == "ON" and result(b)["adx"] == "ON"
    # Same build tree and asmcap cache, the template edited: re-probed.
    user_template(t, right=False)
    r = cmake(tmp_path, b)
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(b)["mytest"] == "OFF" and "0f ae f0" in result(b)["mytest_reason"].lower()


@pytest.mark.parametrize("right", [True, False])
def test_meson_added_templates(tmp_path, right):
    t = user_template(tmp_path / "t", right)
    r = meson_setup(tmp_path, f"-Dasmcap_templates={t}", "-Dasmcap_features=adx,mytest", env={"CC": "gcc"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"ASMCAP_MYTEST={'yes' if right else 'no'}" in r.stdout and "ASMCAP_ADX=yes" in r.stdout
    assert ("#define ASMCAP_MYTEST" in (tmp_path / "b" / "caps.h").read_text()) == right


def make_sample(tmp_path):
    """tests/integration/make in a scratch copy, with an ASMCAP that counts
    its runs."""
    d = tmp_path / "mk"
    shutil.copytree(HERE / "make", d)
    counting = tmp_path / "asmcap"
    counting.write_text(f'#!/bin/sh\necho run >>"{tmp_path}/runs"\nexec "{ASMCAP}" "$@"\n')
    counting.chmod(0o755)
    runs = tmp_path / "runs"
    return d, f"ASMCAP={counting}", lambda: len(runs.read_text().split()) if runs.exists() else 0


def test_make_recipe_probes_what_the_S_rule_runs(tmp_path):
    """GNU make's built-in .S rule runs $(CC) $(ASFLAGS) $(CPPFLAGS)
    $(TARGET_MACH): with -Wa,-march=generic64 in ASFLAGS ADX is no and the
    build succeeds (the recipe used to pass CFLAGS only: ADX yes, then an
    assembler error); without it ADX is yes and its kernel is built."""
    d, asmcap_var, runs = make_sample(tmp_path)
    run(["make", asmcap_var, "ASFLAGS=-Wa,-march=generic64"], d)
    assert "ASMCAP_ADX := no" in (d / "caps.mk").read_text()
    assert runs() == 1           # the restart after caps.mk was made does not probe again
    assert run(["ar", "t", "libkernel.a"], d).stdout.split() == ["mulq.o"]
    run(["make", asmcap_var, "clean"], d)
    assert runs() == 1           # make clean probes nothing
    run(["make", asmcap_var, "CPPFLAGS=-DUNUSED=1"], d)
    assert "ASMCAP_ADX := yes" in (d / "caps.mk").read_text()
    assert run(["ar", "t", "libkernel.a"], d).stdout.split() == ["mulq.o", "adx.o"]
    assert runs() == 2
