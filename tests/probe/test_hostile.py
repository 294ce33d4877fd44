# SPDX-License-Identifier: MIT
"""A hostile environment (issue 11, items 2-5 and 9-12): writes that never
replace a device or follow a planted symlink, requires followed
transitively, text from the command line and the toolchain escaped in every
format, FIFOs and endless files refused without hanging, cache entries that
are checked, a catalog that rejects what it cannot represent, and choose /
frame / cc-flag input and failures."""
import json
import os
import random
import re
import shutil
import stat
import subprocess
import tempfile
import time

import pytest

from conftest import ASMCAP, ROOT

BIN = str(ASMCAP.resolve())     # tests change directory and user

ROOT_USER = os.geteuid() == 0
NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
FORMATS = ["text", "json", "sh", "make", "h", "perl", "cmake"]


@pytest.fixture
def shared_dir():
    """A directory the unprivileged user can write too."""
    d = tempfile.mkdtemp(prefix="asmcap-hostile-", dir="/tmp")
    os.chmod(d, 0o777)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def asmcap(*args, env=None, timeout=120, **kw):
    e = dict(os.environ)
    e.pop("ASMCAP_DISABLE", None)
    e.update(env or {})
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, env=e, timeout=timeout, **kw)


@pytest.fixture(scope="module")
def nobody_bin():
    """A copy of the binary the unprivileged user can run: the checkout may
    sit where only root can enter (a clean root's /root)."""
    d = tempfile.mkdtemp(prefix="asmcap-bin-", dir="/tmp")
    os.chmod(d, 0o755)
    copy = os.path.join(d, "asmcap")
    shutil.copy2(BIN, copy)
    os.chmod(copy, 0o755)
    yield copy
    shutil.rmtree(d, ignore_errors=True)


def as_nobody(binary, *args, **kw):
    """asmcap as an unprivileged user (directly when not root already)."""
    cmd = ([*NOBODY, binary] if ROOT_USER else [BIN]) + [*map(str, args)]
    env = dict(os.environ)
    env.pop("ASMCAP_DISABLE", None)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, **kw)


# ---- writes: -o and --cache (items 2 and 3) ----

@pytest.mark.skipif(not ROOT_USER, reason="creating a device node needs root")
def test_o_on_a_device_as_root_writes_in_place(tmp_path):
    # A private copy of /dev/null (same major/minor) first: on a build that
    # replaces devices this fails here, before the real /dev/null is touched.
    dev = tmp_path / "null"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    r = asmcap("cpu", "--format", "sh", "-o", dev)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.stat(dev).st_mode), "-o replaced a character device"
    r = asmcap("cpu", "--format", "sh", "-o", "/dev/null")
    assert r.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    r = asmcap("cpu", "--format", "sh", "-o", full)
    assert r.returncode == 2 and "No space left" in r.stderr and str(full) in r.stderr
    assert stat.S_ISCHR(os.stat(full).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["full", "null"], "temporary files left behind"


def test_o_dev_stdout_as_non_root(shared_dir, nobody_bin):
    r = as_nobody(nobody_bin, "cpu", "--format", "sh", "-o", "/dev/stdout", cwd=shared_dir)
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CPU_" in r.stdout


def test_o_stdout_by_name_redirected_to_a_file(tmp_path):
    # A private link like /dev/stdout: a build that replaces what the link
    # resolves to must not be able to replace the machine's /dev/stdout.
    out, link = tmp_path / "out.sh", tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    with open(out, "w") as f:
        r = subprocess.run([BIN, "cpu", "--format", "sh", "-o", link], stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CPU_" in out.read_text(), "the file the shell opened lost the output"


def test_non_root_writes_a_regular_file_atomically(shared_dir, nobody_bin):
    out = os.path.join(shared_dir, "cpu.mk")
    r = as_nobody(nobody_bin, "cpu", "--format", "make", "-o", out)
    assert r.returncode == 0, r.stderr
    st = os.stat(out)
    assert stat.S_ISREG(st.st_mode) and st.st_uid != 0 or not ROOT_USER
    assert "ASMCAP_CPU_" in open(out).read()
    assert os.listdir(shared_dir) == ["cpu.mk"]


@pytest.mark.parametrize("who", ["root", "nobody"])
def test_planted_symlink_at_the_old_temp_name_is_not_followed(shared_dir, who, nobody_bin):
    """The launcher plants caps.mk.tmp.$$ -> victim, then execs asmcap
    with the same pid: a predictable temp name would write the victim."""
    if who == "nobody" and not ROOT_USER:
        pytest.skip("already unprivileged: the root case covers it")
    victim = os.path.join(shared_dir, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.chmod(victim, 0o666)
    script = (f'cd {shared_dir} && ln -s victim caps.mk.tmp.$$ && ln -s victim .caps.mk.tmp.$$ && '
              f'exec {nobody_bin if who == "nobody" else BIN} cpu --format make -o caps.mk')
    cmd = ([*NOBODY] if who == "nobody" else []) + ["sh", "-c", script]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert open(victim).read() == "precious\n", "written through a planted symlink"
    assert "ASMCAP_CPU_" in open(os.path.join(shared_dir, "caps.mk")).read()
    assert not os.path.islink(os.path.join(shared_dir, "caps.mk"))
    leftovers = [n for n in os.listdir(shared_dir) if n.startswith(".asmcap-")]
    assert not leftovers


def test_symlink_to_a_regular_file_keeps_the_link(tmp_path):
    real = tmp_path / "real.h"
    real.write_text("old\n")
    os.chmod(real, 0o640)
    (tmp_path / "link.h").symlink_to("real.h")
    r = asmcap("cpu", "--format", "h", "-o", tmp_path / "link.h")
    assert r.returncode == 0, r.stderr
    assert os.path.islink(tmp_path / "link.h") and "ASMCAP_CPU_" in real.read_text()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640, "the file's mode was not kept"


def test_o_on_a_directory_is_refused(tmp_path):
    r = asmcap("cpu", "--format", "sh", "-o", tmp_path)
    assert r.returncode == 2 and "a directory" in r.stderr and str(tmp_path) in r.stderr


def fifo(tmp_path, name="fifo"):
    p = tmp_path / name
    os.mkfifo(p)
    return p


# every subcommand that writes goes through the same function
WRITERS = [["cpu", "--format", "sh"],
           ["--cc", "gcc", "--features", "adx", "--format", "sh"],
           ["cc-flag", "--cc", "gcc", "--format", "sh", "--", "-O2"],
           ["cc-probe", "--cc", "gcc", "--features", "sha-inline", "--format", "sh"]]


@pytest.mark.parametrize("args", WRITERS, ids=["cpu", "probe", "cc-flag", "cc-probe"])
def test_o_fifo_without_reader_is_an_error_not_a_hang(tmp_path, args):
    f = fifo(tmp_path)
    if args[0] == "cc-flag":
        args = args[:-2] + ["-o", str(f)] + args[-2:]
    else:
        args = args + ["-o", str(f)]
    r = asmcap(*args, timeout=30)
    assert r.returncode in (2, 3) and "FIFO with no reader" in r.stderr, r.stderr
    assert stat.S_ISFIFO(os.stat(f).st_mode)


def test_o_fifo_with_a_reader_is_written_in_place(tmp_path):
    f = fifo(tmp_path)
    reader = subprocess.Popen(["cat", str(f)], stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.2)  # cat opens the FIFO
        r = asmcap("cpu", "--format", "sh", "-o", f, timeout=30)
        out, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()    # a writer that never came must not leave cat behind
        reader.wait()
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CPU_" in out and stat.S_ISFIFO(os.stat(f).st_mode)


@pytest.mark.parametrize("cmd", [["--cc", "gcc", "--features", "adx", "--format", "sh"],
                                 ["cc-flag", "--cc", "gcc", "--format", "sh"],
                                 ["cc-probe", "--cc", "gcc", "--features", "sha-inline", "--format", "sh"]],
                         ids=["probe", "cc-flag", "cc-probe"])
def test_cache_fifo_never_hangs(tmp_path, cmd):
    f = fifo(tmp_path)
    args = cmd + ["--cache", str(f)] + (["--", "-O2"] if cmd[0] == "cc-flag" else [])
    r = asmcap(*args, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "a FIFO, not a regular file" in r.stderr and "ASMCAP_" in r.stdout
    assert stat.S_ISFIFO(os.stat(f).st_mode)


# ---- requires followed transitively (item 4) ----

def test_disabled_avx2_makes_everything_above_it_unusable(tmp_path):
    env = {"ASMCAP_DISABLE": "avx2"}
    feats = ["--cc", "gcc", "--features", "avx512ifma"]
    j = json.loads(asmcap(*feats, "--format", "json", env=env).stdout)
    assert j["features"]["avx512f"]["status"] == "yes"       # it assembles ...
    assert j["features"]["avx512ifma"]["usable"] is False    # ... but cannot be used
    assert j["features"]["avx512f"]["usable"] is False
    assert j["features"]["avx"]["usable"] is True
    outs = {f: asmcap(*feats, "--format", f, env=env).stdout for f in ["sh", "make", "perl", "cmake", "h"]}
    assert "ASMCAP_AVX512IFMA=no" in outs["sh"]
    assert "ASMCAP_AVX512IFMA := no" in outs["make"]
    assert "ASMCAP_AVX512IFMA => 'no'" in outs["perl"]
    assert "set(ASMCAP_AVX512IFMA OFF)" in outs["cmake"]
    assert "/* #undef ASMCAP_AVX512IFMA */" in outs["h"] and "#define ASMCAP_AVX512IFMA" not in outs["h"]
    r = asmcap(*feats, "--require", "avx512ifma", env=env)
    assert r.returncode == 1 and "requires avx2, which is disabled" in r.stderr
    assert asmcap(*feats, "--require", "avx512f", env=env).returncode == 1
    text = asmcap(*feats, env=env).stdout
    assert re.search(r"avx512ifma: assembles, but it requires avx2, which is disabled", text)
    caps = tmp_path / "caps.json"
    caps.write_text(json.dumps(j))
    perl = subprocess.run(["perl", "-I", str(ROOT / "perlasm"), "-MAsmcap", "-e",
                           "my $c = Asmcap->load($ARGV[0]); print join(',', map { $c->has($_) } "
                           "qw(avx512ifma avx512f avx2 avx))", str(caps)],
                          capture_output=True, text=True)
    assert perl.returncode == 0, perl.stderr
    assert perl.stdout == "0,0,0,1"


# ---- escaping (item 5) ----

HOSTILE = "x\n*/ #error hostile\n$(touch MARK1) `touch MARK2` \"d\" # \\"   # a word inside '...'



def hostile_cc(tmp_path):
    """gcc behind a launcher whose identity line is hostile (with a NUL)."""
    cc = tmp_path / "evil-cc"
    ident = "gcc version 9 */ #error $(touch MARK3) `touch MARK4` 'a' \"b\" # \\\\ \\000 after-nul"
    cc.write_text(f"#!/bin/sh\nfor a; do [ \"$a\" = -v ] && printf '%b\\n' '{ident}' >&2; done\n"
                  "exec gcc \"$@\"\n")
    cc.chmod(0o755)
    return cc


def check_no_marks(d):
    marks = [p for p in os.listdir(d) if p.startswith("MARK")]
    assert not marks, f"text from the command line or toolchain ran: {marks}"


def parse_outputs(d, outs, want):
    """Each format parsed by its own reader; `want` are sh-visible values."""
    (d / "caps.sh").write_text(outs["sh"])
    r = subprocess.run(["sh", "-c", ". ./caps.sh && printf '%s|%s' \"$ASMCAP_FLAVOUR\" \"$" + want + "\""],
                       cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    sh_view = r.stdout
    (d / "caps.mk").write_text(outs["make"])
    (d / "Makefile").write_text("include caps.mk\nall:\n\t@printf '%s|%s' '$(ASMCAP_FLAVOUR)' '$(" + want + ")'\n")
    r = subprocess.run(["make", "-s"], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == sh_view
    (d / "caps.h").write_text(outs["h"])
    (d / "t.c").write_text('#include "caps.h"\n#include <stdio.h>\nint main(void) { puts(ASMCAP_FLAVOUR); return 0; }\n')
    r = subprocess.run(["cc", "-Werror", "-Wall", "-trigraphs", "-o", "t", "t.c"], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert subprocess.run(["./t"], cwd=d, capture_output=True, text=True).stdout.strip() == sh_view.split("|")[0]
    (d / "caps.pl").write_text(outs["perl"])
    r = subprocess.run(["perl", "-e", "do './caps.pl' or die $@ || $!; print \"$asmcap{ASMCAP_FLAVOUR}|$asmcap{"
                        + want + "}\""], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.replace("yes", "ON").replace("no", "OFF") == sh_view.replace("yes", "ON").replace("no", "OFF")
    (d / "caps.cmake").write_text(outs["cmake"])
    (d / "t.cmake").write_text('include(caps.cmake)\nmessage("${ASMCAP_FLAVOUR}")\n')
    r = subprocess.run(["cmake", "-P", "t.cmake"], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == sh_view.split("|")[0]
    json.loads(outs["json"])
    for line in outs["text"].splitlines():
        assert not line.startswith(("*/", "$(", "#error")), line
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", line)
    check_no_marks(d)


@pytest.mark.skipif(not shutil.which("cmake"), reason="cmake not installed")
def test_hostile_text_through_every_probe_format(tmp_path):
    cc = hostile_cc(tmp_path)
    wrapper = ROOT / "tests" / "fake" / "probe-wrapper"
    cmd = f"{wrapper} --tag '{HOSTILE}' {cc}"
    outs = {}
    for f in FORMATS:
        r = asmcap("--cc", cmd, "--features", "adx", "--format", f, cwd=tmp_path)
        assert r.returncode == 0, (f, r.stderr)
        outs[f] = r.stdout
    assert "\x00" not in "".join(outs.values())
    j = json.loads(outs["json"])
    assert HOSTILE in j["toolchain"]["argv"]
    assert j["toolchain"]["identity"].startswith("gcc version 9 */ #error $(touch MARK3)")
    parse_outputs(tmp_path, outs, "ASMCAP_ADX")


@pytest.mark.skipif(not shutil.which("cmake"), reason="cmake not installed")
def test_hostile_text_through_every_cc_flag_format(tmp_path):
    wrapper = ROOT / "tests" / "fake" / "probe-wrapper"
    flag = "-DHOSTILE=" + HOSTILE.replace("\n", " ")
    bad = "-fno-such-" + HOSTILE
    outs = {}
    for f in FORMATS:
        r = asmcap("cc-flag", "--cc", f"{wrapper} --tag '{HOSTILE}' gcc", "--format", f, "--",
                   flag, bad, cwd=tmp_path)
        assert r.returncode == 0, (f, r.stderr)
        outs[f] = r.stdout
    j = json.loads(outs["json"])
    assert [v for k, v in j.items() if k.startswith("ASMCAP_CFLAG_DHOSTILE_X")] == ["yes"]
    # the sh and make readers need a flavour variable: add one the same way
    for f, line in [("sh", "ASMCAP_FLAVOUR=elf\n"), ("make", "ASMCAP_FLAVOUR := elf\n"),
                    ("perl", None), ("cmake", "set(ASMCAP_FLAVOUR \"elf\")\n"), ("h", "#define ASMCAP_FLAVOUR \"elf\"\n")]:
        if line:
            outs[f] += line
    outs["perl"] = outs["perl"].replace("our %asmcap = (\n", "our %asmcap = (\n    ASMCAP_FLAVOUR => 'elf',\n")
    name = [k for k in j if k.startswith("ASMCAP_CFLAG_FNO_SUCH_")][0]
    assert j[name] == "no"
    parse_outputs(tmp_path, outs, name)


# ---- FIFOs and endless files (item 9) ----

def test_audit_refuses_fifo_and_devices(tmp_path):
    f = fifo(tmp_path)
    for target in [f, "/dev/zero", tmp_path]:
        r = asmcap("audit", target, timeout=30)
        assert r.returncode == 2 and "not a regular file" in r.stderr and str(target) in r.stderr


def test_audit_of_a_huge_sparse_file_is_refused_in_bounded_memory(tmp_path):
    big = tmp_path / "big.o"
    with open(big, "wb") as f:
        f.truncate(1 << 30)

    def run(*args):
        """stderr and peak resident KiB of asmcap ARGS.  A forked child's
        peak counts the parent's pages it held before exec, so only the
        difference between two runs says what asmcap itself used."""
        p = subprocess.Popen([BIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, _, usage = os.wait4(p.pid, 0)
        err = p.stderr.read().decode()
        p.stdout.close(), p.stderr.close()
        return err, usage.ru_maxrss

    _, base = run("--version")
    err, peak = run("audit", str(big))
    assert "larger than the 256 MiB limit" in err and str(big) in err
    assert peak - base < 64 * 1024, f"{peak} KiB resident for a refused file ({base} KiB for --version)"


def test_templates_fifo_is_refused(tmp_path):
    shutil.copytree(ROOT / "templates", tmp_path / "t")
    fifo(tmp_path / "t" / "x86_64", "zz.s")
    for args in [["list"], ["--cc", "gcc", "--features", "adx"]]:
        r = asmcap(*args, "--templates", tmp_path / "t", timeout=30)
        assert r.returncode == 2 and "zz.s: a FIFO, not a regular file" in r.stderr, r.stderr


# ---- cache entries (item 10) ----

def fnv_entry(lines):
    h = 0xcbf29ce484222325
    for l in lines:
        for b in l.encode() + b"\n":
            h = ((h ^ b) * 0x100000001b3) & (1 << 64) - 1
    return h


def resum(text):
    """Recompute the sum line of the (single) entry, as a writer would."""
    lines = text.split("\n")
    e = next(i for i, l in enumerate(lines) if l.startswith("entry\t"))
    s = next(i for i, l in enumerate(lines) if l.startswith("sum\t"))
    lines[s] = "sum\t%016x" % fnv_entry(lines[e:s])
    return "\n".join(lines)


@pytest.fixture
def switchable_cc(tmp_path):
    """gcc, or with FAIL set a compiler that fails at once: a cache miss
    then ends in exit 3 within milliseconds instead of a probe."""
    cc = tmp_path / "cc"
    cc.write_text('#!/bin/sh\n[ -n "$FAIL" ] && exit 1\nexec gcc "$@"\n')
    cc.chmod(0o755)
    return cc


def cached_run(cc, cache, fail=True):
    return asmcap("--cc", cc, "--cache", cache, "--format", "json",
                  env={"ASMCAP_STATS": "1", **({"FAIL": "1"} if fail else {})})


def verdicts(out):
    return {k: v["status"] for k, v in json.loads(out)["features"].items()}


def test_cache_entry_with_unknown_content_is_a_miss(tmp_path, switchable_cc):
    cache = tmp_path / "c.cache"
    good = cached_run(switchable_cc, cache, fail=False)
    assert good.returncode == 0
    text = cache.read_text()
    assert cached_run(switchable_cc, cache).returncode == 0, "the clean entry must hit"
    edits = [lambda t: t.replace("\tyes\t", "\tmaybe\t", 1),        # unknown status
             lambda t: re.sub(r"^catalog\t\S+", "catalog\tsparc", t, flags=re.M),
             lambda t: re.sub(r"^(feature\t[^\n]*)", r"\1\textra", t, count=1, flags=re.M),
             lambda t: re.sub(r"^tool\tarch\t\S+", "tool\tarch\tz80", t, flags=re.M),
             lambda t: re.sub(r"^(tool\tflavour[^\n]*\n)", r"\1tool\tcolour\tred\n", t, flags=re.M),
             lambda t: re.sub(r"^feature\tadx[^\n]*\n", "", t, flags=re.M),
             lambda t: re.sub(r"^build\t1", "build\t7", t, flags=re.M)]
    for edit in edits:
        changed = edit(text)
        assert changed != text
        cache.write_text(resum(changed))
        r = cached_run(switchable_cc, cache)
        assert r.returncode == 3 and "cached=0" in r.stderr, (changed, r.stdout[:300])


def test_random_bit_flips_never_give_an_altered_hit(tmp_path, switchable_cc):
    cache = tmp_path / "c.cache"
    good = cached_run(switchable_cc, cache, fail=False)
    want = verdicts(good.stdout)
    data = cache.read_bytes()
    rng = random.Random(11)
    hits = 0
    for _ in range(300):
        b = bytearray(data)
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
        cache.write_bytes(bytes(b))
        r = cached_run(switchable_cc, cache)
        if i < len(b"asmcap-cache "):
            # the mark of a file asmcap wrote is gone: refused, never overwritten
            assert r.returncode == 2 and "not a cache asmcap wrote" in r.stderr, r.stderr
            assert cache.read_bytes() == bytes(b)
        elif r.returncode == 0:
            hits += 1
            assert "cached=1" in r.stderr
            assert verdicts(r.stdout) == want, f"a flip at byte {i} gave a hit with other verdicts"
        else:
            assert r.returncode == 3 and "cached=0" in r.stderr, r.stderr
    assert hits < 300   # flips inside the entry were misses


# ---- catalog laxness (item 11) ----

def broken_catalog(tmp_path, edit):
    d = tmp_path / "t"
    shutil.copytree(ROOT / "templates", d)
    edit(d / "x86_64")
    return d


def sub(path, old, new, count=1):
    t = path.read_text()
    assert old in t, (path, old)
    path.write_text(t.replace(old, new, count))


CATALOG_CASES = [
    ("self-require", lambda d: sub(d / "adx.s", "# requires: bmi2", "# requires: adx"),
     r"adx\.s:\d+: `requires' makes a cycle: adx -> adx"),
    ("cycle", lambda d: sub(d / "bmi2.s", "# feature: bmi2\n", "# feature: bmi2\n# requires: adx\n"),
     r"\.s:\d+: `requires' makes a cycle: (adx -> bmi2 -> adx|bmi2 -> adx -> bmi2)"),
    ("fold-case", lambda d: (d / "ADX.s").write_text((d / "adx.s").read_text().replace("feature: adx", "feature: ADX")),
     r"adx\.s:1: feature `adx' and .*ADX\.s both become ASMCAP_ADX"),
    ("fold-dash", lambda d: ((d / "a-b.s").write_text("# feature: a-b\n# expect: 90\n\tnop\n"),
                             (d / "a_b.s").write_text("# feature: a_b\n# expect: 90\n\tnop\n")),
     r"a_b\.s:1: feature `a_b' and .*a-b\.s both become ASMCAP_A_B"),
    ("bad-hex", lambda d: sub(d / "adx.s", "# expect: 66", "# expect: +f 66"), r"adx\.s:\d+: bad expect `\+f"),
    ("repeated-key", lambda d: sub(d / "adx.s", "# feature: adx\n", "# feature: adx\n# summary: a\n# summary: b\n"),
     r"adx\.s:\d+: `summary:' given twice"),
    ("cpuid-overflow", lambda d: sub(d / "adx.s", "leaf=7", "leaf=0x100000007"), r"adx\.s:\d+: bad cpuid"),
    ("cpuid-negative", lambda d: sub(d / "adx.s", "leaf=7", "leaf=-1"), r"adx\.s:\d+: bad cpuid"),
    ("xcr0-overflow", lambda d: sub(d / "avx2.s", "# feature: avx2\n", "# feature: avx2\n# xcr0: 0x1ffffffffffffffff\n"),
     r"avx2\.s:\d+: bad xcr0"),
    ("directory", lambda d: (d / "x.s").mkdir(), r"x\.s: a directory, not a regular file"),
    ("nul", lambda d: (d / "z.s").write_bytes(b"# feature: z\n# expect: 90\n\tnop\0\n"), r"z\.s:3: contains a NUL byte"),
]


@pytest.mark.parametrize("name,edit,msg", CATALOG_CASES, ids=[c[0] for c in CATALOG_CASES])
def test_catalog_rejects_with_file_and_line(tmp_path, name, edit, msg):
    d = broken_catalog(tmp_path, edit)
    r = asmcap("list", "--templates", d, "--arch", "x86_64", timeout=30)
    assert r.returncode == 2, (name, r.stdout[:300])
    assert re.search(msg, r.stderr), (name, r.stderr)


# ---- choose / frame / cc-flag (item 12) ----

KNOB_C = r"""
#include <stdint.h>
#include <stddef.h>
volatile int sink;
uint64_t knob_check(void);
size_t knob_bench(size_t n);
int knob(int x);
int knob(int x) { return x * 3 + 1; }
uint64_t knob_check(void)
{
#ifdef CRASH
	__builtin_trap();
#endif
#ifdef HANG
	for (;;) sink++;
#endif
#ifdef FAIL
	return 0;
#endif
	return (uint64_t)knob(14);
}
size_t knob_bench(size_t n) { for (size_t i = 0; i < n; i++) sink = knob((int)i); return n; }
"""


def knob_spec(tmp_path, variants, extra=""):
    (tmp_path / "knob.c").write_text(KNOB_C)
    body = "name: knob\nsource: knob.c\nfunction: knob\ncheck: knob_check\nmetric: frame\n" + extra
    body += "".join(f"variant: {n} = {f}\n" for n, f in variants)
    p = tmp_path / "knob.spec"
    p.write_text(body)
    return p


def test_choose_long_line_is_not_split(tmp_path):
    p = knob_spec(tmp_path, [("a", ""), ("b", "")], extra="# " + "x" * 5000 + "default: b\n")
    r = asmcap("choose", p, "--cc", "gcc", "--format", "sh")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CHOICE_KNOB=a" in r.stdout, "a long comment line was split and its tail read as a key"


def test_choose_nul_in_spec_names_the_line(tmp_path):
    p = knob_spec(tmp_path, [("a", "")])
    p.write_bytes(p.read_bytes() + b"variant: b = -O2\0 -DX\n")
    r = asmcap("choose", p, "--cc", "gcc")
    assert r.returncode == 2 and "knob.spec:7: contains a NUL byte" in r.stderr, r.stderr


@pytest.mark.parametrize("flag,what", [("-DCRASH", "SIGILL"), ("-DHANG", "timed out"), ("-DFAIL", "")])
def test_choose_variant_whose_check_fails_is_exit_1(tmp_path, flag, what):
    p = knob_spec(tmp_path, [("a", ""), ("b", flag)])
    t0 = time.time()
    r = asmcap("choose", p, "--cc", "gcc", "--timeout", "2", "--format", "sh", timeout=60)
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "variant b fails its check" in r.stderr or "variant b computes a different result" in r.stderr
    assert what in r.stderr
    assert time.time() - t0 < 30


@pytest.mark.parametrize("cmd", [["cc-flag", "--cc", "{hang}", "--timeout", "1", "--", "-O2"],
                                 ["frame", "{src}", "--func", "knob", "--cc", "{hang}", "--timeout", "1"],
                                 ["choose", "{spec}", "--cc", "{hang}", "--timeout", "1"],
                                 ["cc-probe", "--cc", "{hang}", "--timeout", "1"]],
                         ids=["cc-flag", "frame", "choose", "cc-probe"])
def test_timeout_option(tmp_path, cmd):
    spec = knob_spec(tmp_path, [("a", "")])
    hang = ROOT / "tests" / "fake" / "probe-hang"
    args = [a.format(hang=hang, src=tmp_path / "knob.c", spec=spec) for a in cmd]
    t0 = time.time()
    r = asmcap(*args, timeout=60)
    assert r.returncode == 3 and "timed out" in r.stderr, (r.returncode, r.stderr)
    assert time.time() - t0 < 15
    bad = [a if a != "1" else "0" for a in args]
    r = asmcap(*bad)
    assert r.returncode == 2 and "--timeout takes seconds" in r.stderr


# ---- issue 21: --cache on a file that is not a cache, --log on a FIFO ----

CACHE_USERS = [["--cc", "gcc", "--features", "adx", "--format", "sh"],
               ["cc-flag", "--cc", "gcc", "--format", "sh"],
               ["cc-probe", "--cc", "gcc", "--features", "sha-inline", "--format", "sh"]]


@pytest.mark.parametrize("cmd", CACHE_USERS, ids=["probe", "cc-flag", "cc-probe"])
def test_cache_on_a_file_that_is_not_a_cache_is_refused(tmp_path, cmd):
    """--cache main.c would replace the user's file with cache text: exit 2
    naming it, the file untouched; a new or empty file becomes a cache."""
    src = tmp_path / "main.c"
    src.write_text("int main(void) { return 0; }\n")
    tail = ["--", "-O2"] if cmd[0] == "cc-flag" else []
    r = asmcap(*cmd, "--cache", src, *tail)
    assert r.returncode == 2, r.stderr
    assert "not a cache asmcap wrote" in r.stderr and str(src) in r.stderr
    assert src.read_text() == "int main(void) { return 0; }\n"
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    for cache in (empty, tmp_path / "new"):
        r = asmcap(*cmd, "--cache", cache, *tail)
        assert r.returncode == 0, r.stderr
        assert cache.read_text().startswith("asmcap-cache ")
        r = asmcap(*cmd, "--cache", cache, *tail)     # and it is taken again
        assert r.returncode == 0, r.stderr


def test_log_fifo_without_reader_is_an_error_not_a_hang(tmp_path):
    f = fifo(tmp_path)
    r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh", "--log", f, timeout=30)
    assert r.returncode == 2 and "FIFO with no reader" in r.stderr and str(f) in r.stderr, r.stderr
    assert stat.S_ISFIFO(os.stat(f).st_mode)


def test_log_fifo_with_a_reader_is_written(tmp_path):
    f = fifo(tmp_path)
    reader = subprocess.Popen(["cat", str(f)], stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.2)  # cat opens the FIFO
        r = asmcap("--cc", "gcc", "--features", "adx", "--format", "sh", "--log", f, timeout=60)
        out, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()
        reader.wait()
    assert r.returncode == 0, r.stderr
    assert out.startswith("# asmcap ") and "# exit 0" in out


# ---- issue 21 item 18: nothing a run starts outlives it ----

def alive(pid):
    """Running (a zombie waiting for init to reap it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def strays_left(pidfile):
    pids = [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []
    assert pids, "the stray never started: the test proves nothing"
    left = [p for p in pids if alive(p)]
    for p in left:          # today's strays must not outlive the test either
        os.kill(p, 9)
    return left


STRAY_CC = """#!/usr/bin/python3
# gcc, after leaving a child behind in a session of its own (setsid), as a
# compile server or a launcher's daemon does
import os, sys, time
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    with open({pidfile!r}, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    os.write(w, b"x")
    time.sleep(120)
    os._exit(0)
os.read(r, 1)
os.execvp("gcc", ["gcc"] + sys.argv[1:])
"""


def test_a_toolchain_commands_daemon_does_not_outlive_the_run(tmp_path):
    pidfile = tmp_path / "pids"
    cc = tmp_path / "cc"
    cc.write_text(STRAY_CC.format(pidfile=str(pidfile)))
    cc.chmod(0o755)
    r = asmcap("--cc", cc, "--features", "adx", "--format", "sh", timeout=120)
    assert r.returncode == 0 and "ASMCAP_ADX=yes" in r.stdout, r.stderr
    assert strays_left(pidfile) == []


STRAY_CHECK = r"""
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
uint64_t knob_sum(const unsigned char *p, size_t n);
uint64_t stray_check(void)
{
	int fd[2];
	char c;
	if (pipe(fd))
		return 0;
	if (fork() == 0) {
		setsid();
		FILE *f = fopen("%s", "a");
		fprintf(f, "%%d\n", (int)getpid());
		fclose(f);
		if (write(fd[1], "x", 1) != 1)
			_exit(1);
		sleep(120);
		_exit(0);
	}
	if (read(fd[0], &c, 1) != 1)
		return 0;
	return knob_sum((const unsigned char *)"abc", 3);
}
"""


def test_a_checks_setsid_child_does_not_outlive_choose(tmp_path):
    pidfile = tmp_path / "pids"
    knob = (ROOT / "tests" / "ccprobe" / "data" / "knob.c").read_text()
    (tmp_path / "knob.c").write_text(knob + STRAY_CHECK % pidfile)
    spec = tmp_path / "knob.spec"
    spec.write_text("name: knob\nsource: knob.c\nfunction: knob_sum\ncheck: stray_check\nmetric: frame\n"
                    "variant: a =\nvariant: b = -DBIG=1\n")
    r = asmcap("choose", spec, "--cc", "gcc", "--cflags", "-O2", "--format", "sh", timeout=120)
    assert r.returncode == 0 and "ASMCAP_CHOICE_KNOB=a" in r.stdout, r.stderr
    assert strays_left(pidfile) == []
