"""Reads: the queries the pages show, one place each."""

from __future__ import annotations

from django.db.models import Case, Count, Q, QuerySet, When
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import live, providers
from tournaments.collation import name_key, sort_by_name
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Tournament
from tournaments.prepared import PreparedQuery
from tournaments.roster import Candidate, match, resolve_merges
from tournaments.roster_models import Person


def public_tournaments(limit: int = 50) -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True, archived_at__isnull=True)[:limit]


def tournaments_of(user, *, archived: bool = False) -> QuerySet[Tournament]:
    """The tournaments a user organizes or keeps score in, with player counts
    (the archived ones instead with ``archived``)."""
    return (
        Tournament.objects.filter(Q(owner=user) | Q(scorekeepers=user))
        .filter(archived_at__isnull=not archived)
        .distinct()
        .annotate(player_count=Count("players", distinct=True))
    )


def unconfirmed_ratings(tournament: Tournament) -> int:
    """How many players' ratings are their own word, not yet confirmed by
    the organizer (they count as no rating)."""
    return tournament.players.filter(rating__isnull=False, rating_confirmed=False).count()


def player_counts(tournament: Tournament) -> dict:
    return tournament.players.aggregate(
        total=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True, dropped=False)),
        dropped=Count("pk", filter=Q(dropped=True)),
    )


def players_by_name(tournament: Tournament, *, by_surname: bool = False) -> list[Player]:
    """Every player in German alphabetical order (by full name or surname),
    with the team, for the players page and the check-in at the door."""
    players = tournament.players.select_related("team")
    return sort_by_name(players, lambda p: p.name, by_surname=by_surname)


def registered_names(tournament: Tournament) -> set[tuple[str, str]]:
    """(name, club) of every registered player, for the import's duplicate check."""
    return set(tournament.players.values_list("name", "club"))


# rounds and seating


def allowed_sizes(tournament: Tournament) -> list[int]:
    return sorted(set(tournament.allowed_sizes or [tournament.table_size]))


def allows_byes(tournament: Tournament) -> bool:
    """Byes only where the game is played at tables of 2."""
    return 2 in allowed_sizes(tournament)


def fills_with_bots(tournament: Tournament) -> bool:
    """Whether the game's bot fills the seats the field can't (digital tables
    with ``bot_fill``): then the players left over sit together at one table
    and no one gets a bye."""
    return bool(tournament.bot_fill and tournament.digital_tables)


def seatable_players(tournament: Tournament, number: int) -> QuerySet[Player]:
    """Who is seated in round ``number``: checked in, not dropped, entered."""
    return tournament.players.filter(checked_in=True, dropped=False, first_round__lte=number)


def late_candidates(rnd: Round) -> list[Player]:
    """Checked-in players who could join this round's draft but are not in it
    (also those registered after it was seated: they would start next round)."""
    in_round = set(Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True))
    in_round |= set(Bye.objects.filter(round=rnd).values_list("player_id", flat=True))
    return sort_by_name(
        (
            p
            for p in seatable_players(rnd.tournament, rnd.number + 1).order_by("pk")
            if p.pk not in in_round
        ),
        lambda p: p.name,
    )


def draft_late_arrivals(tournament: Tournament) -> tuple[Round | None, list[Player]]:
    """The next round while its seating is a draft (seated, not published,
    not started) and the checked-in players not in it (German order): whom
    the check-in page offers to add to the draft. (None, []) without a draft."""
    rnd = (
        tournament.round_set.filter(status=Round.SEATED, published=False)
        .order_by("-number")
        .first()
    )
    if rnd is None:
        return None, []
    return rnd, late_candidates(rnd)


def with_result_flag(tables: QuerySet) -> QuerySet:
    """Tables annotated with ``has_result`` ("the table has its result",
    :func:`tournaments.providers.has_result`)."""
    return tables.annotate(has_result=providers.has_result())


def missing_results(rnd) -> list[int]:
    """Numbers of the round's tables without a confirmed result."""
    return list(
        rnd.tables.exclude(providers.has_result())
        .order_by("number")
        .values_list("number", flat=True)
    )


def earlier_open_round(rnd: Round) -> Round | None:
    """The first round before ``rnd`` that has not ended (not complete), or
    None: a round does not start while an earlier one still runs."""
    return (
        Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
        .exclude(status=Round.COMPLETE)
        .order_by("number")
        .first()
    )


def _missing_message(numbers: list[int], round_number: int) -> str:
    shown = ", ".join(str(n) for n in numbers[:20]) + (" …" if len(numbers) > 20 else "")
    params = {"tables": shown, "round": round_number}
    if len(numbers) == 1:
        return _("Results missing for table %(tables)s of round %(round)s.") % params
    return _("Results missing for tables %(tables)s of round %(round)s.") % params


def seat_blocker(tournament: Tournament) -> tuple[int, str | None]:
    """(number of the next round, why it cannot be seated yet or None)."""
    last = tournament.round_set.order_by("-number").first()
    number = (last.number if last else 0) + 1
    if number > tournament.rounds:
        n = tournament.rounds
        return number, ngettext(
            "The tournament's %(n)s round has been seated.",
            "All %(n)s rounds have been seated.",
            n,
        ) % {"n": n}
    if last is not None:
        missing = missing_results(last)
        if missing:
            return number, _missing_message(missing, last.number)
    n = seatable_players(tournament, number).count()
    smallest = min(allowed_sizes(tournament))
    if n < smallest:
        return number, _(
            "Too few players for round %(round)s: %(n)s checked in, a table needs %(min)s."
        ) % {"round": number, "n": n, "min": smallest}
    return number, None


def default_seating_mode(tournament: Tournament, number: int) -> str:
    """Round 1 as the tournament's setting says (a random draw unless seated
    by rating); later swiss, or mixing when the round before was mixing."""
    if number <= 1:
        return tournament.round1_seating or "random"
    prev = tournament.round_set.filter(number=number - 1).first()
    if prev is not None and prev.seating_mode == "mixing":
        return "mixing"
    return "swiss"


def rounds_not_played(tournament: Tournament) -> list[int]:
    """The planned rounds (qualifying and final stage) not seated yet: what
    finishing now leaves out. Empty while a seated round is not complete:
    finishing is refused then anyway, saying which."""
    rounds = Round.objects.filter(tournament=tournament)
    if rounds.exclude(status=Round.COMPLETE).exists():
        return []
    return list(range(rounds.count() + 1, tournament.planned_rounds + 1))


def rounds_of(tournament: Tournament):
    """The tournament's rounds with their table and bye counts."""
    return tournament.round_set.annotate(
        table_count=Count("tables", distinct=True), bye_count=Count("byes", distinct=True)
    ).order_by("number")


def next_round(tournament: Tournament) -> dict:
    """What the rounds page needs to offer "Seat round N" (or say why not)."""
    number, blocker = seat_blocker(tournament)
    return {
        "number": number,
        "blocker": blocker,
        "mode": default_seating_mode(tournament, number),
        "players": seatable_players(tournament, number).count(),
    }


def round_seating(rnd) -> dict:
    """A round's seating for its page: tables in order with their players in
    seat order (and their score when seated), byes, the change log."""
    scores = rnd.seating_scores
    if scores is None:
        scores = {
            str(r.player_id): r.points
            for r in providers.standings(rnd.tournament, up_to_round=rnd.number - 1)
        }
    seats_by_table: dict = {}
    for seat in (
        Seat.objects.filter(table__round=rnd)
        .select_related("player", "player__team")
        .order_by("table__number", "position")
    ):
        seats_by_table.setdefault(seat.table_id, []).append(
            {
                "player": seat.player,  # None: an empty seat the bot plays
                "name": seat.name,
                "position": seat.position,
                "score": scores.get(str(seat.player_id)),
            }
        )
    tables = [
        {"table": t, "seats": seats_by_table.get(t.pk, [])} for t in rnd.tables.order_by("number")
    ]
    byes = sort_by_name(
        (
            {"player": b.player, "score": scores.get(str(b.player_id))}
            for b in rnd.byes.select_related("player")
        ),
        lambda b: b["player"].name,
    )
    return {
        "tables": tables,
        "byes": byes,
        "stats": rnd.seating_stats or {},
        "changes": seating_log(rnd),
    }


def round_names(rnd) -> list[dict]:
    """Everyone seated in the round with their table, in German alphabetical
    order (for "find your table")."""
    seats = Seat.objects.filter(table__round=rnd, player__isnull=False).values_list(
        "player__name", "player__club", "table__number", "position"
    )
    rows = [
        {"name": name, "club": club, "table": table, "seat": position + 1}
        for name, club, table, position in seats
    ]
    return sort_by_name(rows, lambda r: r["name"])


def table_extensions(rnd) -> list[tuple[int, int]]:
    """(table number, extra seconds) of the round's tables with their own
    extension, by number."""
    return list(
        rnd.tables.filter(extra_seconds__gt=0)
        .order_by("number")
        .values_list("number", "extra_seconds")
    )


def published_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The rounds the public may see (their seating is published)."""
    return tournament.round_set.filter(published=True).order_by("number")


#: a table's seats with their players (every screen and sheet reads them)
_SEATS = PreparedQuery(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id).select_related("player").order_by("position")
    )
)


def seats_in_order(table) -> list[Seat]:
    """A table's seats with their players, in seat order (each seat's
    ``table`` is ``table``, as through ``table.seats``)."""
    seats = _SEATS(table.pk)
    for seat in seats:
        seat.table = table
    return seats


def seating_log(rnd: Round) -> list[SeatingChange]:
    """The round's seating changes, after the discards of earlier drafts of
    this round number (logged on the tournament: their round is gone)."""
    discards = SeatingChange.objects.filter(
        tournament_id=rnd.tournament_id,
        round=None,
        kind=SeatingChange.DISCARD,
        detail__round=rnd.number,
    )
    return list(discards.select_related("by")) + list(rnd.seating_changes.select_related("by"))


def roster_people(owner) -> QuerySet:
    """An organizer's roster (merged entries left out)."""
    return Person.objects.filter(owner=owner, merged_into=None)


def _name_club_key(person) -> tuple:
    return name_key(person.name), name_key(person.club), person.pk


def roster_list(owner, query: str = "") -> list[Person]:
    """The roster page's people in German alphabetical order (name, then
    club), with the number of tournaments each played; ``query`` filters by
    name or club."""
    people = roster_people(owner).annotate(tournaments=Count("entries"))
    if query:
        people = people.filter(Q(name__icontains=query) | Q(club__icontains=query))
    return sorted(people, key=_name_club_key)


def in_name_order(people: QuerySet) -> QuerySet:
    """Players or roster people in German alphabetical order (name, then
    club) as a queryset, for the selects of a form (a database sorts "Ömer"
    after "Zoe"; pages sort lists with ``collation.sort_by_name``)."""
    order = [p.pk for p in sorted(people.only("pk", "name", "club"), key=_name_club_key)]
    if not order:
        return people
    return people.order_by(Case(*[When(pk=pk, then=i) for i, pk in enumerate(order)]))


def roster_person_rows(tournament: Tournament, owner) -> list[dict]:
    """The tournament's players in German alphabetical order beside the
    roster: each with its link, or its exact or near matches (``kind``:
    ``tournaments.roster``'s ``exact``, ``near`` or ``new``; "" once linked)."""
    players = sorted(tournament.players.select_related("person"), key=_name_club_key)
    found = roster_matches(owner, [(p.name, p.club) for p in players])
    return [
        {
            "player": player,
            "kind": "" if player.person_id else kind,
            "suggestions": [] if player.person_id else people,
        }
        for player, (kind, people) in zip(players, found, strict=True)
    ]


def kept_people(owner_ids) -> dict[int, int]:
    """Every roster entry of these organizers (user ids) → the entry it counts
    as, merges followed (``tournaments.roster.resolve_merges``: bounded, a
    cycle in the rows still ends). One query."""
    links = dict(Person.objects.filter(owner__in=owner_ids).values_list("pk", "merged_into_id"))
    return resolve_merges(links)[0]


def kept_person(person: Person) -> Person:
    """The roster entry ``person`` counts as (itself unless merged)."""
    if person.merged_into_id is None:
        return person
    kept = kept_people([person.owner_id]).get(person.pk, person.pk)
    return person if kept == person.pk else Person.objects.get(pk=kept)


def roster_matches(owner, entries) -> list[tuple]:
    """For each ``(name, club)`` its roster match: ``(kind, [people])`` with
    kind ``exact``, ``near`` or ``new`` (``tournaments.roster``)."""
    people = list(roster_people(owner))
    by_id = {p.pk: p for p in people}
    candidates = [Candidate(p.pk, p.name, p.club) for p in people]
    out = []
    for name, club in entries:
        found = match(name, club, candidates)
        out.append((found.kind, [by_id[c.id] for c in found.candidates]))
    return out


# -- the views' page data -------------------------------------------------------


def round_or_404(tournament: Tournament, number: int) -> Round:
    """The one way a view loads a tournament's round by its number: the
    round, or a 404 page (another tournament's round is not found either)."""
    return get_object_or_404(Round, tournament=tournament, number=number)


def clock_status(rnd: Round) -> dict:
    """The context of a round's clock partial: the status, the deadline and
    the server's time (ms since the epoch, for the browser's offset), the time
    left, tables done — from the round's shared cache entry
    (:mod:`tournaments.live`) — and the round."""
    entry = live.clock_entry(rnd.pk)
    if entry is None:
        raise Http404
    return live.clock_context(entry) | {"round": rnd}


def public_round(user, tournament_id: int, number: int) -> tuple[Tournament, Round, bool]:
    """The round for the public pages: a public tournament's published round,
    and whether ``user`` is its staff. Its organizer and scorekeepers may open
    them also when the tournament is hidden or the seating still a draft (to
    set up the projector); anyone else gets a 404."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = tournament.role_of(user) is not None
    if (not tournament.public or tournament.archived_at is not None) and not staff:
        raise Http404
    rnd = round_or_404(tournament, number)
    if not rnd.published and not staff:
        raise Http404
    return tournament, rnd, staff


def background_processes() -> list[dict]:
    """The laptop's background processes that are not running as they should
    (``make run``: runall's status file, tournaments/supervisor.py): each
    with what it does, its state (``down``: waiting to be started again,
    ``restarting``), why (``exited``/``stuck``) and its restarts so far.
    Empty without runall (a production setup) or when all run."""
    from django.conf import settings
    from django.utils.translation import gettext_lazy

    from tournaments import supervisor

    labels = {
        "worker-clock": gettext_lazy("the round clock and the bots"),
        "worker-tasks": gettext_lazy("print jobs, imports and publishing"),
        "beat": gettext_lazy("the scheduled checks"),
    }
    data = supervisor.read_status(settings.PROCESS_STATUS_FILE)
    if data is None:
        return []
    out = []
    for name, p in sorted(data["processes"].items()):
        if not isinstance(p, dict) or p.get("state") not in (
            supervisor.DOWN,
            supervisor.RESTARTING,
        ):
            continue
        out.append(
            {
                "name": name,
                "label": labels.get(name, name),
                "state": p["state"],
                "stuck": p.get("reason") == supervisor.STUCK,
                "stuck_seconds": p.get("stuck_seconds") or 0,
                "restarts": p.get("restarts") or 0,
            }
        )
    return out


def helper_invites(tournament: Tournament) -> list[dict]:
    """The tournament's helper invitations, newest first, each with its state
    ("open", "used", "revoked", "expired"): the log the scorekeepers page shows."""
    now = timezone.now()
    rows = tournament.invites.select_related("by", "used_by", "revoked_by")
    return [{"invite": i, "state": i.state(now)} for i in rows]
