"""Build a realistic demo tournament so a newcomer can look around.

    python manage.py demo [--game quartett] [--players 24] [--rounds 5]
                          [--owner NAME] [--first-start]

``--first-start`` (used by ``make run``) does nothing when any account exists;
otherwise it creates the organizer account ``organizer`` with a random
password, prints the login and writes it to ``var/demo-login.txt``.
"""

import random
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import ENGINES
from tournaments import services
from tournaments.player_import import ImportRow

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
        parser.add_argument("--first-start", action="store_true")

    def handle(self, *args, game, players, rounds, owner, seed, first_start, **opts):
        User = get_user_model()
        if first_start and User.objects.exists():
            return
        if not 2 <= players <= 2000:
            raise CommandError("--players must be between 2 and 2000")
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
        self.stdout.write(
            f"Demo tournament “{tournament.name}” with {players} players created (id {tournament.pk})."
        )
        if password:
            login = f"Login: user {owner}  password {password}\n"
            settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
            (settings.VAR_DIR / "demo-login.txt").write_text(login)
            self.stdout.write(self.style.SUCCESS(login))
