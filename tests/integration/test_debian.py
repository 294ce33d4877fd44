# SPDX-License-Identifier: MIT
"""The Debian package (debian/): built with dpkg-buildpackage -us -uc -b by
ci/package (DEB_BUILD_OPTIONS=nocheck: the suite is not run again inside
it), lintian without errors, and each binary package holding what it
should where Debian's tools look for it without any path set. Installing
it with apt and configuring the samples against it is ci/package --install,
which the clean-room CI job runs (it changes the machine's packages)."""
import os
import subprocess

import pytest

from conftest import ROOT, need_tool


@pytest.fixture(scope="module")
def debs(tmp_path_factory):
    for tool in ("dpkg-buildpackage", "dh", "lintian", "dpkg-deb", "/usr/share/build-essential/list"):
        need_tool(tool)
    out = tmp_path_factory.mktemp("package")
    r = subprocess.run([str(ROOT / "ci" / "package")], capture_output=True, text=True, timeout=1200,
                       env=dict(os.environ, ASMCAP_PACKAGE_OUT=str(out)))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def version():
    return (ROOT / "VERSION").read_text().strip()


def deb(debs, package):
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
    return debs / f"{package}_{version()}_{arch.stdout.strip()}.deb"


def contents(deb):
    r = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True)
    return {line.split()[5].lstrip(".") for line in r.stdout.splitlines()}


def test_lintian_reports_no_error(debs):
    log = (debs / "lintian.log").read_text()
    assert not [l for l in log.splitlines() if l.startswith("E: ")], log


def test_the_tool_package(debs):
    files = contents(deb(debs, "asmcap"))
    for f in ("/usr/bin/asmcap", "/usr/share/aclocal/asmcap.m4", "/usr/lib/cmake/Asmcap/AsmcapConfig.cmake",
              "/usr/lib/cmake/Asmcap/AsmcapConfigVersion.cmake", "/usr/share/perl5/Asmcap.pm",
              "/usr/share/man/man1/asmcap.1.gz", "/usr/share/asmcap/templates/x86_64/adx.s",
              "/usr/share/doc/asmcap/copyright"):
        assert f in files, f
    assert not [f for f in files if "libmont" in f or f.endswith("mont.h")]


def test_the_library_packages(debs):
    assert {"/usr/lib/libmont.so.0"} <= contents(deb(debs, "libmont0"))
    assert {"/usr/include/mont.h", "/usr/lib/libmont.a", "/usr/lib/libmont.so",
            "/usr/lib/pkgconfig/mont.pc"} <= contents(deb(debs, "libmont-dev"))
    r = subprocess.run(["dpkg-deb", "-f", str(deb(debs, "libmont-dev")), "Depends"],
                       capture_output=True, text=True, check=True)
    assert f"libmont0 (= {version()})" in r.stdout


def test_installed_perl_module_reads_the_installed_catalog(debs, tmp_path):
    subprocess.run(["dpkg-deb", "-x", str(deb(debs, "asmcap")), str(tmp_path)], check=True)
    assert "our $TEMPLATES = '/usr/share/asmcap/templates';" in \
        (tmp_path / "usr/share/perl5/Asmcap.pm").read_text()
    r = subprocess.run([str(tmp_path / "usr/bin/asmcap"), "--version"], capture_output=True, text=True)
    assert r.stdout == f"asmcap {version()}\n"
