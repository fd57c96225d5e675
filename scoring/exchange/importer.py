"""A NEW tournament from an export document, all or nothing
(``scoring.exchange``)."""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games import ENGINES
from scoring.exchange import checks
from scoring.exchange.format import (
    DATETIMES,
    FINAL_STAGE_FIELDS,
    FORMAT,
    MAX_ERRORS,
    PLAYER_FIELDS,
    ROUND_FIELDS,
    TABLE_FIELDS,
    TOURNAMENT_FIELDS,
    VERSION,
    ImportRefused,
    read_seating,
)
from scoring.exchange.table_contents import TableContents
from tournaments import limits, safejson
from tournaments.finals.models import FinalStage
from tournaments.finals.services import final_stage_save
from tournaments.models import (
    MAX_ROUND_MINUTES,
    Bye,
    ClockActivation,
    Player,
    PlayerEvent,
    Round,
    SeatingChange,
    Table,
    Team,
    Tournament,
)
from tournaments.services.deadlines import db_now
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

# -- import -------------------------------------------------------------------


class _Reader:
    """Walks the document, collecting problems with their place in the file."""

    def __init__(self):
        self.errors: list[str] = []

    def error(self, path: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(f"{path}: {message}" if path else message)

    def obj(self, value, path) -> dict:
        if not isinstance(value, dict):
            self.error(path, _("expected an object"))
            return {}
        return value

    def items(self, parent: dict, name: str, path: str, limit: int | None = None) -> list:
        value = parent.get(name, [])
        where = f"{path}.{name}" if path else name
        if not isinstance(value, list):
            self.error(where, _("expected a list"))
            return []
        if limit is not None and len(value) > limit:
            self.error(where, _("more than %(n)s entries") % {"n": limit})
            return []
        return value

    def whole(self, value, path: str) -> int | None:
        """A whole number (not true/false), else an error and None."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, _("expected a whole number"))
            return None
        return value

    def key(self, value, path: str):
        """A player key: a whole number or a text."""
        if isinstance(value, bool) or not isinstance(value, int | str):
            self.error(path, _("expected a player key (a number or a text)"))
            return None
        return value

    def author(self, d: dict, path: str) -> str:
        """The ``by`` of an entry: a username kept as text (never an account)."""
        value = d.get("by")
        if value is None:
            return ""
        if not isinstance(value, str):
            self.error(f"{path}.by", _("expected a text"))
            return ""
        return value.strip()[:150]

    def typed(self, instance, name: str, value, path: str) -> bool:
        """Whether ``value`` has the type of the model field ``name``."""
        field = instance._meta.get_field(name)
        if value is None or isinstance(field, models.JSONField):
            return True
        if isinstance(field, models.BooleanField):
            ok, what = isinstance(value, bool), _("expected true or false")
        elif isinstance(field, models.IntegerField):
            ok = isinstance(value, int) and not isinstance(value, bool)
            what = _("expected a whole number")
        elif isinstance(field, models.CharField | models.TextField):
            ok, what = isinstance(value, str), _("expected a text")
        else:
            return True
        if not ok:
            self.error(f"{path}.{name}", what)
        return ok

    def require(self, d: dict, name: str, path: str) -> bool:
        if name not in d or d[name] is None:
            self.error(f"{path}.{name}", _("missing"))
            return False
        return True

    def time(self, d: dict, name: str, path: str):
        value = d.get(name)
        if value is None:
            return None
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None or timezone.is_naive(parsed):
            shown = value[:40] if isinstance(value, str) else "?"
            self.error(
                f"{path}.{name}", _("not a date and time with time zone: %(v)s") % {"v": shown}
            )
            return None
        return parsed

    def fill(self, instance, d: dict, names: list[str], path: str):
        for name in names:
            if name not in d:
                continue
            if name not in DATETIMES and not self.typed(instance, name, d[name], path):
                continue
            value = self.time(d, name, path) if name in DATETIMES else d[name]
            if value is None and not instance._meta.get_field(name).null:
                if name in d and d[name] is not None:
                    continue  # a bad time, already reported
                self.error(f"{path}.{name}", _("must not be empty"))
                continue
            setattr(instance, name, value)
        return instance

    def clean(self, instance, path: str, exclude=()):
        # JSON fields hold any JSON, empty ones included ({} and [] are "blank")
        exclude = [*exclude] + [
            f.name for f in instance._meta.fields if isinstance(f, models.JSONField)
        ]
        try:
            instance.full_clean(
                exclude=list(exclude), validate_unique=False, validate_constraints=False
            )
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                where = path if field == "__all__" else f"{path}.{field}"
                for message in messages:
                    self.error(where, message)


def _load(data) -> dict:
    try:
        if isinstance(data, bytes | bytearray | str):
            data = safejson.loads(data)
        else:
            safejson.check(data)
    except safejson.BadJSON as exc:
        raise ImportRefused([str(exc)]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([_("This is not a Turnierleiter tournament export.")])
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        shown = version if isinstance(version, int | str) else "?"
        raise ImportRefused(
            [
                _("Export format version %(v)s is not supported (this site reads %(ok)s).")
                % {"v": str(shown)[:20], "ok": VERSION}
            ]
        )
    return data


def import_tournament(*, data, owner, told_outcomes: bool = False) -> Tournament:
    """A NEW tournament owned by ``owner`` from an export (bytes, text or the
    parsed dict). All or nothing: any problem raises :class:`ImportRefused`
    listing them, and nothing is created."""
    return _all_or_nothing(
        data, lambda doc, rd: _run(_Import(doc, owner, rd), told_outcomes), what="tournament import"
    )


def _run(imp, told_outcomes: bool):
    """One import's steps in order; with ``told_outcomes`` a digital table's
    confirmed result is checked as told (the mirror), not replayed."""
    imp.told_outcomes = told_outcomes
    return imp.run()


def _all_or_nothing(data, store, *, what: str, on_refusal=None):
    """``store(doc, rd)`` on the document of ``data`` in one transaction:
    its result when ``rd`` found no problem; otherwise nothing stays stored
    and :class:`ImportRefused` lists the problems (a database refusal or a
    value of the wrong kind as one plain sentence, never the database's
    words). ``on_refusal`` runs before a refusal is raised (to reload an
    object the attempt changed in memory). ``what`` names the attempt in the
    log."""
    doc = _load(data)
    rd = _Reader()
    try:
        with transaction.atomic():
            result = store(doc, rd)
            if rd.errors:
                raise ImportRefused(rd.errors)
    except ImportRefused:
        if on_refusal is not None:
            on_refusal()
        raise
    except DatabaseError:
        # a constraint the checks above don't know: never show the database's words
        log.warning("%s refused by the database", what, exc_info=True)
        if on_refusal is not None:
            on_refusal()
        raise ImportRefused(
            [_("The file contradicts itself: it can't be stored as a tournament.")]
        ) from None
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        log.warning("%s with values of the wrong kind", what, exc_info=True)
        if on_refusal is not None:
            on_refusal()
        raise ImportRefused(
            [_("The file has values of the wrong kind where the tournament expects others.")]
        ) from None
    return result


def player_entries(rd: _Reader, doc: dict):
    """Each player entry of ``doc`` as (path, entry, key); an entry without
    a key or a name, or with a bad key, is reported in ``rd`` and skipped."""
    for i, d in enumerate(rd.items(doc, "players", "", limits.MAX_PLAYERS)):
        path = f"players[{i}]"
        d = rd.obj(d, path)
        if not rd.require(d, "key", path) or not rd.require(d, "name", path):
            continue
        k = rd.key(d["key"], f"{path}.key")
        if k is not None:
            yield path, d, k


def fill_player(rd: _Reader, player: Player, d: dict, path: str, *, teams: dict, seen: set):
    """``player`` takes the entry's values, each checked as the player form
    checks it (lengths, rating range, a team that exists, a name and club
    listed once: ``seen`` holds those read so far); problems go to ``rd``."""
    rd.fill(player, d, PLAYER_FIELDS, path)
    player.team = None
    if d.get("team") is not None:
        if not isinstance(d["team"], str) or d["team"] not in teams:
            shown = d["team"] if isinstance(d["team"], str) else "?"
            rd.error(f"{path}.team", _("no team named %(name)s") % {"name": shown})
        else:
            player.team = teams[d["team"]]
    rd.clean(player, path, exclude=["tournament", "team"])
    rating = player.rating
    if isinstance(rating, int) and not limits.MIN_RATING <= rating <= limits.MAX_RATING:
        rd.error(
            f"{path}.rating",
            _("not between %(min)s and %(max)s")
            % {"min": limits.MIN_RATING, "max": limits.MAX_RATING},
        )
    if (player.name, player.club) in seen:
        rd.error(path, _("%(name)s is listed twice") % {"name": player})
    seen.add((player.name, player.club))


class _Import:
    """One import in progress. Each step reads one kind of entity, checks it,
    and stores it when everything read so far is sound; what a later step
    needs (players by key, tables by round) is kept here."""

    def __init__(self, doc, owner, rd: _Reader):
        self.doc, self.owner, self.rd = doc, owner, rd
        self.tournament: Tournament | None = None
        self.later: list[tuple[object, dt.datetime]] = []  # auto_now_add times to restore
        self.teams: dict[str, Team] = {}
        self.players: dict = {}
        self.round_rows: list = []
        self.table_rows: list = []
        self.placed: dict[int, set] = {}  # round number → keys seated or on a bye
        self.only: set[int] | None = None  # the rounds to read (None: all)
        self.kept_rounds: set[int] = set()  # rounds already stored, not read
        #: digital tables' results told, not replayed (``TableContents``)
        self.told_outcomes = False

    def steps(self) -> tuple:
        """The steps in their order, each True when all it read was sound."""
        return (
            self.read_tournament,
            self.read_teams,
            self.read_players,
            self.read_final_stage,
            self.read_rounds,
            self.read_round_contents,
            self.read_table_contents,
        )

    def run(self) -> Tournament | None:
        for step in self.steps():
            if not step():
                return None
        self.restore_times()
        return self.tournament

    # helpers -------------------------------------------------------------

    def keep_time(self, instance, d, path) -> None:
        at = self.rd.time(d, "at", path)
        if at is not None:
            self.later.append((instance, at))
        elif "at" not in d or d["at"] is None:
            self.rd.error(f"{path}.at", _("missing"))

    def player_of(self, value, path):
        players = self.players
        if isinstance(value, bool) or not isinstance(value, int | str) or value not in players:
            if not isinstance(value, int | str):
                value = "?"
            self.rd.error(path, _("no player with key %(k)s") % {"k": value})
            return None
        return players[value]

    # the tournament --------------------------------------------------------

    def read_tournament(self) -> bool:
        rd, doc, owner = self.rd, self.doc, self.owner
        full = limits.tournaments_message(Tournament.objects.filter(owner=owner).count())
        if full:
            rd.error("", full)
            return False
        td = rd.obj(doc.get("tournament"), "tournament")
        if not rd.require(td, "name", "tournament") or not rd.require(td, "game", "tournament"):
            return False
        if not isinstance(td["game"], str) or td["game"] not in ENGINES:
            shown = td["game"] if isinstance(td["game"], str) else "?"
            rd.error("tournament.game", _("unknown game %(g)s") % {"g": shown[:40]})
            return False
        if not self.settings_typed(td, Tournament(owner=owner)):
            return False
        # the settings as the settings form takes them: its fields, its rules
        form = checks.settings_form(td, rd.error)
        if form is None or rd.errors:
            return False
        t = form.save(commit=False)
        t.owner = owner
        t.save()
        self.tournament = t
        return True

    def settings_typed(self, td: dict, probe: Tournament) -> bool:
        """The settings' values have the JSON types their fields take."""
        rd = self.rd
        for name in TOURNAMENT_FIELDS:
            if name in td:
                rd.typed(probe, name, td[name], "tournament")
        for name, kind, what in [
            ("game_options", dict, _("expected an object")),
            ("allowed_sizes", list, _("expected a list")),
            ("tiebreaks", list, _("expected a list")),
        ]:
            if td.get(name) is not None and not isinstance(td[name], kind):
                rd.error(f"tournament.{name}", what)
        if isinstance(td.get("tiebreaks"), list) and not all(
            isinstance(x, str) for x in td["tiebreaks"]
        ):
            rd.error("tournament.tiebreaks", _("expected a list of texts"))
        if isinstance(td.get("allowed_sizes"), list) and not all(
            isinstance(x, int) and not isinstance(x, bool) for x in td["allowed_sizes"]
        ):
            rd.error("tournament.allowed_sizes", _("expected a list of whole numbers"))
        return not rd.errors

    # teams and players -----------------------------------------------------

    def read_teams(self) -> bool:
        rd, teams = self.rd, self.teams
        for i, d in enumerate(rd.items(self.doc, "teams", "", limits.MAX_TEAMS)):
            path = f"teams[{i}]"
            d = rd.obj(d, path)
            if not rd.require(d, "name", path):
                continue
            if not isinstance(d["name"], str):
                rd.error(f"{path}.name", _("expected a text"))
                continue
            if d["name"] in teams:
                rd.error(path, _("team %(name)s is listed twice") % {"name": d["name"]})
                continue
            team = Team(tournament=self.tournament, name=d["name"])
            rd.clean(team, path, exclude=["tournament"])
            teams[d["name"]] = team
        Team.objects.bulk_create(teams.values())
        return True

    def read_players(self) -> bool:
        rd, players, teams = self.rd, self.players, self.teams
        player_rows, seen = [], set()
        for path, d, k in player_entries(rd, self.doc):
            if k in players:
                rd.error(f"{path}.key", _("key %(k)s is used twice") % {"k": k})
                continue
            p = Player(tournament=self.tournament)
            fill_player(rd, p, d, path, teams=teams, seen=seen)
            players[k] = p
            player_rows.append((p, d, path))
        if rd.errors:
            return False
        Player.objects.bulk_create(players.values())
        events = []
        for p, d, path in player_rows:
            for j, e in enumerate(rd.items(d, "events", path, limits.MAX_LOG_ENTRIES)):
                epath = f"{path}.events[{j}]"
                e = rd.obj(e, epath)
                ev = PlayerEvent(player=p, imported_by=rd.author(e, epath))
                rd.fill(ev, e, ["kind"], epath)
                rd.clean(ev, epath, exclude=["player", "by"])
                self.keep_time(ev, e, epath)
                events.append(ev)
        PlayerEvent.objects.bulk_create(events)
        return True

    # rounds: tables, byes, clock, seating changes --------------------------

    def read_final_stage(self) -> bool:
        """The final stage's settings, through the service that saves them
        (the game's table sizes, the field): before the rounds, so that the
        stage's rounds can be read."""
        rd, doc = self.rd, self.doc
        if doc.get("final_stage") is None:
            return True
        d = rd.obj(doc["final_stage"], "final_stage")
        probe = FinalStage(tournament=self.tournament)
        for name in FINAL_STAGE_FIELDS:
            if name in d:
                rd.typed(probe, name, d[name], "final_stage")
        if rd.errors:
            return False
        values = {name: d[name] for name in FINAL_STAGE_FIELDS if name in d}
        try:
            final_stage_save(tournament=self.tournament, by=None, **values)
        except ServiceError as exc:
            rd.error("final_stage", str(exc))
            return False
        return True

    def read_rounds(self) -> bool:
        rd, rounds = self.rd, {}
        for i, d in enumerate(rd.items(self.doc, "rounds", "", limits.MAX_ROUNDS)):
            path = f"rounds[{i}]"
            d = rd.obj(d, path)
            if not rd.require(d, "number", path) or rd.whole(d["number"], f"{path}.number") is None:
                continue
            if self.only is not None and d["number"] not in self.only:
                continue
            r = rd.fill(Round(tournament=self.tournament), d, ROUND_FIELDS, path)
            read_seating(rd, r, d, path)
            rd.clean(r, path, exclude=["tournament"])
            if r.number in rounds:
                rd.error(f"{path}.number", _("round %(n)s is listed twice") % {"n": r.number})
                continue
            if isinstance(r.minutes, int) and not 1 <= r.minutes <= MAX_ROUND_MINUTES:
                rd.error(
                    f"{path}.minutes",
                    _("Between 1 and %(max)s minutes.") % {"max": MAX_ROUND_MINUTES},
                )
            checks.check_stats(r.seating_stats, f"{path}.seating_stats", rd.error)
            rounds[r.number] = r
            self.round_rows.append((r, d, path))
        if rd.errors:
            return False
        # rounds are seated one after the other, up to the tournament's number
        # (its qualifying rounds and its final stage's; a partial import keeps
        # the rounds it does not replace)
        numbers = set(rounds) | self.kept_rounds
        expected = list(range(1, len(numbers) + 1))
        planned = self.tournament.planned_rounds
        if sorted(numbers) != expected or len(numbers) > planned:
            rd.error(
                "rounds",
                _("the rounds must be numbered 1 to %(n)s, each once, at most %(max)s")
                % {"n": len(numbers), "max": planned},
            )
            return False
        for r, _d, path in self.round_rows:
            if bool(r.stage) != (r.number > self.tournament.rounds):
                rd.error(
                    f"{path}.stage",
                    _("the final stage's rounds come after the %(n)s qualifying rounds")
                    % {"n": self.tournament.rounds},
                )
        if rd.errors:
            return False
        Round.objects.bulk_create(rounds.values())
        return True

    def read_round_contents(self) -> bool:
        tables, byes, clock, changes, clocks = [], [], [], [], []
        for r, d, path in self.round_rows:
            first_row, first_act = len(self.table_rows), len(clock)
            numbers = self.tables_of(r, d, path, tables)
            self.byes_of(r, d, path, byes)
            self.clock_of(r, d, path, numbers, clock)
            self.changes_of(r, d, path, changes)
            clocks.append((r, path, clock[first_act:], self.table_rows[first_row:]))
        rd = self.rd
        if rd.errors:
            return False
        Table.objects.bulk_create(tables)
        Bye.objects.bulk_create(byes)
        for act, cpath in clock:
            rd.clean(act, cpath, exclude=["round", "table", "by"])
        # each round's clock as the clock service writes it
        now = db_now()
        for r, path, acts, rows in clocks:
            checks.check_clock(r, path, acts, [(p, t) for t, _d, p in rows], now, rd.error)
        if rd.errors:
            return False
        ClockActivation.objects.bulk_create([a for a, _p in clock])
        SeatingChange.objects.bulk_create(changes)
        return True

    def tables_of(self, r: Round, d: dict, path: str, tables: list) -> dict:
        """The round's tables by number (appended to ``tables``)."""
        rd, numbers = self.rd, {}
        for j, td_ in enumerate(rd.items(d, "tables", path, limits.MAX_TABLES)):
            tpath = f"{path}.tables[{j}]"
            td_ = rd.obj(td_, tpath)
            if not rd.require(td_, "number", tpath):
                continue
            if rd.whole(td_["number"], f"{tpath}.number") is None:
                continue
            table = rd.fill(Table(round=r), td_, TABLE_FIELDS, tpath)
            rd.clean(table, tpath, exclude=["round"])
            checks.check_reasons(table.why, f"{tpath}.why", rd.error)
            if table.state is not None and not table.digital:
                rd.error(f"{tpath}.state", _("only a digital table has a game state"))
            if table.number in numbers:
                rd.error(f"{tpath}.number", _("table %(n)s is listed twice") % {"n": table.number})
                continue
            numbers[table.number] = table
            tables.append(table)
            self.table_rows.append((table, td_, tpath))
        return numbers

    def byes_of(self, r: Round, d: dict, path: str, byes: list) -> None:
        rd, in_round = self.rd, self.placed.setdefault(r.number, set())
        for j, k in enumerate(rd.items(d, "byes", path, limits.MAX_PLAYERS)):
            p = self.player_of(k, f"{path}.byes[{j}]")
            if p is not None:
                if k in in_round:
                    rd.error(f"{path}.byes[{j}]", _("player %(k)s has two byes") % {"k": k})
                in_round.add(k)
                byes.append(Bye(round=r, player=p))

    def clock_of(self, r: Round, d: dict, path: str, numbers: dict, clock: list) -> None:
        rd = self.rd
        for j, c in enumerate(rd.items(d, "clock", path, limits.MAX_LOG_ENTRIES)):
            cpath = f"{path}.clock[{j}]"
            c = rd.obj(c, cpath)
            act = ClockActivation(round=r, imported_by=rd.author(c, cpath))
            rd.fill(act, c, ["kind", "seconds", "reason", "at"], cpath)
            if c.get("at") is None:
                rd.error(f"{cpath}.at", _("missing"))
            if c.get("table") is not None:
                if rd.whole(c["table"], f"{cpath}.table") is None:
                    continue
                if c["table"] not in numbers:
                    rd.error(f"{cpath}.table", _("no table %(n)s") % {"n": c["table"]})
                else:
                    act.table = numbers[c["table"]]
            clock.append((act, cpath))

    def changes_of(self, r: Round, d: dict, path: str, changes: list) -> None:
        rd = self.rd
        for j, c in enumerate(rd.items(d, "seating_changes", path, limits.MAX_LOG_ENTRIES)):
            cpath = f"{path}.seating_changes[{j}]"
            c = rd.obj(c, cpath)
            ch = SeatingChange(round=r, imported_by=rd.author(c, cpath))
            rd.fill(ch, c, ["kind"], cpath)
            if "detail" in c:
                ch.detail = c["detail"]
                checks.check_detail(c.get("kind"), c["detail"], f"{cpath}.detail", rd.error)
            rd.clean(ch, cpath, exclude=["round", "by"])
            self.keep_time(ch, c, cpath)
            changes.append(ch)

    # tables: seats, actions, submissions (scoring.exchange.table_contents) ---

    def read_table_contents(self) -> bool:
        return TableContents(self).read()

    def restore_times(self) -> None:
        """bulk_create stamped auto_now_add fields with now: put the file's
        times back."""
        by_model = defaultdict(list)
        for instance, at in self.later:
            instance.at = at
            by_model[type(instance)].append(instance)
        for model, objs in by_model.items():
            model.objects.bulk_update(objs, ["at"], batch_size=500)
