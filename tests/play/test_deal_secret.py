"""A digital deal draws on a secret the server keeps.

An outsider with the open-source engines and every public fact (tournament
id, round and table numbers, the organizer's seating seed) computes none of
the hands or draw piles; two installations given the same public story deal
different cards; the organizer's seed decides the seating, never the cards.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.base import RandomBot
from scoring.exchange.export import export_json
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from tests.deal_attack import PublicFacts, reproduced
from tests.factories import (
    DIGITAL_GAMES,
    PlayerFactory,
    TournamentFactory,
    deal_secret,
    digital_table,
    seated_round,
)
from tests.timetravel import travel
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.play import tables as digital
from tournaments.services import deadlines, round_life, seating

pytestmark = pytest.mark.django_db


def _digital_round(owner, game, size, tables, seed=None, name=None):
    """Round 1 of a new digital tournament of ``game``: ``tables`` tables of
    ``size`` players, seated (with the organizer's ``seed``) and started."""
    t = TournamentFactory(
        owner=owner,
        game=game,
        digital_tables=True,
        allowed_sizes=[size],
        table_size=size,
        **({"name": name} if name else {}),
    )
    for k in range(size * tables):
        PlayerFactory(tournament=t, name=f"Spieler {k:02d}")
    return seated_round(t, seed=seed, start=True)


def _dealt_tables(rnd, organizer_seeds=()):
    """(public facts, dealt state) of each table of a round just started."""
    t = rnd.tournament
    return [
        (PublicFacts(t.game, t.pk, rnd.number, table.number, tuple(organizer_seeds)), table.state)
        for table in rnd.tables.order_by("number")
    ]


def test_no_deal_of_ten_tables_follows_from_public_facts(organizer, capsys):
    """The measurement of the issue: 10 digital tables (two per game, half
    of them seated with the organizer's seed 7), attacked with every public
    fact. Before deal secrets an outsider computed all 10."""
    tables = []
    for k, (game, size) in enumerate(DIGITAL_GAMES):
        seed = 7 if k % 2 else None
        rnd = _digital_round(organizer, game, size, tables=2, seed=seed)
        tables += _dealt_tables(rnd, organizer_seeds=(7,) if seed else ())
    assert len(tables) == 10
    hit = reproduced(tables)
    with capsys.disabled():
        print(f"\n[deal attack] {hit} of {len(tables)} tables' hands and draw piles reproduced")
    assert hit == 0, f"{hit} of {len(tables)} deals computed from public facts"


# -- two installations, one public story -----------------------------------------

#: the ids a fresh installation gives its first organizer, tournament and
#: players (far above what the test database hands out)
FRESH_USER, FRESH_TOURNAMENT, FRESH_PLAYER = 910_001, 920_001, 930_001


class _Rollback(Exception):
    """Ends one simulated installation: its rows are gone, its ids free."""


def _fresh_installation(game, size, organizer_seed):
    """Round 1 of a new site's first tournament, told with the same public
    inputs every time (organizer, ids, settings, players, seating seed):
    each table's seating (names by seat) and its deal (every hand and the
    draw pile). Nothing of it stays in the database."""
    out = {}
    try:
        with transaction.atomic():
            owner = get_user_model().objects.create_user(
                "vereinsabend", password="pw-test-12345", id=FRESH_USER
            )
            t = services.tournament_create(
                owner=owner,
                name="Clubabend",
                game=game,
                digital_tables=True,
                allowed_sizes=[size],
                table_size=size,
                id=FRESH_TOURNAMENT,
            )
            for k in range(2 * size):
                p = services.player_add(
                    tournament=t, by=owner, name=f"Spieler {k}", id=FRESH_PLAYER + k
                )
                services.player_set_checked_in(player=p, checked_in=True, by=owner)
            rnd = seated_round(t, seed=organizer_seed, start=True)
            for table in rnd.tables.order_by("number"):
                names = [s.player.name for s in table.seats.order_by("position")]
                out[table.number] = (names, t.engine.zones(table.state))
            raise _Rollback
    except _Rollback:
        pass
    return out


@pytest.mark.parametrize(("game", "size"), DIGITAL_GAMES)
def test_two_fresh_installations_with_the_same_public_story_deal_different_cards(
    organizer, game, size
):
    for organizer_seed in (None, 7):
        a = _fresh_installation(game, size, organizer_seed)
        b = _fresh_installation(game, size, organizer_seed)
        assert sorted(a) == sorted(b) == [1, 2]
        for number in a:
            (seated_a, deal_a), (seated_b, deal_b) = a[number], b[number]
            # the same story seats the same way ...
            assert seated_a == seated_b
            # ... but deals other cards: no hand and no draw pile alike
            assert deal_a != deal_b
            for zone, cards in deal_a.items():
                if cards and (zone.startswith("hand:") or zone == "stock"):
                    assert cards != deal_b[zone], f"table {number}: {zone} dealt twice"


@pytest.mark.parametrize(("game", "size"), DIGITAL_GAMES)
def test_the_organizers_seed_seats_but_never_deals(organizer, game, size):
    """Seed 7 in two tournaments of one site: both seat by it, neither
    deal follows from it."""
    first = _digital_round(organizer, game, size, tables=1, seed=7, name="Montag")
    second = _digital_round(organizer, game, size, tables=1, seed=7, name="Dienstag")
    assert first.seating_seed == second.seating_seed == 7
    engine = first.tournament.engine
    one, two = first.tables.get(), second.tables.get()
    hands = [[engine.zones(t.state)[f"hand:{seat}"] for seat in range(size)] for t in (one, two)]
    assert hands[0] != hands[1]
    assert all(a != b for a, b in zip(*hands, strict=True) if a)


# -- the secret itself -------------------------------------------------------------


def test_each_table_draws_its_own_secret_of_256_bits_when_it_is_dealt(organizer):
    t = TournamentFactory(owner=organizer, digital_tables=True, allowed_sizes=[2], table_size=2)
    for _ in range(12):
        PlayerFactory(tournament=t)
    rnd = seated_round(t, seed=7, publish=False)
    # seated: the seed decided who sits where; no table has cards yet
    assert set(rnd.tables.values_list("secret", "seed")) == {("", 0)}
    round_life.round_start(round=seating.seating_publish(round=rnd, by=organizer), by=organizer)
    secrets = list(rnd.tables.values_list("secret", flat=True))
    assert len(secrets) == 6 and len(set(secrets)) == 6
    for secret in secrets:
        assert re.fullmatch(r"[0-9a-f]{64}", secret)
    seeds = [digital.deal_seed(table) for table in rnd.tables.all()]
    # the whole 256 bits of each secret's HMAC reach the deal (a leading 1
    # above them keys the engines' SHAKE-256 stream)
    assert len(set(seeds)) == 6 and all(2**256 <= s < 2**257 for s in seeds)


def test_a_table_given_a_secret_is_dealt_from_it(organizer):
    """How tests (and an imported file) fix a deal: the same secret, the same cards."""
    a = digital_table(organizer, "altruismus", 3, secret=deal_secret(5))
    b = digital_table(organizer, "altruismus", 3, secret=deal_secret(5))
    c = digital_table(organizer, "altruismus", 3, secret=deal_secret(6))
    assert a.state == b.state != c.state
    engine = a.round.tournament.engine
    assert a.state == engine.dump(engine.new_game(3, digital.deal_seed(a), a.state["options"]))


def test_the_bots_draw_their_own_seeds_never_the_deal_seed(organizer):
    table = digital_table(organizer, "trumpet", 3)
    seed = digital.deal_seed(table)
    bot_seeds = [digital.bot_seed(table, n) for n in range(200)] + [
        digital.bot_seed(table, "finish")
    ]
    assert len(set(bot_seeds)) == len(bot_seeds)
    assert seed not in bot_seeds and int(table.secret, 16) not in bot_seeds
    # the same table and move choose the same way (a re-delivered task)
    assert digital.bot_seed(table, 3) == digital.bot_seed(table, 3)


def _play(table, engine, moves, chooser):
    """``moves`` legal moves through the service, chosen by ``chooser``."""
    for _ in range(moves):
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        action = chooser.choose(engine.view(state, seat), engine.legal_actions(state, seat))
        digital.table_move(table=table, seat=seat, action=action)


@pytest.mark.parametrize(("game", "size"), DIGITAL_GAMES)
def test_the_stored_record_replays_the_game_exactly(organizer, game, size, monkeypatch):
    """Moves, the clock calling time and the bot's play-out: the record (the
    deal seed from the secret and the logged moves) gives the stored state."""
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    table = digital_table(organizer, game, size, grace_seconds=0, round_minutes=30)
    engine = table.round.tournament.engine
    _play(table, engine, 6, RandomBot(1))
    table.refresh_from_db()
    assert digital.table_record(table).replay(engine) == engine.load(table.state)
    travel(table.round, 30 * 60)
    round_life.round_time_up(table.round.pk)
    digital.table_finish(table_id=table.pk)
    table.refresh_from_db()
    assert engine.is_over(engine.load(table.state))
    record = digital.table_record(table)
    assert record.seed == digital.deal_seed(table)
    assert record.replay(engine) == engine.load(table.state)


def test_a_table_dealt_before_deal_secrets_replays_from_its_stored_seed(organizer):
    """A game dealt before migration 0014 (public seed, no secret) goes on
    and replays as it was dealt."""
    table = digital_table(organizer, "quartett", 2, start=False)
    engine = table.round.tournament.engine
    old = engine.new_game(2, 4711, {})
    Table.objects.filter(pk=table.pk).update(seed=4711, state=engine.dump(old))
    round_life.round_start(round=table.round, by=organizer)
    table.refresh_from_db()
    assert table.secret == "" and table.state == engine.dump(old)  # not dealt again
    _play(table, engine, 3, RandomBot(2))
    table.refresh_from_db()
    assert digital.deal_seed(table) == 4711
    assert digital.table_record(table).replay(engine) == engine.load(table.state)


def test_an_undealt_table_with_an_old_public_seed_is_dealt_from_a_secret(organizer):
    table = digital_table(organizer, "quartett", 2, start=False)
    Table.objects.filter(pk=table.pk).update(seed=4711)
    round_life.round_start(round=table.round, by=organizer)
    table.refresh_from_db()
    engine = table.round.tournament.engine
    assert len(table.secret) == 64
    assert table.state != engine.dump(engine.new_game(2, 4711, table.state["options"]))


# -- the organizer's export and import -------------------------------------------


def _exported(tournament) -> dict:
    return json.loads(export_json(tournament))


def test_the_organizers_export_carries_each_secret_and_an_import_replays_exactly(
    organizer, other_user
):
    table = digital_table(organizer, "monddaemmerung", 3)
    engine = table.round.tournament.engine
    _play(table, engine, 4, RandomBot(3))
    table.refresh_from_db()
    doc = _exported(table.round.tournament)
    assert doc["rounds"][0]["tables"][0]["secret"] == table.secret
    new = import_tournament(data=json.dumps(doc), owner=other_user)
    imported = Table.objects.get(round__tournament=new, number=1)
    assert (imported.secret, imported.state) == (table.secret, table.state)
    assert digital.table_record(imported).replay(engine) == engine.load(imported.state)
    _play(imported, engine, 2, RandomBot(4))  # and the game goes on there


def test_a_file_from_before_deal_secrets_imports_and_replays(organizer, other_user):
    table = digital_table(organizer, "quartett", 2, start=False)
    engine = table.round.tournament.engine
    Table.objects.filter(pk=table.pk).update(
        seed=4711, state=engine.dump(engine.new_game(2, 4711, {}))
    )
    round_life.round_start(round=table.round, by=organizer)
    _play(table, engine, 3, RandomBot(5))
    doc = _exported(table.round.tournament)
    for rnd in doc["rounds"]:
        for td in rnd["tables"]:
            del td["secret"]  # a file written before tables had one
    new = import_tournament(data=json.dumps(doc), owner=other_user)
    imported = Table.objects.get(round__tournament=new, number=1)
    assert imported.secret == "" and imported.seed == 4711
    assert digital.table_record(imported).replay(engine) == engine.load(imported.state)


def test_a_file_whose_secret_was_removed_or_changed_is_refused_with_its_place(
    organizer, other_user
):
    table = digital_table(organizer, "trumpet", 3)
    _play(table, table.round.tournament.engine, 2, RandomBot(6))
    table.refresh_from_db()
    doc = _exported(table.round.tournament)
    before = Tournament.objects.count()
    place = "rounds[0].tables[0]"
    for value, why in [
        (None, "secret removed or changed"),  # removed: the moves don't replay
        (deal_secret(1), "secret removed or changed"),  # another secret
        ("xyz", "64 hexadecimal digits"),
        (table.secret.upper(), "64 hexadecimal digits"),
        (table.secret + "0", "64 hexadecimal digits"),
        (42, "expected a text"),
    ]:
        broken = copy.deepcopy(doc)
        if value is None:
            del broken["rounds"][0]["tables"][0]["secret"]
        else:
            broken["rounds"][0]["tables"][0]["secret"] = value
        with pytest.raises(ImportRefused) as refused:
            import_tournament(data=json.dumps(broken), owner=other_user)
        assert any(e.startswith(place) and why in e for e in refused.value.errors), (
            value,
            refused.value.errors,
        )
    assert Tournament.objects.count() == before  # nothing was stored


def test_an_undealt_table_imported_without_a_secret_draws_one_at_its_deal(organizer, other_user):
    table = digital_table(organizer, "quartett", 2, start=False)
    doc = _exported(table.round.tournament)
    assert doc["rounds"][0]["tables"][0]["secret"] == ""
    del doc["rounds"][0]["tables"][0]["secret"]
    new = import_tournament(data=json.dumps(doc), owner=other_user)
    rnd = new.round_set.get()
    round_life.round_start(round=rnd, by=other_user)
    imported = rnd.tables.get()
    assert re.fullmatch(r"[0-9a-f]{64}", imported.secret) and imported.state is not None
