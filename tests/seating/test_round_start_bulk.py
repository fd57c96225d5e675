"""Starting a big round: every digital table is dealt in bulk, so 250 tables
start in a blink (a bounded number of queries, not a few per table)."""

import pytest

from tournaments import services
from tournaments.models import Player, Round, Seat, Table
from tournaments.play import tables as digital
from tournaments.services import ServiceError, deadlines, round_life

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def big_round(organizer, *, tables=250, size=4, game="quartett", published=True):
    t = services.tournament_create(
        owner=organizer, name=f"Großturnier {game}", game=game, digital_tables=True
    )
    rnd = Round.objects.create(tournament=t, number=1, minutes=45, published=published)
    players = Player.objects.bulk_create(
        Player(tournament=t, name=f"Spieler {i:04d}", checked_in=True) for i in range(tables * size)
    )
    made = Table.objects.bulk_create(
        Table(round=rnd, number=n + 1, digital=True, secret=f"{1000 + n:064x}")
        for n in range(tables)
    )
    Seat.objects.bulk_create(
        Seat(table=made[i // size], player=p, position=i % size) for i, p in enumerate(players)
    )
    return rnd


def test_250_digital_tables_start_in_at_most_50_queries(organizer, django_assert_max_num_queries):
    rnd = big_round(organizer)
    with django_assert_max_num_queries(50):
        round_life.round_start(round=rnd, by=organizer)
    engine = rnd.tournament.engine
    tables = list(rnd.tables.order_by("number"))
    assert all(t.state is not None for t in tables)
    # each table is dealt exactly as a table started on its own would be
    for table in (tables[0], tables[137], tables[-1]):
        expected = engine.dump(
            engine.new_game(
                players=4, seed=digital.deal_seed(table), options=rnd.tournament.game_options
            )
        )
        assert table.state == expected
        assert engine.to_act(engine.load(table.state))


@pytest.mark.parametrize("game", ["terra_trumpf", "trumpet"])
def test_the_bulk_deal_matches_dealing_each_table_alone(organizer, game):
    rnd = big_round(organizer, tables=3, size=3, game=game)
    first = Player.objects.filter(tournament=rnd.tournament).order_by("name")
    # birth years decide who chooses first in Terra Trumpf
    for year, p in zip([1990, 2004, 1985], first[:3], strict=True):
        p.birth_year = year
        p.save()
    assert digital.tables_deal(round=rnd) == 3
    dealt = {t.pk: t.state for t in rnd.tables.all()}
    Table.objects.filter(round=rnd).update(state=None)
    for table in rnd.tables.all():
        digital.table_start(table=table)
    assert {t.pk: t.state for t in rnd.tables.all()} == dealt


def test_a_table_the_game_cant_take_refuses_the_start_and_nothing_is_dealt(organizer):
    rnd = big_round(organizer, tables=3, size=2)
    Seat.objects.filter(table__round=rnd, table__number=2, position=1).delete()
    with pytest.raises(ServiceError, match="Table 2"):
        round_life.round_start(round=rnd, by=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.SEATED
    assert not rnd.tables.filter(state__isnull=False).exists()
