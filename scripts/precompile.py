"""Write the project's bytecode, and pytest's rewritten test modules, once before `make test`'s pytest.

Every xdist worker of a fresh clone rewrote the asserts of all the test modules itself (pytest's
rewriting is pure Python: about 10 CPU-s a worker on the 2-core CI machine, so 30 for the three
workers) and compiled every project module the conftest does not import; the bytecode they wrote
served only the processes started after them. Done once here, in parallel, the workers read it
(docs/performance.md, "suite-time6"). pytest checks a rewritten module's source hash before using
it, and Python a module's timestamp, so stale bytecode is never run; a missing file is rewritten by
pytest as before.

The rewriting is pytest's own (`_pytest.assertion.rewrite`, pinned by constraints.txt); should a
newer pytest move it, this says so and compiles the plain modules only: the suite runs as before.
"""

from __future__ import annotations

import compileall
import contextlib
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from fnmatch import fnmatch
from pathlib import Path
from types import CodeType

ROOT = Path(__file__).resolve().parent.parent
# pytest's default `python_files`, which pyproject.toml keeps, and the conftest files it always rewrites
REWRITTEN = ("test_*.py", "*_test.py", "conftest.py")

try:
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _read_pyc,
        _rewrite_test,
        _write_pyc_fp,
        get_cache_dir,
    )
except ImportError as missing:  # pragma: no cover (a pytest other than the pinned one)
    REWRITE: Callable[[Path], None] | None = None
    print(f"precompile: pytest's rewriting moved ({missing}); compiling the plain modules", file=sys.stderr)
else:

    def _rewrite(path: Path) -> None:
        """The test module rewritten as pytest's import hook would, in the file the hook reads first."""
        pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        if _read_pyc(path, pyc) is not None:
            return
        # config None: no assertion-pass hook, which pyproject.toml does not switch on either
        source_hash, code = _rewrite_test(path, None)  # type: ignore[arg-type]
        _write_atomically(pyc, source_hash, code)

    REWRITE = _rewrite


def _write_atomically(pyc: Path, source_hash: bytes, code: CodeType) -> None:
    """As pytest writes it: a file of this process's own, renamed over the target, so that a
    worker reading it meanwhile sees the old file or the new one, never half of one."""
    pyc.parent.mkdir(exist_ok=True)
    partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
    with open(partial, "wb") as out:
        _write_pyc_fp(out, source_hash, code)
    os.replace(partial, pyc)


def sources(root: Path = ROOT) -> list[Path]:
    """The project's Python files: every folder but the hidden ones (.venv, .git and the caches) and
    any other virtual environment (a `venv` of one's own: its packages' bytecode is pip's)."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d != "__pycache__" and not Path(folder, d, "pyvenv.cfg").exists()
        )
        found += [Path(folder, f) for f in sorted(files) if f.endswith(".py")]
    return found


def compiled(path: Path) -> None:
    """One file: rewritten if pytest would rewrite it, else compiled as an import would. A file that
    does not compile is left to the import that reports it."""
    if REWRITE is None or not any(fnmatch(path.name, pattern) for pattern in REWRITTEN):
        compileall.compile_file(path, quiet=2)  # skipped when its bytecode is up to date
        return
    with contextlib.suppress(SyntaxError, OSError):
        REWRITE(path)


def main(argv: list[str]) -> int:
    """`[--jobs N]`: N processes (default: one a core)."""
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else len(os.sched_getaffinity(0))
    files = sources()
    if sys.flags.dont_write_bytecode:
        print("precompile: PYTHONDONTWRITEBYTECODE is set, nothing to write", file=sys.stderr)
        return 0
    # the largest first, so that no process is left with a long file at the end
    files.sort(key=lambda p: p.stat().st_size, reverse=True)
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(compiled, files, chunksize=4))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
