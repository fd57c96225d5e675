"""Helpers of the mirror tests: a laptop tournament played through the
services, and a publication of it as the laptop sends it."""

from __future__ import annotations

from scoring import services as results
from scoring.exchange.export import export_tournament
from tests.factories import seated_round
from tournaments import services
from tournaments.mirror import keys, receive, snapshot
from tournaments.models import Table
from tournaments.services import round_life


def approved_key(*, user, name: str = ""):
    """A publishing key of ``user``, whose account the site admin approved
    first (a key needs a confirmed account)."""
    keys.approve(user=user)
    return keys.key_create(user=user, name=name)


def sheet(players: int, shift: int = 0) -> dict:
    """A Quartett sheet at time: the cards dealt (32 at 2 or 4 players, 30
    at 3, 5 or 6: the deal leaves none over) held in different numbers, so
    nobody ties, the order turned by ``shift``."""
    counts = list(range(players))
    total = 32 if players in (2, 4) else 30
    base, extra = divmod(total - sum(counts), players)
    counts = [c + base + (1 if i >= players - extra else 0) for i, c in enumerate(counts)]
    return {f"s{i}_cards": counts[(i + shift) % players] for i in range(players)}


def play_round(tournament, *, players=None, start=True, results_in=True, shift=0):
    """Seat, publish and start the next round; every table's sheet entered."""
    rnd = seated_round(tournament, players=players, start=start)
    if results_in:
        for table in Table.objects.filter(round=rnd).order_by("number"):
            n = table.seats.count()
            results.result_submit(
                table=table,
                sheet=sheet(n, shift + table.number),
                by=tournament.owner,
                expected_version=None,
            )
        round_life.round_end_when_done(round_id=rnd.pk, by=tournament.owner)
    rnd.refresh_from_db()
    return rnd


def laptop_tournament(owner, *, players=8, rounds=1, name="Vereinsturnier"):
    t = services.tournament_create(owner=owner, name=name, game="quartett", rounds=4)
    t.public = True
    t.save()
    for k in range(rounds):
        play_round(t, players=players if k == 0 else None, shift=k)
    return t


def envelope(tournament, *, source, version, held=None) -> dict:
    """The publication the laptop would send, with only the sections the site
    does not hold (``held``: its hashes)."""
    sections = snapshot.public_sections(export_tournament(tournament))
    hashes = snapshot.hashes(sections)
    held = held or {}
    return {
        "format": receive.FORMAT,
        "source": str(source),
        "version": version,
        "hashes": hashes,
        "sections": {n: c for n, c in sections.items() if held.get(n) != hashes[n]},
    }


def body(data: dict) -> bytes:
    return receive.pack(data)


def clock_pause(rnd):
    return round_life.round_pause(round=rnd, by=rnd.tournament.owner)


def play_digital_round(tournament, *, players=None, seed=0):
    """Seat and start the next round of a tournament of digital tables; at
    each table the players play to the game's end from their seats (each
    move the game's own bot would choose for that seat), and the round closes."""
    from tournaments.play import tables as digital

    rnd = seated_round(tournament, players=players, start=True)
    engine = tournament.engine
    for table in Table.objects.filter(round=rnd).order_by("number"):
        for move in range(5000):
            table.refresh_from_db()
            state = engine.load(table.state)
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            bot = engine.bots()["smart"](seed + 97 * table.number + move)
            action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat))
            digital.table_move(table=table, seat=seat, action=action)
        else:
            raise AssertionError(f"table {table.number} did not end in 5000 moves")
    round_life.round_end(round=rnd, by=tournament.owner)
    rnd.refresh_from_db()
    return rnd
