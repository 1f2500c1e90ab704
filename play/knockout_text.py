"""A knockout's words (RULES.md "Knockout"): its shape and draw rule, said before anyone signs up,
at the start and in `/tournament round`; the bracket as it stands, under the standings; who
went out, in each round's announcement; the winner and the runner-up, in the final post.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from play import knockout
from play.knockout import Tie
from play.markup import Markup
from play.tournament_table import Table

# Said wherever the knockout's rules are: a lower seed learns before the first move that only a
# win takes them on, so neither player gains by offering or refusing a draw they did not expect.
DRAW_RULE = (
    "A drawn game (or one still going when its round ends) sends the higher seed on, so a lower "
    "seed must win."
)


def draw_sends_on(higher: int, markup: Markup) -> str:
    """Under a board with a draw offer standing in a knockout's game: the rule again, named, for a
    lower seed who read it days ago, before an Accept that would put them out."""
    return f"In this knockout a draw sends {markup.mention(higher)} on, as the higher seed."


# How a knockout's standings are ordered (points are shown, but do not rank)
RANKED = "Ranked by how far each got: the winner, the runner-up, then by the round each went out in."


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def rounds_said(players: int) -> str:
    """How many rounds a knockout of `players` plays, and the byes it needs."""
    rounds = knockout.rounds_for(players)
    byes = 2**rounds - players
    word = "round" if rounds == 1 else "rounds"
    spare = f", the top {byes} seeds with a bye in round 1" if byes > 1 else ""
    spare = ", the top seed with a bye in round 1" if byes == 1 else spare
    return f"with {players} players that is {rounds} {word}{spare}"


def shape_text(game_title: str, days: str, players: int | None) -> str:
    """What a knockout is, for its sign-up list (`players`: signed up so far, None: not counted)."""
    size = f" (so far, {rounds_said(players)})" if players is not None and players >= 2 else ""
    return (
        f"a knockout of {game_title}: seeded by rating, the winner of each game goes on, in rounds of "
        f"{days} each; the players at the start set how many rounds{size}. {DRAW_RULE}"
    )


def round_name(round_no: int, rounds: int) -> str:
    """ "the final", "the semi-finals", "the quarter-finals", else "round N"."""
    left = rounds - round_no
    return {0: "the final", 1: "the semi-finals", 2: "the quarter-finals"}.get(left, f"round {round_no}")


def tie_line(tie: Tie, markup: Markup) -> str:
    """One tie as the bracket lists it: who beat whom, and how."""
    who = markup.mention
    if tie.top is None and tie.bottom is None:
        return "nobody (both withdrew)"
    present = [u for u in (tie.top, tie.bottom) if u is not None]
    if not tie.decided:
        return f"{who(present[0])} v {who(present[1])}, still playing"
    if tie.how == knockout.BYE:
        if tie.winner is None:
            return f"{who(present[0])} withdrew"
        return f"{who(tie.winner)} had a bye" if tie.round == 1 else f"{who(tie.winner)} went on unopposed"
    if tie.winner is None:
        return f"{who(present[0])} and {who(present[1])} both withdrew"
    loser = tie.loser
    assert loser is not None
    if tie.how == knockout.FORFEIT:
        return f"{who(tie.winner)} went on: {who(loser)} withdrew"
    if tie.how == knockout.DRAWN:
        return f"{who(tie.winner)} drew with {who(loser)} and went on as the higher seed"
    return f"{who(tie.winner)} beat {who(loser)}"


def bracket_text(table: Table, markup: Markup, limit: int = 1400) -> str:
    """The bracket as it stands: each round's ties, then who is still in; within `limit`
    characters (a message holds 2000 with the words around it): the earliest rounds give way first,
    and a long list of players still in is counted instead."""
    rounds = table.tournament.rounds
    lines = [
        f"{round_name(ties[0].round, rounds).capitalize()}: {'; '.join(tie_line(t, markup) for t in ties)}."
        for ties in table.bracket
        if ties
    ]
    if not table.final:
        left = [x.user_id for x in table.lines if x.rank == 1]
        named = f"Still in: {_and([markup.mention(u) for u in left])}."
        lines.append(named if len(named) <= limit // 3 else f"Still in: {len(left)} players.")
    cut = 0
    while len("\n".join(lines)) > limit and len(lines) > 1:
        lines.pop(0)
        cut += 1
    if cut:
        first = "The first round is" if cut == 1 else f"The first {cut} rounds are"
        lines.insert(0, f"{first} left out to fit; `/tournament crosstable` has every game.")
    return "\n".join(lines)


def out_text(table: Table, markup: Markup) -> str:
    """Who went out in the round just over (empty: nobody)."""
    ties = table.bracket[table.round - 1] if 0 < table.round <= len(table.bracket) else []
    out = [t.loser for t in ties if t.loser is not None]
    if not out:
        return ""
    verb = "is" if len(out) == 1 else "are"
    names = _and([markup.mention(u) for u in out])
    return f"Out in {round_name(table.round, table.tournament.rounds)}: {names} {verb} knocked out."


# A tie as the bracket picture draws it: (left: the winner once decided, how, right, decided, and
# words after the right-hand name that its cut to fit never takes: " by forfeit")
PictureTie = tuple[str, str, str, bool, str]
PICTURE_TIES = 15  # the ties one picture holds, readable on a phone (the last four rounds of 64)


def _picture_tie(tie: Tie, name: Callable[[int], str]) -> PictureTie:
    present = [u for u in (tie.top, tie.bottom) if u is not None]
    if not present:
        return ("nobody", "", "(both withdrew)", True, "")
    if not tie.decided:
        return (name(present[0]), "v", name(present[1]) if len(present) > 1 else "", False, "")
    if tie.winner is None:
        return (" and ".join(name(u) for u in present), "", "(withdrew)", True, "")
    loser = tie.loser
    if loser is None:
        return (name(tie.winner), "bye" if tie.round == 1 else "walkover", "", True, "")
    if tie.how == knockout.FORFEIT:  # "Frank beat Grace by forfeit", a sentence, not "Frank by forfeit Grace"
        return (name(tie.winner), "beat", name(loser), True, " by forfeit")
    word = "drew with" if tie.how == knockout.DRAWN else "beat"
    return (name(tie.winner), word, name(loser), True, "")


def picture_rounds(
    table: Table, name: Callable[[int], str], most: int = PICTURE_TIES
) -> tuple[list[tuple[str, list[PictureTie]]], int]:
    """The bracket's rounds for its picture, each with its heading, the latest ones that fit in
    `most` ties; and how many of the earliest rounds were left out."""
    rounds = table.tournament.rounds
    shown = list(table.bracket)
    while len(shown) > 1 and sum(len(ties) for ties in shown) > most:
        shown.pop(0)
    out = [
        (round_name(ties[0].round, rounds).capitalize(), [_picture_tie(t, name) for t in ties])
        for ties in shown
        if ties
    ]
    return out, len(table.bracket) - len(shown)


def picture_subtitle(table: Table, left_out: int) -> str:
    """The line under the bracket picture's title: how to read it, and what it leaves out."""
    said = "The winner of each tie on the left, in bold; a draw sends the higher seed on."
    if left_out:
        rounds = {1: "round 1 is", 2: "rounds 1 and 2 are"}.get(left_out, f"rounds 1 to {left_out} are")
        said += f" To fit, {rounds} left out: the standings' words and the crosstable have them."
    return said


def picture(table: Table, names: Mapping[int, str]) -> tuple[str, str, list[tuple[str, list[PictureTie]]]]:
    """What the bracket picture draws (render/bracket.py): its title, subtitle and rounds."""
    rounds, left_out = picture_rounds(table, lambda u: names.get(u, str(u)))
    title = f"{table.tournament.name}: the bracket"
    title += " (final)" if table.final else f" in round {table.round} of {table.tournament.rounds}"
    return title, picture_subtitle(table, left_out), rounds


def walkover_line(user_id: int, markup: Markup) -> str:
    """A pairing without an opponent after round 1: the opponent the bracket gave them withdrew."""
    return f"{markup.mention(user_id)} goes on without a game this round: their opponent withdrew."


def winner_text(table: Table, markup: Markup) -> str:
    """The final post's first words: the winner and the runner-up, and how the final went."""
    who = markup.mention
    last = table.bracket[-1] if table.bracket else []
    if len(last) != 1:  # over before its final: withdrawals left one player, or none
        left = [x.user_id for x in table.lines if x.rank == 1 and not x.withdrawn]
        if len(left) != 1:
            return "Nobody is left to win it: the players still in withdrew."
        return f"{who(left[0])} wins it: everyone else still in withdrew, so no final was needed."
    final = last[0]
    if final.winner is None:
        return "Nobody is left to win it: both finalists withdrew."
    loser = final.loser
    if loser is None:
        return f"{who(final.winner)} wins it, unopposed in the final."
    how = {
        knockout.DRAWN: f"after a drawn final against {who(loser)}, as the higher seed",
        knockout.FORFEIT: f"by forfeit, as {who(loser)} withdrew from the final",
    }.get(final.how or "", f"beating {who(loser)} in the final")
    return f"{who(final.winner)} wins it, {how}; {who(loser)} is the runner-up."


__all__ = [
    "DRAW_RULE",
    "PICTURE_TIES",
    "RANKED",
    "PictureTie",
    "bracket_text",
    "out_text",
    "picture",
    "picture_rounds",
    "picture_subtitle",
    "round_name",
    "rounds_said",
    "shape_text",
    "tie_line",
    "walkover_line",
    "winner_text",
]
