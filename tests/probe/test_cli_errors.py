# SPDX-License-Identifier: MIT
"""Bad command lines are refused before anything runs, naming what is
wrong; and every subcommand follows one convention: -h/--help on stdout
with exit 0, --opt=value as well as --opt value, an unknown option or a
missing value named with exit 2, a failed -o or a full stdout exit 2, out
of memory exit 4."""
import os
import re
import resource
import signal
import subprocess

import pytest

from conftest import ASMCAP, MODULES, ROOT, SANITIZER_EXIT, asmcap

KNOB = ROOT / "tests" / "ccprobe" / "data" / "knob.c"


@pytest.mark.parametrize("args,msg", [
    (["--require", "adx,nosuch"], "--require: unknown feature"),
    (["--disable", "nosuch"], "--disable: unknown feature"),
    (["list", "--arch", "sparc"], "--arch takes " + ", ".join(MODULES[:-1]) + " or " + MODULES[-1]),
    (["--format", "yaml"], "unknown --format"),
    (["--cc", 'gcc "open'], "unterminated quote"),
    (["--timeout", "0"], "--timeout takes seconds"),
])
def test_usage_errors_exit_2_before_probing(args, msg):
    r = asmcap(*args, "--log", "/dev/null")
    assert r.returncode == 2
    assert msg in r.stderr
    assert "toolchain:" not in r.stdout          # nothing was probed


@pytest.fixture(scope="module")
def knob_spec(tmp_path_factory):
    d = tmp_path_factory.mktemp("knob")
    (d / "knob.c").write_text(KNOB.read_text())
    (d / "knob.spec").write_text("name: knob\nsource: knob.c\nfunction: knob_sum\ncheck: knob_check\n"
                                 "metric: frame\nvariant: only = -O1\n")
    (d / "caps.json").write_text('{"schema": 1, "features": {"adx": {"status": "yes"}}}')
    return d / "knob.spec"


# Every subcommand: a command that works, written with --opt=value, and
# what its stdout must hold when those values took effect.
def working(cmd, spec):
    return {
        "probe": (["--cc=gcc", "--features=adx", "--format=sh"], "ASMCAP_XOP=unprobed"),
        "list": (["list", "--arch=i386"], "i386 (catalog"),
        "explain": (["explain", "adx", "--cc=gcc"], "command:   gcc"),
        "cpu": (["cpu", "--format=sh"], "ASMCAP_CPU_ADX="),
        "audit": (["audit", str(ASMCAP), "--format=json"], '{"schema": 1'),
        "legacy": (["legacy", "--cc=gcc"], "cc: gcc"),
        "cc-flag": (["cc-flag", "--cc=gcc", "--format=sh", "--", "-O2"], "ASMCAP_CFLAG_O2=yes"),
        "frame": (["frame", str(KNOB), "--func=knob_sum", "--cc=gcc", "--format=json"], '"function": "knob_sum"'),
        "choose": (["choose", str(spec), "--cc=gcc", "--format=sh"], "ASMCAP_CHOICE_KNOB=only"),
        "cc-probe": (["cc-probe", "--cc=gcc", "--features=adx-inline", "--format=sh"], "ASMCAP_C_ADX_INLINE=yes"),
        "diff": (["diff", str(spec.parent / "caps.json"), str(spec.parent / "caps.json"), "--format=json"],
                 '"unchanged": 1'),
    }[cmd]


# Every subcommand: its arguments ending in an option that takes a value.
MISSING = {
    "probe": ["--format"], "list": ["list", "--arch"], "explain": ["explain", "adx", "--cc"],
    "cpu": ["cpu", "--format"], "audit": ["audit", "x.o", "--format"], "legacy": ["legacy", "--cc"],
    "cc-flag": ["cc-flag", "--cc"], "frame": ["frame", str(KNOB), "--func"],
    "choose": ["choose", "x.spec", "--rounds"], "cc-probe": ["cc-probe", "--features"],
    "diff": ["diff", "a.json", "b.json", "--format"],
}
COMMANDS = list(MISSING)
# The subcommands that write their result with -o.
WITH_O = ["probe", "cpu", "cc-flag", "choose", "cc-probe", "diff"]


def sub(cmd):
    return [] if cmd == "probe" else [cmd]


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_on_stdout_exit_0(cmd, flag):
    r = asmcap(*sub(cmd), flag)
    assert r.returncode == 0, r.stderr
    # each subcommand's own usage, not the global one (probe's is the global one)
    first = r.stdout.splitlines()[0]
    assert first.startswith("usage: asmcap " + ("[probe]" if cmd == "probe" else cmd + " ")), r.stdout
    assert cmd == "probe" or "--require LIST] [--disable" not in r.stdout
    assert r.stderr == ""


@pytest.mark.parametrize("cmd", COMMANDS)
def test_opt_equals_value(cmd, knob_spec):
    args, want = working(cmd, knob_spec)
    r = asmcap(*args)
    assert r.returncode == 0, r.stderr
    assert want in r.stdout, (r.stdout[:500], r.stderr[-500:])


def test_opt_equals_value_keeps_what_follows_the_first_equals(knob_spec):
    r = asmcap("cc-flag", "--cc=gcc", "--cflags=-DX=1", "--format=sh", "--", "-O2")
    assert r.returncode == 0 and "ASMCAP_CFLAG_O2=yes" in r.stdout, r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
def test_unknown_option_named_exit_2(cmd):
    r = asmcap(*sub(cmd), "--frobnicate=1")
    assert r.returncode == 2
    assert r.stderr == f"asmcap{''.join(' ' + w for w in sub(cmd))}: unknown option `--frobnicate=1'; " \
                       f"see `{' '.join(['asmcap', *sub(cmd)])} --help'\n"
    assert r.stdout == ""


# Every subcommand: a usage error of another kind (a bad value, an
# argument missing or one too many).
OTHER_ERROR = {
    "probe": ["--mode", "x"], "list": ["list", "--arch", "sparc"], "explain": ["explain"],
    "cpu": ["cpu", "--format", "yaml"], "audit": ["audit"], "legacy": ["legacy", "extra"],
    "cc-flag": ["cc-flag", "-O2"], "frame": ["frame", "x.c"], "choose": ["choose"],
    "cc-probe": ["cc-probe", "--jobs", "0"], "diff": ["diff", "a.json"],
}


@pytest.mark.parametrize("kind", ["unknown", "missing", "other"])
@pytest.mark.parametrize("cmd", COMMANDS)
def test_usage_error_is_one_line_pointing_at_help(cmd, kind):
    """A build system's log (CMake, Meson) shows it whole: the message and
    where the usage is, not the usage."""
    args = {"unknown": [*sub(cmd), "--frob"], "missing": MISSING[cmd], "other": OTHER_ERROR[cmd]}[kind]
    r = asmcap(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.endswith(f"; see `{' '.join(['asmcap', *sub(cmd)])} --help'\n"), r.stderr
    assert "usage:" not in r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
def test_missing_value_named_exit_2(cmd):
    args = MISSING[cmd]
    r = asmcap(*args)
    assert r.returncode == 2
    assert f"missing value for `{args[-1]}'" in r.stderr and r.stdout == ""


def test_switch_given_a_value_is_a_usage_error():
    r = asmcap("cc-flag", "--require=yes", "--", "-O2")
    assert r.returncode == 2 and "takes no value: `--require=yes'" in r.stderr


def test_after_dashdash_nothing_is_an_option():
    r = asmcap("cc-flag", "--cc", "gcc", "--format", "sh", "--", "--frobnicate", "-h")
    assert r.returncode == 0, r.stderr
    assert "ASMCAP_CFLAG_FROBNICATE=no" in r.stdout and "ASMCAP_CFLAG_H=" in r.stdout


def run_raw(args, **kw):
    r = subprocess.run([str(ASMCAP), *map(str, args)], stderr=subprocess.PIPE, text=True, timeout=300, **kw)
    assert r.returncode != SANITIZER_EXIT, r.stderr
    return r


@pytest.mark.parametrize("cmd", COMMANDS)
def test_full_stdout_is_exit_2(cmd, knob_spec):
    args, _ = working(cmd, knob_spec)
    with open("/dev/full", "w") as full:
        r = run_raw(args, stdout=full)
    assert r.returncode == 2, r.stderr
    assert "cannot write standard output: No space left on device" in r.stderr


@pytest.mark.parametrize("cmd", ["-h"] + COMMANDS)
def test_closed_pipe(cmd, knob_spec):
    """A reader that went away: SIGPIPE ends asmcap as it ends any filter;
    where SIGPIPE is ignored, the write error is reported, exit 2."""
    args, _ = (["--help"], "") if cmd == "-h" else working(cmd, knob_spec)
    for ignore in (False, True):
        rd, wr = os.pipe()
        os.close(rd)
        pre = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if ignore else None
        try:
            r = run_raw(args, stdout=wr, preexec_fn=pre)
        finally:
            os.close(wr)
        if ignore:
            assert r.returncode == 2 and "cannot write standard output: Broken pipe" in r.stderr, r.stderr
        else:
            assert r.returncode == -signal.SIGPIPE, (r.returncode, r.stderr)


@pytest.mark.parametrize("cmd", WITH_O)
@pytest.mark.parametrize("form", ["-o", "-o="])
def test_failed_output_is_exit_2_everywhere(cmd, form, knob_spec, tmp_path):
    args, _ = working(cmd, knob_spec)
    out = tmp_path / "no-such-dir" / "out"
    where = args.index("--") if "--" in args else len(args)
    o = [form + str(out)] if form.endswith("=") else [form, str(out)]
    r = asmcap(*args[:where], *o, *args[where:])
    assert r.returncode == 2, r.stderr
    assert f"cannot write {out}" in r.stderr and "No such file or directory" in r.stderr


def test_out_of_memory_is_exit_4(tmp_path):
    """Not 3 (the toolchain is fine) nor 2: a 200 MB input read under a
    100 MB address-space limit (ASan: its allocation cap)."""
    big = tmp_path / "big.o"
    with open(big, "wb") as f:
        f.truncate(200 << 20)
    env = dict(os.environ)
    asan = b"__asan_init" in ASMCAP.read_bytes()
    if asan:
        env["ASAN_OPTIONS"] += ":allocator_may_return_null=1:max_allocation_size_mb=100"

    def limit():
        if not asan:
            resource.setrlimit(resource.RLIMIT_AS, (100 << 20, 100 << 20))
    r = run_raw(["audit", big], stdout=subprocess.PIPE, env=env, preexec_fn=limit)
    assert r.returncode == 4, r.stderr
    assert r.stderr.strip().endswith("asmcap: out of memory")


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_option_in_the_usage_is_parsed(cmd):
    """The usage text and the subcommand's option table are written apart:
    each option the usage names must reach the parser's table (a value
    option missing its value is named as such; a switch is no error)."""
    usage = asmcap(*sub(cmd), "--help").stdout
    if cmd == "probe":
        usage = usage.split("asmcap list")[0]       # the other lines are list/explain's
    names = sorted(set(re.findall(r"\[(--?[a-z][a-z-]*)", usage)))
    assert len(names) >= 1 + (cmd not in ("audit", "legacy", "cpu", "list")), usage
    switches = {("cc-flag", "--require")}
    for name in names:
        r = asmcap(*MISSING[cmd][:-1], name)
        assert "unknown option" not in r.stderr, (name, r.stderr)
        if (cmd, name) not in switches:
            assert r.returncode == 2 and f"missing value for `{name}'" in r.stderr, (name, r.stderr)


# The option names the sources' tables hold (OPT_TEXT("--cc", ...) and the like).
OPTION_ROW = re.compile(r'\bOPT_(?:ROW|TEXT|SWITCH|COUNT|FORMAT|LIST|TIMEOUT|CALL|CALL_REPEATED)\(\s*"(--?[a-z][a-z-]*)"')


def table_options():
    names = set()
    for f in (ROOT / "probe").rglob("*.[ch]"):
        names |= set(OPTION_ROW.findall(f.read_text()))
    return sorted(names)


def help_options(text):
    """{option: its help} from the `options:' part of a --help (the help
    after the option on its line, or on the next when the option is wide)."""
    part = text.split("\noptions:\n", 1)[1]
    found = re.findall(r"^  (--?[a-z][a-z-]*)(?: [^ \n]+)?(?:  +|\n {4,})(\S[^\n]*)$", part, re.M)
    return dict(found)


def test_option_rows_are_found():
    names = table_options()
    assert {"--cc", "--jobs", "--expect", "-o", "--cache", "--arch", "--rounds"} <= set(names), names


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_lists_every_option_with_its_help(cmd):
    """--help lists every option the subcommand parses, each with a line of
    help, and none it does not parse: tried against every option name of
    every table in the sources, the parser decides which are the
    subcommand's (unknown or not)."""
    listed = help_options(asmcap(*sub(cmd), "--help").stdout)
    parsed = set()
    for name in table_options():
        r = asmcap(*MISSING[cmd][:-1], name)
        if "unknown option" not in r.stderr:
            parsed.add(name)
    assert parsed and set(listed) == parsed, (sorted(listed), sorted(parsed))
    for name, text in listed.items():
        assert text.strip() and "(null)" not in text, (name, text)
