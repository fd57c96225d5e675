"""Build a realistic demo tournament so a newcomer can look around.

    python manage.py demo [--game quartett] [--players 24] [--rounds 5]
                          [--played 2] [--owner NAME] [--first-start]

``--played N``: the first N rounds are seated and played by the game's bots
at digital tables — most games to their end, some cut by time — with the
clock recording the round's full length, so the standings, results and print
pages look like a real evening.

``--first-start`` (``make run`` calls it through ``runall --demo-first-start``,
after checking the port) does nothing when any account exists;
otherwise it creates the organizer account ``organizer`` with a random
password, prints the login and writes it to ``var/demo-login.txt``.
"""

import random
import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import F

from games import ENGINES
from tournaments import services
from tournaments.models import ClockActivation, Round, Tournament
from tournaments.play import tables
from tournaments.player_import import ImportRow
from tournaments.services import clock, round_life, seating

FIRST = [
    "Anna",
    "Ben",
    "Clara",
    "David",
    "Emine",
    "Finn",
    "Greta",
    "Hakan",
    "Ida",
    "Jonas",
    "Katarzyna",
    "Lukas",
    "Łukasz",
    "Mia",
    "Niklas",
    "Olga",
    "Paul",
    "Rüya",
    "Sophie",
    "Tobias",
    "Ute",
    "Valentin",
    "Wiebke",
    "Yusuf",
    "Zoë",
    "Jörg",
    "Maike",
    "Hans-Peter",
]
LAST = [
    "Müller",
    "Schmidt",
    "Şahin",
    "Kowalski",
    "Weiß",
    "Becker",
    "Yılmaz",
    "Hoffmann",
    "Schäfer",
    "Nowak",
    "Krüger",
    "Groß",
    "Wagner",
    "Öztürk",
    "Fischer",
    "Zieliński",
]
CLUBS = [
    "Kartenfreunde Musterstadt",
    "SK Trumpf 1987",
    "Quartett-Club Nord",
    "Spielerunde am Markt",
    "TV Oberdorf, Abt. Karten",
    "",
]


class Command(BaseCommand):
    help = "Create a demo tournament (and on first start an organizer account)."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="quartett", choices=sorted(ENGINES))
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--owner", default="organizer")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--played", type=int, default=2, help="rounds played by bots")
        parser.add_argument("--first-start", action="store_true")

    def handle(self, *args, game, players, rounds, owner, seed, first_start, played, **opts):
        User = get_user_model()
        if first_start and User.objects.exists():
            return
        if not 2 <= players <= 2000:
            raise CommandError("--players must be between 2 and 2000")
        if not 0 <= played <= rounds:
            raise CommandError("--played must be between 0 and --rounds")
        password = None
        with transaction.atomic():
            user = User.objects.filter(username=owner).first()
            if user is None:
                password = secrets.token_urlsafe(9)
                user = User.objects.create_user(owner, password=password)
            rng = random.Random(seed)
            tournament = services.tournament_create(
                owner=user,
                name=f"Demo: {ENGINES[game].name} – Vereinsturnier",
                game=game,
                rounds=rounds,
            )
            rows, seen = [], set()
            while len(rows) < players:
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                club = rng.choice(CLUBS)
                if (name, club) in seen:
                    continue
                seen.add((name, club))
                rows.append(
                    ImportRow(
                        line=len(rows) + 1,
                        name=name,
                        club=club,
                        rating=rng.randrange(900, 2100),
                        birth_year=rng.randrange(1950, 2014),
                    )
                )
            created = services.players_import(tournament=tournament, rows=rows, by=user)
            for p in created[: players - max(1, players // 8)]:
                services.player_set_checked_in(player=p, checked_in=True, by=user)
        play_rounds(tournament, user, played, seed)
        self.stdout.write(
            f"Demo tournament “{tournament.name}” with {players} players created (id {tournament.pk})"
            f", {played} rounds played by bots."
        )
        if password:
            login = f"Login: user {owner}  password {password}\n"
            settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
            (settings.VAR_DIR / "demo-login.txt").write_text(login)
            self.stdout.write(self.style.SUCCESS(login))


def play_rounds(tournament: Tournament, user, count: int, seed: int = 1) -> None:
    """Seat ``count`` rounds and let the game's bots play them at digital
    tables, through the same services a real round uses.

    The clock runs the round's real length: the bots play their moves right
    after the start, most tables to the end of their game and some only part
    of it (cut by time, as at a real event); then the start is moved back so
    the recorded round lasted its full minutes and time is called."""
    rng = random.Random(seed)
    grace = tournament.grace_seconds
    Tournament.objects.filter(pk=tournament.pk).update(grace_seconds=0)
    try:
        for _ in range(count):
            rnd = seating.round_seat(tournament=tournament, by=user)
            rnd.tables.update(digital=True)
            round_life.round_start(round=rnd, by=user)
            for table in rnd.tables.order_by("number"):
                # three tables in four finish their game before time
                share = 1.0 if rng.random() < 0.75 else rng.uniform(0.4, 0.85)
                _bots_play(table, share, rng.randrange(1 << 30))
            _let_the_round_run_its_length(rnd)
            round_life.round_time_up(rnd.pk, via="demo")
            for table_id in rnd.tables.values_list("pk", flat=True):
                tables.table_finish(table_id=table_id)
            round_life.round_complete_if_done(round_id=rnd.pk)
    finally:
        Tournament.objects.filter(pk=tournament.pk).update(grace_seconds=grace)


def _bots_play(table, share: float, seed: int) -> None:
    """The game's smart bots make about ``share`` of a game's moves at the
    table (each through ``table_move``, as a player's would be)."""
    table.refresh_from_db()
    engine = table.round.tournament.engine
    state = engine.load(table.state)
    # how long a whole game is: played out on a copy first
    bot = engine.bots()["smart"](seed)
    full = 0
    probe = state
    while not engine.is_over(probe) and full < 5000:
        seat = engine.to_act(probe)[0]
        probe = engine.apply(
            probe, seat, bot.choose(engine.view(probe, seat), engine.legal_actions(probe, seat))
        )
        full += 1
    moves = full if share >= 1 else int(full * share)
    bot = engine.bots()["smart"](seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat))
        table = tables.table_move(table=table, seat=seat, action=action)
        state = engine.load(table.state)


def _let_the_round_run_its_length(rnd: Round) -> None:
    """Move the round's clock back so that it started its full length ago and
    its deadline is a moment away; then wait for the deadline."""
    rnd.refresh_from_db()
    now = clock.db_now()
    shift = rnd.deadline - now - timedelta(seconds=1)
    if shift > timedelta(0):
        ClockActivation.objects.filter(round=rnd).update(at=F("at") - shift)
        Round.objects.filter(pk=rnd.pk).update(deadline=F("deadline") - shift)
    deadline = Round.objects.values_list("deadline", flat=True).get(pk=rnd.pk)
    while clock.db_now() < deadline:
        time.sleep(0.05)
