"""Writes for the club roster: people, links from tournament entries to
people, merges (logged and undoable).

An organizer's roster is his own: every function checks that the people and
players it touches belong to the same organizer, and refuses otherwise.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Player
from tournaments.roster import NEW, Candidate, match
from tournaments.roster_models import Person, PersonMerge
from tournaments.services.errors import ServiceError
from tournaments.services.players import players_import


def _check_owner(person: Person, owner) -> None:
    if person.owner_id != owner.pk:
        raise ServiceError(_("This person is not in your roster."))
    if person.merged_into_id is not None:
        raise ServiceError(
            _("%(name)s was merged into another entry; use that one.") % {"name": person.name}
        )


@transaction.atomic
def person_create(*, owner, name: str, club: str = "", birth_year=None, notes="") -> Person:
    person = Person(owner=owner, name=name.strip(), club=club.strip(), birth_year=birth_year)
    person.notes = notes
    person.full_clean(validate_constraints=False)
    if Person.objects.filter(
        owner=owner, name=person.name, club=person.club, merged_into=None
    ).exists():
        raise ServiceError(_("%(name)s is already in your roster.") % {"name": str(person)})
    try:
        with transaction.atomic():
            person.save()
    except IntegrityError as exc:
        raise ServiceError(
            _("%(name)s is already in your roster.") % {"name": str(person)}
        ) from exc
    return person


@transaction.atomic
def person_from_player(*, player: Player, by) -> Person:
    """A new roster person made from a tournament entry, linked to it."""
    person = person_create(
        owner=player.tournament.owner,
        name=player.name,
        club=player.club,
        birth_year=player.birth_year,
    )
    return player_attach_person(player=player, person=person, by=by).person


def new_to_roster(tournament, players) -> list[Player]:
    """Those of ``players`` (the tournament's, not linked) whom the roster
    does not know at all: no exact match, no near one (a near match may be
    the same person, so it waits for the organizer's choice, as on the
    single link)."""
    people = [
        Candidate(p.pk, p.name, p.club)
        for p in Person.objects.filter(owner=tournament.owner, merged_into=None)
    ]
    return [p for p in players if match(p.name, p.club, people).kind == NEW]


@transaction.atomic
def players_add_to_roster(*, tournament, by) -> list[Person]:
    """Add all: every player of the tournament not linked whom the roster
    (the tournament owner's) does not know becomes a new roster person,
    linked to the entry — in one transaction. Players with an exact or a
    near match are left for a press each (:func:`player_attach_person`, or
    :func:`person_from_player` when the near match is someone else). Two
    presses at once add each player once."""
    # the unlinked entries, locked: a second press waits, then finds them linked
    players = list(
        Player.objects.select_for_update().filter(tournament=tournament, person=None).order_by("pk")
    )
    added = []
    for player in new_to_roster(tournament, players):
        person = person_create(
            owner=tournament.owner,
            name=player.name,
            club=player.club,
            birth_year=player.birth_year,
        )
        player.person = person
        player.save(update_fields=["person"])
        added.append(person)
    return added


@transaction.atomic
def player_attach_person(*, player: Player, person: Person | None, by) -> Player:
    """Attach a roster person to a tournament entry (None: detach the one it has)."""
    player = Player.objects.select_for_update().select_related("tournament").get(pk=player.pk)
    if person is not None:
        _check_owner(person, player.tournament.owner)
        other = (
            Player.objects.filter(tournament_id=player.tournament_id, person=person)
            .exclude(pk=player.pk)
            .first()
        )
        if other is not None:
            raise ServiceError(
                _("%(person)s is already linked to %(player)s in this tournament.")
                % {"person": person.name, "player": other.name}
            )
    player.person = person
    player.save(update_fields=["person"])
    return player


@transaction.atomic
def person_merge(*, kept: Person, merged: Person, by) -> PersonMerge:
    """Two roster entries were one person: ``merged``'s tournament entries move
    to ``kept``; ``merged`` stays as a row pointing to ``kept`` so that
    :func:`person_merge_undo` can take it back."""
    # both rows locked in the order of their ids: two opposite merges at the
    # same moment queue up instead of deadlocking; the second then finds its
    # entry merged and is refused with the reason
    locked = {
        pk: Person.objects.select_for_update().get(pk=pk) for pk in sorted({kept.pk, merged.pk})
    }
    kept, merged = locked[kept.pk], locked[merged.pk]
    if kept.pk == merged.pk:
        raise ServiceError(_("Choose two different entries to merge."))
    _check_owner(kept, by)
    _check_owner(merged, by)
    moved = list(merged.entries.values_list("pk", "tournament_id"))
    both = set(
        Player.objects.filter(person=kept, tournament_id__in=[t for _, t in moved]).values_list(
            "tournament__name", flat=True
        )
    )
    if both:
        raise ServiceError(
            _("Both entries played in %(tournaments)s: they are two people.")
            % {"tournaments": ", ".join(sorted(both))}
        )
    Player.objects.filter(pk__in=[p for p, _ in moved]).update(person=kept)
    merged.merged_into = kept
    merged.save(update_fields=["merged_into"])
    return PersonMerge.objects.create(
        kept=kept, merged=merged, players=[p for p, _ in moved], by=by
    )


@transaction.atomic
def person_merge_undo(*, merge: PersonMerge, by) -> Person:
    """Take a merge back: the merged entry returns with the tournament entries
    it brought (those still linked to the kept person)."""
    merge = (
        PersonMerge.objects.select_for_update().select_related("kept", "merged").get(pk=merge.pk)
    )
    if merge.kept.owner_id != by.pk:
        raise ServiceError(_("This person is not in your roster."))
    if merge.undone_at is not None:
        raise ServiceError(_("This merge was already undone."))
    merged = merge.merged
    if (
        Person.objects.filter(
            owner=merged.owner, name=merged.name, club=merged.club, merged_into=None
        )
        .exclude(pk=merged.pk)
        .exists()
    ):
        raise ServiceError(
            _("%(name)s is in your roster again; merge or rename that entry first.")
            % {"name": str(merged)}
        )
    Player.objects.filter(pk__in=merge.players, person=merge.kept).update(person=merged)
    merged.merged_into = None
    merged.save(update_fields=["merged_into"])
    merge.undone_at = timezone.now()
    merge.undone_by = by
    merge.save(update_fields=["undone_at", "undone_by"])
    return merged


#: a preview row's roster choice: no roster person, a new one, or an existing one
NO_PERSON, NEW_PERSON = "", "new"


def person_choice(value: str, owner) -> Person | str:
    """A preview row's choice as NO_PERSON, NEW_PERSON or the chosen person;
    anything else is refused."""
    value = (value or "").strip()
    if value in (NO_PERSON, NEW_PERSON):
        return value
    if value.startswith("p") and value[1:].isascii() and value[1:].isdigit() and len(value) < 12:
        person = Person.objects.filter(pk=int(value[1:]), owner=owner, merged_into=None).first()
        if person is not None:
            return person
    raise ServiceError(_("Choose what to do with each player and the roster again."))


@transaction.atomic
def players_import_with_people(*, tournament, rows, choices: dict, by) -> list[Player]:
    """Import the players and, as the organizer chose in the preview for each
    line, attach roster people to them or add them to the roster: all or
    nothing."""
    picked = {
        line: person_choice(choices.get(line, NO_PERSON), tournament.owner) for line in choices
    }
    created = players_import(tournament=tournament, rows=rows, by=by)
    for row, player in zip(rows, created, strict=True):
        choice = picked.get(row.line, NO_PERSON)
        if choice == NEW_PERSON:
            person_from_player(player=player, by=by)
        elif isinstance(choice, Person):
            player_attach_person(player=player, person=choice, by=by)
    return created
