"""A tournament as the export document (``scoring.exchange``)."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.exchange.format import (
    DATETIMES,
    FINAL_STAGE_FIELDS,
    FORMAT,
    PLAYER_FIELDS,
    ROUND_FIELDS,
    SUBMISSION_FIELDS,
    TABLE_FIELDS,
    TOURNAMENT_FIELDS,
    VERSION,
)
from scoring.models import Confirmation, Submission
from tournaments.finals.models import FinalStage
from tournaments.models import (
    Bye,
    ClockActivation,
    Player,
    PlayerEvent,
    Round,
    Seat,
    SeatingChange,
    Table,
    TableAction,
    Tournament,
)

# -- export -------------------------------------------------------------------


def _time(value) -> str | None:
    if value is None:
        return None
    return value.astimezone(dt.UTC).isoformat()


def _value(obj, name):
    value = getattr(obj, name)
    return _time(value) if name in DATETIMES else value


def export_tournament(
    tournament: Tournament, *, without_rounds=(), keys_by_id: bool = False
) -> dict:
    """The whole tournament as a JSON-ready dict (see the module docstring).
    A fixed number of queries whatever its size. ``without_rounds``: round
    numbers left out (neither read nor written: a caller that has them
    already); ``keys_by_id``: each player's key is its id here, which stays
    the same when players are added or renamed (else 1, 2, … by name)."""
    rows = _export_rows(tournament, set(without_rounds))
    if keys_by_id:
        key = {p.pk: p.pk for p in rows["players"]}
    else:
        key = {p.pk: i for i, p in enumerate(rows["players"], 1)}
    by = _authors(rows)
    out = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(timezone.now()),
        "tournament": {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS},
        "teams": [{"name": t.name} for t in tournament.teams.order_by("name")],
        "players": _export_players(rows, key, by),
        "rounds": _export_rounds(rows, key, by),
    }
    stage = FinalStage.objects.filter(tournament=tournament).first()
    if stage is not None:
        out["final_stage"] = {name: getattr(stage, name) for name in FINAL_STAGE_FIELDS}
    return out


def _export_rows(tournament: Tournament, without_rounds: set) -> dict[str, list]:
    """Every row the export needs, one query per model."""
    of_rounds = {"round__tournament": tournament}
    of_tables = {"table__round__tournament": tournament}
    rounds = Round.objects.filter(tournament=tournament)
    of_confs = Confirmation.objects.filter(submission__table__round__tournament=tournament)
    if without_rounds:
        rounds = rounds.exclude(number__in=without_rounds)
        kept = list(rounds.values_list("pk", flat=True))
        of_rounds = {"round_id__in": kept}
        of_tables = {"table__round_id__in": kept}
        of_confs = Confirmation.objects.filter(submission__table__round_id__in=kept)
    return {
        "rounds": list(rounds.order_by("number")),
        "tables": list(Table.objects.filter(**of_rounds).order_by("round_id", "number")),
        "players": list(
            Player.objects.filter(tournament=tournament)
            .select_related("team")
            .order_by("name", "club", "pk")
        ),
        "events": list(
            PlayerEvent.objects.filter(player__tournament=tournament).order_by("at", "pk")
        ),
        "subs": list(Submission.objects.filter(**of_tables).order_by("table_id", "version")),
        "confs": list(of_confs.order_by("at", "pk")),
        "activations": list(ClockActivation.objects.filter(**of_rounds).order_by("at", "pk")),
        "changes": list(SeatingChange.objects.filter(**of_rounds).order_by("at", "pk")),
        "actions": list(TableAction.objects.filter(**of_tables).order_by("table_id", "number")),
        "seats": list(Seat.objects.filter(**of_tables).order_by("table_id", "position")),
        "byes": list(Bye.objects.filter(**of_rounds).select_related("round")),
    }


def _authors(rows: dict[str, list]):
    """``by(row)``: a username, the account's or the name an imported file gave."""
    logs = ("events", "subs", "confs", "activations", "changes")
    user_ids = {o.by_id for name in logs for o in rows[name]} - {None}
    users = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))

    def by(obj) -> str | None:
        return users.get(obj.by_id) or obj.imported_by or None

    return by


def _export_players(rows: dict[str, list], key: dict, by) -> list[dict]:
    player_events = defaultdict(list)
    for e in rows["events"]:
        player_events[e.player_id].append({"kind": e.kind, "by": by(e), "at": _time(e.at)})
    return [
        {
            "key": key[p.pk],
            **{name: getattr(p, name) for name in PLAYER_FIELDS},
            "team": p.team.name if p.team else None,
            "events": player_events[p.pk],
        }
        for p in rows["players"]
    ]


def _export_tables(rows: dict[str, list], key: dict, by) -> dict[int, list]:
    """Each round's tables (by round id) with seats, actions and results."""
    version_of = {s.pk: s.version for s in rows["subs"]}
    sub_confs = defaultdict(list)
    for c in rows["confs"]:
        sub_confs[c.submission_id].append({"by": by(c), "by_seat": c.by_seat, "at": _time(c.at)})
    table_subs = defaultdict(list)
    for s in rows["subs"]:
        d = {name: _value(s, name) for name in SUBMISSION_FIELDS}
        d["by"] = by(s)
        d["replaces"] = version_of.get(s.replaces_id)
        d["at"] = _time(s.at)
        d["confirmations"] = sub_confs[s.pk]
        table_subs[s.table_id].append(d)
    table_seats = defaultdict(list)
    for s in rows["seats"]:
        # an empty seat (the bot plays it for nobody) has no player
        table_seats[s.table_id].append(
            {
                "position": s.position,
                "player": key.get(s.player_id),
                "bot": s.bot,
                "bot_played": s.bot_played,
            }
        )
    table_actions = defaultdict(list)
    for a in rows["actions"]:
        table_actions[a.table_id].append(
            {
                "number": a.number,
                "seat": a.seat,
                "action": a.action,
                "by_bot": a.by_bot,
                "at": _time(a.at),
            }
        )
    round_tables = defaultdict(list)
    for t in rows["tables"]:
        d = {name: _value(t, name) for name in TABLE_FIELDS}
        d["seats"] = table_seats[t.pk]
        d["actions"] = table_actions[t.pk]
        d["submissions"] = table_subs[t.pk]
        round_tables[t.round_id].append(d)
    return round_tables


def _export_rounds(rows: dict[str, list], key: dict, by) -> list[dict]:
    round_tables = _export_tables(rows, key, by)
    table_number = {t.pk: t.number for t in rows["tables"]}
    round_byes = defaultdict(list)
    for b in rows["byes"]:
        round_byes[b.round_id].append(key[b.player_id])
    round_clock = defaultdict(list)
    for a in rows["activations"]:
        round_clock[a.round_id].append(
            {
                "kind": a.kind,
                "table": table_number.get(a.table_id),
                "seconds": a.seconds,
                "reason": a.reason,
                "by": by(a),
                "at": _time(a.at),
            }
        )
    round_changes = defaultdict(list)
    for c in rows["changes"]:
        round_changes[c.round_id].append(
            {"kind": c.kind, "detail": c.detail, "by": by(c), "at": _time(c.at)}
        )
    out = []
    for r in rows["rounds"]:
        d = {name: _value(r, name) for name in ROUND_FIELDS}
        d["tables"] = round_tables[r.pk]
        d["byes"] = sorted(round_byes[r.pk])
        d["clock"] = round_clock[r.pk]
        d["seating_changes"] = round_changes[r.pk]
        out.append(d)
    return out


def export_json(tournament: Tournament) -> str:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1)
