"""Test data built the way an organizer builds it: through the services.

- ``UserFactory``: an account ``orga-<n>`` with the password ``pw-test-12345``.
- ``TournamentFactory``: created by ``tournament_create`` (its limits, its
  game's defaults, ``full_clean``); defaults: owner a new user, name
  ``Turnier <n>``, game Quartett; any other field as a keyword.
- ``PlayerFactory``: registered by ``player_add`` and checked in by
  ``player_set_checked_in`` (``checked_in=False`` leaves the player out of the
  next seating); defaults: a tournament of its own, name ``Spieler <n>``.
- ``seated_round``: the next round seated by ``round_seat`` like the organizer
  seats it, optionally in a given seat order (swaps on the draft, then
  published), started and run out through the clock service.
- ``one_table`` / ``digital_table``: round 1 of a new tournament with one
  table of the given players in registration order.
- ``LONG_NAMES`` / ``LONG_CLUBS``: real long names and clubs for pages that
  must hold them; ``DIGITAL_GAMES``: every game with its digital table size.

Nothing here writes a seat, a table or a round by hand (only a deal secret a
test passes, the way an import brings one).
"""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from tests.timetravel import past_deadline
from tournaments import services
from tournaments.models import Player, Round, Seat, Table, Tournament
from tournaments.play import tables as play_tables
from tournaments.services import round_life, seating

PASSWORD = "pw-test-12345"

#: a club evening's real long names, nine for three tables of three: the
#: longest a German club has, letters beyond ASCII, two "Thomas Müller"
LONG_NAMES = [
    "Maximilian Freiherr von und zu Übelacker-Schönbrunn",
    "Iris Täubner",
    "Thomas Müller",
    "Łukasz Wiśniewski",
    "Ayşe Şahin",
    "Jürgen Groß",
    "Thomas Müller",
    "Grete Weiß",
    "Dieter Ruß",
]
#: their clubs (most play for none), one for each of ``LONG_NAMES``
LONG_CLUBS = [
    "SV Quartett 1920 Köln-Deutz",
    "",
    "Kartenfreunde Bonn",
    "",
    "",
    "",
    "TSV Ehrenfeld",
    "",
    "",
]
#: every game with the size of the digital table the tests play it at
DIGITAL_GAMES = [
    ("quartett", 2),
    ("terra_trumpf", 3),
    ("trumpet", 3),
    ("monddaemmerung", 4),
    ("altruismus", 3),
]


class UserFactory(factory.django.DjangoModelFactory):
    """A user account; log in with ``PASSWORD``."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"orga-{n}")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return model_class.objects.create_user(*args, password=PASSWORD, **kwargs)


class TournamentFactory(factory.Factory):
    """A tournament created by ``services.tournament_create``."""

    class Meta:
        model = Tournament

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Turnier {n}")
    game = "quartett"

    @classmethod
    def _create(cls, model_class, *, owner, name, game, **fields):
        return services.tournament_create(owner=owner, name=name, game=game, **fields)

    _build = _create


class PlayerFactory(factory.Factory):
    """A player registered by ``services.player_add`` and checked in."""

    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Spieler {n}")
    checked_in = True

    @classmethod
    def _create(cls, model_class, *, tournament, checked_in, **fields):
        player = services.player_add(tournament=tournament, by=tournament.owner, **fields)
        if checked_in:
            player = services.player_set_checked_in(
                player=player, checked_in=True, by=tournament.owner
            )
        return player

    _build = _create


def _arrange(rnd: Round, order: list[list], by) -> None:
    """Bring the draft of ``rnd`` into the seat order ``order`` (one list of
    players per table, by table number) with the organizer's swaps."""
    for number, players in enumerate(order, start=1):
        for position, player in enumerate(players):
            sitting = Seat.objects.get(table__round=rnd, table__number=number, position=position)
            if sitting.player_id != player.pk:
                seating.seating_swap(round=rnd, player_a=sitting.player, player_b=player, by=by)


def seated_round(
    tournament,
    *,
    players: int | list | None = None,
    order: list[list] | None = None,
    by=None,
    seed: int | None = None,
    deal_secrets: list[str] | None = None,
    publish: bool = True,
    start: bool = False,
    time_called: bool = False,
    names: list[str] | None = None,
    **player_fields,
) -> Round:
    """Seat the next round of ``tournament`` through ``seating.round_seat``.

    ``players``: how many new players to register first (named from ``names``
    or ``Spieler <n>``; ``player_fields`` for each, a list per field gives
    each player its own value), or the players to register nothing for;
    ``None`` seats whoever is checked in. ``order``: who sits where, one list
    per table — the draft is swapped into it before it is published (the
    tables must come out of the seating with these sizes). ``seed``: the
    organizer's seating seed (it decides the seating, never the cards);
    ``deal_secrets``: the deal secret of each table (table 1 first, 64 hex
    digits), for a test that must deal a known game. ``publish``,
    ``start`` (the clock service starts it: digital tables are dealt) and
    ``time_called`` (its time passes and the clock closes it) as the
    organizer would. ``by``: who acts, the owner by default."""
    by = by or tournament.owner
    if isinstance(players, int):
        made = []
        for k in range(players):
            fields = {
                key: (value[k] if isinstance(value, list | tuple) else value)
                for key, value in player_fields.items()
            }
            if names:
                fields["name"] = names[k]
            made.append(PlayerFactory(tournament=tournament, **fields))
        players = made
    rnd = seating.round_seat(tournament=tournament, by=by, seed=seed)
    if order is None and players is not None and not isinstance(players, int):
        counts = list(
            Table.objects.filter(round=rnd).order_by("number").values_list("number", flat=True)
        )
        if len(counts) == 1:
            order = [list(players)]
    if order is not None:
        _arrange(rnd, order, by)
    for number, secret in enumerate(deal_secrets or [], start=1):
        Table.objects.filter(round=rnd, number=number).update(secret=secret)
    if publish or start:
        rnd = seating.seating_publish(round=rnd, by=by)
    if start or time_called:
        rnd = round_life.round_start(round=rnd, by=by)
    if time_called:
        past_deadline(rnd)
        round_life.round_time_up(rnd.pk, via="test")
    rnd.refresh_from_db()
    return rnd


def one_table(
    organizer=None,
    game: str = "quartett",
    players: int = 2,
    *,
    digital: bool = False,
    start: bool = False,
    publish: bool = True,
    names: list[str] | None = None,
    birth_year=None,
    club: str = "",
    seed: int | None = None,
    secret: str | None = None,
    **fields,
) -> Table:
    """Table 1 of round 1 of a new tournament of ``game`` (owned by
    ``organizer``, a new user by default; ``digital`` tables or paper), its
    ``players`` players seated in the order they registered (``Spieler 0``
    at seat 0, …, or ``names``; ``birth_year`` and ``club`` one for all or
    a list of them). ``seed``: the round's seating seed; ``secret``: the
    table's deal secret (64 hex digits, see ``deal_secret``), for a game
    that must be dealt the same way every run.
    Published unless ``publish=False``, started (digital tables dealt) with
    ``start=True``; other keywords are the tournament's fields."""
    owner = organizer or UserFactory()
    fields.setdefault("allowed_sizes", [players])
    fields.setdefault("table_size", players)
    fields.setdefault("name", f"{'Digital' if digital else 'Turnier'} {game}")
    tournament = TournamentFactory(owner=owner, game=game, digital_tables=digital, **fields)
    names = names or [f"Spieler {k}" for k in range(players)]
    rnd = seated_round(
        tournament,
        players=players,
        names=names,
        publish=publish,
        start=start,
        birth_year=birth_year,
        club=club,
        seed=seed,
        deal_secrets=[secret] if secret else None,
    )
    return rnd.tables.get(number=1)


def time_called_round(
    tournament: Tournament, tables: int, seats: int, *, published: bool = False
) -> Round:
    """Round 1 of ``tournament`` in bulk, as the load benches need it: ``tables``
    tables of ``seats`` checked-in players each, waiting for their results, the
    time already called (so the last result completes the round)."""
    from django.utils import timezone

    now = timezone.now()
    rnd = Round.objects.create(
        tournament=tournament,
        number=1,
        status=Round.TIME_CALLED,
        deadline=now,
        time_called_at=now,
        published=published,
    )
    seated = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Spieler {i:04d}", checked_in=True)
        for i in range(tables * seats)
    )
    rows = Table.objects.bulk_create(
        Table(round=rnd, number=n, status=Table.WAITING) for n in range(1, tables + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=t, player=seated[k * seats + p], position=p)
        for k, t in enumerate(rows)
        for p in range(seats)
    )
    return rnd


def deal_secret(n: int) -> str:
    """A fixed deal secret for tests (``n`` as 64 hex digits): the same
    ``n`` deals the same game."""
    return f"{n:064x}"


def digital_table(organizer=None, game: str = "quartett", players: int = 2, **kwargs) -> Table:
    """``one_table`` with a digital table, started (dealt) unless ``start=False``."""
    kwargs.setdefault("start", True)
    return one_table(organizer, game, players, digital=True, **kwargs)


def play_on(table, moves: int) -> None:
    """``moves`` moves at the digital ``table``, each the first legal one of
    the first seat to act, through the service a player's move takes: the
    table shows cards played and a trick."""
    for _ in range(moves):
        table.refresh_from_db()
        engine = table.round.tournament.engine
        state = engine.load(table.state)
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        play_tables.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
