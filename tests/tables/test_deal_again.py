"""Playing a finished hand's deal again at a new table (issue #9), through the services:
the new table deals exactly the same four hands with the same dealer, its state is a
replay of what is stored, it is never rated, later hands are fresh deals from its own
chain, and every refusal changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.engine import fair
from game.models import Table
from game.tables import access, deal_again, due, frames, lifecycle, moves, presence, records
from game.tables.errors import TableError
from game.tables.store import replay
from tests.tables.live import cards_in, four_player_table, owner, strings_in

pytestmark = pytest.mark.django_db(transaction=True)

GUEST = access.Owner(user=None, guest_key="guest-deal-again-key")
STRANGER = access.Owner(user=None, guest_key="someone-else-entirely")


def play_hands(table: Table, hands: int, seed: int = 5) -> Any:
    """Drive ``table`` through the services until ``hands`` hands are over: people play
    random legal actions, each bot's deadline is fired at once (someone is connected, so
    the clock runs). Returns the match state."""
    rng = random.Random(seed)
    owners = {s.number: access.Owner(s.user, s.guest_key or None) for s in table.seats.all()}
    presence.seat_connected(table_id=table.pk, seat=0)
    for _step in range(3000):
        table.refresh_from_db()
        match = replay.load(table)
        if len(match.hands) >= hands or match.is_over:
            return match
        seat = table.seats.get(number=match.to_move)
        if seat.bot or seat.away:
            assert due.fire(table.pk, table.version, Table.BOT)
            continue
        legal = [a for a in match.legal_actions() if a != "timeout"]
        moves.apply_action(
            table_id=table.pk, owner=owners[match.to_move], action=rng.choice(legal),
            expected_version=table.version,
        )
    raise AssertionError("the hands did not end")


def fresh_state(table: Table) -> Any:
    """The table's state replayed from the database alone (no cache)."""
    replay.clear_cache()
    return replay.load(Table.objects.get(pk=table.pk))


def test_a_guest_plays_a_finished_hand_again_against_bots(transactional_db: Any) -> None:
    source = lifecycle.play_now(owner=GUEST, variant="hidden")
    done = play_hands(source, 2).hands
    again = deal_again.play_deal_again(owner=GUEST, table_id=source.pk, hand=2)
    assert again.pk != source.pk and again.status == Table.PLAYING
    assert (again.game, again.variant, again.options, again.target) == (
        source.game, source.variant, source.options, source.target
    )
    assert again.private and not again.spectators and not again.rated
    assert [s.bot for s in again.seats.order_by("number")] == [False, True, True, True]
    match = fresh_state(again)  # a replay of the stored fields, nothing held in memory
    assert match.hand.deal == done[1].deal and match.hand.dealer == done[1].dealer
    assert match.to_move == done[1].history[0][0]  # the same first player
    assert match.hand.history == []
    # Its own chain, committed afresh; the copy says where it comes from.
    source.refresh_from_db()
    assert again.commitment != source.commitment and again.seed_top != source.seed_top
    stored = again.copied_deal
    assert stored["table"] == source.pk and stored["hand"] == 2 and stored["shift"] == 0
    assert stored["server_seed"] == fair.chain(source.seed_top, source.chain_length)[1]
    info = frames.table_info(again)
    assert info["copied_deal"] == {"table": source.pk, "hand": 2}
    assert not cards_in(info), "the table's public info must not carry the cards"
    assert frames.table_info(source)["copied_deal"] is None


def test_friends_replay_a_rated_hand_each_holding_their_cards_and_it_is_not_rated(
    users: list[Any],
) -> None:
    source = four_player_table(users, variant="rung")
    assert source.rated
    played = play_hands(source, 1).hands[0]
    # Seat 2 asks: they hold their own cards again, everyone's move round with them.
    again = deal_again.play_deal_again(
        owner=owner(users[2]), table_id=source.pk, hand=1, private=True, bots=[],
        move_seconds=600, spectators=True,
    )
    assert again.status == Table.WAITING and again.private
    for new_seat, user in ((1, users[3]), (2, users[0]), (3, users[1])):
        lifecycle.take_seat(
            table_id=again.pk, owner=owner(user), seat=new_seat, invite=again.invite
        )
    lifecycle.start_table(table_id=again.pk, owner=owner(users[2]))
    again.refresh_from_db()
    assert again.status == Table.PLAYING and not again.rated  # four accounts, still unrated
    match = fresh_state(again)
    for new_seat in range(4):
        assert match.hand.deal[new_seat] == played.deal[(new_seat + 2) % 4]
    assert (match.hand.dealer + 2) % 4 == played.dealer
    # Each person holds exactly the cards they held in that hand.
    for new_seat, user in ((0, users[2]), (1, users[3]), (2, users[0]), (3, users[1])):
        assert access.seat_of(again, owner(user)) == new_seat
        assert match.hand.deal[new_seat] == played.deal[users.index(user)]
    assert again.copied_deal["shift"] == 2


def test_later_hands_are_fresh_deals_from_the_new_tables_chain(transactional_db: Any) -> None:
    source = lifecycle.play_now(owner=GUEST, variant="single_sar")
    first = play_hands(source, 1).hands[0]
    again = deal_again.play_deal_again(owner=GUEST, table_id=source.pk, hand=1)
    match = play_hands(again, 3, seed=9)
    again.refresh_from_db()
    chain = fair.chain(again.seed_top, again.chain_length)
    assert match.hands[0].deal == first.deal
    for k in (1, 2):
        assert match.hands[k].deal == fair.deal(chain[k], again.client_seeds, k)
    fairness = match.view(0)["fairness"]
    assert fairness["given"] == [0] and fair.verify_chain(again.commitment, chain[:3])
    assert not strings_in(frames.state_payload(again.pk, 0)) & {again.seed_top, *chain[3:]}
    # The record of the copied hand says where its cards come from and how to check them.
    record = records.hand_record(again.pk, 1)
    origin = record["copied_from"]
    assert (origin["table"], origin["hand"], origin["counter"]) == (source.pk, 1, 0)
    assert fair.deal(origin["server_seed"], origin["client_seeds"], 0) == first.deal
    assert fair.verify(origin["server_seed"], origin["commitment"])
    assert "copied_from" not in records.hand_record(again.pk, 2)


def test_a_copy_of_a_copy_points_at_the_original_hand(transactional_db: Any) -> None:
    source = lifecycle.play_now(owner=GUEST)
    first = play_hands(source, 1).hands[0]
    copy = deal_again.play_deal_again(owner=GUEST, table_id=source.pk, hand=1)
    play_hands(copy, 1)
    copy2 = deal_again.play_deal_again(owner=GUEST, table_id=copy.pk, hand=1)
    assert fresh_state(copy2).hand.deal == first.deal
    assert copy2.copied_deal["table"] == source.pk and copy2.copied_deal["hand"] == 1
    assert copy2.copied_deal["server_seed"] == copy.copied_deal["server_seed"]


def _refused(code: str, **kwargs: Any) -> None:
    before = Table.objects.count()
    kwargs.setdefault("owner", GUEST)
    with pytest.raises(TableError) as caught:
        deal_again.play_deal_again(**kwargs)
    assert caught.value.code == code, caught.value.message
    assert Table.objects.count() == before, "a refusal created a table"


def test_refusals_change_nothing(transactional_db: Any) -> None:
    source = lifecycle.play_now(owner=GUEST)
    _refused("not_over", table_id=source.pk, hand=1)  # being played: its seed is secret
    play_hands(source, 1)
    _refused("not_over", table_id=source.pk, hand=2)
    for hand in (0, -1, "1", True, None, 1.0):
        _refused("bad_request", table_id=source.pk, hand=hand)
    for table_id in ("x", None, True):
        _refused("bad_request", table_id=table_id, hand=1)
    _refused("not_found", table_id=source.pk + 1000, hand=1)
    # A private table (Play now is one) is not admitted to exist for a stranger...
    _refused("not_found", owner=STRANGER, table_id=source.pk, hand=1)
    _refused("not_found", owner=STRANGER, table_id=source.pk, hand=1, invite="wrong ✗")
    # ... but is for someone with its invite link, and then stays private.
    _refused("bad_request", owner=STRANGER, table_id=source.pk, hand=1,
             invite=source.invite, private=False, move_seconds=30)
    again = deal_again.play_deal_again(owner=STRANGER, table_id=source.pk, hand=1,
                                     invite=source.invite)
    assert again.private and again.copied_deal["table"] == source.pk
    # A guest may only play it against bots.
    _refused("needs_account", table_id=source.pk, hand=1, bots=[1])
    # Backgammon has no deal to play again.
    bg = lifecycle.play_now(owner=GUEST, game="backgammon")
    _refused("bad_request", table_id=bg.pk, hand=1)


def test_a_waiting_table_has_no_hand_to_play_again(users: list[Any]) -> None:
    waiting = lifecycle.create_table(game="courtpiece", owner=owner(users[0]), move_seconds=30)
    _refused("not_over", owner=owner(users[0]), table_id=waiting.pk, hand=1)


def test_a_public_tables_hand_may_be_replayed_by_anyone_and_at_a_public_table(
    users: list[Any],
) -> None:
    source = lifecycle.create_table(
        game="courtpiece", owner=owner(users[0]), bots=[1, 2, 3], move_seconds=30
    )
    first = play_hands(source, 1).hands[0]
    again = deal_again.play_deal_again(
        owner=owner(users[1]), table_id=source.pk, hand=1, private=False, bots=[2],
        move_seconds=45, spectators=True,
    )
    assert not again.private and again.status == Table.WAITING
    assert again.copied_deal["shift"] == 0  # users[1] did not sit there
    listed = {t["id"]: t for t in frames.list_open_tables()}
    assert listed[again.pk]["copied_deal"] == {"table": source.pk, "hand": 1}
    lifecycle.start_table(table_id=again.pk, owner=owner(users[1]))
    assert fresh_state(again).hand.deal == first.deal
