"""An organizer's club as one JSON document, and back: the roster, every
tournament (as the tournament export of :mod:`scoring.exchange`), which
tournament entry is which roster person, and the series.

``export_club(owner) -> dict`` and ``import_club(data=..., owner=...)``
(all or nothing: a refused file raises :class:`scoring.exchange.ImportRefused`
with every problem found and its place in the file, e.g. ``roster[3].name``).

The document (``"format": "turnierleiter.club"``, ``"version": 1``)::

    {"format", "version", "exported_at",
     "roster": [{"key", "name", "club", "birth_year", "notes",
                 "merged_into" (key or null)}],
     "tournaments": [tournament export, each player with "person" (key or null)],
     "series": [{"name", "game", "scheme", "table", "best", "minimum", "public",
                 "tournaments": [index into "tournaments"]}]}

On import the tournaments become new tournaments of the importing organizer.
A roster person whose name and club match one already in the importing
organizer's roster is that person (the import says how many); the others are
added.

An import is checked like the forms and services that write the same rows:
every value's type (a list where a key belongs is refused with its place),
merges that end at a kept entry (no link to a missing entry, no circle:
``tournaments.roster.resolve_merges``), a kept name and club once, a roster
person linked to one entry per tournament and never a merged one (as
``player_attach_person``), each tournament as :func:`scoring.exchange.import_tournament`
checks it, and each series through the series form.
"""

from __future__ import annotations

import datetime as dt
import json

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.exchange.export import export_tournament
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.season.forms import SeriesForm
from scoring.season.models import Series
from scoring.season.services import series_save
from tournaments import limits, safejson
from tournaments.models import Player, Tournament
from tournaments.roster import resolve_merges
from tournaments.roster_models import Person

FORMAT = "turnierleiter.club"
VERSION = 1
MAX_ERRORS = 30
MAX_TEXT = 500


def export_club(owner) -> dict:
    people = list(Person.objects.filter(owner=owner).order_by("name", "club", "pk"))
    person_key = {p.pk: i for i, p in enumerate(people, 1)}
    tournaments = list(Tournament.objects.filter(owner=owner).order_by("created_at", "pk"))
    index = {t.pk: i for i, t in enumerate(tournaments)}
    docs = []
    for tournament in tournaments:
        doc = export_tournament(tournament)
        by_name = {
            (name, club): person_id
            for name, club, person_id in Player.objects.filter(tournament=tournament).values_list(
                "name", "club", "person_id"
            )
        }
        for player in doc["players"]:
            pid = by_name.get((player["name"], player["club"]))
            player["person"] = person_key.get(pid)
        docs.append(doc)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": dt.datetime.now(dt.UTC).isoformat(),
        "roster": [
            {
                "key": person_key[p.pk],
                "name": p.name,
                "club": p.club,
                "birth_year": p.birth_year,
                "notes": p.notes,
                "merged_into": person_key.get(p.merged_into_id),
            }
            for p in people
        ],
        "tournaments": docs,
        "series": [
            {
                "name": s.name,
                "game": s.game,
                "scheme": s.scheme,
                "table": s.table,
                "best": s.best,
                "minimum": s.minimum,
                "public": s.public,
                "tournaments": sorted(index[t] for t in s.tournaments.values_list("pk", flat=True)),
            }
            for s in Series.objects.filter(owner=owner).order_by("created_at", "pk")
        ],
    }


def export_json(owner) -> str:
    return json.dumps(export_club(owner), ensure_ascii=False, indent=1)


# -- import -------------------------------------------------------------------


class _Problems:
    def __init__(self):
        self.errors: list[str] = []

    def add(self, path: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(f"{path}: {message}" if path else message)


def _text(value, path, problems, *, required=False, limit=200) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        problems.add(path, _("expected text"))
        return ""
    if "\x00" in value:
        problems.add(path, _("contains a NUL character"))
        return ""
    if len(value) > limit:
        problems.add(path, _("longer than %(n)s characters") % {"n": limit})
        return ""
    if required and not value.strip():
        problems.add(path, _("must not be empty"))
    return value


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value, path, problems, *, lo=0, hi=10_000, allow_none=True):
    if value is None and allow_none:
        return None
    if not _is_int(value) or not lo <= value <= hi:
        problems.add(
            path, _("expected a whole number from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi}
        )
        return None
    return value


def _key(value, path, problems):
    """A reference to a roster entry: its key, or None."""
    if value is None:
        return None
    if not _is_int(value):
        problems.add(path, _("expected the key of a roster entry (a whole number) or null"))
        return None
    return value


def _bool(value, path, problems, default=False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        problems.add(path, _("expected true or false"))
        return default
    return value


def _list(doc, name, problems, path=None) -> list:
    value = doc.get(name, [])
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add(path or name, _("expected a list"))
        return []
    return value


def _load(data) -> dict:
    try:
        if isinstance(data, bytes | bytearray | str):
            # the tournaments nest two levels below the club document
            data = safejson.loads(data, max_depth=limits.MAX_JSON_DEPTH + 2)
        else:
            safejson.check(data, max_depth=limits.MAX_JSON_DEPTH + 2)
    except safejson.BadJSON as exc:
        raise ImportRefused([str(exc)]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([_("This is not a Turnierleiter club export.")])
    version = data.get("version")
    if not _is_int(version) or version != VERSION:
        shown = version if isinstance(version, int | str) else "?"
        raise ImportRefused(
            [
                _("Export format version %(v)s is not supported (this site reads %(ok)s).")
                % {"v": str(shown)[:20], "ok": VERSION}
            ]
        )
    return data


def _roster_entries(doc, problems) -> dict:
    """The roster entries of the file by key, each checked on its own."""
    entries = {}
    for i, d in enumerate(_list(doc, "roster", problems)):
        path = f"roster[{i}]"
        if not isinstance(d, dict):
            problems.add(path, _("expected an object"))
            continue
        key = _int(d.get("key"), f"{path}.key", problems, lo=1, hi=1_000_000, allow_none=False)
        if key is None:
            continue
        if key in entries:
            problems.add(f"{path}.key", _("used twice"))
            continue
        entries[key] = {
            "path": path,
            "name": _text(d.get("name"), f"{path}.name", problems, required=True).strip(),
            "club": _text(d.get("club"), f"{path}.club", problems).strip(),
            "birth_year": _int(
                d.get("birth_year"), f"{path}.birth_year", problems, lo=1900, hi=2100
            ),
            "notes": _text(d.get("notes"), f"{path}.notes", problems, limit=MAX_TEXT),
            "merged_into": _key(d.get("merged_into"), f"{path}.merged_into", problems),
        }
    return entries


def _check_merges(entries: dict, problems) -> None:
    """Every merge ends at a kept entry of the file: no link to a key the
    roster lacks, no entry merged into itself, no circle (which would leave
    nobody kept, and no page could say who the person is)."""
    links = {}
    for key, e in entries.items():
        target = e["merged_into"]
        where = f"{e['path']}.merged_into"
        if target is not None and target not in entries:
            problems.add(where, _("no roster entry has the key %(k)s") % {"k": target})
            target = None
        links[key] = target
    _kept, cycles = resolve_merges(links)
    for cycle in cycles:
        where = f"{entries[cycle[0]]['path']}.merged_into"
        if len(cycle) == 1:
            problems.add(where, _("an entry can't be merged into itself"))
        else:
            problems.add(
                where,
                _("the merges run in a circle (keys %(keys)s): one of them must be kept")
                % {"keys": " → ".join(str(k) for k in [*cycle, cycle[0]])},
            )
    kept_names = {}
    for key, e in entries.items():
        if e["merged_into"] is None and e["name"]:
            first = kept_names.setdefault((e["name"], e["club"]), key)
            if first != key:
                problems.add(
                    e["path"],
                    _(
                        "%(name)s is in the roster twice (keys %(a)s and %(b)s): merge one into the other"
                    )
                    % {"name": e["name"], "a": first, "b": key},
                )


def _merge_depth(entries: dict) -> dict:
    """How many merges lie between each entry and its kept one (no cycles)."""
    depth: dict = {}
    for key in entries:
        path, node = [], key
        while node not in depth and entries[node]["merged_into"] is not None:
            path.append(node)
            node = entries[node]["merged_into"]
        d = depth.setdefault(node, 0)
        for entry in reversed(path):
            d += 1
            depth[entry] = d
    return depth


def _roster(doc, owner, problems) -> tuple[dict, dict]:
    """The roster entries as Person rows (new or the owner's existing ones),
    and per key the key it was merged into (None: kept)."""
    entries = _roster_entries(doc, problems)
    if not problems.errors:
        _check_merges(entries, problems)
    if problems.errors:
        return {}, {}
    existing = {(p.name, p.club): p for p in Person.objects.filter(owner=owner, merged_into=None)}
    people = {}
    depth = _merge_depth(entries)
    # the kept ones first: a merged entry is stored pointing to its kept one
    for key in sorted(entries, key=lambda k: depth[k]):
        e = entries[key]
        target = e["merged_into"]
        if target is None and (e["name"], e["club"]) in existing:
            people[key] = existing[(e["name"], e["club"])]
            continue
        person = Person(
            owner=owner,
            name=e["name"],
            club=e["club"],
            birth_year=e["birth_year"],
            notes=e["notes"],
            merged_into=None if target is None else people[target],
        )
        person.save()
        people[key] = person
    return people, {key: e["merged_into"] for key, e in entries.items()}


def _person_links(t: dict, path: str, entries_merged: dict, problems) -> tuple[dict, list]:
    """The tournament document without the roster links, and the links
    ``(name, club, roster key)``: each checked as ``player_attach_person`` checks it."""
    players = t.get("players", [])
    if not isinstance(players, list):
        return t, []
    clean, links, linked = [], [], {}
    for j, p in enumerate(players):
        if isinstance(p, dict):
            p = dict(p)
            where = f"{path}.players[{j}].person"
            person = _key(p.pop("person", None), where, problems)
            if person is None:
                pass
            elif person not in entries_merged:
                problems.add(where, _("no roster entry has the key %(k)s") % {"k": person})
            elif entries_merged[person] is not None:
                problems.add(
                    where,
                    _("roster entry %(k)s was merged into entry %(kept)s: link that one")
                    % {"k": person, "kept": entries_merged[person]},
                )
            elif person in linked:
                problems.add(
                    where,
                    _("roster entry %(k)s is linked to players[%(j)s] of this tournament already")
                    % {"k": person, "j": linked[person]},
                )
            else:
                linked[person] = j
                name, club = p.get("name"), p.get("club") or ""
                if isinstance(name, str) and isinstance(club, str):
                    links.append((name, club, person))
        clean.append(p)
    return {**t, "players": clean}, links


def _tournaments(doc, owner, people, entries_merged, problems) -> list:
    out = []
    for i, t in enumerate(_list(doc, "tournaments", problems)):
        path = f"tournaments[{i}]"
        if not isinstance(t, dict):
            problems.add(path, _("expected an object"))
            out.append(None)
            continue
        t, links = _person_links(t, path, entries_merged, problems)
        if problems.errors:
            out.append(None)
            continue
        try:
            tournament = import_tournament(data=t, owner=owner)
        except ImportRefused as exc:
            for error in exc.errors:
                problems.add(path, error)
            out.append(None)
            continue
        by_name = {(p.name, p.club): p for p in tournament.players.all()}
        changed = []
        for name, club, person in links:
            player = by_name.get((name, club))
            if player is not None:
                player.person = people[person]
                changed.append(player)
        Player.objects.bulk_update(changed, ["person"])
        out.append(tournament)
    return out


def _series_form(d: dict, path: str, problems) -> SeriesForm | None:
    """The series' settings through the series form, each value of the type
    the file must give."""
    before = len(problems.errors)
    name = _text(d.get("name"), f"{path}.name", problems, required=True)
    values = {"name": name}
    for field in ("game", "scheme"):
        if not isinstance(d.get(field), str):
            problems.add(f"{path}.{field}", _("expected text"))
        values[field] = d.get(field)
    table = d.get("table")
    if table is None:
        table = []
    if not isinstance(table, list) or not all(_is_int(v) for v in table):
        problems.add(f"{path}.table", _("expected a list of whole numbers"))
        table = []
    values["best"] = _int(d.get("best"), f"{path}.best", problems, lo=1, hi=1000)
    values["minimum"] = _int(d.get("minimum", 0), f"{path}.minimum", problems, hi=1000) or 0
    values["public"] = _bool(d.get("public"), f"{path}.public", problems)
    if len(problems.errors) > before:
        return None
    form = SeriesForm(
        data={
            **{k: v for k, v in values.items() if v is not None and v is not False},
            "table_text": "-".join(str(v) for v in table),
        }
    )
    if not form.is_valid():
        for field, messages in form.errors.items():
            where = (
                path
                if field == "__all__"
                else f"{path}.{'table' if field == 'table_text' else field}"
            )
            for message in messages:
                problems.add(where, message)
        return None
    return form


def _series(doc, owner, tournaments, problems) -> int:
    count = 0
    for i, d in enumerate(_list(doc, "series", problems)):
        path = f"series[{i}]"
        if not isinstance(d, dict):
            problems.add(path, _("expected an object"))
            continue
        form = _series_form(d, path, problems)
        members = d.get("tournaments", [])
        if not isinstance(members, list) or not all(
            _is_int(k) and 0 <= k < len(tournaments) for k in members
        ):
            problems.add(f"{path}.tournaments", _("expected indexes into the tournaments"))
            continue
        if form is None:
            continue
        chosen = [tournaments[k] for k in members if tournaments[k] is not None]
        game = form.cleaned_data["game"]
        if any(t.game != game for t in chosen):
            problems.add(f"{path}.tournaments", _("a tournament of another game"))
            continue
        series = form.save(commit=False)
        series.owner = owner
        series_save(series=series)
        series.tournaments.set(chosen)
        count += 1
    return count


def import_club(*, data, owner) -> dict:
    """The club of an export, for ``owner``: all or nothing. Returns counts
    (``people``, ``known``, ``tournaments``, ``series``)."""
    doc = _load(data)
    problems = _Problems()
    try:
        with transaction.atomic():
            before = set(Person.objects.filter(owner=owner).values_list("pk", flat=True))
            people, merged = _roster(doc, owner, problems)
            tournaments = (
                _tournaments(doc, owner, people, merged, problems) if not problems.errors else []
            )
            series = _series(doc, owner, tournaments, problems) if not problems.errors else 0
            if problems.errors:
                raise ImportRefused(problems.errors)
    except IntegrityError:
        raise ImportRefused([_("The file contradicts itself.")]) from None
    known = sum(1 for p in people.values() if p.pk in before)
    return {
        "people": len(people) - known,
        "known": known,
        "tournaments": sum(1 for t in tournaments if t is not None),
        "series": series,
    }
