"""The record names the program its AI ran (docs/fairness.md, "Checking the AI"): the commit of the
bot's source, per decision, learnt from its clone or from the file the Docker build writes; the
check says whether it runs that very commit, and a different or unknown one is said (➖), never a
failure."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path
from typing import Any

from engine import fairness, program
from engine.program import COMMIT_FILE, Program, of_source
from tests.test_ai_verify import ai_game, close_databases, record_of, service

__all__ = ["close_databases"]  # the fixture that closes the databases these tests open

A, B = "a" * 40, "b" * 40


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_program_is_its_clones_commit_else_the_builds_else_unknown(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    (clone / "engine").mkdir(parents=True)
    (clone / "engine" / "rules.py").write_text("x = 1\n")
    git(clone, "init", "-q")
    git(clone, "add", ".")
    git(clone, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    head = git(clone, "rev-parse", "HEAD")
    assert of_source(clone) == Program(head, changed=False)
    (clone / "notes.txt").write_text("untracked: not the program\n")
    (clone / "tests").mkdir()
    (clone / "tests" / "test_rules.py").write_text("a test: not the program either\n")
    git(clone, "add", "tests")
    assert of_source(clone) == Program(head, changed=False)
    (clone / "engine" / "rules.py").write_text("x = 2\n")
    assert of_source(clone) == Program(head, changed=True)
    assert of_source(clone).text() == f"commit {head[:12]} with local changes"
    # a copy without .git, as the Docker image: the commit its build wrote, else unknown
    inside = clone / "image"  # inside another clone: that clone's commit is not this source's
    inside.mkdir()
    assert of_source(inside) == Program(None)
    assert of_source(inside).text() == "an unknown commit"
    (inside / COMMIT_FILE).write_text(B.upper() + "\n")
    assert of_source(inside) == Program(B)
    (inside / COMMIT_FILE).write_text("\n")  # built without the argument
    assert of_source(inside) == Program(None)


def test_the_dockerfile_writes_the_commit_it_is_built_from() -> None:
    text = (Path(__file__).resolve().parent.parent / "Dockerfile").read_text(encoding="utf-8")
    assert 'ARG COMMIT=""' in text and f'"$COMMIT" > {COMMIT_FILE}' in text
    assert "--build-arg COMMIT=$(git rev-parse HEAD)" in text


def as_run_by(record: dict[str, Any], *programs: Program | None) -> dict[str, Any]:
    """The record with its decisions made by `programs` in turn (the last one for the rest)."""
    out = copy.deepcopy(record)
    for i, d in enumerate(out["ai"]["decisions"]):
        ran = programs[min(i, len(programs) - 1)]
        d["program"] = None if ran is None else ran.to_json()
    return out


async def test_each_decision_names_its_program_and_the_check_compares_it(tmp_path: Path, monkeypatch) -> None:
    svc = await service(tmp_path / "g.db", 4)
    match_id = await ai_game(svc, "blockwars", "random", plies=4)
    record = await record_of(svc, match_id)
    decisions = record["ai"]["decisions"]
    assert len(decisions) >= 3 and all(d["program"] == program.running().to_json() for d in decisions)
    monkeypatch.setattr(program, "running", lambda: Program(A))  # the checker's own source
    said = fairness.check(as_run_by(record, Program(A)), ai=True)
    same = f"✅ The bot's AI ran commit {A[:12]} of its source (the record says), and this check ran that"
    assert said.ok and same in said.text(), said.text()
    said = fairness.check(as_run_by(record, Program(B)), ai=True)
    assert said.ok and said.ai_checked, said.text()  # not a failure: the choices all matched
    line = next(x for x in said.text().splitlines() if "The bot's AI ran" in x)
    assert (
        line.startswith("➖ ") and f"commit {B[:12]}" in line and f"this check runs commit {A[:12]}" in line
    )
    assert f"`git checkout {B}`" in line and "the program may be why, not the AI" in line
    said = fairness.check(as_run_by(record, Program(A, changed=True)), ai=True)
    assert said.ok and f"➖ The bot's AI ran commit {A[:12]} with local changes" in said.text()
    said = fairness.check(as_run_by(record, None), ai=True)  # a record from before it was named
    assert said.ok and "➖ The record does not say which commit of its source the bot ran " in said.text()
    # a game that went on across an update of the bot: each program, and its decisions
    first = decisions[0]["n"]
    said = fairness.check(as_run_by(record, Program(B), Program(A)), ai=True)
    assert said.ok, said.text()
    assert f"✅ The bot's AI ran commit {A[:12]} of its source for actions " in said.text()
    assert f"➖ The bot's AI ran commit {B[:12]} of its source for action {first} (" in said.text()
    # and a record whose program is no commit names none
    for bad in ("main", 7, {"commit": "xyz"}, {"commit": A[:12]}):
        odd = copy.deepcopy(record)
        for d in odd["ai"]["decisions"]:
            d["program"] = bad
        said = fairness.check(odd, ai=True)
        assert said.ok and "➖ The record does not say which commit" in said.text(), bad
