"""A table's contents in an import (``scoring.exchange.importer``): its
seats, moves, results and their confirmations, read and checked, and each
dealt digital table's moves replayed to the state and result the file gives.
With ``told_outcomes`` (the online site's copy of a laptop's tournament) a
digital table that comes without its game may have its confirmed result told
by ranks, figures and details, checked by the game's engine instead."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from scoring.exchange import checks
from scoring.exchange.format import SUBMISSION_FIELDS
from scoring.models import Confirmation, Submission
from scoring.services import PLAYER_SOURCE
from tournaments import limits
from tournaments.models import Seat, Table, TableAction
from tournaments.play import tables

#: the source of a result the engine of a digital table recorded
DIGITAL_SOURCE = "digital"


class TableContents:
    """The contents of the import's tables, once its rounds and tables are
    stored: reads what the import kept (the file's problems, the tournament,
    who is placed in each round, the table rows), stores the rows when sound."""

    def __init__(self, imp):  # the importer's ``_Import`` in progress
        self.rd, self.tournament = imp.rd, imp.tournament
        self.placed, self.table_rows = imp.placed, imp.table_rows
        self.player_of, self.keep_time = imp.player_of, imp.keep_time
        self.digital_subs: list = []  # (table, submission dict, path): the engine's results
        #: a digital table without its game may have its counted result told
        #: (ranks, figures, details) instead of replayed: the mirror's copy
        self.told_outcomes = imp.told_outcomes

    def read(self) -> bool:
        seats, actions, subs, confs, replaced = [], [], [], [], []
        for table, d, tpath in self.table_rows:
            at_table = self.seats_of(table, d, tpath, seats)
            self.actions_of(table, d, tpath, actions)
            self.submissions_of(table, d, tpath, at_table, subs, confs, replaced)
        if self.rd.errors:
            return False
        Seat.objects.bulk_create(seats)
        TableAction.objects.bulk_create(actions)
        self.replay_digital_tables()
        if self.rd.errors:
            return False
        Submission.objects.bulk_create(subs)
        for sub, earlier in replaced:
            sub.replaces = earlier
        Submission.objects.bulk_update([s for s, _e in replaced], ["replaces"], batch_size=500)
        for c in confs:
            c.submission_id = c.submission.pk
        Confirmation.objects.bulk_create(confs)
        return True

    def seats_of(self, table: Table, d: dict, tpath: str, seats: list) -> list[Seat]:
        """The table's seats (appended to ``seats`` too): positions 0, 1, …
        in a number the game is played by, each player once in the round."""
        rd = self.rd
        positions, at_table = set(), []
        engine = self.tournament.engine
        placed = self.placed.setdefault(table.round.number, set())
        for j, s in enumerate(rd.items(d, "seats", tpath, engine.max_players)):
            spath = f"{tpath}.seats[{j}]"
            s = rd.obj(s, spath)
            if not rd.require(s, "position", spath):
                continue
            if "player" not in s:  # null: an empty seat
                rd.error(f"{spath}.player", _("missing"))
                continue
            if rd.whole(s["position"], f"{spath}.position") is None:
                continue
            seat = Seat(table=table, position=s["position"])
            rd.fill(seat, s, ["bot", "bot_played"], spath)
            if s["player"] is None:  # an empty seat: the bot plays it for nobody
                if not (self.tournament.digital_tables and table.digital):
                    rd.error(f"{spath}.player", _("only a digital table has empty seats"))
                    continue
                seat.bot = True
            else:
                seat.player = self.player_of(s["player"], f"{spath}.player")
                if seat.player is None:
                    continue
                if s["player"] in placed:
                    rd.error(
                        f"{spath}.player",
                        _("player %(k)s is seated twice in round %(n)s (or also has a bye)")
                        % {"k": s["player"], "n": table.round.number},
                    )
                placed.add(s["player"])
            rd.clean(seat, spath, exclude=["table", "player"])
            if seat.position in positions:
                rd.error(spath, _("seat or player twice at the table"))
            positions.add(seat.position)
            seats.append(seat)
            at_table.append(seat)
        n = len(at_table)
        if positions != set(range(n)) or not engine.min_players <= n <= engine.max_players:
            rd.error(
                f"{tpath}.seats",
                _(
                    "%(game)s is played at tables of %(lo)s to %(hi)s players, at positions 0, 1, 2, … without a gap"
                )
                % {"game": engine.name, "lo": engine.min_players, "hi": engine.max_players},
            )
        return at_table

    def actions_of(self, table: Table, d: dict, tpath: str, actions: list) -> None:
        rd = self.rd
        rows = rd.items(d, "actions", tpath, limits.MAX_TABLE_ACTIONS)
        if rows and table.state is None:
            rd.error(f"{tpath}.actions", _("a table that was not dealt has no moves"))
            return
        for j, a in enumerate(rows):
            apath = f"{tpath}.actions[{j}]"
            a = rd.obj(a, apath)
            action = TableAction(table=table)
            rd.fill(action, a, ["number", "seat", "action", "by_bot"], apath)
            rd.clean(action, apath, exclude=["table"])
            if action.number != j:  # the moves in order, numbered 0, 1, …
                rd.error(f"{apath}.number", _("expected move number %(n)s") % {"n": j})
            self.keep_time(action, a, apath)
            actions.append(action)

    def submissions_of(
        self,
        table: Table,
        d: dict,
        tpath: str,
        at_table: list,
        subs: list,
        confs: list,
        replaced: list,
    ) -> None:
        rd = self.rd
        versions, links, confirmed = {}, [], 0
        positions = {seat.position for seat in at_table}
        for j, s in enumerate(rd.items(d, "submissions", tpath, limits.MAX_LOG_ENTRIES)):
            spath = f"{tpath}.submissions[{j}]"
            s = rd.obj(s, spath)
            if not rd.require(s, "version", spath):
                continue
            if rd.whole(s["version"], f"{spath}.version") is None:
                continue
            sub = Submission(table=table, imported_by=rd.author(s, spath))
            rd.fill(sub, s, SUBMISSION_FIELDS, spath)
            rd.clean(sub, spath, exclude=["table", "by", "replaces"])
            self.keep_time(sub, s, spath)
            if sub.version in versions:
                rd.error(
                    f"{spath}.version", _("version %(v)s is listed twice") % {"v": sub.version}
                )
                continue
            self.check_result(table, sub, s, spath, at_table, positions)
            confirmed += sub.status == Submission.CONFIRMED
            versions[sub.version] = sub
            subs.append(sub)
            if s.get("replaces") is not None:
                if rd.whole(s["replaces"], f"{spath}.replaces") is None:
                    continue
                links.append((sub, s["replaces"], f"{spath}.replaces"))
            self.confirmations_of(sub, s, spath, positions, confs)
        if confirmed > 1:
            rd.error(tpath, _("more than one confirmed result"))
        for sub, version, lpath in links:
            if version not in versions:
                rd.error(lpath, _("no version %(v)s at this table") % {"v": version})
            else:
                replaced.append((sub, versions[version]))

    def check_result(self, table, sub, s: dict, spath: str, at_table: list, positions) -> None:
        """A result as the results service stores it: a player's report from
        a seat of the table, a sheet the game's rules accept (ranks, figures
        and details what they give), or the engine's result of a digital
        table (checked once its moves are replayed)."""
        rd = self.rd
        if isinstance(sub.by_seat, int) and sub.by_seat not in positions:
            rd.error(f"{spath}.by_seat", _("no seat %(n)s at this table") % {"n": sub.by_seat})
        if (sub.source == PLAYER_SOURCE) != (sub.by_seat is not None):
            rd.error(f"{spath}.by_seat", _("a player's report, and only that, names its seat"))
        if sub.source == DIGITAL_SOURCE:
            told = self.told_outcomes and table.digital and table.state is None
            if told and at_table and sub.status == Submission.CONFIRMED:
                # a mirror's copy: the moves stay on the laptop, nothing to replay
                checks.told_outcome(self.tournament, len(at_table), s, spath, rd.error)
                return
            if not table.digital or table.state is None:
                rd.error(f"{spath}.source", _("only a dealt digital table has the engine's result"))
            else:
                self.digital_subs.append((table, s, spath))
            return
        if not at_table:
            return  # the table has no sound seat: no sheet to check against
        result = checks.paper_result(
            self.tournament, len(at_table), s.get("sheet"), spath, rd.error
        )
        if result is not None:
            checks.same_result(
                s, result.ranks, result.figures, dict(result.details), spath, rd.error
            )

    def replay_digital_tables(self) -> None:
        """Each dealt digital table's record (seed, deal options, moves: the
        rows just stored) replays through the digital tables' service to the
        state the file gives; a result the engine recorded is that game's."""
        rd, engine = self.rd, self.tournament.engine
        results_at = defaultdict(list)
        for table, s, spath in self.digital_subs:
            results_at[id(table)].append((s, spath))
        for table, _d, tpath in self.table_rows:
            if not table.digital or table.state is None:
                continue
            seats = list(table.seats.order_by("position"))
            state = table.state
            if (
                not isinstance(state, dict)
                or state.get("players") != len(seats)
                or not isinstance(state.get("options") or {}, dict)
            ):
                rd.error(
                    f"{tpath}.state",
                    _("not the state of a game at this table's %(n)s seats") % {"n": len(seats)},
                )
                continue
            try:
                game = tables.table_record(table).replay(engine)
                replayed = checks.plain(engine.dump(game))
            except Exception as exc:  # any refusal of the engine: IllegalAction, DeckError, …
                rd.error(
                    f"{tpath}.actions",
                    _(
                        "the moves can't be played from the table's deal (its secret "
                        "removed or changed?): %(why)s"
                    )
                    % {"why": str(exc)[:200]},
                )
                continue
            if replayed != state:
                rd.error(
                    f"{tpath}.state",
                    _(
                        "not the game the table's deal and moves give (its secret "
                        "removed or changed?)"
                    ),
                )
                continue
            for s, spath in results_at[id(table)]:
                if not engine.is_over(game):
                    rd.error(f"{spath}.source", _("the table's game is not over"))
                    continue
                result = engine.result(game)
                details = dict(result.details)
                bot_seats = [seat.position for seat in seats if seat.bot_played]
                if bot_seats:  # as the digital tables' service records it
                    details["bot_seats"] = bot_seats
                checks.same_result(s, result.ranks, result.figures, details, spath, rd.error)

    def confirmations_of(self, sub: Submission, s: dict, spath: str, positions, confs) -> None:
        rd = self.rd
        for m, c in enumerate(rd.items(s, "confirmations", spath, limits.MAX_LOG_ENTRIES)):
            cpath = f"{spath}.confirmations[{m}]"
            c = rd.obj(c, cpath)
            conf = Confirmation(submission=sub, imported_by=rd.author(c, cpath))
            rd.fill(conf, c, ["by_seat"], cpath)
            rd.clean(conf, cpath, exclude=["submission", "by"])
            if isinstance(conf.by_seat, int) and conf.by_seat not in positions:
                rd.error(f"{cpath}.by_seat", _("no seat %(n)s at this table") % {"n": conf.by_seat})
            self.keep_time(conf, c, cpath)
            confs.append(conf)
