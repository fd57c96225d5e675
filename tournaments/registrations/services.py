"""Writes of the registration wing. Every change takes the announcement's row
lock first (``select_for_update``; on SQLite every transaction takes the
write lock at its start), so the cap holds when players register at the same
moment and a freed place goes to the first waiting player exactly once.
Every change is logged (:class:`RegistrationEvent`) with who (an organizer's
account, or None: the player through the personal link) and when.

A confirmed registration is a player of the tournament (through the player
services, so the limits, late entries and the log apply); a waiting one is
not, until it moves up.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import limits, roster
from tournaments.authors import author
from tournaments.models import Player, Round, Seat, Tournament
from tournaments.registrations import rules, selectors
from tournaments.registrations.models import (
    Announcement,
    Registration,
    RegistrationEvent,
    new_token,
    token_hash,
)
from tournaments.roster_models import Person
from tournaments.services import players as player_services
from tournaments.services.errors import ServiceError

Event = RegistrationEvent
#: rounds in play: a player seated in one can't leave before it ends
IN_PLAY = (Round.RUNNING, Round.PAUSED, Round.TIME_CALLED)


@dataclass(frozen=True)
class Entry:
    """What a player (or the organizer) enters for a registration."""

    name: str
    club: str = ""
    birth_year: int | None = None
    rating: int | None = None
    consent_public: bool = False


@dataclass(frozen=True)
class Signed:
    """A registration made: the registration and its personal link's token
    (known only now: only its hash is stored)."""

    registration: Registration
    token: str
    again: bool = False  # the same form sent twice: the first one's registration


class SentAlready(ServiceError):
    """The form's one-time id was used by another sender (or for another
    tournament): the registration made with it is not theirs."""


def _log(reg: Registration, kind: str, by=None, detail: str = "") -> None:
    Event.objects.create(registration=reg, kind=kind, by=author(by), detail=detail[:300])


def _locked(tournament: Tournament) -> Announcement:
    try:
        return Announcement.objects.select_for_update().get(tournament_id=tournament.pk)
    except Announcement.DoesNotExist:
        raise ServiceError(_("This tournament is not open for registration.")) from None


def _started(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament_id=tournament.pk).exists()


def _confirmed_count(tournament: Tournament) -> int:
    return Registration.objects.filter(
        tournament_id=tournament.pk, status=Registration.CONFIRMED
    ).count()


def _keys(entry: Entry) -> tuple[str, str]:
    return roster.folded(entry.name)[:400], roster.folded(entry.club)[:400]


def _duplicate(tournament: Tournament, entry: Entry, *, exclude=None) -> Registration | None:
    """An active registration of the same person: the same name after the
    roster's folding ("Juergen Gross" is "Jürgen Groß", case and spaces
    ignored) and the same club after folding, or no club on one side. A
    merely similar name (the roster's close spelling) is not refused; the
    organizer's list shows it."""
    name, club = _keys(entry)
    twins = Registration.objects.filter(
        tournament_id=tournament.pk, name_key=name, status__in=Registration.ACTIVE
    ).exclude(pk=exclude)
    if club:
        twins = twins.filter(club_key__in=[club, ""])
    return twins.order_by("position").first()


def _duplicate_message(reg: Registration) -> str:
    if reg.club:
        return _("%(name)s of %(club)s is already registered.") % {
            "name": reg.name,
            "club": reg.club,
        }
    return _("%(name)s is already registered.") % {"name": reg.name}


def _roster_person(tournament: Tournament, entry: Entry) -> Person | None:
    """The organizer's roster person of exactly this name (and club): linked
    at once. A near match is only suggested on the organizer's list."""
    people = Person.objects.filter(
        owner_id=tournament.owner_id, merged_into__isnull=True, name__iexact=entry.name
    )  # only an exact match links: the roster's rules among the few of this name
    found = roster.match(
        entry.name,
        entry.club,
        (roster.Candidate(p.pk, p.name, p.club) for p in people.only("pk", "name", "club")),
    )
    if found.kind == roster.EXACT and len(found.candidates) == 1:
        return people.get(pk=found.best.id)
    return None


#: what :func:`_make_player` sets on the registration
_PLAYER_FIELDS = ("player", "owns_player", "twin")


def _twin(reg: Registration) -> Player | None:
    """A player the organizer entered (by hand or imported: no registration
    holds it) who is possibly the same person: the same name after the
    roster's folding and the same club after folding, or no club on one
    side — as :func:`_duplicate` compares registrations."""
    name, club = reg.name_key or roster.folded(reg.name), reg.club_key or roster.folded(reg.club)
    for player in (
        Player.objects.filter(tournament_id=reg.tournament_id, registration__isnull=True)
        .only("pk", "name", "club")
        .order_by("pk")
    ):
        if roster.folded(player.name) != name:
            continue
        other = roster.folded(player.club)
        if other == club or not other or not club:
            return player
    return None


def _make_player(
    reg: Registration, by, *, started: bool | None = None, apart: bool = False
) -> None:
    """The confirmed registration becomes a player of the tournament of its
    own (``reg.owns_player``). A registration never binds to an entry the
    organizer made by itself: when one is possibly the same person
    (:func:`_twin`) the registration keeps its place without a player and
    waits for the organizer (``reg.twin``; :func:`registration_join`,
    :func:`registration_keep_apart`, whose ``apart`` skips the question).
    Before the tournament begins — every registration through the public
    page, with the announcement's lock held — the player is inserted at once
    (round 1, nothing to log); once it has begun the player services make it
    a late entry."""
    if not apart:
        twin = _twin(reg)
        if twin is not None:
            reg.player, reg.twin = None, twin
            return
    fields = {
        "name": reg.name,
        "club": reg.club,
        "rating": reg.rating,
        "rating_confirmed": reg.rating_confirmed or reg.rating is None,
        "birth_year": reg.birth_year,
        "person": reg.person,
    }
    if started is None:
        started = _started(reg.tournament)
    try:
        with transaction.atomic():
            if started:
                reg.player = player_services.player_add(tournament=reg.tournament, by=by, **fields)
            else:
                message = limits.players_message(
                    Player.objects.filter(tournament_id=reg.tournament_id).count()
                )
                if message:
                    raise ServiceError(message)
                reg.player = Player.objects.create(tournament_id=reg.tournament_id, **fields)
            reg.owns_player, reg.twin = True, None
            return
    except (IntegrityError, ServiceError) as exc:
        refusal = exc
    # this name and club is a player already: an entry of the organizer's
    # (entered meanwhile) waits for the organizer's decision; one of another
    # registration is a duplicate
    existing = Player.objects.filter(
        tournament_id=reg.tournament_id, name=reg.name, club=reg.club
    ).first()
    if existing is None:
        if isinstance(refusal, ServiceError):
            raise refusal
        raise ServiceError(_duplicate_message(reg)) from None
    if apart:
        raise ServiceError(_same_name_message(existing)) from None
    if Registration.objects.filter(player=existing).exists():
        raise ServiceError(_duplicate_message(reg)) from None
    reg.player, reg.twin = None, existing


def _same_name_message(player: Player) -> str:
    return _(
        "%(player)s is already on the players page with this name and club: "
        "change the name or club of one of them first."
    ) % {"player": player}


def _log_waiting(reg: Registration, by) -> None:
    """Log that the registration waits for the organizer's decision."""
    if reg.twin_id is not None and reg.player_id is None:
        _log(reg, Event.TWIN, by, str(reg.twin))


def _release_player(reg: Registration, by) -> None:
    """The registration is no longer confirmed: its player leaves (removed
    before the tournament started, dropped after). An entry the organizer
    made and joined to it is only unlinked before the start: a registration
    removes only what it created."""
    player = reg.player
    reg.twin = None
    if player is None:
        reg.save(update_fields=["twin"])
        return
    if _started(reg.tournament):
        player_services.player_drop(player=player, by=by)
        reg.save(update_fields=["twin"])
    else:
        reg.player = None
        reg.save(update_fields=["player", "twin"])
        if reg.owns_player:
            player.delete()


def _promote(announcement: Announcement, by=None, *, present_only: bool = False) -> list:
    """The first waiting take the free places, in order (under the lock)."""
    tournament = announcement.tournament
    waiting = list(
        Registration.objects.filter(tournament_id=tournament.pk, status=Registration.WAITLISTED)
    )
    chosen = rules.promotions(
        announcement.cap,
        _confirmed_count(tournament),
        [rules.Waiting(r.pk, r.position, r.present_at is not None) for r in waiting],
        present_only=present_only,
    )
    by_id = {r.pk: r for r in waiting}
    moved = []
    for pk in chosen:
        reg = by_id[pk]
        reg.tournament = tournament
        reg.status = Registration.CONFIRMED
        _make_player(reg, by)
        reg.save(update_fields=["status", *_PLAYER_FIELDS])
        _log(reg, Event.PROMOTED, by)
        _log_waiting(reg, by)
        if present_only and reg.player is not None:
            player_services.player_set_checked_in(player=reg.player, checked_in=True, by=by)
        moved.append(reg)
    return moved


def _check_entry(entry: Entry) -> Entry:
    name, club = " ".join(entry.name.split()), " ".join(entry.club.split())
    if not name:
        raise ServiceError(_("Enter a name."))
    if len(name) > limits.MAX_NAME or len(club) > limits.MAX_NAME:
        raise ServiceError(
            _("A name or club has at most %(max)s characters.") % {"max": limits.MAX_NAME}
        )
    if entry.rating is not None and not limits.MIN_RATING <= entry.rating <= limits.MAX_RATING:
        raise ServiceError(_("The rating is out of range."))
    return Entry(name, club, entry.birth_year, entry.rating, entry.consent_public)


# -- the organizer: the announcement ---------------------------------------------


@transaction.atomic
def announcement_save(
    *, tournament: Tournament, by, event_date=None, venue: str | None = None, **fields
) -> Announcement:
    """Open the tournament for registration, or change its announcement (and
    the tournament's date and venue); a raised cap lets the first waiting
    players move up at once."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if venue is not None:
        tournament.event_date, tournament.venue = event_date, venue
        tournament.save(update_fields=["event_date", "venue"])
    announcement = Announcement.objects.select_for_update().filter(tournament=tournament).first()
    if announcement is None:
        announcement = Announcement(tournament=tournament)
    for name, value in fields.items():
        setattr(announcement, name, value)
    announcement.save()
    announcement.tournament = tournament
    if not _started(tournament):
        _promote(announcement, by)
    return announcement


# -- the player: register, change, withdraw ---------------------------------------


def registration_closed(announcement: Announcement, now=None, started=None) -> str | None:
    """Why the announcement takes no registrations now, or None."""
    if not announcement.open:
        return _("Registration is closed.")
    if announcement.deadline is not None and (now or timezone.now()) >= announcement.deadline:
        return _("The entry deadline has passed.")
    if started is None:
        started = _started(announcement.tournament)
    if announcement.tournament.archived_at is not None or started:
        return _("The tournament has begun: registration is closed.")
    return None


@transaction.atomic
def register(
    *,
    tournament: Tournament,
    entry: Entry,
    nonce: str | None = None,
    by=None,
    token: str | None = None,
) -> Signed:
    """A player registers: confirmed while places are left, else on the
    waitlist. With ``by`` the organizer adds the player by hand (also after
    the deadline). ``nonce`` is the form's one-time id: sent twice, the form
    makes one registration (the second answer is the first's). ``token`` is
    the personal link's token (new when not given)."""
    # reads that need no lock first: the lock is held by one registration at a time
    person = _roster_person(tournament, _check_entry(entry)) if entry.name.strip() else None
    announcement = _locked(tournament)
    announcement.tournament = tournament
    if nonce:
        earlier = Registration.objects.filter(form_nonce=nonce).first()
        if earlier is not None:
            if (
                earlier.tournament_id != tournament.pk
                or token is None
                or earlier.token_hash != token_hash(token)
            ):  # another sender's: its link is not theirs to see
                raise SentAlready(_("This form was sent already."))
            return Signed(earlier, token, again=True)
    started = _started(tournament)
    if by is None:
        closed = registration_closed(announcement, started=started)
        if closed:
            raise ServiceError(closed)
    entry = _check_entry(entry)
    twin = _duplicate(tournament, entry)
    if twin is not None:
        raise ServiceError(_duplicate_message(twin))
    token = token or new_token()
    full = _confirmed_count(tournament) >= announcement.cap
    reg = Registration(
        tournament=tournament,
        token_hash=token_hash(token),
        form_nonce=nonce or None,
        name=entry.name,
        club=entry.club,
        birth_year=entry.birth_year,
        rating=entry.rating,
        consent_public=entry.consent_public,
        rating_confirmed=by is not None,
        name_key=_keys(entry)[0],
        club_key=_keys(entry)[1],
        status=Registration.WAITLISTED if full else Registration.CONFIRMED,
        position=announcement.next_position,
        person=person,
    )
    announcement.next_position += 1
    announcement.save(update_fields=["next_position"])
    if not full:
        _make_player(reg, by, started=started)
    reg.save()
    _log(reg, Event.ADDED if by is not None else Event.REGISTERED, by)
    if full:
        _log(reg, Event.WAITLISTED, by)
    _log_waiting(reg, by)
    return Signed(reg, token)


def _locked_registration(reg: Registration) -> tuple[Announcement, Registration]:
    announcement = _locked(reg.tournament)
    fresh = Registration.objects.select_related("tournament", "player").get(pk=reg.pk)
    if fresh.tournament.archived_at is not None:
        raise ServiceError(_("This tournament is archived."))
    announcement.tournament = fresh.tournament
    return announcement, fresh


@transaction.atomic
def registration_change(*, registration: Registration, entry: Entry, by=None) -> Registration:
    """The player (before the deadline) or the organizer corrects the entry."""
    announcement, reg = _locked_registration(registration)
    if not reg.active:
        raise ServiceError(_("This registration is no longer active."))
    started = _started(reg.tournament)
    if by is None:
        closed = registration_closed(announcement, started=started)
        if closed:
            raise ServiceError(closed)
    entry = _check_entry(entry)
    twin = _duplicate(reg.tournament, entry, exclude=reg.pk)
    if twin is not None:
        raise ServiceError(_duplicate_message(twin))
    before = (reg.name, reg.club, reg.birth_year, reg.rating, reg.consent_public)
    after = (entry.name, entry.club, entry.birth_year, entry.rating, entry.consent_public)
    if before == after:
        return reg
    reg.name, reg.club, reg.birth_year, reg.rating, reg.consent_public = after
    reg.name_key, reg.club_key = _keys(entry)
    if before[3] != after[3]:  # a new number is the word of whoever typed it
        reg.rating_confirmed = by is not None
    reg.save(
        update_fields=[
            "name",
            "club",
            "birth_year",
            "rating",
            "rating_confirmed",
            "consent_public",
            "name_key",
            "club_key",
        ]
    )
    new_twin = False
    if reg.player is not None and reg.owns_player and not started:
        # a link changes only the player its registration created
        player = reg.player
        player.name, player.club, player.birth_year, player.rating = after[:4]
        player.rating_confirmed = reg.rating_confirmed or player.rating is None
        if (
            Player.objects.filter(
                tournament_id=reg.tournament_id, name=player.name, club=player.club
            )
            .exclude(pk=player.pk)
            .exists()
        ):
            raise ServiceError(_duplicate_message(reg))
        player.save(update_fields=["name", "club", "birth_year", "rating", "rating_confirmed"])
    elif reg.player is None and reg.status == Registration.CONFIRMED and not started:
        # waiting for the organizer: a new name may be someone else's, or nobody's
        waited_for = reg.twin_id
        _make_player(reg, by, started=started)
        reg.save(update_fields=list(_PLAYER_FIELDS))
        new_twin = reg.twin_id != waited_for
    changed = [
        label
        for label, old, new in zip(
            (_("name"), _("club"), _("birth year"), _("rating"), _("public list")),
            before,
            after,
            strict=True,
        )
        if old != new
    ]
    _log(reg, Event.CHANGED, by, ", ".join(str(c) for c in changed))
    if new_twin:
        _log_waiting(reg, by)
    return reg


def _end(registration: Registration, status: str, kind: str, by) -> Registration:
    announcement, reg = _locked_registration(registration)
    if not reg.active:
        raise ServiceError(_("This registration is no longer active."))
    was_confirmed = reg.status == Registration.CONFIRMED
    reg.status = status
    reg.save(update_fields=["status"])
    if was_confirmed:
        _release_player(reg, by)
    _log(reg, kind, by)
    if was_confirmed and not _started(reg.tournament):
        _promote(announcement, by)
    return reg


@transaction.atomic
def registration_withdraw(*, registration: Registration, by=None) -> Registration:
    """The player withdraws (through the link) before the tournament begins;
    a confirmed place goes to the first waiting player."""
    if by is None and _started(registration.tournament):
        raise ServiceError(
            _("The tournament has begun: leave it between rounds with “Leave the tournament”.")
        )
    return _end(registration, Registration.WITHDRAWN, Event.WITHDRAWN, by)


# -- the organizer: confirm, move, reject, revoke the link ------------------------


@transaction.atomic
def registration_confirm(*, registration: Registration, by) -> Registration:
    """The organizer confirms a waiting player now (also beyond the cap)."""
    announcement, reg = _locked_registration(registration)
    if reg.status != Registration.WAITLISTED:
        raise ServiceError(_("Only a registration on the waitlist can be confirmed."))
    reg.status = Registration.CONFIRMED
    _make_player(reg, by)
    reg.save(update_fields=["status", *_PLAYER_FIELDS])
    _log(reg, Event.CONFIRMED, by)
    _log_waiting(reg, by)
    return reg


def _waiting_for_decision(registration: Registration) -> tuple[Announcement, Registration]:
    announcement, reg = _locked_registration(registration)
    if reg.status != Registration.CONFIRMED or reg.player_id is not None:
        raise ServiceError(_("This registration waits for no decision."))
    return announcement, reg


@transaction.atomic
def registration_join(*, registration: Registration, by) -> Registration:
    """The organizer decides that a registration and the entry they made
    (``reg.twin``) are the same person: the registration is joined to that
    player, which its link never changes or removes (``owns_player``)."""
    _announcement, reg = _waiting_for_decision(registration)
    if reg.twin_id is None:
        raise ServiceError(_("This registration waits for no decision."))
    player = Player.objects.select_for_update().get(pk=reg.twin_id)
    if Registration.objects.filter(player=player).exists():
        raise ServiceError(
            _("%(player)s already belongs to another registration.") % {"player": player}
        )
    reg.player, reg.owns_player, reg.twin = player, False, None
    reg.save(update_fields=list(_PLAYER_FIELDS))
    if player.dropped:
        player_services.player_readd(player=player, by=by)
    _log(reg, Event.JOINED, by, str(player))
    return reg


@transaction.atomic
def registration_keep_apart(*, registration: Registration, by) -> Registration:
    """The organizer decides that a registration is someone else than the
    entry of a similar name they made: it becomes a player of its own
    (refused while both have the very same name and club)."""
    _announcement, reg = _waiting_for_decision(registration)
    twin = reg.twin
    _make_player(reg, by, apart=True)
    reg.save(update_fields=list(_PLAYER_FIELDS))
    _log(reg, Event.KEPT_APART, by, str(twin) if twin is not None else "")
    return reg


@transaction.atomic
def registration_reject(*, registration: Registration, by) -> Registration:
    return _end(registration, Registration.REJECTED, Event.REJECTED, by)


@transaction.atomic
def registration_move(*, registration: Registration, steps: int, by) -> Registration:
    """Move a waiting player ``steps`` places on the waitlist (negative: forward)."""
    announcement, reg = _locked_registration(registration)
    if reg.status != Registration.WAITLISTED:
        raise ServiceError(_("Only a registration on the waitlist can be moved."))
    waiting = list(
        Registration.objects.filter(
            tournament_id=reg.tournament_id, status=Registration.WAITLISTED
        ).order_by("position")
    )
    positions = [r.position for r in waiting]
    before = [r.pk for r in waiting]
    order = rules.moved(before, reg.pk, steps)
    if order == before:
        return reg
    # positions are unique: park the waiting ones above every position in
    # use, then hand the same positions out in the new order
    parking = announcement.next_position + len(order)
    for i, pk in enumerate(order):
        Registration.objects.filter(pk=pk).update(position=parking + i)
    for pk, position in zip(order, positions, strict=True):
        Registration.objects.filter(pk=pk).update(position=position)
    _log(reg, Event.MOVED, by, f"{before.index(reg.pk) + 1} → {order.index(reg.pk) + 1}")
    reg.refresh_from_db()
    return reg


@transaction.atomic
def registration_new_link(*, registration: Registration, by) -> str:
    """The organizer replaces a player's personal link: the old one stops at
    once. Returns the new token (shown once, to hand to the player)."""
    _announcement, reg = _locked_registration(registration)
    token = new_token()
    reg.token_hash = token_hash(token)
    reg.form_nonce = None
    reg.save(update_fields=["token_hash", "form_nonce"])
    _log(reg, Event.LINK_REISSUED, by)
    return token


# -- at the door: self check-in, no-shows ----------------------------------------


@transaction.atomic
def check_in_open(*, tournament: Tournament, open: bool, by) -> Announcement:  # noqa: A002
    announcement = _locked(tournament)
    announcement.check_in_open = open
    announcement.save(update_fields=["check_in_open"])
    return announcement


@transaction.atomic
def self_check_in(*, registration: Registration) -> Registration:
    """The player checks in through the personal link while check-in is open.
    A waiting player is marked present and moves up in order when no-shows
    are dropped."""
    announcement, reg = _locked_registration(registration)
    if not announcement.check_in_open:
        raise ServiceError(_("Check-in is not open. Ask at the desk."))
    if reg.status == Registration.CONFIRMED and reg.player is None:
        raise ServiceError(_("Your registration still waits for the organizer. Ask at the desk."))
    if reg.status == Registration.CONFIRMED and reg.player is not None:
        if reg.player.dropped:
            raise ServiceError(_("You have left the tournament. Ask at the desk."))
        if not reg.player.checked_in:
            player_services.player_set_checked_in(player=reg.player, checked_in=True, by=None)
            _log(reg, Event.CHECKED_IN)
    elif reg.status == Registration.WAITLISTED:
        if reg.present_at is None:
            reg.present_at = timezone.now()
            reg.save(update_fields=["present_at"])
            _log(reg, Event.PRESENT)
    else:
        raise ServiceError(_("This registration is no longer active."))
    return reg


@transaction.atomic
def drop_no_shows(*, tournament: Tournament, by) -> tuple[list[Player], list[Registration]]:
    """Close check-in, and with it registration: every player not checked
    in is dropped (their registrations marked "did not come"), and the
    waiting players present take the free places in order, checked in.
    Returns (dropped, moved up)."""
    announcement = _locked(tournament)
    announcement.tournament = tournament
    announcement.check_in_open = False
    announcement.open = False  # nobody registers once the door has closed
    announcement.save(update_fields=["check_in_open", "open"])
    absent = list(selectors.no_show_players(tournament).select_for_update())
    regs = {r.player_id: r for r in Registration.objects.filter(player__in=absent)}
    for player in absent:
        player_services.player_drop(player=player, by=by)
        reg = regs.get(player.pk)
        if reg is not None and reg.status == Registration.CONFIRMED:
            reg.status = Registration.NO_SHOW
            reg.save(update_fields=["status"])
            _log(reg, Event.NO_SHOW, by)
    return absent, _promote(announcement, by, present_only=True)


# -- between rounds: leaving -------------------------------------------------------


def leave_refusal(player: Player) -> str | None:
    """Why the player can't leave the tournament now, or None."""
    if player.dropped:
        return _("You have left the tournament.")
    if player.tournament.finished or player.tournament.archived_at is not None:
        return _("The tournament is over.")
    playing = Seat.objects.filter(player=player, table__round__status__in=IN_PLAY).values_list(
        "table__round__number", flat=True
    )
    number = next(iter(playing), None)
    if number is not None:
        return _("Round %(n)s is being played: you can leave once it has ended.") % {"n": number}
    return None


@transaction.atomic
def player_leave(*, player: Player) -> Player:
    """The player leaves between rounds (through the personal or the seat
    link): dropped through the player services (logged, nobody's account),
    so the player leaves a round seated but not started and is not seated
    again. The organizer sees it on the overview."""
    player = Player.objects.select_for_update().select_related("tournament").get(pk=player.pk)
    refusal = leave_refusal(player)
    if refusal:
        raise ServiceError(refusal)
    player_services.player_drop(player=player, by=None)
    reg = Registration.objects.filter(player=player).first()
    if reg is not None:
        _log(reg, Event.LEFT)
    return player
