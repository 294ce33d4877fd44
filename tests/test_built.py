# SPDX-License-Identifier: MIT
"""A test that needs a file the build makes names the make target when
the file is missing (conftest.built), the way a missing tool names its
package."""
import pytest

from conftest import BUILD, built


def test_a_missing_build_file_names_its_target():
    with pytest.raises(pytest.fail.Exception) as e:
        built(BUILD / "no-such-file.a")
    assert "is not built: run `make build/no-such-file.a`" in str(e.value)
    assert built(BUILD / "catalog.c") == BUILD / "catalog.c"
