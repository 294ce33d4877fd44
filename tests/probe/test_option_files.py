# SPDX-License-Identifier: MIT
"""Option files are dependencies like the compiler itself: a clang
configuration file (--config, or a default one `clang -v` reports as
"Configuration file: ..."), @response files in the command words, --cflags
or --asflags (and the ones they name), gcc's -specs=FILE.  Editing one must
not leave the cache answering from the old options."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import FAKES, asmcap, need_tool

ADX = "\tadcx %rax,%rbx\n\tadox %r9,%r8\n"
RESTRICT = "-Wa,-march=generic64"          # GNU as then rejects adcx


def assembles(cc_words, tmp_path):
    """Does this compiler command assemble ADCX/ADOX (the expected verdict,
    from the toolchain itself)?"""
    src = tmp_path / "own.s"
    src.write_text(ADX)
    r = subprocess.run([*cc_words, "-c", "-o", str(tmp_path / "own.o"), str(src)], capture_output=True)
    return "yes" if r.returncode == 0 else "no"


def adx(cache, *args):
    r = asmcap(*args, "--features", "adx", "--cache", cache, "--format", "json", env={"ASMCAP_STATS": "1"})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["features"]["adx"]["status"], "cached=1" in r.stderr


def edit(path, text):
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))   # a second later, whatever the clock


def cases(tmp_path):
    """(name, option file, its restricting text, asmcap args, the compiler words they mean)."""
    d = tmp_path
    clang = need_tool("clang-19")
    (d / "bin").mkdir()
    # a copy of the driver looks for its default config beside itself
    # (bin/clang.cfg); through a symlink it would look beside the target
    shutil.copy(os.path.realpath(clang), d / "bin" / "clang")
    inner = d / "inner.rsp"
    return [
        ("cflags @file", d / "opts.rsp", RESTRICT, ["--cc", "gcc", "--cflags", f"@{d / 'opts.rsp'}"],
         ["gcc", f"@{d / 'opts.rsp'}"]),
        ("cc @file", d / "cc.rsp", RESTRICT, ["--cc", f"gcc @{d / 'cc.rsp'}"], ["gcc", f"@{d / 'cc.rsp'}"]),
        ("nested @file", inner, RESTRICT, ["--cc", "gcc", "--asflags", f"@{d / 'outer.rsp'}"],
         ["gcc", f"@{d / 'outer.rsp'}"]),
        ("-specs", d / "my.specs", "*asm:\n+ -march=generic64\n\n",
         ["--cc", "gcc", "--cflags", f"-specs={d / 'my.specs'}"], ["gcc", f"-specs={d / 'my.specs'}"]),
        ("--config", d / "x.cfg", f"-fno-integrated-as {RESTRICT}\n",
         ["--cc", f"{clang} --config={d / 'x.cfg'}"], [clang, f"--config={d / 'x.cfg'}"]),
        ("default config", d / "bin" / "clang.cfg", f"-fno-integrated-as {RESTRICT}\n",
         ["--cc", str(d / "bin" / "clang")], [str(d / "bin" / "clang")]),
    ]


@pytest.mark.parametrize("which", range(6))
def test_editing_an_option_file_is_a_cache_miss(tmp_path, which):
    name, path, restrict, args, words = cases(tmp_path)[which]
    (tmp_path / "outer.rsp").write_text(f"@{tmp_path / 'inner.rsp'}\n")
    cache = tmp_path / "cache"
    edit(path, restrict)
    first = adx(cache, *args)
    assert first == (assembles(words, tmp_path), False) == ("no", False), name
    assert adx(cache, *args) == ("no", True), name            # unchanged: a hit
    edit(path, "\n" if path.suffix != ".specs" else "\n\n")
    assert adx(cache, *args) == (assembles(words, tmp_path), False) == ("yes", False), name


def test_cc_probe_and_cc_flag_take_option_files_too(tmp_path):
    rsp, cache = tmp_path / "opts.rsp", tmp_path / "cache"
    edit(rsp, RESTRICT)
    args = ("cc-probe", "--cc", "gcc", "--cflags", f"@{rsp}", "--features", "adx-inline", "--cache", cache,
            "--format", "sh")
    assert "ASMCAP_C_ADX_INLINE=no" in asmcap(*args).stdout
    edit(rsp, "\n")
    r = asmcap(*args, env={"ASMCAP_STATS": "1"})
    assert "cached=0" in r.stderr and "ASMCAP_C_ADX_INLINE=yes" in r.stdout, r.stderr
    # cc-flag: a hit starts no compiler; after the edit it must start some
    count = tmp_path / "count"
    flag = ("cc-flag", "--cc", FAKES / "probe-count", "--cflags", f"@{rsp}", "--cache", cache, "--", "-O2")
    env = {"PROBE_COUNTER": str(count)}
    asmcap(*flag, env=env)
    runs = count.read_text()
    asmcap(*flag, env=env)
    assert count.read_text() == runs                     # unchanged: a hit
    edit(rsp, "-O1\n")
    asmcap(*flag, env=env)
    assert count.read_text() != runs
