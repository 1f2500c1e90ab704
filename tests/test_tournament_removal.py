"""An organiser's removal before the start holds, and can be undone (RULES.md "Tournaments": Leaving;
migration 0018). Before, a removal before the start was a leave by another name: the removed player
pressed Join again at once and was back on the list. Now the store's own write refuses their join
(before the start and after it, as a latecomer), the refusal says why and what to do, and
`reinstate` puts them back on the list with the input they first signed up with. A player's own
leave is not a removal: they join again themselves. On both stores, through the fake Discord (the
module's one bot) and in the console."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from data.db import Step, count
from data.tournaments import LateRefused
from play import BadRequest, NotAPlayer
from play.markup import PLAIN
from play.tournament_leaving_text import undo_hint, withdrawal_notice
from play.tournament_organise import reinstated_text
from tests.console_run import fresh_console
from tests.onebot import ON_THE_BOT, Table, one_bot
from tests.test_tournament import CHANNEL, open_one, services

ORGANISER, ALICE, BOB, CAROL, DAVE = 1, 11, 12, 13, 14
REFUSED = "An organiser took you off the list of Cup; ask them to put you back (`/tournament reinstate`)."


async def test_a_removal_before_the_start_holds_until_an_organiser_undoes_it(store_world) -> None:
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [ALICE, BOB, CAROL])
    cup = await t.open_in(CHANNEL)
    cup_name = cup.name
    first_input = {e.user_id: e.join_input for e in await t.entries(cup)}[CAROL]
    removed = await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)
    assert withdrawal_notice(removed, ORGANISER, PLAIN) == f"@1 took @13 off the sign-up list of {cup_name}."
    assert undo_hint(removed, PLAIN) == (
        "Took @13 off by mistake? They cannot sign up again themselves; `/tournament "
        "reinstate` puts them back on the list."
    )
    assert await t.store.removed_by(cup.id, CAROL) == ORGANISER

    # her join again is refused by the store's write itself, which moves nothing
    before = await t.open_in(CHANNEL)
    assert not await t.store.join_tournament(cup.id, CAROL, clock.now, "again")
    assert (await t.open_in(CHANNEL)).version == before.version
    with pytest.raises(BadRequest) as refused:
        await t.join(cup, CAROL)
    assert str(refused.value) == REFUSED.replace("Cup", cup_name)
    assert [e.user_id for e in await t.entries(cup)] == [ALICE, BOB]
    with pytest.raises(BadRequest, match="@13 is off the sign-up list already: an organiser took them off"):
        await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)

    # a leave is not a removal: Bob joins again himself, and there is nothing for `reinstate` to undo
    await t.leave(cup, BOB)
    with pytest.raises(BadRequest, match="No organiser took @12 off the sign-up list, so there is nothing"):
        await t.reinstate(CHANNEL, BOB, organiser=True)
    await t.join(cup, BOB)
    with pytest.raises(BadRequest, match=r"@11 is on the sign-up list of .* already, so nothing changed"):
        await t.reinstate(CHANNEL, ALICE, organiser=True)
    with pytest.raises(BadRequest, match="No organiser took @14 off"):
        await t.reinstate(CHANNEL, DAVE, organiser=True)
    with pytest.raises(NotAPlayer, match="may put a removed player back"):
        await t.reinstate(CHANNEL, CAROL, organiser=False)
    assert await t.store.removed_by(cup.id, CAROL) == ORGANISER

    # put back: on the list with her first sign-up's input, and in as any player
    back = await t.reinstate(CHANNEL, CAROL, organiser=True)
    assert reinstated_text(back, ORGANISER, PLAIN) == f"@1 put @13 back on the sign-up list of {cup_name}."
    entries = {e.user_id: e.join_input for e in await t.entries(cup)}
    assert set(entries) == {ALICE, BOB, CAROL} and entries[CAROL] == first_input
    assert await t.store.removed_by(cup.id, CAROL) is None
    with pytest.raises(BadRequest, match="You are already signed up"):
        await t.join(cup, CAROL)
    with pytest.raises(BadRequest, match="@13 is on the sign-up list"):
        await t.reinstate(CHANNEL, CAROL, organiser=True)

    # removed again, then the start: her late join is refused too, by the write as by the service
    await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)
    started = (await t.start(CHANNEL, organiser=True)).tournament
    assert not await t.store.join_tournament(cup.id, CAROL, clock.now, "late")
    written = await t.store.join_late(cup.id, CAROL, clock.now, 1200.0, "late")
    assert isinstance(written, LateRefused) and written.removed_by == ORGANISER
    with pytest.raises(BadRequest) as refused:
        await t.join(started, CAROL)
    assert str(refused.value) == REFUSED.replace("Cup", cup_name)
    assert {e.user_id for e in await t.entries(started)} == {ALICE, BOB}
    await t.join(started, DAVE)  # a latecomer nobody removed is still welcome
    assert {e.user_id for e in await t.entries(started)} == {ALICE, BOB, DAVE}
    # put back after the start: in as a latecomer, on late entry's terms, with her first input
    back = await t.reinstate(CHANNEL, CAROL, organiser=True)
    assert reinstated_text(back, ORGANISER, PLAIN) == (
        f"@1 put @13 back into {cup_name}, whose list they had been taken off before the start: they "
        "play from round 2, and round 1, which they missed, counts 0 points."
    )
    carol = next(e for e in await t.entries(started) if e.user_id == CAROL)
    assert (carol.joined_round, carol.join_input, carol.withdrawn) == (1, first_input, False)
    assert await t.store.removed_by(cup.id, CAROL) is None


async def test_a_removal_that_the_players_own_leave_came_before_says_they_had_left(store_world) -> None:
    """Carol leaves the sign-up list just before an organiser's removal of her lands (the two
    pressed at once, or the organiser read an old list): the organiser is told she had already left,
    not that she was not signed up, and nothing changes; she may join again. Someone who never
    signed up is still told they are not signed up."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [ALICE, BOB, CAROL])
    cup = await t.open_in(CHANNEL)
    await t.leave(cup, CAROL)
    before = await t.open_in(CHANNEL)
    with pytest.raises(BadRequest) as refused:
        await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)
    assert refused.value.message == (
        f"@13 had already left the sign-up list of {cup.name} (themselves, or by leaving the "
        "server), so there was nobody to remove. If they sign up again, you can remove them then."
    )
    assert (await t.open_in(CHANNEL)).version == before.version
    assert await t.store.removed_by(cup.id, CAROL) is None
    with pytest.raises(BadRequest) as never:
        await t.remove(CHANNEL, DAVE, organiser=True, by=ORGANISER)
    assert never.value.message == "@14 is not signed up for this tournament."
    await t.join(cup, CAROL)
    assert [e.user_id for e in await t.entries(cup)] == [ALICE, BOB, CAROL]


async def test_once_late_entry_has_closed_a_removal_before_the_start_cannot_be_undone(store_world) -> None:
    """One round: nobody may join once it runs, so the removed player is told that (not to ask an
    organiser, who could do nothing), and `reinstate` says why it cannot put them back."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [ALICE, BOB, CAROL], rounds=1)
    await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)
    started = (await t.start(CHANNEL, organiser=True)).tournament
    with pytest.raises(BadRequest, match="has only 1 round and it has begun, so it is too late to join"):
        await t.join(started, CAROL)
    with pytest.raises(BadRequest) as refused:
        await t.reinstate(CHANNEL, CAROL, organiser=True)
    assert str(refused.value) == (
        f"@13 was taken off the sign-up list of {started.name} before it started, and it is now too "
        "late to join it: a latecomer may join only while at most half the rounds have begun."
    )
    assert {e.user_id for e in await t.entries(started)} == {ALICE, BOB}


async def test_a_player_signed_up_before_inputs_were_kept_stays_removed(store_world) -> None:
    """A player whose sign-up is older than kept inputs (migration 0015: no input, and no row to keep
    one) had nothing to hold their removal: they joined again at once. The removal now writes that
    row, keeping "-" (what their games' dice took for no input), and holds; `reinstate` puts them
    back with it, and their games draw as before."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [ALICE, BOB, CAROL])
    cup = await t.open_in(CHANNEL)

    def before_15() -> Iterator[Step]:  # Carol's rows as a sign-up older than migration 0015 left them
        yield count("DELETE FROM tournament_inputs WHERE user_id = ?", (CAROL,))
        yield count("UPDATE tournament_players SET join_input = NULL WHERE user_id = ?", (CAROL,))

    await db._transact(before_15)
    await t.remove(CHANNEL, CAROL, organiser=True, by=ORGANISER)
    assert await t.store.removed_by(cup.id, CAROL) == ORGANISER
    with pytest.raises(BadRequest) as refused:
        await t.join(cup, CAROL)
    assert str(refused.value) == REFUSED.replace("Cup", cup.name)
    assert [e.user_id for e in await t.entries(cup)] == [ALICE, BOB]
    await t.reinstate(CHANNEL, CAROL, organiser=True)
    entries = {e.user_id: e.join_input for e in await t.entries(cup)}
    assert set(entries) == {ALICE, BOB, CAROL} and entries[CAROL] == "-"
    assert await t.store.removed_by(cup.id, CAROL) is None


# --- through the fake Discord, on the module's one bot ---------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("removal"), "Removal") as world:
        yield world


@ON_THE_BOT
async def test_on_discord_a_removed_player_cannot_join_again_until_put_back(table: Table) -> None:
    fake, club = table.fake, table.channel()
    owner, alice, bob = fake.owner, table.alice, table.bob
    made = await fake.slash(
        owner, club, "tournament", "create",
        {"game": "blockwars", "rounds": 2, "days": 1, "name": "Cup"}, messages=2,
    )  # fmt: skip
    signup = made.messages[1]
    join_id = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    for user in (alice, bob):
        joined = await fake.click(user, signup, join_id)
        assert joined.ephemeral and "You are in" in joined.content
    removed = await fake.slash(owner, club, "tournament", "remove", {"member": bob})
    said, hint = removed.messages
    assert (
        not said.ephemeral
        and said.content == f"<@{owner.id}> took <@{bob.id}> off the sign-up list of **Cup**."
    )
    assert hint.ephemeral and hint.content.startswith(f"Took <@{bob.id}> off by mistake? They cannot sign up")
    await table.idle()
    assert f"<@{bob.id}>" not in signup.content
    refused = REFUSED.replace("Cup", "**Cup**")
    clicked = await fake.click(bob, signup, join_id)  # at once, by the button...
    assert clicked.ephemeral and clicked.content == refused
    typed = await fake.slash(bob, club, "tournament", "join")  # ...or the command
    assert typed.ephemeral and typed.content == refused
    await table.idle()
    assert f"<@{bob.id}>" not in signup.content and "Signed up (1):" in signup.content
    stranger = await fake.slash(alice, club, "tournament", "reinstate", {"member": bob})
    assert stranger.ephemeral and "may put a removed player back" in stranger.content
    back = await fake.slash(owner, club, "tournament", "reinstate", {"member": bob})
    assert not back.ephemeral and back.content == (
        f"<@{owner.id}> put <@{bob.id}> back on the sign-up list of **Cup**."
    )
    await table.idle()
    assert "Signed up (2):" in signup.content and f"<@{bob.id}>" in signup.content


# --- in the console --------------------------------------------------------------------------------


async def test_the_console_refuses_a_removed_players_join_and_puts_them_back(tmp_path: Path) -> None:
    from console import names

    async with fresh_console(tmp_path) as (console, out):
        me = names.user_name(console.my_id)
        for line in (
            "/tournament create game:blockwars rounds:2 days:1 name:Cup",
            "/tournament join",
            "/as bob",
            "/tournament join",
            f"/as {me}",
            "/tournament remove member:bob",
        ):
            await console.handle(line)
        text = out.getvalue()
        assert f"@{me} took @bob off the sign-up list of Cup." in text
        assert "Took @bob off by mistake? They cannot sign up again themselves" in text
        assert console.refused == 0
        await console.handle("/as bob")
        await console.handle("/tournament join")
        assert console.refused == 1 and REFUSED in out.getvalue()
        await console.handle(f"/as {me}")
        await console.handle("/tournament reinstate member:bob")
        assert f"@{me} put @bob back on the sign-up list of Cup." in out.getvalue()
        service = console.tournaments.service
        cup = await service.open_in(names.channel_id("general"))
        assert {e.user_id for e in await service.entries(cup)} == {console.my_id, names.user_id("bob")}
        assert console.refused == 1
