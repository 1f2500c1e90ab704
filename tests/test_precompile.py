"""scripts/precompile.py, which `make test` runs before pytest: the rewritten test modules it writes
are the ones pytest then reads (not rewritten again), asserts and all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from scripts import precompile

FAILING = "def test_sum():\n    total = 1 + 1\n    assert total == 3\n"


def test_pytest_reads_the_rewritten_module_it_wrote_and_explains_the_assert(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    test = tmp_path / "test_sum.py"
    test.write_text(FAILING)
    helper = tmp_path / "helper.py"
    helper.write_text("VALUE = 1\n")
    for other in (".venv", "venv"):  # a virtual environment's files are pip's to compile
        (tmp_path / other).mkdir()
        (tmp_path / other / "pyvenv.cfg").write_text("home = /usr/bin\n")
        (tmp_path / other / "test_no.py").write_text(FAILING)
    assert precompile.sources(tmp_path) == [helper, test]
    for path in precompile.sources(tmp_path):
        precompile.compiled(path)
    [rewritten] = (tmp_path / "__pycache__").glob("test_sum.*-pytest-*.pyc")
    assert (tmp_path / "__pycache__").glob("helper.*.pyc")
    before = rewritten.stat()

    # bytecode on, and a bare pytest: neither the plugins nor options the outer run was given
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTEST_ADDOPTS")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_sum.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "assert 2 == 3" in run.stdout  # the assert rewritten: pytest shows the values
    after = rewritten.stat()
    # read as it was, not rewritten and replaced (pytest writes a new file and renames it over)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
