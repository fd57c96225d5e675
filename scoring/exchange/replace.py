"""The mirror's partial replace paths (``scoring.exchange``): a stored
tournament's settings and contents, only some of its rounds, or its players
brought to those of an export document, through the checks of
:func:`scoring.exchange.importer.import_tournament`, all or nothing."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import ENGINES
from scoring.exchange import checks
from scoring.exchange.format import PLAYER_FIELDS, TOURNAMENT_FIELDS, ImportRefused
from scoring.exchange.importer import (
    _all_or_nothing,
    _Import,
    _load,
    _Reader,
    _run,
    fill_player,
    player_entries,
)
from tournaments import limits
from tournaments.models import Player, Round, Team, Tournament


def replace_tournament(*, data, tournament: Tournament, told_outcomes: bool = False) -> Tournament:
    """``tournament``'s settings and contents replaced by those of an export
    document, through the same checks as :func:`import_tournament` (the
    tournament keeps its id, owner and creation; everything in it is rebuilt).
    All or nothing: a document with any problem raises :class:`ImportRefused`
    and leaves the tournament as it was. The mirror of a laptop's tournament
    on the online site is kept this way."""
    _all_or_nothing(
        data,
        lambda doc, rd: _run(_Replace(doc, tournament, rd), told_outcomes),
        what="tournament replace",
        on_refusal=tournament.refresh_from_db,
    )
    return tournament


class _Replace(_Import):
    """An import into an existing tournament: its settings through the same
    form, then its old contents removed and the file's stored as an import
    stores them."""

    def __init__(self, doc, tournament: Tournament, rd: _Reader):
        super().__init__(doc, tournament.owner, rd)
        self.target = tournament

    def read_tournament(self) -> bool:
        rd, t = self.rd, self.target
        td = rd.obj(self.doc.get("tournament"), "tournament")
        if not rd.require(td, "name", "tournament") or not rd.require(td, "game", "tournament"):
            return False
        if not isinstance(td["game"], str) or td["game"] not in ENGINES:
            rd.error("tournament.game", _("unknown game"))
            return False
        if not self.settings_typed(td, Tournament(owner=t.owner)):
            return False
        form = checks.settings_form(td, rd.error)
        if form is None or rd.errors:
            return False
        for name in TOURNAMENT_FIELDS:
            setattr(t, name, getattr(form.instance, name))
        t.save()
        Round.objects.filter(tournament=t).delete()
        Player.objects.filter(tournament=t).delete()
        Team.objects.filter(tournament=t).delete()
        self.tournament = t
        return True


def replace_rounds(
    *, data, tournament: Tournament, numbers, told_outcomes: bool = False
) -> Tournament:
    """Only the rounds ``numbers`` of ``tournament`` replaced by the
    document's (a round the document no longer has is removed), through the
    same checks as :func:`import_tournament`; the settings, teams and players
    must be the document's already (they are kept). All or nothing, like
    :func:`replace_tournament`."""
    _all_or_nothing(
        data,
        lambda doc, rd: _run(_ReplaceRounds(doc, tournament, rd, numbers), told_outcomes),
        what="rounds replace",
    )
    return tournament


class _ReplaceRounds(_Import):
    """An import of some rounds into an existing tournament whose settings
    and players are the document's: the players are the stored ones (found
    by the name and club the document gives their keys)."""

    def __init__(self, doc, tournament: Tournament, rd: _Reader, numbers):
        super().__init__(doc, tournament.owner, rd)
        self.target = tournament
        self.only = set(numbers)

    def steps(self) -> tuple:
        return (
            self.use_stored,
            self.read_rounds,
            self.read_round_contents,
            self.read_table_contents,
        )

    def use_stored(self) -> bool:
        rd, t = self.rd, self.target
        self.tournament = t
        Round.objects.filter(tournament=t, number__in=self.only).delete()
        self.kept_rounds = set(Round.objects.filter(tournament=t).values_list("number", flat=True))
        stored = {(p.name, p.club): p for p in Player.objects.filter(tournament=t)}
        for i, d in enumerate(rd.items(self.doc, "players", "", limits.MAX_PLAYERS)):
            d = rd.obj(d, f"players[{i}]")
            player = stored.get((d.get("name"), d.get("club", "")))
            if player is None or isinstance(d.get("key"), bool | None):
                rd.error(f"players[{i}]", _("not a player of the stored tournament"))
                return False
            self.players[d["key"]] = player
        return True


def merge_players(*, data, tournament: Tournament, previous: list) -> list[Player]:
    """The players of ``tournament`` brought to the document's in place: a
    key of ``previous`` (the document the tournament was last stored from,
    its players) is the stored player of that name and club, and takes the
    document's name, club, team and flags; a new key is a new player. Every
    value is checked as an import checks it (names twice, a team that isn't
    there, …); a document with any problem raises :class:`ImportRefused` and
    changes nothing (call it inside the caller's transaction). The caller
    makes sure no key of ``previous`` is missing from the document. Returns
    the players changed or added."""
    doc = _load(data)
    rd = _Reader()
    before = {d.get("key"): (d.get("name"), d.get("club", "")) for d in previous}
    stored = {(p.name, p.club): p for p in Player.objects.filter(tournament=tournament)}
    teams = {t.name: t for t in Team.objects.filter(tournament=tournament)}
    fields = [*PLAYER_FIELDS, "team_id"]
    changed, added, seen = [], [], set()
    for path, d, k in player_entries(rd, doc):
        player = stored.get(before[k]) if k in before else Player(tournament=tournament)
        if player is None:
            rd.error(path, _("not a player of the stored tournament"))
            continue
        was = [getattr(player, name) for name in fields]
        fill_player(rd, player, d, path, teams=teams, seen=seen)
        if player.pk is None:
            added.append(player)
        elif [getattr(player, name) for name in fields] != was:
            changed.append(player)
    if rd.errors:
        raise ImportRefused(rd.errors)
    Player.objects.bulk_update(changed, fields, batch_size=500)
    Player.objects.bulk_create(added)
    return changed + added
