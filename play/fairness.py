"""Dice anyone can verify: the commitment shown at the start, the secret revealed at the end, the
record a player can export and the check `/wargames verify` runs (docs/fairness.md).

The scheme is engine/chance.py's; this module keeps it on the match row (migration 0006) and says it
to players. A version-2 match's secret is on its row from the challenge on and is never put in a
message, a log line or a record before the match is finished.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

from data import Database, Match, MatchNotFound, Seal, Status
from data.ai_decisions import LEGACY, AiDecisionStore
from data.tournaments import Tournament, TournamentStatus, TournamentStore
from engine import chance, fairness, registry
from play import undo
from play.errors import BadRequest, NoMatch
from play.markup import Markup


class MatchService(Protocol):
    """What this module reads of the match service (a protocol: the service's floors import this
    module, so it names none of them)."""

    db: Database

    async def log(self, match: Match) -> list[tuple[str, str, int | None]]: ...


# Why a game never reached its end, as a reader says it (the status's own value is the store's word).
NEVER_PLAYED = {
    Status.DECLINED: "its challenge was declined",
    Status.EXPIRED: "its challenge expired unanswered",
    Status.CANCELLED: "it was cancelled",
}

# Hex digits of a commitment shown on a phone, as the check shows them (engine/fairness.py).
SHORT = fairness.SHOWN


def engine_seed(match: Match) -> int:
    """The seed the rules draw `match`'s chance from: the stored seed (version 1), or the one the
    secret and the players' inputs give (version 2)."""
    if match.chance_version == 2 and match.seed_secret is not None:
        return chance.game_seed(bytes.fromhex(match.seed_secret), inputs_of(match))
    return match.seed


def inputs_of(match: Match) -> list[str]:
    """The players' inputs mixed into a version-2 seed, in order."""
    return [str(i) for i in json.loads(match.seed_inputs)] if match.seed_inputs else []


def with_input(match: Match, name: str, value: int | str | None) -> str:
    """The inputs of `match` with one more (`name:value`), as stored (JSON text)."""
    return json.dumps([*inputs_of(match), f"{name}:{'-' if value is None else value}"])


def commitment_text(match: Match, markup: Markup) -> str:
    """The line a game's first messages carry: the commitment, shortened for a phone, and, for a
    game whose secret was a channel's seal, when and where that commitment was shown."""
    if match.seed_commitment is None:
        return ""
    short = f"`{match.seed_commitment[:SHORT]}…`"
    if match.sealed_at is not None:
        where = (
            "in this channel"
            if match.seal_channel_id in (None, match.channel_id)
            else f"in {markup.channel(match.seal_channel_id)}"
        )
        return (
            f"Dice sealed in advance: commitment {short}, shown {where} on {markup.date(match.sealed_at)}, "
            "before this challenge. Its secret is revealed when the game ends, so anyone can check "
            "every roll and card."
        )
    return (
        f"Dice commitment: {short} (the SHA-256 of a secret seed, revealed "
        "when the game ends so anyone can check every roll and card)."
    )


def seal_text(seal: Seal) -> str:
    """The line of a channel's end message that seals its next game (docs/fairness.md)."""
    return f"The next game here is sealed: dice commitment `{seal.commitment[:SHORT]}…`."


def seal_posted_text(seal: Seal) -> str:
    """What `/wargames seal` posts in the channel: the seal, and what it means for the next game."""
    return (
        f"{seal_text(seal)} Its secret is fixed now, before anyone challenges: the next game challenged "
        "in this channel plays with it, and it is revealed when that game ends."
    )


def sealed_already_text(seal: Seal, markup: Markup) -> str:
    """The private answer to `/wargames seal` in a channel whose next game was sealed already."""
    when = "" if seal.shown_at is None else f", shown here on {markup.date(seal.shown_at)}"
    return (
        f"This channel's next game is sealed already: dice commitment `{seal.commitment[:SHORT]}…`{when}. "
        "The next game challenged here plays with it."
    )


def reveal_text(match: Match) -> str:
    """The line of a finished game's end message that reveals its secret seed."""
    if match.status is not Status.FINISHED or match.seed_secret is None or match.seed_commitment is None:
        return ""
    return (
        f"The secret seed was `{match.seed_secret}` (commitment `{match.seed_commitment[:SHORT]}…`). "
        f"Check every roll and card with `/wargames verify game:{match.id}`."
    )


async def finished(
    service: MatchService,
    guild_id: int,
    channel_id: int,
    match_id: int | None,
    what: str,
    asker: int | None = None,
) -> Match:
    """The finished game asked for: `match_id` in this server, else this channel's last finished game.
    Refuses, saying why, a game that is not over (its secret is still secret) or never was played.
    A game of another channel is `asker`'s only if they played it: the record names its players and
    every move, and that channel may be one they cannot see (a private thread); the refusal is the
    one for a number that is no game, so it does not tell that one exists (None: anyone's, for the
    tests and tools that have no asker)."""
    if match_id is not None:
        try:
            match = await service.db.get_match(match_id)
        except MatchNotFound:
            match = None
        if (
            match is None
            or match.guild_id != guild_id
            or (
                asker is not None
                and asker not in match.players
                and not await _seen_from(service, match, channel_id)
            )
        ):
            raise NoMatch(
                f"There is no game #{match_id} in this channel or among your games. Ask in the "
                "channel where it was played: a finished game's number is in its end message there."
            )
    else:  # this channel's last finished game; an open one is refused below, saying why
        found = await service.db.list_matches(channel_id=channel_id, statuses=[Status.FINISHED], limit=1)
        found = found or await service.db.list_matches(channel_id=channel_id, limit=1)
        if not found:
            raise NoMatch("There is no game in this channel to check. Name one: `game:` takes a game's id.")
        match = found[0]
    if match.status is Status.FINISHED:
        return match
    if match.status.is_open:
        commitment = f" Its commitment is `{match.seed_commitment}`." if match.seed_commitment else ""
        raise BadRequest(
            f"Game #{match.id} is still being played, so there is nothing to {what} yet: its secret "
            "seed would tell every roll and card to come, and it is revealed only when the game "
            f"ends.{commitment} During the game, `history` shows the moves so far."
        )
    why = NEVER_PLAYED.get(match.status, match.status.value)
    raise NoMatch(f"Game #{match.id} was never played to an end ({why}), so there is nothing to {what}.")


async def _seen_from(service: MatchService, match: Match, channel_id: int) -> bool:
    """Whether `match` was played where `channel_id`'s members see it: in that channel, or, a
    tournament's game, in a thread of that tournament's channel (its rounds posted every pairing
    there, and its end tells them to verify its games)."""
    if match.channel_id == channel_id:
        return True
    store = TournamentStore(service.db)
    board = await store.board_of_match(match.id)
    tournament = await store.get_tournament(board.tournament_id) if board is not None else None
    return tournament is not None and tournament.channel_id == channel_id


async def record(service: MatchService, match: Match) -> dict[str, Any]:
    """The finished game's record, as `/wargames export` sends it and `engine.fairness.check` reads it."""
    if match.status is not Status.FINISHED:
        raise BadRequest("Only a finished game has a record to export.")  # never the secret of a live game
    rules = registry.game(match.game)
    log = await service.log(match)
    winner_side = next((s for s, uid in match.sides.items() if uid == match.winner_id), None)
    out: dict[str, Any] = {
        "format": fairness.RECORD_FORMAT,
        "format_version": fairness.RECORD_VERSION,
        "match_id": match.id,
        "channel_id": match.channel_id,
        "game": match.game,
        "title": rules.title,
        "options": match.options,
        "challenger_id": match.challenger_id,
        "challenger_side": match.challenger_side,
        "players": [
            {
                "side": s.name,
                "side_title": s.title,
                "user_id": match.sides.get(s.name),
                "ai_level": match.ai_level if match.sides.get(s.name) == match.ai_player_id else None,
            }
            for s in rules.sides
        ],
        "actions": [
            {"n": n, "side": side, "player_id": player, "notation": notation}
            for n, (side, notation, player) in enumerate(log, 1)
        ],
        "undone": [
            {"seq": r.seq, "player_id": r.player_id, "notation": r.notation}
            for r in undo.taken_back(await service.db.actions(match.id))
        ],
        "chance_version": match.chance_version,
        "outcome": {"winner_side": winner_side, "winner_id": match.winner_id, "reason": match.result_reason},
        "final": match.snapshot,
        "started_at": match.created_at,
        "ended_at": match.updated_at,
    }
    if match.chance_version == 2:
        out.update(commitment=match.seed_commitment, secret=match.seed_secret, inputs=inputs_of(match))
        if match.ai_player_id is not None:
            out["ai"] = await _ai_decisions(service.db, match)
        sealed_by = await _tournament_seal(service.db, match)
        if sealed_by is not None:
            out["tournament"] = sealed_by
        if match.sealed_at is not None:
            out["seal"] = {
                "channel_id": match.seal_channel_id,
                "shown_at": match.sealed_at,
                "message_id": match.seal_message_id,
            }
    else:
        out["seed"] = match.seed
    return out


async def _ai_decisions(db: Database, match: Match) -> dict[str, Any]:
    """What replaying the AI's decisions needs (docs/fairness.md, "Checking the AI"): for each of its
    actions, the level, the budget it was given and the clock its thinking read. Its seeds are not
    here: each comes from the game key and the action's number (`engine.ai_check.ai_seed`).

    Each action takes the decision whose interaction id it was stored under, not merely one of its
    number: two processes may both have decided it, and only one's action was stored (migration
    0013). An action stored before that migration carries no id and takes the row kept for its
    number then; a decision no action carries (the game moved on while it thought) is no decision."""
    rows = undo.effective(await db.actions(match.id))  # the log's rows, numbered as the record's
    kept = {(d.n, d.interaction_id): d for d in await AiDecisionStore(db).decisions(match.id)}
    made = [
        kept.get((n, LEGACY if row.interaction_id is None else row.interaction_id))
        for n, row in enumerate(rows, 1)
        if row.player_id is not None and row.player_id == match.ai_player_id
    ]
    return {
        "side": match.side_of(match.ai_player_id) if match.ai_player_id is not None else None,
        "seeds": "HMAC-SHA256(key = K, message = 'ai:<n>'), its first 8 bytes",
        "decisions": [
            {
                "n": d.n,
                "kind": d.kind,
                "level": d.level,
                "budget_s": d.budget_s,
                "clock": None if d.clock is None else json.loads(d.clock),
                "program": None if d.program is None else json.loads(d.program),
            }
            for d in made
            if d is not None
        ],
    }


async def _tournament_seal(db: Database, match: Match) -> dict[str, Any] | None:
    """For a tournament's game whose secret came from the tournament's seal: the seal's facts, and
    its secret once the tournament is over (before, it would tell the secrets of games to come)."""
    store = TournamentStore(db)
    board = await store.board_of_match(match.id)
    if board is None:
        return None
    tournament = await store.get_tournament(board.tournament_id)
    if tournament is None or tournament.seal_commitment is None:
        return None
    over = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return {
        "id": tournament.id,
        "label": fairness.tournament_label(tournament.id, board.round, board.board),
        "commitment": tournament.seal_commitment,
        "shown_at": tournament.sealed_at,
        "message_id": tournament.seal_message_id,
        "secret": tournament.seal_secret if over else None,
    }


def tournament_seal_text(tournament: Tournament) -> str:
    """The tournament's own message, posted before anyone can join: its seal."""
    if tournament.seal_commitment is None:
        return ""
    return (
        f"The dice of every game of this tournament are sealed: commitment "
        f"`{tournament.seal_commitment[:SHORT]}…`. Each game's secret comes from it and your sign-up; "
        "it is revealed when the tournament ends."
    )


def tournament_reveal_text(tournament: Tournament) -> str:
    """The line of a tournament's last message (its end, or its cancelling) that reveals its seal;
    nothing while it runs, whoever asks (it would tell the dice of every game)."""
    if tournament.seal_secret is None or tournament.seal_commitment is None:
        return ""
    if tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return ""
    return (
        f"The tournament's dice secret was `{tournament.seal_secret}` (commitment "
        f"`{tournament.seal_commitment[:SHORT]}…`): `/wargames verify` now links each of its games to it."
    )


def record_bytes(data: dict[str, Any]) -> bytes:
    """A record as the file a player downloads."""
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def record_name(match: Match) -> str:
    return f"{match.game}-game-{match.id}.json"


async def verify(
    service: MatchService,
    guild_id: int,
    channel_id: int,
    match_id: int | None = None,
    asker: int | None = None,
) -> tuple[Match, fairness.Report]:
    """`/wargames verify`: the finished game replayed from its revealed seed, checked as anyone
    can check its export."""
    match = await finished(service, guild_id, channel_id, match_id, "verify", asker)
    data = await record(service, match)
    return match, await asyncio.to_thread(fairness.check, data)  # a whole replay: off the event loop


def verify_text(match: Match, report: fairness.Report, markup: Markup) -> str:
    head = f"{markup.strong(f'Game #{match.id}')} ({report.game_title})."
    if match.ai_player_id is None or match.chance_version != 2:
        return f"{head}\n{report.text()}"
    # Replaying every decision of the AI takes minutes of CPU: not in the bot, but on anyone's machine.
    # Said after the verdict, before the findings, so that a long answer cut to Discord's length keeps it.
    verdict, _, findings = report.text().partition("\n")
    return (
        f"{head}\n{verdict}\nThis checks the dice, not the AI's choices. To check that the AI chose each "
        "move from its own side's view, run `python scripts/verify_game.py FILE` (seconds to minutes) on "
        "the file `/wargames export` gives, from the bot's source at the commit the file names (the "
        f"script says whether it runs that commit).\n{findings}"
    )


async def export(
    service: MatchService,
    guild_id: int,
    channel_id: int,
    match_id: int | None = None,
    asker: int | None = None,
) -> tuple[Match, bytes]:
    """`/wargames export`: anyone in a finished game's channel, and its players anywhere in the
    server, may have its record; nobody may have a live one (it holds the secret seed)."""
    match = await finished(service, guild_id, channel_id, match_id, "export", asker)
    return match, record_bytes(await record(service, match))


def export_text(match: Match) -> str:
    return (
        f"The record of game #{match.id}: every action in order, the options, the players, the revealed "
        "seed with its commitment and inputs, and the result. Check it yourself with "
        "`python scripts/verify_game.py FILE` from the bot's source."
    )


__all__ = [
    "commitment_text",
    "engine_seed",
    "export",
    "export_text",
    "finished",
    "inputs_of",
    "record",
    "record_bytes",
    "record_name",
    "reveal_text",
    "seal_posted_text",
    "seal_text",
    "sealed_already_text",
    "tournament_reveal_text",
    "tournament_seal_text",
    "verify",
    "verify_text",
    "with_input",
]
