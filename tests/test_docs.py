"""What the README and the admin's docs name exists: every slash command they write out is in the
tree the bot syncs, with those options, and every setting the code reads is in `.env.example` (and
nothing there that the code does not read). No bot is started: the tree is built as the core cog
builds it, and the settings are read from the source."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from console.app import help_text
from engine import registry
from tests.test_commands import built_payload

ROOT = Path(__file__).resolve().parent.parent
# The pages a newcomer and an admin follow for Discord (docs/console.md is the console's own).
PAGES = ("README.md", "docs/discord.md", "docs/deploy.md")
# Spans that start with a slash and are not commands: the Docker image's volume, and any path
# (`/data/wargames.db`: a second slash or a dot).
NOT_COMMANDS = {"/data"}
PATH = re.compile(r"^/\S*[/.]")
# The README's quick start names a few of the console's own commands (docs/console.md has them all).
CONSOLE_ONLY = ("/help", "/as", "/channel", "/whoami", "/quit")
# Written for any game: the command must be in at least one game's group (`hand` is in the games
# with hands only, as the README says).
ANY_GAME = ("/<game>", "/GAME")
SUBCOMMAND, GROUP = 1, 2
# Consecutive spans naming siblings: "`/blockwars move`, `attack`, `fire`" or "`join`, `leave` and `start`".
SIBLING = re.compile(r"^(,\s*(and\s+)?|\s+and\s+|\s+or\s+)$")


def spans(text: str) -> list[tuple[str, str]]:
    """Each backticked span with the text between it and the span before."""
    parts = " ".join(text.split()).split("`")
    return [(parts[i - 1] if i > 1 else "", parts[i]) for i in range(1, len(parts), 2)]


def named_commands(text: str) -> list[tuple[str, list[str]]]:
    """(the command's path as written, its other words) for each span that starts with `/`, and
    for each bare word chained to one by commas: `/tournament join`, `leave` gives
    `/tournament leave` too."""
    found: list[tuple[str, list[str]]] = []
    last: list[str] | None = None
    for between, span in spans(text):
        words = span.split()
        if span.startswith("/") and span not in NOT_COMMANDS and not PATH.match(span) and len(span) > 1:
            found.append((words[0], words[1:]))
            last = words
        elif last is not None and SIBLING.match(between) and re.fullmatch(r"[a-z_]+( [a-z_]+:\S+)*", span):
            found.append((last[0], [*last[1:-1], *words]))
        else:
            last = None
    return found


def options_of(node: dict[str, Any]) -> list[dict[str, Any]]:
    return list(node.get("options") or ())


def problem(root: dict[str, Any], words: list[str]) -> str | None:
    """Why `words` (after the group's name) is not a command of `root`, or None if it is."""
    node = root
    rest = list(words)
    while rest and any(o["type"] in (SUBCOMMAND, GROUP) for o in options_of(node)):
        name = rest.pop(0)
        child = next((o for o in options_of(node) if o["name"] == name), None)
        if child is None:
            return f"no subcommand {name!r}"
        node = child
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in options_of(node)):
        return None  # a group named as such: `/blockwars`, `/tournament`
    names = {o["name"] for o in options_of(node)}
    for word in rest:
        if word.startswith("@"):
            continue  # a mention: the value of the first option (opponent, member)
        name = word.strip("[]").split(":")[0].strip()
        if ":" in word or word.startswith("["):
            if name not in names:
                return f"no option {name!r}"
        elif not names:
            return f"takes no option, but {word!r} follows it"
    return None


def test_the_pages_name_only_commands_the_bot_syncs() -> None:
    tree = {c["name"]: c for c in built_payload()}
    games = [tree[name] for name in registry.names()]
    wrong: list[str] = []
    checked = 0
    for page in PAGES:
        for root, words in named_commands((ROOT / page).read_text(encoding="utf-8")):
            checked += 1
            written = " ".join([root, *words])
            if root in CONSOLE_ONLY:
                if root not in help_text():
                    wrong.append(f"{page}: `{written}`: not a console command")
            elif root in ANY_GAME:
                if all(problem(g, words) for g in games):
                    wrong.append(f"{page}: `{written}`: {problem(games[0], words)} in any game")
            elif root[1:] not in tree:
                wrong.append(f"{page}: `{written}`: no command {root}")
            elif (why := problem(tree[root[1:]], words)) is not None:
                wrong.append(f"{page}: `{written}`: {why}")
    assert wrong == []
    assert checked > 60  # the check reads the pages: the README alone names some forty commands


def test_the_check_sees_a_renamed_command_an_unknown_option_and_a_chained_sibling() -> None:
    """The check can fail: what a page would say after a rename."""
    tree = {c["name"]: c for c in built_payload()}
    text = (
        "Type `/tournament join`, `quit` or `/blockwars board square:e5`, then `/wargames mine`"
        " (the games are in `/data/wargames.db`)."
    )
    found = named_commands(text)
    assert found == [
        ("/tournament", ["join"]),
        ("/tournament", ["quit"]),
        ("/blockwars", ["board", "square:e5"]),
        ("/wargames", ["mine"]),
    ]
    assert problem(tree["tournament"], found[0][1]) is None
    assert problem(tree["tournament"], found[1][1]) == "no subcommand 'quit'"
    assert problem(tree["wargames"], ["tournament", "join"]) == "no subcommand 'tournament'"  # its old place
    assert problem(tree["blockwars"], found[2][1]) == "no option 'square'"
    assert problem(tree["blockwars"], ["board", "unit:e5"]) is None
    assert problem(tree["wargames"], found[3][1]) == "no subcommand 'mine'"


def settings_read() -> set[str]:
    """Every variable settings.py reads: the string keys of `env.get(...)` and `env[...]`."""
    tree = ast.parse((ROOT / "settings.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            names.add(str(node.slice.value))
    return {n for n in names if n.isupper()}


def test_every_setting_is_in_env_example_and_nothing_else_is() -> None:
    """A setting the code reads is in `.env.example`, said with its default; a line there is read by
    the code (or, POSTGRES_PASSWORD, by compose.yaml). DATA_DIR_DEFAULT is the Docker image's own."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, flags=re.MULTILINE))
    read = settings_read() - {"DATA_DIR_DEFAULT"}
    assert len(read) >= 14, read
    assert read - listed == set()
    assert listed - read == {"POSTGRES_PASSWORD"}
    assert "POSTGRES_PASSWORD" in (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "DATA_DIR_DEFAULT" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


def heading_anchor(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading: `## Who may do what` is
    `#who-may-do-what`."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_leads_somewhere() -> None:
    """A relative link of the README, RULES.md, docs/ and rules/ names a file that exists, and a
    heading there when it names one: a newcomer on a phone follows links, not folders."""
    pages = [ROOT / "README.md", ROOT / "RULES.md", *sorted((ROOT / "docs").glob("*.md"))]
    pages += sorted((ROOT / "rules").glob("*.md"))
    broken: list[str] = []
    links = 0
    for page in pages:
        for link in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            links += 1
            path, _, anchor = link.partition("#")
            target = page.parent / path if path else page
            if not target.exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
            elif anchor and target.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", target.read_text(encoding="utf-8"), flags=re.MULTILINE)
                if anchor not in {heading_anchor(h) for h in headings}:
                    broken.append(f"{page.relative_to(ROOT)}: {link} (no such heading)")
    assert broken == []
    assert links > 30
    assert heading_anchor("Moving house: from the SQLite file to PostgreSQL") == (
        "moving-house-from-the-sqlite-file-to-postgresql"
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_run_with_an_old_python_says_which_to_name(tmp_path: Path) -> None:
    """README: "where `python3` is older, name a newer one". With Python 3.10, `make run` built half
    a .venv and stopped on a traceback (`No module named 'tomllib'`), and that .venv stayed. It now
    stops first, in one line, naming the fix; a Python new enough goes on to build the .venv."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    old = tmp_path / "python-old"
    old.write_text("#!/bin/sh\nexit 1\n")  # an interpreter that fails the version check, as 3.10 does
    new = tmp_path / "python-new"  # the real one for the check, stopped where the .venv would be built
    new.write_text(
        f'#!/bin/sh\n[ "$1" = -c ] && exec {sys.executable} "$@"\necho "building the .venv"; exit 3\n'
    )
    for stub in (old, new):
        stub.chmod(0o755)
    done = subprocess.run(["make", f"PYTHON={old}", "run"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0
    assert f"{old} is missing or older than Python 3.11: name a newer one" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / ".venv").exists()
    done = subprocess.run(["make", f"PYTHON={new}", "run"], cwd=tmp_path, capture_output=True, text=True)
    assert "building the .venv" in done.stdout, done.stdout + done.stderr
