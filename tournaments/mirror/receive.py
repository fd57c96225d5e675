"""Online: a publication from a laptop, checked and applied.

A publication is gzip-compressed JSON::

    {"format": "turnierleiter.mirror", "source": "<the laptop's id for the
     tournament>", "version": 17, "hashes": {section: hash, ...},
     "sections": {section: content, ...}}  # only those the site lacks

It is applied only when its version is newer than the one stored: an older
or replayed one is acknowledged and changes nothing. The sections it carries
are checked against their hashes, merged with the stored ones, put together
into an export document and stored through the tournament import's checks
(``scoring.exchange``): a malformed value refuses the whole publication with
the import's message, and nothing changes. While the tournament's section
(settings, players) is unchanged — or only its players changed and none is
gone: they are updated in place (renamed, moved to another club or team,
dropped) and the new ones added — only the rounds whose sections changed
are rebuilt; otherwise the whole tournament is. The ``season`` section
(the public season tables of the laptop's series) is checked for its shape
and kept as sent: the mirrored tournament's season page shows it. A
mirrored tournament is found by (the key's owner, ``source``), so a
publication never reaches another organizer's tournament.
"""

from __future__ import annotations

import gzip
import logging
import uuid
import zlib

from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.exchange.format import TOURNAMENT_FIELDS, ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.exchange.replace import merge_players, replace_rounds, replace_tournament
from tournaments import limits, safejson
from tournaments.mirror import snapshot
from tournaments.mirror.models import MirroredTournament, MirrorSection

log = logging.getLogger(__name__)

FORMAT = "turnierleiter.mirror"
MAX_SECTIONS = 1 + 2 * limits.MAX_ROUNDS


class Refused(Exception):
    """The publication is refused; ``str(exc)`` says why, ``status`` is the
    HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400, **extra):
        super().__init__(message)
        self.status, self.extra = status, extra


def unpack(body: bytes) -> dict:
    """The publication in a gzip body, within the size limits (a small body
    that unpacks to gigabytes is stopped at the limit)."""
    if len(body) > limits.MAX_PUBLICATION_BYTES:
        raise Refused(_("The publication is too large."), status=413)
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        raw = inflater.decompress(body, limits.MAX_PUBLICATION_UNPACKED + 1)
    except zlib.error:
        raise Refused(_("The publication is not gzip-compressed JSON.")) from None
    if len(raw) > limits.MAX_PUBLICATION_UNPACKED or inflater.unconsumed_tail:
        raise Refused(_("The publication is too large when unpacked."), status=413)
    try:
        data = safejson.loads(raw)
    except safejson.BadJSON as exc:
        raise Refused(str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refused(_("This is not a publication of a Turnierleiter laptop."))
    return data


def pack(data: dict) -> bytes:
    import json

    return gzip.compress(json.dumps(data, ensure_ascii=False).encode(), compresslevel=6)


def _envelope(data: dict) -> tuple[uuid.UUID, int, dict, dict]:
    try:
        source = uuid.UUID(str(data.get("source")))
    except ValueError:
        raise Refused(_("The publication names no tournament.")) from None
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 0 < version < 2**62:
        raise Refused(_("The publication has no valid version."))
    hashes, sections = data.get("hashes"), data.get("sections")
    if not isinstance(hashes, dict) or not isinstance(sections, dict):
        raise Refused(_("The publication lacks its sections."))
    if len(hashes) > MAX_SECTIONS or "tournament" not in hashes:
        raise Refused(_("The publication lacks its sections."))
    for name, value in hashes.items():
        if not snapshot.NAME.match(name) or not isinstance(value, str) or len(value) > 64:
            raise Refused(_("Unknown section %(name)s.") % {"name": name[:40]})
    for name, content in sections.items():
        if name not in hashes:
            raise Refused(_("Unknown section %(name)s.") % {"name": name[:40]})
        if snapshot.digest(content) != hashes[name]:
            raise Refused(_("Section %(name)s does not match its hash.") % {"name": name})
    _only_public(sections)
    return source, version, hashes, sections


def _only_public(sections: dict) -> None:
    """A publication carries exactly the public fields of its sections: any
    other (a deal's secret, a game's state or moves, a rating, a field of
    any other name) refuses it with a 422 that names it."""
    found = []
    for name in sorted(sections):
        found += snapshot.not_public(name, sections[name], settings=TOURNAMENT_FIELDS)
    if found:
        raise Refused(
            ngettext(
                "The publication carries a field that is not public: %(fields)s.",
                "The publication carries fields that are not public: %(fields)s.",
                len(found),
            )
            % {"fields": ", ".join(found[: snapshot.MAX_NAMED])},
            status=422,
            fields=found[: snapshot.MAX_NAMED],
        )


def _shapes(merged: dict) -> None:
    """Each section has the shape ``snapshot.assemble`` reads; the values in
    them are the import's to check."""
    if not isinstance(merged["tournament"], dict):
        raise Refused(_("Section %(name)s is malformed.") % {"name": "tournament"})
    for name, content in merged.items():
        kind, _sep, number = name.partition(":")
        if kind == "round" and not (
            isinstance(content, dict) and content.get("number") == int(number)
        ):
            raise Refused(_("Section %(name)s is malformed.") % {"name": name})
        if kind == "clock" and not (
            isinstance(content, dict)
            and isinstance(content.get("round"), dict)
            and isinstance(content.get("activations"), list)
            and f"round:{number}" in merged
        ):
            raise Refused(_("Section %(name)s is malformed.") % {"name": name})


def apply(*, owner, data: dict) -> dict:
    """Apply a publication of ``owner``'s laptop. Returns what the laptop
    learns: whether it was applied, the version and section hashes the site
    holds, and the mirrored tournament's id. Raises :class:`Refused`."""
    source, version, hashes, sections = _envelope(data)
    with transaction.atomic():
        mirror = (
            MirroredTournament.objects.select_for_update()
            .filter(owner=owner, source=source)
            .first()
        )
        if mirror is not None and version <= mirror.version:
            return _answer(mirror, applied=False)
        held = mirror.hashes if mirror is not None else {}
        _require_sections(hashes, sections, held)
        previous, whole, changed = _plan(mirror, held, hashes, sections)
        doc = _document(mirror, held, hashes, sections, whole=whole, changed=changed)
        try:
            if mirror is None:
                tournament = import_tournament(data=doc, owner=owner, told_outcomes=True)
                mirror = MirroredTournament(owner=owner, source=source, tournament=tournament)
            elif whole:
                replace_tournament(data=doc, tournament=mirror.tournament, told_outcomes=True)
            else:
                _replace_in_part(mirror, doc, previous, changed, hashes, sections)
        except ImportRefused as exc:
            raise Refused(str(exc), status=422, problems=exc.errors) from None
        _record(mirror, version, hashes, sections)
    return _answer(mirror, applied=True)


def _require_sections(hashes: dict, sections: dict, held: dict) -> None:
    """Every section the site does not hold is in the publication; else a
    409 that names the missing ones and the hashes held."""
    missing = [n for n, h in hashes.items() if n not in sections and held.get(n) != h]
    if missing:
        raise Refused(
            _("The publication lacks sections this site does not have."),
            status=409,
            hashes=held,
            missing=sorted(missing),
        )


def _plan(mirror, held: dict, hashes: dict, sections: dict) -> tuple[list | None, bool, set]:
    """What the publication rebuilds: the players stored when they can be
    updated in place (else None), whether the whole tournament is rebuilt,
    and the numbers of the rounds whose sections changed."""
    previous = None
    if mirror is not None and held.get("tournament") != hashes["tournament"]:
        old = mirror.stored.filter(name="tournament").values_list("content", flat=True)
        previous = _players_in_place(old.first(), sections.get("tournament"))
    whole = mirror is None or (held.get("tournament") != hashes["tournament"] and previous is None)
    # settings and players as stored: only the rounds that changed
    changed = {
        int(name.partition(":")[2])
        for name in set(hashes) | set(held)
        if ":" in name and hashes.get(name) != held.get(name)
    }
    return previous, whole, changed


def _document(mirror, held: dict, hashes: dict, sections: dict, *, whole: bool, changed: set):
    """The export document of the sections the rebuild needs, the ones sent
    taking the place of the ones held; the season section checked for its
    shape (kept as sent, not part of the tournament)."""
    needed = (
        set(hashes)
        if whole
        else {"tournament"}
        | {f"{kind}:{n}" for n in changed for kind in ("round", "clock")} & set(hashes)
    )
    needed.discard("season")  # kept as sent, not part of the tournament
    if "season" in sections and not snapshot.check_seasons(sections["season"]):
        raise Refused(_("Section %(name)s is malformed.") % {"name": "season"}, status=422)
    merged = {n: sections[n] for n in needed if n in sections}
    if mirror is not None:
        for row in mirror.stored.filter(name__in=needed - set(merged)):
            merged[row.name] = row.content
    _shapes(merged)
    return snapshot.assemble(merged)


def _replace_in_part(mirror, doc, previous, changed, hashes: dict, sections: dict) -> None:
    """The settings kept: the players updated in place when they changed,
    and only the rounds that changed rebuilt."""
    if previous is not None:  # players added, renamed, dropped
        _merge_players(mirror, doc, previous, hashes, sections)
    if changed:
        replace_rounds(data=doc, tournament=mirror.tournament, numbers=changed, told_outcomes=True)


def _record(mirror: MirroredTournament, version: int, hashes: dict, sections: dict) -> None:
    """The mirror's version, hashes and sections as of this publication."""
    mirror.version, mirror.hashes = version, hashes
    mirror.applied_at = timezone.now()
    mirror.publications += 1
    try:
        with transaction.atomic():
            mirror.save()
    except IntegrityError:  # the same first publication applied at the same time
        raise Refused(_("Another publication is being applied; try again."), 409) from None
    _keep(mirror, hashes, sections)


def _players_in_place(old, new) -> list | None:
    """The stored players (``old``'s) when the tournament's section ``new``
    differs from ``old`` only in its players and keeps every one of them (by
    key): they are updated in place, the new ones added. None otherwise: the
    settings or teams changed, or a player is gone, and the whole tournament
    is rebuilt."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return None
    if any(old.get(k) != new.get(k) for k in ("format", "version", "tournament", "teams")):
        return None
    before, after = old.get("players"), new.get("players")
    if not (isinstance(before, list) and isinstance(after, list)):
        return None
    if not all(isinstance(p, dict) for p in before + after):
        return None
    try:
        keys_before = {p.get("key") for p in before}
        keys_after = {p.get("key") for p in after}
    except TypeError:  # a key that can't be a set member: the import refuses it
        return None
    if len(keys_before) != len(before) or not keys_before <= keys_after:
        return None
    return before


def _merge_players(mirror, doc: dict, previous: list, hashes: dict, sections: dict) -> None:
    """The players updated in place; when the database can't take the
    renames one by one (two players swapping names), the whole tournament is
    rebuilt from the sections held and sent."""
    try:
        with transaction.atomic():
            merge_players(data=doc, tournament=mirror.tournament, previous=previous)
    except DatabaseError:
        stored = {row.name: row.content for row in mirror.stored.filter(name__in=list(hashes))}
        every = {n: c for n, c in (stored | sections).items() if n in hashes and n != "season"}
        _shapes(every)
        replace_tournament(
            data=snapshot.assemble(every), tournament=mirror.tournament, told_outcomes=True
        )


def _keep(mirror: MirroredTournament, hashes: dict, sections: dict) -> None:
    """The sections the site holds from now on: the ones sent replace theirs,
    the ones the laptop no longer has are removed."""
    mirror.stored.exclude(name__in=list(hashes)).delete()
    mirror.stored.filter(name__in=list(sections)).delete()
    MirrorSection.objects.bulk_create(
        MirrorSection(mirror=mirror, name=name, content=content)
        for name, content in sections.items()
    )


def _answer(mirror: MirroredTournament, *, applied: bool) -> dict:
    return {
        "applied": applied,
        "version": mirror.version,
        "hashes": mirror.hashes,
        "tournament": mirror.tournament_id,
    }
