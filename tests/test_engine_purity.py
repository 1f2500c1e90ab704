"""engine/ stays pure: no Discord, no asyncio, no Pillow, no SQL driver (DESIGN.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
BANNED = ("discord", "asyncio", "PIL", "aiosqlite")


def _imported_modules(path: Path) -> set[str]:
    """Every module name an `import` or `from ... import` in `path` mentions (top level or nested)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("__import__", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value))
    return found


def _is_banned(module: str) -> bool:
    return any(module == b or module.startswith(b + ".") for b in BANNED)


def test_engine_files_exist() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 8, files


def test_no_banned_imports_in_engine_source() -> None:
    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in _imported_modules(p) if _is_banned(m))
        for p in sorted(ENGINE.rglob("*.py"))
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}


def test_ast_walker_catches_banned_imports(tmp_path: Path) -> None:
    """The checker itself works: it sees plain, dotted, from- and nested imports."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import os\nimport discord.ext\nfrom PIL import Image\n"
        "def f():\n    import asyncio\n    return __import__('aiosqlite')\n"
    )
    mods = _imported_modules(bad)
    assert {m for m in mods if _is_banned(m)} == {"discord.ext", "PIL", "asyncio", "aiosqlite"}


def test_importing_engine_loads_no_banned_module() -> None:
    code = (
        "import json, sys\n"
        "import engine, engine.blockwars, engine.blockwars.position, engine.cards, engine.blockwars.squares\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    modules = json.loads(out.stdout)
    assert "engine.blockwars.state" in modules
    assert [m for m in modules if _is_banned(m)] == []
