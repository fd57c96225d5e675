"""What one tournament can hold, and how large a request may be: the limits
in one place. They are far above any club tournament (the largest card-game
opens seat a few hundred players) and keep every page of the largest allowed
tournament answering in bounded time.

Every door that adds to a tournament checks them with a translated message:
adding a player, the player import (CSV or pasted), the tournament import
(JSON) and the tournament's settings.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: players registered in one tournament (dropped ones count: they stay listed)
MAX_PLAYERS = 2000
#: tournaments one account owns (a club's weekly tournament for ten years fits)
MAX_TOURNAMENTS_PER_OWNER = 600
#: rounds of one tournament
MAX_ROUNDS = 30
#: tables in one round (2,000 players at tables of 2)
MAX_TABLES = MAX_PLAYERS // 2
#: teams in one tournament
MAX_TEAMS = MAX_PLAYERS // 2
#: a rating (DWZ/Elo and the like stay far below)
MIN_RATING, MAX_RATING = -99_999, 99_999
#: characters of a name, club or team name
MAX_NAME = 200

#: entries of one log in a tournament import: a player's events, a round's
#: clock log and seating changes, a table's result versions
MAX_LOG_ENTRIES = 2000
#: moves at one digital table
MAX_TABLE_ACTIONS = 10_000
#: how deeply a JSON upload (tournament export, deck) may nest
MAX_JSON_DEPTH = 32
#: elements (values, keys, containers: ``safejson.elements``) of one JSON
#: upload or publication: the largest tournament's export (2,000 players,
#: 30 rounds, 15.2 MB) holds 1.37 million (tests/bench/measure_largest.py);
#: this is that with a margin of half
MAX_JSON_ELEMENTS = 2_100_000

#: print jobs of one tournament still waiting or rendering (of the last hour)
MAX_OPEN_PRINT_JOBS = 10

#: request bodies (see tournaments.middleware.BodySizeLimitMiddleware)
MAX_BODY_BYTES = 25 * 1024 * 1024  # the largest upload: a tournament export
MAX_FORM_BYTES = 2 * 1024 * 1024  # a form without files (pasted player lists)
MAX_FORM_FIELDS = 4000
#: a publication from the laptop to the online site (``tournaments.mirror``):
#: gzip-compressed JSON, and what it may grow to when unpacked. The largest
#: tournament (2,000 players, 30 rounds, every result in) publishes its
#: whole snapshot at 12.6 MB unpacked, 446 KB gzip, 1.2 million elements
#: (tests/bench/measure_largest.py): the limits are that with a margin of
#: half (unpacked) and more than four times (gzip: names compress less well)
MAX_PUBLICATION_BYTES = 2 * 1024 * 1024
MAX_PUBLICATION_UNPACKED = 20 * 1024 * 1024
#: a player list file
MAX_PLAYER_FILE_BYTES = 2 * 1024 * 1024
#: a tournament export file (2,000 players, 30 rounds with their results)
MAX_IMPORT_BYTES = MAX_BODY_BYTES - 64 * 1024


def players_message(count: int, adding: int = 1) -> str | None:
    """Why ``adding`` more players don't fit beside ``count``, or None."""
    if count + adding <= MAX_PLAYERS:
        return None
    return ngettext(
        "A tournament holds at most %(max)s players; it has %(count)s, so %(adding)s more "
        "player doesn't fit.",
        "A tournament holds at most %(max)s players; it has %(count)s, so %(adding)s more "
        "players don't fit.",
        adding,
    ) % {"max": MAX_PLAYERS, "count": count, "adding": adding}


def tournaments_message(owned: int) -> str | None:
    """Why an account that owns ``owned`` tournaments can't have another, or None."""
    if owned < MAX_TOURNAMENTS_PER_OWNER:
        return None
    return _(
        "An account can own at most %(max)s tournaments. Archive or delete old ones first."
    ) % {"max": MAX_TOURNAMENTS_PER_OWNER}


def rounds_message(rounds: int) -> str | None:
    if 1 <= rounds <= MAX_ROUNDS:
        return None
    return _("Between 1 and %(max)s rounds.") % {"max": MAX_ROUNDS}


def mb(size: int) -> str:
    return f"{size / (1024 * 1024):.0f}"
