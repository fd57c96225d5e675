"""What the pages, exports and prints list: the standings rows, a player's
history, a round's results and seated tables, the CSV/JSON exports — plain
dicts and lists built from the selectors' data (:mod:`scoring.selectors`, :mod:`scoring.standings.selectors`) and
the pure standings, in a fixed number of queries per call (no per-table or
per-player query).

Points and figures are exact numbers from :mod:`scoring.standings.compute`, turned
into ``int`` or a short ``Decimal`` by :func:`tournaments.points.as_number` for
display.

Bot seats (a digital table's seat the game's bot filled because nobody was
seated there: a seat without a player) are no player: they get no row in the
per-seat lists here, which carry each player's ``seat`` number so the seats
after a bot seat keep theirs, and each table lists its bot seats in
``bot_seats``.
"""

from __future__ import annotations

import re
from collections import defaultdict

from django.utils.translation import pgettext, pgettext_lazy

from scoring.models import Submission
from scoring.selectors import players_data, results_data, with_a_game
from scoring.standings.compute import prepare
from scoring.standings.selectors import standings
from tournaments.collation import name_key
from tournaments.models import Bye, Player, Round, Seat, Table, Tournament
from tournaments.points import as_number
from tournaments.tiebreaks import check_order


def _prepared(tournament: Tournament, up_to_round: int | None = None):
    """The standings data of the players who have played: a player without a
    counted game (or bye) yet is not ranked as if he had lost."""
    results = results_data(tournament, up_to_round=up_to_round)
    players, _none = with_a_game(players_data(tournament), results)
    return prepare(players, results, scheme=tournament.points_scheme)


def players_without_game(tournament: Tournament, *, up_to_round: int | None = None) -> list[str]:
    """Names of the registered, not dropped players with no counted game or
    bye yet (not in the standings)."""
    results = results_data(tournament, up_to_round=up_to_round)
    _played, none = with_a_game(players_data(tournament), results)
    return [p["name"] for p in none if not p["dropped"]]


def figure_label(tournament: Tournament) -> str:
    """The game's figure ("cards held"), English; translate when shown."""
    return getattr(tournament.engine, "figure_label", "") or "figure"


def standings_rows(tournament: Tournament, *, up_to_round: int | None = None) -> list[dict]:
    """The standings (best first, a final stage's order applied:
    :func:`scoring.standings.selectors.standings`) of the players with a counted game
    as dicts: the fields of :class:`scoring.standings.compute.Row` plus ``club``,
    ``bot_games`` and ``rating_unconfirmed`` (the player typed a rating the
    organizer has not confirmed: it counts as none)."""
    rows = standings(tournament, up_to_round=up_to_round, played_only=True)
    clubs, unconfirmed = {}, set()
    for pk, club, rating, confirmed in tournament.players.values_list(
        "pk", "club", "rating", "rating_confirmed"
    ):
        clubs[pk] = club
        if rating is not None and not confirmed:
            unconfirmed.add(pk)
    bot_games = _bot_games(tournament, up_to_round)
    out = []
    for row in rows:
        d = row.as_dict()
        d["club"] = clubs.get(row.player_id, "")
        d["bot_games"] = bot_games.get(row.player_id, 0)
        d["rating_unconfirmed"] = row.player_id in unconfirmed
        out.append(d)
    return out


#: the standings' columns of results the order may not use: shown anyway
_RESULT_COLUMNS = ("points", "figures", "opponents", "wins")


def standings_columns(tournament: Tournament) -> list[str]:
    """The standings' number columns, on every page and print: each
    tiebreak of the tournament's order in that order (so every one that
    can decide a place is seen), then the results' numbers the order does
    not use."""
    order = check_order(tournament.tiebreaks or None)
    return [*order, *(key for key in _RESULT_COLUMNS if key not in order)]


#: shown for a player without a rating where the rating was looked at
NO_RATING = "–"


def standings_value(row: dict, key: str):
    """What a standings row shows under ``key``: head-to-head and the rating
    only where they applied to the player (level with someone on every
    tiebreak before), the rating there as "–" when the player has none (a
    rating a player typed counts only once confirmed)."""
    if key == "rating":
        if "rating" not in row.get("applied", ()):
            return None
        return NO_RATING if row["rating"] is None else row["rating"]
    return row[key]


def _bot_seats(tournament: Tournament, up_to_round: int | None = None):
    """Seats of digital tables the bot played for (part of) the game."""
    seats = Seat.objects.filter(table__round__tournament=tournament, bot_played=True)
    if up_to_round is not None:
        seats = seats.filter(table__round__number__lte=up_to_round)
    return seats


def _bot_games(tournament: Tournament, up_to_round: int | None = None) -> dict:
    """Per player id: the games in which the bot played the player's seat
    (marked in the standings and exports; README: bots in seats). A bot seat
    nobody was seated in is nobody's game."""
    counts: dict = {}
    for player_id in _bot_seats(tournament, up_to_round).values_list("player_id", flat=True):
        if player_id is not None:
            counts[player_id] = counts.get(player_id, 0) + 1
    return counts


def round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.round_set.order_by("number").values_list("number", flat=True))


def seated_tables(tournament: Tournament, number: int | None = None) -> list[dict]:
    """Tables with their players in seat order, round by round:
    ``{"id", "round", "number", "digital", "status", "players": [{"id", "name",
    "club", "seat"}, ...], "bot_seats": [seat, ...]}``; one round when
    ``number`` is given. Two queries. ``seat`` is 1-based; a bot seat (no
    player) has no entry in ``players``, only its number in ``bot_seats``."""
    tables = {}
    qs = Seat.objects.filter(table__round__tournament=tournament)
    tq = Table.objects.filter(round__tournament=tournament)
    if number is not None:
        qs = qs.filter(table__round__number=number)
        tq = tq.filter(round__number=number)
    for t in tq.order_by("round__number", "number").values(
        "id", "round__number", "number", "digital", "status"
    ):
        tables[t["id"]] = {
            "id": t["id"],
            "round": t["round__number"],
            "number": t["number"],
            "digital": t["digital"],
            "status": t["status"],
            "players": [],
            "bot_seats": [],
        }
    for table_id, pid, name, club in qs.order_by("table_id", "position").values_list(
        "table_id", "player_id", "player__name", "player__club"
    ):
        table = tables[table_id]
        seat = len(table["players"]) + len(table["bot_seats"]) + 1  # in seat order, bots too
        if pid is None:
            table["bot_seats"].append(seat)
        else:
            table["players"].append({"id": pid, "name": name, "club": club, "seat": seat})
    return list(tables.values())


def _confirmed(tournament: Tournament, number: int | None = None) -> dict[int, dict]:
    """Confirmed submission per table id: version, ranks, figures, at."""
    qs = Submission.objects.filter(table__round__tournament=tournament, status=Submission.CONFIRMED)
    if number is not None:
        qs = qs.filter(table__round__number=number)
    return {
        s["table_id"]: s for s in qs.values("table_id", "version", "ranks", "figures", "late", "at")
    }


def _byes(tournament: Tournament, number: int | None = None) -> dict[int, list[dict]]:
    qs = Bye.objects.filter(round__tournament=tournament)
    if number is not None:
        qs = qs.filter(round__number=number)
    out: dict[int, list[dict]] = defaultdict(list)
    for rnd, pid, name, club in qs.order_by("pk").values_list(
        "round__number", "player_id", "player__name", "player__club"
    ):
        out[rnd].append({"id": pid, "name": name, "club": club})
    for byes in out.values():  # German alphabetical order
        byes.sort(key=lambda b: (name_key(b["name"]), name_key(b["club"]), b["id"]))
    return out


def _game_points(prep) -> dict[tuple[int, object], object]:
    """(round, player id) → points that player earned in that round."""
    out = {}
    for pid, data in prep.players.items():
        for game in data.games:
            out[(game.round, pid)] = as_number(game.points)
    return out


def round_results(tournament: Tournament, number: int, *, points: dict | None = None) -> dict:
    """A round's tables with their confirmed result (or none yet) and byes:
    ``{"tables": [{..., "result": bool, "version", "late", "players": [{"id",
    "name", "club", "seat", "rank", "figure", "points"}]}], "byes": [...],
    "missing": [table numbers]}``. The result's ranks and figures are per
    seat, bot seats included: a player's are those of his ``seat``."""
    tables = seated_tables(tournament, number)
    confirmed = _confirmed(tournament, number)
    byes = _byes(tournament, number).get(number, [])
    if points is None:
        points = _game_points(_prepared(tournament, number))
    missing = []
    for t in tables:
        sub = confirmed.get(t["id"])
        t["result"] = sub is not None
        t["version"] = sub["version"] if sub else None
        t["late"] = sub["late"] if sub else False
        if sub is None:
            missing.append(t["number"])
        for p in t["players"]:
            i = p["seat"] - 1
            if sub is not None and i < len(sub["ranks"]):
                p["rank"] = sub["ranks"][i]
                figs = sub["figures"] or []
                p["figure"] = as_number(figs[i]) if i < len(figs) and figs[i] is not None else None
                p["points"] = points.get((number, p["id"]))
            else:
                p["rank"] = p["figure"] = p["points"] = None
    for b in byes:
        b["points"] = points.get((number, b["id"]))
    return {"tables": tables, "byes": byes, "missing": missing}


def player_history(tournament: Tournament, player: Player) -> list[dict]:
    """Per round the player's table, seat (1-based), table-mates, rank, figure
    and points, or his bye; a seat without a confirmed result has ``result``
    False. Rounds he did not play are left out. A bot seat is no table-mate
    (its rank still counts in his: behind the bot he is 2nd)."""
    prep = _prepared(tournament)
    points = _game_points(prep)
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("table__round")
        .order_by("table__round__number")
    )
    table_ids = [s.table_id for s in seats]
    mates: dict[int, list] = defaultdict(list)
    for table_id, pid, name, position in (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id", "player__name", "position")
    ):
        mates[table_id].append({"id": pid, "name": name, "seat": position + 1})
    confirmed = {
        s["table_id"]: s
        for s in Submission.objects.filter(
            table_id__in=table_ids, status=Submission.CONFIRMED
        ).values("table_id", "ranks", "figures", "version")
    }
    rows = []
    for seat in seats:
        sub = confirmed.get(seat.table_id)
        i = seat.position
        rnd = seat.table.round.number
        row = {
            "round": rnd,
            "bye": False,
            "table": seat.table.number,
            "seat": i + 1,
            "mates": [
                m for m in mates[seat.table_id] if m["id"] is not None and m["id"] != player.pk
            ],
            "result": sub is not None,
            "rank": None,
            "figure": None,
            "points": None,
        }
        if sub is not None:
            # positions are 0-based and contiguous; ranks follow seat order
            # (bot seats included: ``mates`` still holds them here, id None)
            order = [m["id"] for m in mates[seat.table_id]]
            k = order.index(player.pk)
            row["rank"] = sub["ranks"][k] if k < len(sub["ranks"]) else None
            figs = sub["figures"] or []
            row["figure"] = as_number(figs[k]) if k < len(figs) and figs[k] is not None else None
            row["points"] = points.get((rnd, player.pk))
            for m, r in zip(mates[seat.table_id], sub["ranks"], strict=False):
                m["rank"] = r
        rows.append(row)
    for rnd in Bye.objects.filter(player=player).values_list("round__number", flat=True):
        rows.append(
            {
                "round": rnd,
                "bye": True,
                "table": None,
                "seat": None,
                "mates": [],
                "result": True,
                "rank": None,
                "figure": None,
                "points": points.get((rnd, player.pk)),
            }
        )
    rows.sort(key=lambda r: r["round"])
    return rows


def player_total(tournament: Tournament, player: Player) -> dict | None:
    for row in standings_rows(tournament):
        if row["player_id"] == player.pk:
            return row
    return None


# -- flat rows for the CSV/JSON exports ---------------------------------------


def export_players(tournament: Tournament) -> list[dict]:
    """Every player, in German alphabetical order (name, then club)."""
    players = sorted(
        tournament.players.select_related("team"),
        key=lambda p: (name_key(p.name), name_key(p.club), p.pk),
    )
    return [
        {
            "id": p.pk,
            "name": p.name,
            "club": p.club,
            "rating": p.rating,
            "birth_year": p.birth_year,
            "team": p.team.name if p.team else "",
            "checked_in": p.checked_in,
            "dropped": p.dropped,
            "first_round": p.first_round,
        }
        for p in players
    ]


def export_seatings(tournament: Tournament) -> list[dict]:
    """One row per seated player and per bye (a bot seat has none: no player)."""
    rows = []
    for t in seated_tables(tournament):
        for p in t["players"]:
            rows.append(
                {
                    "round": t["round"],
                    "table": t["number"],
                    "seat": p["seat"],
                    "player_id": p["id"],
                    "name": p["name"],
                    "club": p["club"],
                }
            )
    for rnd, players in sorted(_byes(tournament).items()):
        for p in players:
            rows.append(
                {
                    "round": rnd,
                    "table": None,
                    "seat": None,
                    "player_id": p["id"],
                    "name": p["name"],
                    "club": p["club"],
                }
            )
    rows.sort(key=lambda r: (r["round"], r["table"] is None, r["table"] or 0, r["seat"] or 0))
    return rows


def export_results(tournament: Tournament) -> list[dict]:
    """One row per player's seat of a table with a confirmed result (a bot seat
    nobody was seated in has none), and per bye. ``bot``: the bot played the
    player's seat for him."""
    rows = []
    points = _game_points(_prepared(tournament))
    bots = set(
        _bot_seats(tournament).values_list("table__round__number", "table__number", "position")
    )
    for number in (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", flat=True)
    ):
        res = round_results(tournament, number, points=points)
        for t in res["tables"]:
            if not t["result"]:
                continue
            for p in t["players"]:
                seat = p["seat"]
                rows.append(
                    {
                        "round": number,
                        "table": t["number"],
                        "seat": seat,
                        "player_id": p["id"],
                        "name": p["name"],
                        "rank": p["rank"],
                        "figure": p["figure"],
                        "points": p["points"],
                        "bye": False,
                        "version": t["version"],
                        "bot": (number, t["number"], seat - 1) in bots,
                    }
                )
        for b in res["byes"]:
            rows.append(
                {
                    "round": number,
                    "table": None,
                    "seat": None,
                    "player_id": b["id"],
                    "name": b["name"],
                    "rank": None,
                    "figure": None,
                    "points": b["points"],
                    "bye": True,
                    "version": None,
                    "bot": False,
                }
            )
    return rows


def export_standings(tournament: Tournament) -> list[dict]:
    return [
        {
            "place": r["place"],
            "shared": r["shared"],
            "player_id": r["player_id"],
            "name": r["name"],
            "club": r["club"],
            "points": r["points"],
            "figures": r["figures"],
            "opponents": r["opponents"],
            "wins": r["wins"],
            "head_to_head": r["head_to_head"],
            "rating": r["rating"],
            "games": r["games"],
            "byes": r["byes"],
            "dropped": r["dropped"],
            "stage": r["stage"],
            "stage_rank": r["stage_rank"],
            "bot_games": r["bot_games"],
        }
        for r in standings_rows(tournament)
    ]


EXPORTS = {
    "players": export_players,
    "seatings": export_seatings,
    "results": export_results,
    "standings": export_standings,
}


# -- CSV column titles ----------------------------------------------------------

#: every CSV column's title for a spreadsheet reader: a German file says
#: "Geburtsjahr", an English one keeps the field name ("birth_year"), which
#: the JSON export uses as its key too (English has no catalogue: the msgid
#: is the title). The player import reads both (``tournaments.player_import``).
CSV_TITLES = {
    "id": pgettext_lazy("CSV column", "id"),
    "player_id": pgettext_lazy("CSV column", "player_id"),
    "name": pgettext_lazy("CSV column", "name"),
    "club": pgettext_lazy("CSV column", "club"),
    "rating": pgettext_lazy("CSV column", "rating"),
    "birth_year": pgettext_lazy("CSV column", "birth_year"),
    "team": pgettext_lazy("CSV column", "team"),
    "checked_in": pgettext_lazy("CSV column", "checked_in"),
    "dropped": pgettext_lazy("CSV column", "dropped"),
    "first_round": pgettext_lazy("CSV column", "first_round"),
    "round": pgettext_lazy("CSV column", "round"),
    "table": pgettext_lazy("CSV column", "table"),
    "seat": pgettext_lazy("CSV column", "seat"),
    "rank": pgettext_lazy("CSV column", "rank"),
    "figure": pgettext_lazy("CSV column", "figure"),
    "points": pgettext_lazy("CSV column", "points"),
    "bye": pgettext_lazy("CSV column", "bye"),
    "version": pgettext_lazy("CSV column", "version"),
    "bot": pgettext_lazy("CSV column", "bot"),
    "place": pgettext_lazy("CSV column", "place"),
    "shared": pgettext_lazy("CSV column", "shared"),
    "figures": pgettext_lazy("CSV column", "figures"),
    "opponents": pgettext_lazy("CSV column", "opponents"),
    "wins": pgettext_lazy("CSV column", "wins"),
    "head_to_head": pgettext_lazy("CSV column", "head_to_head"),
    "games": pgettext_lazy("CSV column", "games"),
    "byes": pgettext_lazy("CSV column", "byes"),
    "bot_games": pgettext_lazy("CSV column", "bot_games"),
    "total": pgettext_lazy("CSV column", "total"),
    "played": pgettext_lazy("CSV column", "played"),
    "stage": pgettext_lazy("CSV column", "stage"),
    "stage_rank": pgettext_lazy("CSV column", "stage_rank"),
}
#: a season's per-tournament columns: ``t3`` and ``t3_counts``
_SEASON_COLUMN = re.compile(r"t([0-9]{1,4})(_counts)?")


#: the words a CSV cell may hold, in the file's language: a German file
#: writes the stage "Halbfinale", an English one keeps the JSON's "semi"
CSV_VALUES = {
    "stage": {
        "semi": pgettext_lazy("CSV value", "semi"),
        "final": pgettext_lazy("CSV value", "final"),
    },
}


def csv_rows(rows: list[dict]) -> list[dict]:
    """``rows`` with their words (:data:`CSV_VALUES`) in the active language."""
    out = []
    for row in rows:
        row = dict(row)
        for key, words in CSV_VALUES.items():
            if row.get(key) in words:
                row[key] = str(words[row[key]])
        out.append(row)
    return out


def csv_title(key: str) -> str:
    """The title of the CSV column ``key`` in the active language."""
    season = _SEASON_COLUMN.fullmatch(key)
    if season:
        n = int(season.group(1))
        if season.group(2):
            return pgettext("CSV column", "t%(n)s_counts") % {"n": n}
        return pgettext("CSV column", "t%(n)s") % {"n": n}
    return str(CSV_TITLES.get(key, key))
