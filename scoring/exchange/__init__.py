"""A whole tournament as one JSON document, and back.

``export.export_tournament(tournament) -> dict`` and
``importer.import_tournament(data=..., owner=...) -> Tournament`` (all or nothing; a refused file raises
:class:`ImportRefused` with every problem found, each prefixed by where it is
in the file, e.g. ``rounds[2].tables[5].seats[1].player``).

The document (``"format": "turnierleiter.tournament"``, ``"version": 1``)::

    {"format", "version", "exported_at",
     "tournament": {settings: name, game, game_options, rounds, ...},
     "teams": [{"name"}],
     "players": [{"key", "name", "club", "rating", "rating_confirmed", "birth_year",
                  "team" (name),
                  "checked_in", "dropped", "first_round",
                  "events": [{"kind", "by", "at"}]}],
     "rounds": [{"number", "status", "published", "minutes", "deadline", ...,
                 "tables": [{"number", "digital", "status", "deadline", ...,
                             "seats": [{"position", "player" (key)}],
                             "actions": [{"number", "seat", "action", "by_bot", "at"}],
                             "submissions": [{"version", "status", "sheet", "ranks",
                                              "figures", "details", "source", "by",
                                              "by_seat", "from_address",
                                              "replaces" (version), "reason", "late",
                                              "at", "confirmations": [{"by", "by_seat",
                                                                      "at"}]}]}],
                 "byes": [player keys],
                 "clock": [{"kind", "table" (number or null), "seconds", "reason",
                            "by", "at"}],
                 "seating_changes": [{"kind", "detail", "by", "at"}]}]}

No database id is in the file: players are referred to by ``key`` (their
1-based place in the list, which is sorted by name and club), teams by name,
tables by number, submissions by version. Users (``by``) are usernames. On
import they are kept as text (``imported_by``, shown as "name (imported)") and
never linked to an account of this site: a file can't put another organizer's
name into my clock log. Times are ISO 8601 in UTC and are kept on import.

An import is checked before anything is stored: the size limits of
:mod:`tournaments.limits` (players, rounds, tables, log entries), nesting
depth, NUL characters and NaN (:mod:`tournaments.safejson`), the type of every
value (a list where a name or a number belongs is refused with its place),
and every value the way the form or service that writes it on this site
checks it (:mod:`scoring.exchange.checks`): the settings through the settings
form, each paper result through the game's ``check_sheet`` (ranks, figures
and details must be what it gives), each digital table's moves replayed to
its stored state and result, seating reasons through their codes
(``tournaments.seating.reasons``), rounds numbered 1, 2, … and each player
once per round. A file with any problem is refused as a whole, each problem
with its place; a refusal never shows database internals.

Round trip: export → import → export gives the same document except
``exported_at``. Not in the file at all: the owner (the importing user owns the
new tournament), the scorekeepers (add them again; a file must not grant
anyone rights on another site), the tournament's and players' creation times,
and the database ids. ``seating_changes[].detail`` and a digital table's
``state`` are copied as they are.
"""
