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
"""

from __future__ import annotations

import datetime as dt
import json

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import ENGINES
from scoring import exchange
from scoring.exchange import ImportRefused
from scoring.models import Series
from scoring.season.standings import SCHEMES, SeasonError, check_settings
from tournaments.models import Person, Player, Tournament

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
        doc = exchange.export_tournament(tournament)
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
            self.errors.append(f"{path}: {message}")


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


def _int(value, path, problems, *, lo=0, hi=10_000, allow_none=True):
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        problems.add(
            path, _("expected a whole number from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi}
        )
        return None
    return value


def _list(doc, name, problems) -> list:
    value = doc.get(name, [])
    if not isinstance(value, list):
        problems.add(name, _("expected a list"))
        return []
    return value


def _load(data) -> dict:
    if isinstance(data, bytes | bytearray):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused([_("The file is not UTF-8 text.")]) from None
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, RecursionError):
            raise ImportRefused([_("The file is not valid JSON.")]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([_("This is not a Turnierleiter club export.")])
    if data.get("version") != VERSION:
        raise ImportRefused(
            [
                _("Export format version %(v)s is not supported (this site reads %(ok)s).")
                % {"v": data.get("version"), "ok": VERSION}
            ]
        )
    return data


def _roster(doc, owner, problems) -> dict:
    """The roster entries as Person rows (new or the owner's existing ones)."""
    entries = {}
    for i, d in enumerate(_list(doc, "roster", problems)):
        path = f"roster[{i}]"
        if not isinstance(d, dict):
            problems.add(path, _("expected an object"))
            continue
        key = _int(d.get("key"), f"{path}.key", problems, lo=1, hi=1_000_000, allow_none=False)
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
            "merged_into": d.get("merged_into"),
        }
    for key, e in entries.items():
        target = e["merged_into"]
        if target is not None and (target not in entries or target == key):
            problems.add(f"{e['path']}.merged_into", _("not a key of the roster"))
            e["merged_into"] = None
    if problems.errors:
        return {}
    existing = {(p.name, p.club): p for p in Person.objects.filter(owner=owner, merged_into=None)}
    people = {}
    for key, e in entries.items():
        known = existing.get((e["name"], e["club"])) if e["merged_into"] is None else None
        if known is not None:
            people[key] = known
            continue
        person = Person(
            owner=owner,
            name=e["name"],
            club=e["club"],
            birth_year=e["birth_year"],
            notes=e["notes"],
        )
        person.save()
        people[key] = person
        if e["merged_into"] is None:
            existing[(person.name, person.club)] = person
    for key, e in entries.items():
        if e["merged_into"] is not None:
            people[key].merged_into = people[e["merged_into"]]
            people[key].save(update_fields=["merged_into"])
    return people


def _tournaments(doc, owner, people, problems) -> list:
    out = []
    for i, t in enumerate(_list(doc, "tournaments", problems)):
        path = f"tournaments[{i}]"
        if not isinstance(t, dict):
            problems.add(path, _("expected an object"))
            out.append(None)
            continue
        players = t.get("players", [])
        links = []
        if isinstance(players, list):
            clean = []
            for j, p in enumerate(players):
                if isinstance(p, dict):
                    p = dict(p)
                    person = p.pop("person", None)
                    if person is not None:
                        if person not in people:
                            problems.add(
                                f"{path}.players[{j}].person", _("not a key of the roster")
                            )
                        else:
                            links.append((p.get("name"), p.get("club") or "", person))
                clean.append(p)
            t = {**t, "players": clean}
        try:
            tournament = exchange.import_tournament(data=t, owner=owner)
        except ImportRefused as exc:
            for error in exc.errors:
                problems.add(path, error)
            out.append(None)
            continue
        by_name = {(p.name, p.club): p for p in tournament.players.all()}
        for name, club, person in links:
            player = by_name.get((name, club))
            if player is not None:
                player.person = people[person]
                player.save(update_fields=["person"])
        out.append(tournament)
    return out


def _series(doc, owner, tournaments, problems) -> int:
    count = 0
    for i, d in enumerate(_list(doc, "series", problems)):
        path = f"series[{i}]"
        if not isinstance(d, dict):
            problems.add(path, _("expected an object"))
            continue
        name = _text(d.get("name"), f"{path}.name", problems, required=True)
        game = d.get("game")
        if game not in ENGINES:
            problems.add(f"{path}.game", _("not one of the games"))
            continue
        scheme = d.get("scheme", "placement")
        table = d.get("table") or []
        best = _int(d.get("best"), f"{path}.best", problems, lo=1, hi=1000)
        minimum = _int(d.get("minimum", 0), f"{path}.minimum", problems, hi=1000, allow_none=False)
        if scheme not in SCHEMES or not isinstance(table, list):
            problems.add(f"{path}.scheme", _("not one of the season point schemes"))
            continue
        try:
            check_settings(scheme, table or None, best, minimum or 0)
        except SeasonError:
            problems.add(path, _("the season settings are not valid"))
            continue
        members = d.get("tournaments", [])
        if not isinstance(members, list) or not all(
            isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(tournaments)
            for k in members
        ):
            problems.add(f"{path}.tournaments", _("expected indexes into the tournaments"))
            continue
        chosen = [tournaments[k] for k in members if tournaments[k] is not None]
        if any(t.game != game for t in chosen):
            problems.add(f"{path}.tournaments", _("a tournament of another game"))
            continue
        series = Series.objects.create(
            owner=owner,
            name=name,
            game=game,
            scheme=scheme,
            table=table,
            best=best,
            minimum=minimum or 0,
            public=bool(d.get("public", False)),
        )
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
            people = _roster(doc, owner, problems)
            tournaments = _tournaments(doc, owner, people, problems) if not problems.errors else []
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
