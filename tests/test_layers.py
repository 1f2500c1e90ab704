"""The layers keep their contracts (DESIGN.md): engine/ is pure standard library, no layer but the cogs
and bot.py imports discord, and the platform (play/, data/, the core cog, the console) names no game.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"
BANNED = ("discord", "asyncio", "PIL", "aiosqlite")
NO_DISCORD = ("play", "data", "render", "engine")
GAME_FREE = ("play", "data", "console", "cogs")


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
        "import engine, engine.registry, engine.search, engine.cards, engine.grid, engine.chance\n"
        "from engine import registry\n"
        "registry.games()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    modules = json.loads(out.stdout)
    assert "engine.blockwars.state" in modules
    assert [m for m in modules if _is_banned(m)] == []


def _modules_of(folder: str) -> dict[str, set[str]]:
    return {str(p.relative_to(ROOT)): _imported_modules(p) for p in sorted((ROOT / folder).rglob("*.py"))}


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"engine"}
    offenders = {
        path: sorted(m for m in mods if m.split(".")[0] not in allowed)
        for path, mods in _modules_of("engine").items()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize("folder", NO_DISCORD)
def test_only_the_discord_layer_imports_discord(folder: str) -> None:
    offenders = {
        path: sorted(m for m in mods if m == "discord" or m.startswith("discord."))
        for path, mods in _modules_of(folder).items()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def _game_words() -> set[str]:
    """Every hosted game's name, title and side names: none may appear in the platform's code."""
    from engine import registry

    words: set[str] = set()
    for game in registry.games():
        words |= {game.name, game.title}
        words |= {w for s in game.sides for w in (s.name, s.title, s.adjective)}
    return {w.lower() for w in words}


@pytest.mark.parametrize("folder", GAME_FREE)
def test_the_platform_names_no_game(folder: str) -> None:
    """A new game is one package under engine/, one under render/ and a registry line: the platform
    must not need to know it, so it does not even mention one (migrations included)."""
    words = _game_words()
    found = {}
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix not in (".py", ".sql"):
            continue
        text = path.read_text(encoding="utf-8").lower()
        hits = sorted(w for w in words if re.search(rf"\b{re.escape(w)}\b", text))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


def test_the_game_name_check_finds_names() -> None:
    """The check above can fail: Block Wars' own package is full of its names."""
    words = _game_words()
    assert {"blockwars", "germans", "canadian"} <= words
    text = (ROOT / "engine" / "blockwars" / "game.py").read_text(encoding="utf-8").lower()
    assert any(re.search(rf"\b{re.escape(w)}\b", text) for w in words)
