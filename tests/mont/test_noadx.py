# SPDX-License-Identifier: MIT
"""A toolchain whose assembler predates ADX (tests/fake/legacy-gas222: GNU as
2.22 behaviour in front of a real clang): probe it, regenerate the kernels
from its caps into a separate build directory, build the library with it.
The object must hold no ADCX/ADOX, the library must link and compute right
on mulq, and asking for adx must say "not built"."""
import json
import re
import subprocess

import pytest

from conftest import FAKES
from montlib import BUILD, Harness, make, mont_mul, random_modulus, rng

assert rng  # fixture, used by name

FAKE = FAKES / "legacy-gas222"
OLD = BUILD / "noadx"
# ADCX: 66 REX? 0f 38 f6; ADOX: f3 REX? 0f 38 f6 (Intel SDM, ADCX/ADOX)
ADX_BYTES = re.compile(rb"[\x66\xf3][\x40-\x4f]?\x0f\x38\xf6")


def text_bytes(obj, tmp_path):
    out = tmp_path / (obj.name + ".text")
    p = subprocess.run(["objcopy", "-O", "binary", "--only-section=.text", str(obj), str(out)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return out.read_bytes()


@pytest.fixture(scope="module")
def old_build():
    make(BUILD / "asmcap")
    caps = BUILD / "noadx-caps.json"
    r = subprocess.run([str(BUILD / "asmcap"), "--cc", str(FAKE), "--format", "json",
                        "-o", str(caps)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    features = json.loads(caps.read_text())["features"]
    assert features["adx"]["status"] == "no", features["adx"]
    make(OLD / "libmont.a", OLD / "libmont.so", OLD / "mont-harness",
         build=OLD, CAPS=caps, CC=FAKE)
    return Harness(OLD / "mont-harness")


def test_header_says_no_adx(old_build):
    header = (OLD / "mont-kernels.h").read_text()
    assert "#define MONT_HAVE_ADX" not in header


def test_object_has_no_adx_bytes(old_build, tmp_path):
    code = text_bytes(OLD / "mont" / "mont-x86_64.o", tmp_path)
    assert len(code) > 100, "the kernels object has (almost) no code"
    assert not ADX_BYTES.search(code)


def audit(lib):
    return subprocess.run([str(BUILD / "asmcap"), "audit", str(lib), "--expect", "adx"],
                          capture_output=True, text=True, timeout=120)


def test_audit_finds_no_adx(old_build):
    r = audit(OLD / "libmont.a")
    assert r.returncode == 1 and "expected adx" in r.stderr, r.stderr


def test_adx_found_in_default_build(tmp_path):
    """Control for the two checks above: the default build's kernels, when
    its toolchain has ADX, are found by the same byte scan and by audit."""
    header = BUILD / "mont-kernels.h"
    make(BUILD / "libmont.a", BUILD / "asmcap")
    if not header.exists() or "#define MONT_HAVE_ADX" not in header.read_text():
        pytest.skip("the default toolchain built no ADX kernels")
    assert ADX_BYTES.search(text_bytes(BUILD / "mont" / "mont-x86_64.o", tmp_path))
    r = audit(BUILD / "libmont.a")
    assert r.returncode == 0, r.stderr


def test_select_adx_not_built(old_build):
    env = {"MONT_ASSUME_CPU": "adx,bmi2"}
    assert old_build.runnable(env=env) == ["c", "mulq"]
    assert old_build.lines(["select adx", "backend"], env=env) == ["-2", "mulq"]
    out, err = old_build.run(["backend"], env=dict(env, MONT_BACKEND="adx"))
    assert out == ["mulq"]
    assert err.count("\n") == 1 and "not built" in err and "using mulq" in err


def test_mulq_results(old_build, rng):
    cmds, want = [], []
    for num in (1, 3, 4, 5, 8, 16, 31, 32, 33, 64, 65, 128):
        n = random_modulus(rng, num)
        a, b = rng.randrange(n), rng.randrange(n)
        cmds += [f"mul {num} {n:x} {a:x} {b:x}", f"sqr {num} {n:x} {n - 1:x}"]
        want += [f"{mont_mul(a, b, n, num):x}", f"{mont_mul(n - 1, n - 1, n, num):x}"]
        if num <= 32:
            e = rng.getrandbits(64 * num)
            cmds.append(f"modexp {num} {n:x} {a:x} {num} {e:x}")
            want.append(f"0 {pow(a, e, n):x}")
    out, err = old_build.run(["backend"] + cmds, env={"MONT_BACKEND": "mulq"})
    assert (out, err) == (["mulq"] + want, "")
