"""Shared pytest fixtures: where the tree, the build and the probe binary are."""
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = pathlib.Path(os.environ.get("ASMCAP_BUILD", ROOT / "build"))   # ci/matrix: another build
# ASMCAP_BIN lets the same suite run against the ASan/UBSan build.
ASMCAP = pathlib.Path(os.environ.get("ASMCAP_BIN", BUILD / "asmcap"))
FAKES = ROOT / "tests" / "fake"


def have(cmd):
    return shutil.which(cmd) is not None


def asmcap(*args, env=None, timeout=120, **kw):
    """Run the probe binary; returns CompletedProcess (text)."""
    e = dict(os.environ)
    e.pop("ASMCAP_DISABLE", None)
    if env:
        e.update(env)
    return subprocess.run([str(ASMCAP), *map(str, args)], capture_output=True,
                          text=True, env=e, timeout=timeout, **kw)


@pytest.fixture(scope="session")
def asmcap_bin():
    assert ASMCAP.exists(), f"{ASMCAP} not built: run make"
    return ASMCAP
