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


# -- the layers' order (issue 33): each layer imports only those below it; bot.py is the top.
LAYERS_MAY_IMPORT = {
    "engine": {"engine"},
    "data": {"data"},
    "render": {"render", "engine"},
    "play": {"play", "engine", "data"},
    "cogs": {"cogs", "play", "render", "engine", "data", "settings"},
    "console": {"console", "play", "render", "engine", "data", "settings"},
}
OURS = {"engine", "data", "render", "play", "cogs", "console", "bot", "settings"}


@pytest.mark.parametrize("folder", sorted(LAYERS_MAY_IMPORT))
def test_no_layer_imports_one_above_it(folder: str) -> None:
    """Type-only imports count too: `bot.py` hands its services to the cog, the cog never imports it."""
    allowed = LAYERS_MAY_IMPORT[folder]
    offenders = {
        path: sorted(m for m in mods if m.split(".")[0] in OURS - allowed)
        for path, mods in _modules_of(folder).items()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle in `graph` (module -> modules it imports), each found once."""
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == path[0]:
                if frozenset(path) not in seen:
                    seen.add(frozenset(path))
                    found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def _package_graph(folder: str) -> dict[str, set[str]]:
    """Module -> the modules of `folder` it imports (`from pkg import mod` is an edge to pkg.mod)."""
    raw: dict[str, list[tuple[str, str | None]]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        pairs: list[tuple[str, str | None]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                pairs += [(node.module, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                pairs += [(a.name, None) for a in node.names]
        raw[module] = pairs
    graph: dict[str, set[str]] = {}
    for module, pairs in raw.items():
        targets = {f"{m}.{name}" if f"{m}.{name}" in raw else m for m, name in pairs}
        graph[module] = {t for t in targets if t in raw and t != module}
    return graph


@pytest.mark.parametrize("folder", ["cogs", "console", "play"])
def test_no_import_circle_in_the_adapters_or_play(folder: str) -> None:
    """Type-only imports count: a circle there is a circle in what a reader must hold in mind."""
    assert _cycles(_package_graph(folder)) == []


def test_the_circle_check_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


@pytest.mark.parametrize("folder", ["cogs", "console"])
def test_the_adapters_go_through_the_service_not_the_store(folder: str) -> None:
    """cogs/ and console/ ask the match service; only it (play/) talks to data/'s store."""
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        hits = re.findall(r"\b(?:database|service\.db|\.db)\.\w+", text)
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


def test_no_file_of_play_holds_more_than_one_job_by_size() -> None:
    """play/ is split by job (issue 33): a file past about 500 lines is a sign it holds two."""
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in (ROOT / "play").glob("*.py")
    }
    assert {path: n for path, n in sizes.items() if n > 520} == {}


MARKUP = re.compile(r"<@|<t:|<#|\*\*(?:[A-Z/]|\{[^}]*\})")  # Discord's mention, timestamp, channel, bold


def test_play_writes_no_discord_markup() -> None:
    """Each adapter marks up through `play.markup.Markup` (Discord's syntax in cogs/_format.py,
    plain text in the console), so no file of play/ writes a mention, a timestamp or bold itself."""
    found = {
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "play").glob("*.py"))
        if MARKUP.search(p.read_text(encoding="utf-8"))
    }
    assert found == set()


def test_the_console_writes_no_discord_markup() -> None:
    """The console names people and times through its `ConsoleMarkup`: nothing it prints needs
    Discord's syntax read back out (it has no regex for that any more)."""
    found = {
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "console").glob("*.py"))
        if MARKUP.search(p.read_text(encoding="utf-8"))
    }
    assert found == set()


def test_the_markup_check_finds_markup() -> None:
    marked = ("<@1>", "due <t:5:R>", "in <#3>", "**Your move**", "**{head}.**")
    assert all(MARKUP.search(t) for t in marked)
    assert not any(MARKUP.search(t) for t in ("f(**kw)", "{**clock, 'a': 1}", "2 ** 3"))
