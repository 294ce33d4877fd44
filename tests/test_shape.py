# SPDX-License-Identifier: MIT
"""The code keeps the shape its README promises: no C function and no Perl
sub over 80 lines (the table-driven instruction decoder excepted), so a
long function is caught when it is written, not in a later clean-up."""
import re

from conftest import ROOT

LIMIT = 80
# Table decoders: one case per opcode map, read as a table, not as a story.
TABLES = {("probe/arch/x86dec.c", "x86_decode")}

C_HEAD = re.compile(r"^[A-Za-z].*?(\w+)\(")      # a definition's first line (its arguments may go on)
PERL_HEAD = re.compile(r"^sub (\w+)")


def sources(*suffixes):
    """The project's files with these endings, in the folders that hold
    code (a clean root has no git to ask)."""
    return sorted(str(f.relative_to(ROOT)) for d in ("probe", "mont", "bench", "fuzz", "perlasm", "templates", "tests",
                                                     "examples", "ci")
                  for f in (ROOT / d).rglob("*") if f.suffix in suffixes and "__pycache__" not in f.parts)


def lengths(text, head, brace_alone):
    """(name, first line, lines) of every top-level function in text: from
    its head to the first `}` in column 0.  C (brace_alone): the body opens
    with a `{` alone in column 0, the head being the last line before it
    that starts a definition."""
    found, start, name = [], None, None
    for i, line in enumerate(text.split("\n")):
        m = head.match(line)
        if start is None and m:
            start, name = i, m.group(1)
            opened = not brace_alone
        elif start is not None and brace_alone and not opened:
            if line == "{":
                opened = True
            elif line[:1].isalpha() or line.rstrip().endswith(";"):
                start = None            # a declaration, not a definition
        elif start is not None and line.startswith("}"):
            found.append((name, start + 1, i - start + 1))
            start = None
    return found


def long_ones(paths, head, brace_alone):
    return [f"{p}:{line} {name} ({n} lines)" for p in paths
            for name, line, n in lengths((ROOT / p).read_text(errors="replace"), head, brace_alone)
            if n > LIMIT and (p, name) not in TABLES]


def test_no_long_c_function():
    paths = sources(".c")
    assert len(paths) > 40
    assert long_ones(paths, C_HEAD, True) == []


def test_no_long_perl_sub():
    paths = sources(".pl", ".pm")
    assert len(paths) > 5
    assert long_ones(paths, PERL_HEAD, False) == []


def test_the_measure_sees_long_functions():
    """What the two tests above measure: a long C function and a long sub
    are found, with their names and lengths; the decoder is the only
    exception and it is still there to be excepted."""
    body = "\n".join(f"\tx += {k};" for k in range(LIMIT))
    c = (f"int f(int x);\nstatic const int t[] = {{\n\t1,\n}};\n"
         f"static int f(int x,\n             int y)\n{{\n{body}\n\treturn x;\n}}\n")
    assert lengths(c, C_HEAD, True) == [("f", 5, LIMIT + 5)]
    perl = "sub g {\n" + "\n".join(f"\t$x += {k};" for k in range(LIMIT)) + "\n}\n"
    assert lengths(perl, PERL_HEAD, False) == [("g", 1, LIMIT + 2)]
    decoder = lengths((ROOT / "probe/arch/x86dec.c").read_text(), C_HEAD, True)
    assert any(name == "x86_decode" and n > LIMIT for name, _, n in decoder)


INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def command_files_including(header, cmd):
    """The subcommand files (those defining a `struct command') of cmd/
    that include header, directly or through another header of cmd/."""
    via = {header} | {h.name for h in cmd.glob("*.h") if header in INCLUDE.findall(h.read_text())}
    return sorted(c.name for c in cmd.glob("*.c") if "const struct command cmd_" in c.read_text()
                  and via & set(INCLUDE.findall(c.read_text())))


def test_no_subcommand_includes_another_subcommands_header():
    """What two subcommands share lives in engine/ or lib/ (cc-probe used
    cc-flag's header, choose frame's): a header of cmd/ serves one command."""
    cmd = ROOT / "probe" / "cmd"
    shared = {h.name: command_files_including(h.name, cmd) for h in cmd.glob("*.h")}
    assert shared and any(shared.values())         # the walk sees the includes (choose-spec.h)
    assert {h: users for h, users in shared.items() if len(users) > 1} == {}


FILE_LIMIT = 600


def test_no_long_c_file_in_probe():
    """A file of probe/ or mont/ holds one job: no C file over FILE_LIMIT
    lines but the table-driven x86 decoder."""
    sizes = {p: (ROOT / p).read_text(errors="replace").count("\n") for p in sources(".c")
             if p.startswith(("probe/", "mont/"))}
    assert len(sizes) > 40
    long = {p for p, n in sizes.items() if n > FILE_LIMIT and p != "probe/arch/x86dec.c"}
    assert not long, {p: sizes[p] for p in long}
