"""A query compiled once per process gives what its queryset gives: the same
rows, the related objects ``select_related`` loads and the annotations, for
any value it is run with — and it refuses what it can't do safely."""

from __future__ import annotations

import pytest
from django.db.models import Count, F, Q
from django.db.models.functions import Now

from tests.factories import digital_table
from tournaments.models import Seat, Table
from tournaments.prepared import PreparedQuery
from tournaments.selectors import seats_in_order

pytestmark = pytest.mark.django_db


def _fields(obj, names):
    return [getattr(obj, name) for name in names]


def test_a_prepared_query_builds_what_its_queryset_builds(organizer, django_assert_num_queries):
    tables = [digital_table(organizer, "trumpet", 4, round_minutes=60) for _ in range(2)]

    def build(round_id):
        return (
            Table.objects.filter(round_id=round_id)
            .select_related("round__tournament")
            .annotate(seated=Count("seats", filter=Q(seats__player__isnull=False)), at=Now())
            .order_by("number")
        )

    calls = []
    query = PreparedQuery(lambda round_id: calls.append(round_id) or build(round_id))
    for table in tables:
        with django_assert_num_queries(1):
            got = query(table.round_id)
        want = list(build(table.round_id))
        assert [t.pk for t in got] == [t.pk for t in want] == [table.pk]
        names = [f.attname for f in Table._meta.concrete_fields]
        assert _fields(got[0], names) == _fields(want[0], names)
        assert got[0].seated == want[0].seated == 4
        assert got[0].at is not None
        name = want[0].round.tournament.name
        with django_assert_num_queries(0):  # loaded with it, as select_related does
            assert got[0].round.tournament.name == name
    assert len(calls) == 1  # built and compiled once
    assert query(-1) == []  # a value with no rows: none


def test_a_text_value_used_several_times_in_the_sql_is_filled_in_everywhere(organizer):
    table = digital_table(organizer, "quartett", 4, round_minutes=60)
    names = [s.player.name for s in seats_in_order(table)]
    query = PreparedQuery(
        lambda name: (
            Seat.objects.filter(Q(player__name=name) | Q(table__round__tournament__name=name))
            .annotate(again=F("player__name"))
            .exclude(table__round__tournament__name=name)
        ),
        kinds=(str,),
    )
    for name in names:
        assert [s.again for s in query(name)] == [name]
    assert query("nobody's name") == []


def test_seats_in_order_are_the_tables_seats_and_know_their_table(
    organizer, django_assert_num_queries
):
    table = digital_table(organizer, "altruismus", 3, round_minutes=60)
    with django_assert_num_queries(1):
        seats = seats_in_order(table)
        assert [s.position for s in seats] == [0, 1, 2]
        assert all(s.table is table and s.player is not None for s in seats)
    assert [s.pk for s in seats] == list(
        table.seats.order_by("position").values_list("pk", flat=True)
    )


def test_what_a_prepared_query_cant_do_is_refused():
    with pytest.raises(ValueError, match="only reads"):
        PreparedQuery(lambda pk: Table.objects.select_for_update().filter(pk=pk))(1)
    with pytest.raises(ValueError, match="parameter"):
        PreparedQuery(lambda pk: Table.objects.all())(1)
    with pytest.raises(ValueError, match="int or a str"):
        PreparedQuery(lambda when: Table.objects.all(), kinds=(float,))
    with pytest.raises(ValueError, match="pattern"):  # never a marker left in the SQL
        PreparedQuery(
            lambda name: Table.objects.filter(round__tournament__name__startswith=name), (str,)
        )("x")
    with pytest.raises(TypeError):
        PreparedQuery(lambda pk: Table.objects.filter(pk=pk))(1, 2)


def test_a_share_locked_read_is_one_statement_inside_its_transaction_only(organizer):
    """The round a move reads is share-locked by the same statement that reads
    it (PostgreSQL), and such a read outside a transaction is refused: the
    lock would end with the statement."""
    from django.db import connection, transaction
    from django.db.transaction import TransactionManagementError
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Round

    table = digital_table(organizer, "quartett", 2, round_minutes=30)
    query = PreparedQuery(
        lambda round_id: Round.objects.select_related("tournament").filter(pk=round_id),
        share_lock=Round,
    )
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        [rnd] = query(table.round_id)
    assert rnd.pk == table.round_id and rnd.tournament.pk == table.round.tournament_id
    statements = [q["sql"] for q in seen.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 1
    if connection.vendor == "postgresql":
        assert statements[0].endswith(f'FOR SHARE OF "{Round._meta.db_table}"')
        # pytest-django's test runs inside a transaction: leave it for a moment
        connection.in_atomic_block, inside = False, connection.in_atomic_block
        try:
            with pytest.raises(TransactionManagementError):
                query(table.round_id)
        finally:
            connection.in_atomic_block = inside
