# SPDX-License-Identifier: MIT
"""The probe engine against fake and real toolchains: verdicts, exit codes,
outputs, cache, cleanup.  Real-toolchain verdicts per feature are the
catalog's tests (tests/catalog); these check the machinery."""
import json
import os
import pathlib
import pty
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import ASMCAP, FAKES, ROOT, asmcap, need_tool

FEW = "adx,bmi2,aesni,cfi"


def fake(name):
    return str(FAKES / f"probe-{name}")


def caps(*args, env=None):
    r = asmcap("--format", "json", *args, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def statuses(c):
    return {k: v["status"] for k, v in c["features"].items()}


# Marks the probe-hang runs of this process: its `sleep 987` children
# inherit it, so sleepers() never counts another run's (the machine may be
# running other test suites, and a chroot shares /proc with them).
HANG_TAG = f"ASMCAP_TEST_HANG={os.getpid()}-{time.monotonic_ns()}"


def sleepers():
    """Processes left over from this process's tests/fake/probe-hang runs
    (`sleep 987` carrying HANG_TAG)."""
    left = []
    for p in pathlib.Path("/proc").iterdir():
        try:
            if ((p / "cmdline").read_bytes().split(b"\0")[:2] == [b"sleep", b"987"] and
                    HANG_TAG.encode() in (p / "environ").read_bytes().split(b"\0")):
                left.append(p.name)
        except OSError:
            pass
    return left


@pytest.fixture(scope="module")
def gcc_caps():
    return caps("--cc", "gcc")


# ---- verdicts from fake toolchains ----

def test_old_assembler_rejects_adx_in_two_runs(tmp_path):
    log = tmp_path / "log"
    c = caps("--cc", fake("old-as"), "--features", FEW, "--log", log)
    f = c["features"]
    assert f["adx"]["status"] == "no"
    assert "no such instruction: `adcx" in f["adx"]["reason"]
    assert f["bmi2"]["status"] == "yes" and f["aesni"]["status"] == "yes"
    # one catalog run, one more without the rejected lines: nothing else
    assert "processes started: 2;" in log.read_text()


def test_misencoding_assembler_is_broken():
    f = caps("--cc", fake("adc"), "--features", FEW)["features"]
    assert f["adx"]["status"] == "broken"
    assert "mis-encoded: got 48 11 c3" in f["adx"]["reason"]
    assert f["bmi2"]["status"] == "yes"


def test_empty_object_with_warning_is_broken():
    f = caps("--cc", fake("empty"), "--features", FEW)["features"]
    for name in FEW.split(","):
        assert f[name]["status"] == "broken", name
        assert "Warning: this assembler ignores its input" in f[name]["reason"]


def test_failure_without_line_numbers_falls_back_to_single_runs(tmp_path):
    log = tmp_path / "log"
    f = caps("--cc", fake("noline"), "--features", FEW, "--log", log)["features"]
    assert f["adx"]["status"] == "no"
    assert "unsupported instruction" in f["adx"]["reason"]
    assert all(f[n]["status"] == "yes" for n in ("bmi2", "aesni", "cfi"))
    # batch, empty-file control, the batch again, one run per feature, and
    # the failing one twice more, each after a control: a failure that names
    # no line is a "no" only when it reproduces
    assert "processes started: 11;" in log.read_text()


def test_hang_is_killed_with_its_children():
    t0 = time.monotonic()
    r = asmcap("--cc", fake("hang"), "--timeout", "1", "--format", "json",
               env=dict([HANG_TAG.split("=", 1)]))
    assert r.returncode == 3
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "probe-hang" in lines[0] and "timed out after 1 s" in lines[0]
    assert time.monotonic() - t0 < 10
    assert sleepers() == []


def test_crash_names_the_signal():
    r = asmcap("--cc", fake("segv"))
    assert r.returncode == 3
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "probe-segv" in lines[0] and "SIGSEGV" in lines[0]


@pytest.mark.parametrize("cmd", ["/nonexistent/cc", "no-such-cc-asmcap"])
def test_missing_toolchain(cmd):
    r = asmcap("--cc", cmd)
    assert r.returncode == 3
    assert cmd in r.stderr and "not found" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_launcher_with_arguments(gcc_caps):
    c = caps("--cc", f"{fake('wrapper')} --tag t gcc")
    assert c["toolchain"]["argv"] == [fake("wrapper"), "--tag", "t", "gcc"]
    assert statuses(c) == statuses(gcc_caps)
    assert "gcc version" in c["toolchain"]["identity"]


def test_compiler_path_with_spaces(tmp_path, gcc_caps):
    d = tmp_path / "dir with space"
    d.mkdir()
    (d / "gcc").symlink_to(shutil.which("gcc"))
    c = caps("--cc", f"'{d}/gcc'")
    assert c["toolchain"]["argv"] == [f"{d}/gcc"]
    assert statuses(c) == statuses(gcc_caps)


def test_werror_cflags_with_gcc(gcc_caps):
    c = caps("--cc", "gcc", "--cflags", "-Werror -Wall -O2")
    assert c["toolchain"]["cflags"] == "-Werror -Wall -O2"
    assert statuses(c) == statuses(gcc_caps)
    assert "yes" in statuses(c).values()


@pytest.mark.tools("clang-14")
def test_clang_unused_flag_in_mode_s_is_exit_3():
    r = asmcap("--cc", "clang-14", "--cflags", "-Werror -DFOO", "--mode", "s")
    assert r.returncode == 3
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1
    assert "-D FOO" in line and "--asflags" in line and "--mode S" in line
    assert "clang-14" in line
    # the same flags in mode S (the preprocessor uses -D) probe fine
    assert asmcap("--cc", "clang-14", "--cflags", "-Werror -DFOO", "--features", "adx").returncode == 0
    # a linker flag is unused in either mode
    r = asmcap("--cc", "clang-14", "--cflags", "-Werror -Wl,-z,now")
    assert r.returncode == 3 and "the flag -Wl,-z,now unused" in r.stderr and "--asflags" in r.stderr


# ---- targets come from the object ----

def test_i386_object_uses_the_i386_catalog():
    c = caps("--cc", "gcc", "--cflags", "-m32")
    assert c["toolchain"]["arch"] == "i386" and c["toolchain"]["format"] == "elf32"
    names = sorted(p.stem for p in (ROOT / "templates" / "i386").glob("*.s"))
    assert sorted(c["features"]) == names
    assert c["build"]["ilp32"] is True     # gcc -m32 defines __ILP32__


@pytest.mark.tools("clang-14")
def test_mingw_target_from_the_object(tmp_path):
    log = tmp_path / "log"
    c = caps("--cc", "clang-14", "--cflags", "-target x86_64-w64-mingw32", "--features", "seh,adx,cfi,gnu-property",
             "--log", log)
    t = c["toolchain"]
    assert (t["format"], t["flavour"]) == ("coff-x86-64", "mingw64")
    assert c["build"]["win64"] is True
    f = c["features"]
    assert f["seh"]["status"] == "yes" and f["adx"]["status"] == "yes"
    assert f["gnu-property"]["status"] == "skipped"
    # planned for ELF: one run rejecting the ELF note, one that tells COFF;
    # the verdicts stand, and only seh (COFF-only) needs a run of its own
    assert "catalog runs: 3;" in log.read_text()


@pytest.mark.tools("x86_64-w64-mingw32-as")
def test_raw_assembler_way():
    c = caps("--as", "x86_64-w64-mingw32-as", "--features", "seh,adx")
    t = c["toolchain"]
    assert t["way"] == "as" and t["format"] == "coff-x86-64" and t["flavour"] == "mingw64"
    assert "GNU assembler" in t["assembler"]
    assert c["features"]["adx"]["status"] == "yes" and c["features"]["seh"]["status"] == "yes"
    assert c["build"]["win64"] is None       # no preprocessor in this way


@pytest.mark.tools("nasm")
def test_nasm_way():
    c = caps("--nasm", "nasm", "--flavour", "elf", "--features", "adx,cfi")
    t = c["toolchain"]
    assert t["format"] == "elf64" and t["flavour"] == "elf"
    assert c["features"]["adx"]["status"] == "yes"
    assert c["features"]["cfi"]["status"] == "skipped"
    w = caps("--nasm", "nasm", "--features", "adx")["toolchain"]
    assert (w["format"], w["flavour"]) == ("coff-x86-64", "nasm")


# ---- outputs ----

def expected_vars(c):
    """ASMCAP_<F>: yes only when the feature and all it requires are yes."""
    f = c["features"]
    out = {}
    for name, v in f.items():
        ok = v["status"] == "yes" and all(f[r]["status"] == "yes" for r in v["requires"])
        out["ASMCAP_" + re.sub(r"[^A-Z0-9]", "_", name.upper())] = "yes" if ok else "no"
    return out


def write(tmp_path, fmt, cache):
    out = tmp_path / f"caps.{fmt}"
    r = asmcap("--cc", "gcc", "--cache", cache, "--format", fmt, "-o", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert '"ms"' not in text and " ms" not in text     # no timings in build-facing files
    return out


def test_formats_agree_with_json(tmp_path):
    cache = tmp_path / "cache"
    c = json.loads(asmcap("--cc", "gcc", "--cache", cache, "--format", "json").stdout)
    want = expected_vars(c)
    assert "yes" in want.values() and "no" in want.values()

    sh = write(tmp_path, "sh", cache)
    env = subprocess.run(["sh", "-c", f'set -a; . "{sh}"; env'], capture_output=True, text=True).stdout
    got = dict(l.split("=", 1) for l in env.splitlines() if l.startswith("ASMCAP_"))
    assert {k: got[k] for k in want} == want
    assert got["ASMCAP_ARCH"] == "x86_64"

    mk = write(tmp_path, "make", cache)
    (tmp_path / "Makefile").write_text(
        f"include {mk}\n$(foreach v,$(filter ASMCAP_%,$(.VARIABLES)),$(info $(v)=$($(v))))\nall: ;\n")
    out = subprocess.run(["make", "-s", "-C", tmp_path], capture_output=True, text=True).stdout
    got = dict(l.split("=", 1) for l in out.splitlines() if l.startswith("ASMCAP_"))
    assert {k: got[k] for k in want} == want

    h = write(tmp_path, "h", cache)
    prog = "#include <stdio.h>\n#include \"caps.h\"\nint main(void){\n"
    for k in want:
        prog += f'#ifdef {k}\nputs("{k}=yes");\n#else\nputs("{k}=no");\n#endif\n'
    prog += 'printf("ASMCAP_ARCH=%s\\n", ASMCAP_ARCH);\nreturn 0;}\n'
    (tmp_path / "t.c").write_text(prog)
    subprocess.run(["gcc", "-Wall", "-Werror", "-I", tmp_path, "-o", tmp_path / "t", tmp_path / "t.c"], check=True)
    out = subprocess.run([tmp_path / "t"], capture_output=True, text=True).stdout
    got = dict(l.split("=", 1) for l in out.splitlines())
    assert {k: got[k] for k in want} == want and got["ASMCAP_ARCH"] == "x86_64"

    pl = write(tmp_path, "perl", cache)
    out = subprocess.run(["perl", "-e", f'use strict; our %asmcap; do "{pl}" or die "$@$!"; '
                          'print "$_=$asmcap{$_}\\n" for keys %asmcap'], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = dict(l.split("=", 1) for l in out.stdout.splitlines())
    assert {k: got[k] for k in want} == want

    need_tool("cmake")
    cm = write(tmp_path, "cmake", cache)
    script = tmp_path / "t.cmake"
    script.write_text(f'include("{cm}")\n' + "".join(f'message("{k}=${{{k}}}")\n' for k in want))
    out = subprocess.run(["cmake", "-P", script], capture_output=True, text=True).stderr
    got = dict(l.split("=", 1) for l in out.splitlines() if l.startswith("ASMCAP_"))
    assert {k: {"ON": "yes", "OFF": "no"}[got[k]] for k in want} == want


def test_text_table_and_colour(tmp_path, gcc_caps):
    r = asmcap("--cc", "gcc", "--cache", tmp_path / "cache")
    assert r.returncode == 0 and "\033[" not in r.stdout
    rows = [l for l in r.stdout.splitlines() if l.split() and l.split()[0] in gcc_caps["features"]]
    assert len(rows) == len(gcc_caps["features"])
    assert len({l.index(l.split()[1], len(l.split()[0])) for l in rows}) == 1     # aligned status column
    for l in rows:
        assert l.split()[1] == gcc_caps["features"][l.split()[0]]["status"]

    def on_tty(extra_env):
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
        env.update(extra_env)
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(str(ASMCAP), [str(ASMCAP), "--cc", "gcc", "--cache", str(tmp_path / "cache")], env)
        out = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        os.waitpid(pid, 0)
        return out.decode()
    assert "\033[32m" in on_tty({"TERM": "xterm"})
    assert "\033[32m" in on_tty({})                       # no TERM: nothing says it cannot
    assert "\033[" not in on_tty({"TERM": "xterm", "NO_COLOR": "1"})
    assert "\033[" not in on_tty({"TERM": "dumb"})         # shows escapes as text


def table(text):
    """The text table's runs line (or None), its header words and its rows' words."""
    lines = text.splitlines()
    runs = next((l for l in lines if l.startswith("runs:")), None)
    at = next(i for i, l in enumerate(lines) if l.startswith("feature"))
    end = next((i for i, l in enumerate(lines) if i > at and not l.strip()), len(lines))
    return runs, lines[at].split(), [l.split() for l in lines[at + 1:end]]


def test_batch_time_shown_once(tmp_path):
    """One batch run decides most features, and gives each its time: the
    table says that time once, above it, not on every row.  The same
    answers from the cache read the same."""
    args = ("--cc", "gcc", "--cache", tmp_path / "cache")
    first = asmcap(*args).stdout
    runs, head, rows = table(first)
    assert head == ["feature", "status", "reason"]           # every feature came from a batch
    times = re.findall(r"(\d+) snippets in one run, (\d+\.\d) ms", runs)
    assert times and all(int(n) > 1 for n, _ in times)
    for _, ms in times:
        # once, on the runs line, and in no row's cells before its reason (whose
        # text may hold the same digits: "AVX10.2", "gcc 12.2.0")
        assert len(re.findall(rf"(?<![\d.]){re.escape(ms)} ms", first)) == 1, ms
        assert all(ms not in row[1:3] for row in rows), ms
    c = caps(*args)                                          # the cache's answers, as JSON
    decided = {v["ms"] for v in c["features"].values() if v["status"] in ("yes", "no", "broken")}
    assert {f"{ms:.1f}" for ms in decided} == {ms for _, ms in times}
    assert asmcap(*args).stdout == first


def test_own_runs_keep_their_time():
    """A batch that fails without naming lines: each feature is settled by
    a run of its own, and each row has its own time."""
    runs, head, rows = table(asmcap("--cc", fake("noline")).stdout)
    assert runs is None and head == ["feature", "status", "ms", "reason"]
    decided = [r for r in rows if r[1] in ("yes", "no", "broken")]
    assert decided and all(re.fullmatch(r"\d+\.\d", r[2]) for r in decided)


def test_output_rewritten_only_when_changed(tmp_path):
    out, cache = tmp_path / "caps.h", tmp_path / "cache"
    args = ["--cc", "gcc", "--cache", cache, "--format", "h", "-o", out]
    assert asmcap(*args).returncode == 0
    first = out.read_text()
    os.utime(out, (1_000_000_000, 1_000_000_000))
    assert asmcap(*args).returncode == 0
    assert out.stat().st_mtime == 1_000_000_000          # same content: untouched
    assert asmcap(*args, "--disable", "adx").returncode == 0
    assert out.stat().st_mtime != 1_000_000_000
    assert out.read_text() != first and "/* #undef ASMCAP_ADX */" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "caps.h"]   # no temp files left


def test_require(tmp_path):
    r = asmcap("--cc", fake("old-as"), "--require", "adx,bmi2", "--format", "sh")
    assert r.returncode == 1
    assert "required feature adx is no" in r.stderr and "no such instruction" in r.stderr
    assert "bmi2" not in r.stderr
    assert "ASMCAP_ADX=no" in r.stdout
    assert asmcap("--cc", fake("old-as"), "--require", "bmi2", "--format", "sh").returncode == 0
    r = asmcap("--cc", "gcc", "--require", "nosuchfeature")
    assert r.returncode == 2 and "nosuchfeature" in r.stderr


def test_disable(tmp_path):
    f = caps("--cc", "gcc", "--disable", "adx", "--features", FEW)["features"]
    assert f["adx"] == {**f["adx"], "status": "disabled", "reason": "disabled by --disable"}
    f = caps("--cc", "gcc", "--features", FEW, env={"ASMCAP_DISABLE": "bmi2,aesni"})["features"]
    assert f["bmi2"]["status"] == "disabled" and "ASMCAP_DISABLE" in f["bmi2"]["reason"]
    assert f["aesni"]["status"] == "disabled" and f["adx"]["status"] == "yes"
    r = asmcap("--cc", "gcc", "--format", "sh", env={"ASMCAP_DISABLE": "bmi2"})
    assert "ASMCAP_BMI2=no" in r.stdout and "ASMCAP_ADX=no" in r.stdout     # adx requires bmi2
    r = asmcap("--cc", "gcc", "--disable", "bogus")
    assert r.returncode == 2 and "bogus" in r.stderr


def test_cache_hit_starts_no_process(tmp_path):
    counter, cache = tmp_path / "count", tmp_path / "cache"
    env = {"PROBE_COUNTER": str(counter), "ASMCAP_STATS": "1"}
    args = ["--cc", fake("count"), "--cache", cache, "--format", "json"]
    first = asmcap(*args, env=env)
    assert first.returncode == 0
    runs = counter.read_text().count("run")
    assert runs >= 1
    second = asmcap(*args, env=env)
    assert second.returncode == 0 and "processes=0 cached=1" in second.stderr
    assert counter.read_text().count("run") == runs
    assert json.loads(second.stdout)["features"] == json.loads(first.stdout)["features"]
    # a changed compiler (mtime) invalidates the entry
    shutil.copy(fake("count"), tmp_path / "cc")
    args2 = ["--cc", str(tmp_path / "cc"), "--cache", cache, "--format", "json"]
    assert asmcap(*args2, env=env).returncode == 0
    runs2 = counter.read_text().count("run")
    assert "processes=0" in asmcap(*args2, env=env).stderr
    os.utime(tmp_path / "cc", (2_000_000_000, 2_000_000_000))
    r = asmcap(*args2, env=env)
    assert "cached=0" in r.stderr and counter.read_text().count("run") > runs2
    # other flags are another key; both entries stay
    r = asmcap(*args, "--cflags", "-O1", env=env)
    assert "cached=0" in r.stderr
    assert "processes=0 cached=1" in asmcap(*args, env=env).stderr


def test_sigterm_removes_the_temp_dir(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), **dict([HANG_TAG.split("=", 1)]))
    p = subprocess.Popen([str(ASMCAP), "--cc", fake("hang"), "--timeout", "60"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while not list(tmp.glob("asmcap.*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(tmp.glob("asmcap.*")), "temp dir never appeared"
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=20)
    assert p.returncode == -signal.SIGTERM
    assert list(tmp.iterdir()) == []
    assert sleepers() == []


# ---- subcommands ----

def test_explain_shows_command_and_bytes():
    r = asmcap("explain", "adx", "--cc", fake("adc"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "verdict:   broken" in out
    assert "command:   " + fake("adc") in out
    assert "adcx\t%rax,%rbx" in out
    assert "expected: 66 48 0f 38 f6 d8 f3 4d 0f 38 f6 c1" in out
    assert "actual:   48 11 c3 4d 11 c8" in out
    r = asmcap("explain", "adx", "--cc", fake("old-as"))
    assert "verdict:   no" in r.stdout and "Error: no such instruction" in r.stdout
    assert asmcap("explain", "nosuch", "--cc", "gcc").returncode == 2


def test_list():
    r = asmcap("list")
    assert r.returncode == 0
    names = {p.stem for p in (ROOT / "templates" / "x86_64").glob("*.s")}
    listed = {l.split()[0] for l in r.stdout.splitlines() if l.startswith("  ")}
    assert names <= listed


def test_cpu_matches_proc_cpuinfo():
    r = asmcap("cpu", "--format", "sh")
    assert r.returncode == 0, r.stderr
    got = dict(l.split("=", 1) for l in r.stdout.splitlines() if l.startswith("ASMCAP_CPU_"))
    flags = set()
    for l in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if l.startswith("flags"):
            flags = set(l.split(":", 1)[1].split())
            break
    for feat, flag in (("ADX", "adx"), ("BMI2", "bmi2"), ("AESNI", "aes"), ("SHA", "sha_ni")):
        assert got[f"ASMCAP_CPU_{feat}"] == ("yes" if flag in flags else "no"), feat
    assert int(got["ASMCAP_CPU_XCR0"], 16) & 3 == 3      # x87+SSE state is always on


def test_cpu_compares_a_cpuid_field(tmp_path):
    """`bits=HI:LO min=N` (AVX10's version in CPUID.(24H,0):EBX[7:0]) is a
    field compared with a minimum, not a bit: CPUID.0:EAX, the highest basic
    leaf, is /proc/cpuinfo's `cpuid level'; that minimum is met, one more
    is not."""
    text = pathlib.Path("/proc/cpuinfo").read_text()
    level = int(re.search(r"^cpuid level\s*:\s*(\d+)", text, re.M)[1])
    text = ("# feature: {0}\n# summary: s\n# since: s\n# expect: 90\n"
            "# cpuid: leaf=0 subleaf=0 reg=eax bits=31:0 min={1}\n\tnop\n")
    d = catalog(tmp_path, {f"{n}.s": text.format(n, m) for n, m in (("at", level), ("above", level + 1))})
    r = asmcap("cpu", "--templates", d, "--format", "sh")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CPU_AT=yes" in r.stdout and "ASMCAP_CPU_ABOVE=no" in r.stdout
    assert f"CPUID.(0,0):eax[31:0] is {level}, below {level + 1}" in r.stdout


def test_log_records_commands(tmp_path):
    log = tmp_path / "log"
    asmcap("--cc", fake("old-as"), "--features", FEW, "--log", log)
    text = log.read_text()
    assert "$ " + fake("old-as") + " -v -c -x assembler-with-cpp" in text
    assert "Error: no such instruction" in text and "exited with status 1" in text
    assert "asmcap_b_" in text and ".text:" in text       # the source and the object's bytes


@pytest.mark.parametrize("args", [["--bogus"], ["--mode", "x"], ["--cc", "'gcc"],
                                  ["--format", "xml"], ["--timeout", "-1"], ["--jobs", "0"]])
def test_usage_errors(args):
    r = asmcap(*args)
    assert r.returncode == 2 and r.stderr.startswith("asmcap: ")


# ---- a catalog from --templates ----

def catalog(tmp_path, files):
    d = tmp_path / "templates"
    (d / "x86_64").mkdir(parents=True)
    (d / "i386").mkdir()
    for name, text in files.items():
        (d / "x86_64" / name).write_text(text)
    return d


CFI = """# feature: {name}
# section: .eh_frame,__eh_frame
# expect: nonempty
\t.cfi_startproc
\tret
\t.cfi_endproc
"""


def test_templates_dir_and_shared_sections(tmp_path):
    d = catalog(tmp_path, {
        "nop.s": "# feature: nop\n# summary: one byte\n# expect: 90\n\tnop\n",
        "nop.nasm": "\tnop\n",
        "wrong.s": "# feature: wrong\n# expect: 90 90\n\tnop\n",
        "cfi1.s": CFI.format(name="cfi1"),
        "cfi2.s": CFI.format(name="cfi2"),
    })
    log = tmp_path / "log"
    c = caps("--cc", "gcc", "--templates", d, "--log", log)
    assert statuses(c) == {"nop": "yes", "wrong": "broken", "cfi1": "yes", "cfi2": "yes"}
    assert c["features"]["wrong"]["reason"] == "mis-encoded: got 90, expected 90 90"
    # two features naming one section cannot share an object: one run each;
    # and `broken' is seen again from wrong's own run in two more rounds,
    # each a control, then that run twice, one after the other (the same
    # rule as cc-probe's): 3 + 2 * (1 + 2)
    assert "processes started: 9;" in log.read_text()
    listed = asmcap("list", "--templates", d).stdout
    assert "nop" in listed and "one byte" in listed


@pytest.mark.parametrize("text,message", [
    ("# feature: other\n# expect: 90\n\tnop\n", "does not match the file name"),
    ("# feature: bad\n# expect: 9g\n\tnop\n", "bad expect"),
    ("# feature: bad\n# cpuid: leaf=7 reg=exx bit=3\n# expect: 90\n\tnop\n", "bad cpuid"),
    # a field needs its minimum and no bit beside it; HI:LO in that order, within 31
    *[(f"# feature: bad\n# cpuid: leaf=36 subleaf=0 reg=ebx {v}\n# expect: 90\n\tnop\n", "bad cpuid")
      for v in ("bits=7:0", "bit=3 min=1", "bits=7:0 min=1 bit=3", "bits=0:7 min=1",
                "bits=32:0 min=1", "bits=7 min=1")],
    ("# feature: bad\n# colour: blue\n# expect: 90\n\tnop\n", "unknown header key `colour'"),
    ("# feature: bad\n\tnop\n", "no `expect' line"),
    ("# feature: bad\n# requires: ghost\n# expect: 90\n\tnop\n", "requires unknown feature `ghost'"),
])
def test_bad_template_is_a_usage_error(tmp_path, text, message):
    d = catalog(tmp_path, {"bad.s": text})
    r = asmcap("--cc", "gcc", "--templates", d)
    assert r.returncode == 2
    assert str(d / "x86_64" / "bad.s") in r.stderr and message in r.stderr


def test_unwritable_output_is_a_usage_error(tmp_path):
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh", "-o", tmp_path / "no" / "such" / "dir" / "caps.sh")
    assert r.returncode == 2 and "cannot write" in r.stderr


def test_garbage_cache_is_ignored_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    cache.write_bytes(b"asmcap-cache 1\nentry\tv1|cc|gcc\nfeature\tadx\nend\n\xff\x00garbage\tdep\t/\t1\n")
    env = {"ASMCAP_STATS": "1"}
    r = asmcap("--cc", "gcc", "--features", "adx", "--cache", cache, env=env)
    assert r.returncode == 0 and "cached=0" in r.stderr
    assert "processes=0 cached=1" in asmcap("--cc", "gcc", "--features", "adx", "--cache", cache, env=env).stderr


@pytest.mark.tools("yasm")
def test_yasm_elf64_labels_are_found():
    # yasm leaves local labels nameless in elf64: the probe's labels are global
    f = caps("--nasm", "yasm", "--flavour", "elf", "--features", "adx,cet")["features"]
    assert f["adx"]["status"] == "yes"
    # yasm 1.3 takes `endbr64' for a label and emits nothing: broken, not yes
    assert f["cet"]["status"] == "broken" and "assembled it to nothing" in f["cet"]["reason"]


@pytest.mark.parametrize("how", ["cp -p", "rename"])
def test_cache_same_size_same_mtime_replacement_is_a_miss(tmp_path, how):
    """`cp -p`, `rsync -a` and `tar x` restore size and mtime but cannot
    restore the inode change time: a compiler replaced by a same-size file
    with the old mtime is a miss, not a stale hit."""
    counter, cache = tmp_path / "count", tmp_path / "cache"
    env = {"PROBE_COUNTER": str(counter), "ASMCAP_STATS": "1"}
    cc = tmp_path / "cc"
    shutil.copy(fake("count"), cc)
    args = ["--cc", str(cc), "--cache", cache, "--format", "json"]
    assert asmcap(*args, env=env).returncode == 0
    assert "processes=0 cached=1" in asmcap(*args, env=env).stderr
    old = cc.stat()
    other = tmp_path / "other"
    text = cc.read_bytes()
    other.write_bytes(text.replace(b"counts", b"COUNTS", 1))     # another program of the same size
    assert other.read_bytes() != text and len(other.read_bytes()) == len(text)
    other.chmod(0o755)
    time.sleep(0.02)
    if how == "cp -p":          # in place: same inode, new ctime
        cc.write_bytes(other.read_bytes())
    else:                       # rsync -a, tar x: a new inode renamed over it
        os.rename(other, cc)
    os.utime(cc, ns=(old.st_atime_ns, old.st_mtime_ns))
    assert (cc.stat().st_size, cc.stat().st_mtime_ns) == (old.st_size, old.st_mtime_ns)
    r = asmcap(*args, env=env)
    assert r.returncode == 0 and "cached=0" in r.stderr, r.stderr
