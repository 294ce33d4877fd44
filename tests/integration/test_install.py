# SPDX-License-Identifier: MIT
"""make install / uninstall into a scratch prefix, then use what was
installed the way a project would: the tool, Asmcap.pm, find_package,
pkg-config + the library, aclocal, the man page."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    assert r.returncode == 0, f"{cmd}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """An install outside DESTDIR; the dirlist it would append to is a
    scratch one (the real one is aclocal's, e.g. /usr/share/aclocal/dirlist)."""
    p = tmp_path_factory.mktemp("prefix")
    (p / "acsys").mkdir()
    run(["make", "-s", "install", f"PREFIX={p}", f"BUILD={BUILD}", f"ACLOCAL_DIRLIST={p}/acsys/dirlist"],
        cwd=ROOT)
    return p


def test_aclocal_finds_the_macro_through_its_dirlist(prefix, tmp_path):
    """autoreconf with aclocal's system directory holding only the dirlist
    make install wrote: ASMCAP_CHECK is found (no ACLOCAL_PATH, no -I)."""
    assert (prefix / "acsys/dirlist").read_text() == f"{prefix}/share/aclocal\n"
    d = tmp_path / "ac"
    shutil.copytree(ROOT / "tests/integration/autoconf", d)
    (d / "m4").mkdir()
    env = dict(os.environ, ACLOCAL=f"aclocal --system-acdir={prefix}/acsys")
    env.pop("ACLOCAL_PATH", None)
    run(["autoreconf", "-fi"], cwd=d, env=env)
    r = run(["./configure", "CC=gcc", f"ASMCAP={prefix}/bin/asmcap"], cwd=d)
    assert "checking whether gcc can assemble adx... yes" in r.stdout
    # installing again does not list the directory twice
    run(["make", "-s", "install", f"PREFIX={prefix}", f"BUILD={BUILD}",
         f"ACLOCAL_DIRLIST={prefix}/acsys/dirlist"], cwd=ROOT)
    assert (prefix / "acsys/dirlist").read_text() == f"{prefix}/share/aclocal\n"


def test_one_version_everywhere(prefix):
    """VERSION is the one place: --version, the JSON, mont.pc and the CMake
    version file are made from it; the man page and the Debian changelog
    carry it as text, checked here."""
    v = (ROOT / "VERSION").read_text().strip()
    assert run([str(prefix / "bin/asmcap"), "--version"]).stdout == f"asmcap {v}\n"
    j = json.loads(run([str(prefix / "bin/asmcap"), "--cc", "gcc", "--features", "adx", "--format", "json"]).stdout)
    assert j["asmcap"]["version"] == v
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib/pkgconfig"))
    assert run(["pkg-config", "--modversion", "mont"], env=env).stdout.strip() == v
    assert f'set(PACKAGE_VERSION "{v}")' in (prefix / "lib/cmake/Asmcap/AsmcapConfigVersion.cmake").read_text()
    assert (ROOT / "man/asmcap.1").read_text().splitlines()[0].split('"')[1] == f"asmcap {v}"
    assert f"\n## [{v}]" in (ROOT / "CHANGELOG.md").read_text()
    assert (ROOT / "debian/changelog").read_text().split("\n", 1)[0].startswith(f"asmcap ({v})")


def test_installed_files(prefix):
    for f in ["bin/asmcap", "include/mont.h", "lib/libmont.a", "lib/libmont.so.0",
              "lib/pkgconfig/mont.pc", "lib/cmake/Asmcap/AsmcapConfig.cmake",
              "lib/cmake/Asmcap/AsmcapConfigVersion.cmake",
              "lib/site_perl/Asmcap.pm", "share/aclocal/asmcap.m4", "share/man/man1/asmcap.1",
              "share/asmcap/templates/x86_64/adx.s", "share/asmcap/templates/i386/adx.s"]:
        assert (prefix / f).is_file(), f
    assert os.readlink(prefix / "lib/libmont.so") == "libmont.so.0"
    r = run(["readelf", "-d", str(prefix / "lib/libmont.so.0")])
    assert "Library soname: [libmont.so.0]" in r.stdout


def test_installed_tool_and_catalog(prefix):
    r = run([str(prefix / "bin/asmcap"), "--cc", "gcc", "--features", "adx,bmi2", "--format", "sh"])
    assert "ASMCAP_ADX=yes" in r.stdout
    r = run([str(prefix / "bin/asmcap"), "list", "--templates", str(prefix / "share/asmcap/templates")])
    assert "adx" in r.stdout


def test_installed_perl_module(prefix):
    env = dict(os.environ, PERL5LIB=str(prefix / "lib/site_perl"))
    r = run(["perl", "-MAsmcap", "-e", "print Asmcap->load(shift)->has('adx') ? 'yes' : 'no'",
             str(BUILD / "caps.json")], env=env)
    # has(): the feature and every feature it requires are "yes" in the caps
    feats = json.loads((BUILD / "caps.json").read_text())["features"]
    usable = all(feats[f]["status"] == "yes" for f in ["adx", *feats["adx"].get("requires", [])])
    assert r.stdout == ("yes" if usable else "no")
    # another architecture's feature, known from the installed catalog: skipped, not a death
    r = run(["perl", "-MAsmcap", "-e", "my $c = Asmcap->load(shift); print $c->has('sha3'), $c->status('sha3')",
             str(BUILD / "caps.json")], env=env)
    assert r.stdout == "0skipped"
    assert f"'{prefix}/share/asmcap/templates'" in (prefix / "lib/site_perl/Asmcap.pm").read_text()


def test_pkg_config_and_library(prefix, tmp_path):
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib/pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "mont"], env=env).stdout.split()
    assert f"-I{prefix}/include" in flags and "-lmont" in flags
    src = tmp_path / "use.c"
    src.write_text('#include <mont.h>\n#include <stdio.h>\n#include <stdint.h>\n'
                   'int main(void) { uint64_t n[4] = {0xffffffffffffffc5u, ~0ull, ~0ull, ~0ull},\n'
                   '  b[4] = {3}, e[1] = {5}, r[4];\n'
                   '  if (mont_modexp(r, b, e, 1, n, 4)) return 1;\n'
                   '  printf("%llu %s\\n", (unsigned long long)r[0], mont_backend()); return 0; }\n')
    run(["cc", "-o", str(tmp_path / "use"), str(src), *flags])
    r = run([str(tmp_path / "use")], env=dict(os.environ, LD_LIBRARY_PATH=str(prefix / "lib")))
    value, backend = r.stdout.split()
    assert value == "243" and backend in ("ifma", "adx", "mulq", "c")


def test_cmake_finds_the_installed_package(prefix, tmp_path):
    r = run(["cmake", "-S", str(ROOT / "tests/integration/cmake"), "-B", str(tmp_path / "b"),
             f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_C_COMPILER=gcc"])
    assert f"{prefix}/bin/asmcap" in (tmp_path / "b/CMakeCache.txt").read_text()
    assert "adx=ON" in (tmp_path / "b/result.txt").read_text()


def test_man_page_renders(prefix):
    r = run(["man", "-l", str(prefix / "share/man/man1/asmcap.1")], env=dict(os.environ, MANWIDTH="80"))
    assert "EXIT STATUS" in r.stdout and "cc-flag" in r.stdout


def test_uninstall_leaves_nothing(tmp_path):
    p = tmp_path / "prefix"
    run(["make", "-s", "install", f"DESTDIR={tmp_path / 'stage'}", f"PREFIX={p}", f"BUILD={BUILD}"], cwd=ROOT)
    staged = tmp_path / "stage" / str(p).lstrip("/")
    assert (staged / "bin/asmcap").is_file()
    run(["make", "-s", "uninstall", f"DESTDIR={tmp_path / 'stage'}", f"PREFIX={p}"], cwd=ROOT)
    left = [f for f in staged.rglob("*") if f.is_file() or f.is_symlink()]
    assert left == []
