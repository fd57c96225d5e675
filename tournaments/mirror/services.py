"""The mirror's writes on the laptop: pairing with the online site, switching
a tournament's publication on and off, fetching registrations. Pairing and
fetching are the organizer's explicit presses and ask the site while they
wait (with a short timeout); publishing never does (``publish``, Celery)."""

from __future__ import annotations

import httpx
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import csvfile
from tournaments import selectors as tournament_selectors
from tournaments.mirror import dirty, publish
from tournaments.mirror.models import MirrorLink, MirrorPublication
from tournaments.mirror.selectors import CONFIRMED, WAITLISTED, WITHDRAWN
from tournaments.services.errors import ServiceError

HELLO_PATH = "/mirror/api/hello/"


def _ask(link_url: str, key: str, path: str) -> dict:
    """GET a JSON answer from the online site, or a ServiceError in words."""
    try:
        with publish.client() as http:
            response = http.get(link_url + path, headers={"Authorization": f"Bearer {key}"})
    except httpx.HTTPError as exc:
        raise ServiceError(publish.words(exc)) from None
    if response.status_code in (401, 403):
        raise ServiceError(
            _("The online site does not accept this key (wrong, revoked or of another account).")
        )
    if response.status_code == 404:
        raise ServiceError(_("The online site has no such tournament of yours."))
    if response.status_code != 200:
        raise ServiceError(
            _("The online site answered with an error (%(status)s).")
            % {"status": response.status_code}
        )
    try:
        data = response.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise ServiceError(_("The online site's answer can't be read: is it Turnierleiter?"))
    return data


def link_save(*, user, site_url: str, key: str) -> tuple[MirrorLink, dict]:
    """Pair the laptop: the site's address and key are checked with the site
    itself and kept only when it accepts them. Returns the link and the
    site's answer (the account and its tournaments)."""
    try:
        url = publish.check_url(site_url)
    except publish.LinkRefused as exc:
        raise ServiceError(str(exc)) from None
    key = (key or "").strip()
    if not key:
        raise ServiceError(_("Enter the publishing key the online site showed you."))
    hello = _ask(url, key, HELLO_PATH)
    with transaction.atomic():
        link, _created = MirrorLink.objects.update_or_create(
            owner=user,
            defaults={
                "site_url": url,
                "key": key,
                "connected_at": timezone.now(),
                "online_user": str(hello.get("user", ""))[:150],
            },
        )
    return link, hello


def link_check(*, link: MirrorLink) -> dict:
    return _ask(link.site_url, link.key, HELLO_PATH)


def link_remove(*, user) -> None:
    MirrorLink.objects.filter(owner=user).delete()
    dirty.forget()


def publication_start(*, tournament, link: MirrorLink) -> MirrorPublication:
    """Publish ``tournament`` to the linked site from now on (it is sent at
    once, in the background)."""
    with transaction.atomic():
        pub, created = MirrorPublication.objects.get_or_create(
            tournament=tournament, defaults={"link": link}
        )
        if not created:
            pub.link, pub.active = link, True
            pub.next_try_at, pub.attempts = None, 0
            pub.save(update_fields=["link", "active", "next_try_at", "attempts"])
    dirty.forget()
    dirty.bump(tournament_ids=[tournament.pk])
    return pub


def publication_stop(*, tournament) -> None:
    MirrorPublication.objects.filter(tournament=tournament).update(active=False)
    dirty.forget()


def entries_fetch(*, tournament, link: MirrorLink, online_id: int) -> dict:
    """The online tournament's entries, against this tournament's players:
    the new ones (confirmed, then waitlisted) as a player list for the import
    preview, those already here, and the withdrawals of players who are
    here. Nobody is added twice: each entry's key is remembered with the
    name and club it came with, so an entry whose player is registered here
    — under that name or its present one — is never offered again, even
    after it was renamed online."""
    data = _ask(link.site_url, link.key, f"/mirror/api/tournaments/{int(online_id)}/entries/")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise ServiceError(_("The online site's answer can't be read: is it Turnierleiter?"))
    here = tournament_selectors.registered_names(tournament)
    with transaction.atomic():
        pub, _created = MirrorPublication.objects.select_for_update().get_or_create(
            tournament=tournament, defaults={"link": link, "active": False}
        )
        fetched = dict(pub.fetched or {})
        new, known, withdrawn = [], [], []
        for e in entries:
            if not isinstance(e, dict) or not isinstance(e.get("name"), str):
                continue
            key = str(e.get("key", ""))[:40]
            name, club = e["name"].strip(), str(e.get("club") or "").strip()
            came_as = tuple(fetched.get(key) or ())
            registered = (name, club) in here or came_as in here
            status = e.get("status")
            if status == WITHDRAWN:
                if registered:
                    withdrawn.append(e)
            elif status in (CONFIRMED, WAITLISTED):
                (known if registered else new).append(e)
                if key and not registered:
                    fetched[key] = [name, club]
        new.sort(key=lambda e: (e.get("status") != CONFIRMED, _position(e)))
        pub.fetched, pub.entries_from = fetched, online_id
        pub.save(update_fields=["fetched", "entries_from"])
    return {"new": new, "known": known, "withdrawn": withdrawn, "text": player_list(new)}


def _position(entry) -> int:
    value = entry.get("position")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def player_list(entries: list[dict]) -> str:
    """The entries as a player list the import reads (with its header),
    written by the product's one CSV writer."""
    columns = ["name", "club", "rating", "birth_year"]
    rows = [{k: e.get(k) for k in columns} for e in entries]
    text = csvfile.write_csv(
        rows, columns, language="en", titles=["name", "club", "rating", "birth year"]
    )
    return text.decode("utf-8-sig")
