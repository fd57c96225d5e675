"""Laptop: a tournament's public snapshot built and sent to the online site.
Runs in Celery only (``tournaments.tasks``), never in a request.

The site answers a publication "accepted" (202) and applies it in its own
worker; the laptop asks for the outcome a few times within the send, and
after that at each sweep (``pending_url``), before it sends anything newer.

One send at a time per tournament (a lock in the shared cache), so versions
arrive in order. Only the sections whose hash the site does not hold yet are
sent (the first publication: all). A failure is recorded in words with since
when the site is unreachable; the beat's sweep tries again with a backoff of
2, 4, 8 and then every 10 seconds. After a send that took
longer than half a second (a large tournament's snapshot), the next waits
twice that long: what changed meanwhile goes in one publication.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import OrderedDict
from urllib.parse import urlsplit

import httpx
from django.core.cache import cache
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.exchange.export import export_tournament
from tournaments.mirror import selectors, snapshot
from tournaments.mirror.models import MirrorPublication
from tournaments.mirror.receive import pack

log = logging.getLogger(__name__)

#: a whole large tournament rebuilt online may take a while on a busy site
TIMEOUT = httpx.Timeout(60.0, connect=5.0)
MAX_BACKOFF = 10
#: a send that took longer (seconds) makes the next one wait twice as long
PAUSE_FROM = 0.5
LOCK_SECONDS = 120
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
PUBLISH_PATH = "/mirror/api/publish/"


class LinkRefused(ValueError):
    """The site's address can't be used; ``str(exc)`` says why."""


def check_url(url: str) -> str:
    """The site's address, cleaned: HTTPS, or plain HTTP to this machine."""
    url = (url or "").strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LinkRefused(_("Enter the online site's address, e.g. https://turnier.example.org."))
    if parts.scheme == "http" and parts.hostname not in LOCAL_HOSTS:
        raise LinkRefused(
            _(
                "The online site must be reached over HTTPS (https://…): over plain HTTP "
                "the key and everything published could be read on the way."
            )
        )
    if parts.query or parts.fragment or parts.username:
        raise LinkRefused(_("Enter only the site's address, without anything after it."))
    return url


def client() -> httpx.Client:
    return httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False)


#: per tournament (the most recently built first out): each completed round's
#: content version and its two sections with their hashes
_ROUNDS: OrderedDict[int, dict[int, tuple]] = OrderedDict()
CACHED_TOURNAMENTS = 8


def build(tournament) -> dict[str, object]:
    """The tournament's public sections (``snapshot``), with the public season
    tables of its series."""
    return build_hashed(tournament)[0]


def build_hashed(tournament) -> tuple[dict[str, object], dict[str, str]]:
    """The tournament's public sections and their hashes. A completed round
    whose content version is the one built before is not read again: its
    sections and hashes are the ones kept (in this process, for the last few
    tournaments), so a publication reads the players, the rounds under way
    and the counts of the completed ones, whatever the number of rounds."""
    versions = selectors.completed_round_versions(tournament)
    kept = _ROUNDS.pop(tournament.pk, {})
    reuse = {n for n, v in versions.items() if n in kept and kept[n][0] == v}
    doc = export_tournament(tournament, without_rounds=reuse, keys_by_id=True)
    sections = snapshot.public_sections(doc, seasons=selectors.tournament_seasons(tournament))
    hashes = {name: snapshot.digest(content) for name, content in sections.items()}
    public = bool(doc["tournament"].get("public"))
    fresh = {}
    for n, version in versions.items():
        names = (f"round:{n}", f"clock:{n}")
        if n in reuse:
            fresh[n] = kept[n]
        elif public and names[0] in sections:
            fresh[n] = (version, [(x, sections[x], hashes[x]) for x in names])
        else:
            continue
        if public:
            for name, content, digest in fresh[n][1]:
                sections[name], hashes[name] = content, digest
    _ROUNDS[tournament.pk] = fresh
    while len(_ROUNDS) > CACHED_TOURNAMENTS:
        _ROUNDS.popitem(last=False)
    return sections, hashes


def words(exc: Exception) -> str:
    """A failure in words for the organizer."""
    if isinstance(exc, httpx.ConnectTimeout | httpx.ConnectError):
        return _("The online site can't be reached (no internet, or the site is down).")
    if isinstance(exc, httpx.TimeoutException):
        return _("The online site did not answer in time.")
    if isinstance(exc, httpx.HTTPError):
        return _("The connection to the online site failed.")
    return str(exc)


def _refusal(response: httpx.Response) -> str:
    try:
        said = response.json().get("error", "")
    except ValueError:
        said = ""
    if response.status_code in (401, 403):
        return _("The online site refused the key: pair the laptop again.")
    if response.status_code == 429:
        return _("The online site asks to slow down; trying again shortly.")
    return _("The online site refused the publication (%(status)s): %(why)s") % {
        "status": response.status_code,
        "why": str(said)[:300] or response.reason_phrase,
    }


def send(publication_id: int) -> str:
    """Publish what is waiting for one tournament. Returns what happened
    ("sent", "nothing", "busy", "failed", "later", "waiting": the site
    accepted a publication and is still applying it)."""
    lock = f"mirror-send-{publication_id}"
    if not cache.add(lock, 1, LOCK_SECONDS):
        return "busy"
    try:
        pub = (
            MirrorPublication.objects.select_related("link", "tournament")
            .filter(pk=publication_id, active=True)
            .first()
        )
        if pub is None:
            return "nothing"
        with client() as http:
            if pub.pending_url:  # the outcome of the one sent before, first
                outcome = _poll(http, pub, started=None)
                if outcome == "waiting":
                    return outcome
                pub.refresh_from_db()
                if outcome != "resend" and pub.version <= pub.published_version:
                    return outcome
            if pub.version <= pub.published_version:
                return "nothing"
            if pub.next_try_at is not None and pub.next_try_at > timezone.now():
                return "later"  # backoff after a failure, or the pause after a long build
            for _attempt in range(2):  # a second time when the site lacked sections
                outcome = _send_once(http, pub)
                if outcome != "resend":
                    return outcome
                pub.refresh_from_db()
        return "failed"
    finally:
        cache.delete(lock)


#: after the site accepted a publication: how long to wait before each ask
#: for its outcome within the same send (seconds); later the sweep asks
POLL_WAITS = (0.05, 0.1, 0.2, 0.4, 0.6, 0.8)


def _send_once(http: httpx.Client, pub: MirrorPublication) -> str:
    started = time.monotonic()
    version = pub.version
    sections, hashes = build_hashed(pub.tournament)
    acked = pub.acked_hashes or {}
    body = pack(
        {
            "format": "turnierleiter.mirror",
            "source": str(pub.source),
            "version": version,
            "hashes": hashes,
            "sections": {n: c for n, c in sections.items() if acked.get(n) != hashes[n]},
        }
    )
    try:
        response = http.post(
            pub.link.site_url + PUBLISH_PATH,
            content=body,
            headers={
                "Authorization": f"Bearer {pub.link.key}",
                "Content-Type": "application/gzip",
            },
        )
    except httpx.HTTPError as exc:
        _failed(pub, words(exc))
        return "failed"
    if response.status_code == 202:  # accepted: the site's worker applies it
        poll = _json(response).get("poll")
        if not isinstance(poll, str) or not poll.startswith("/"):
            _failed(pub, _refusal(response))
            return "failed"
        MirrorPublication.objects.filter(pk=pub.pk).update(
            pending_url=pub.link.site_url + poll[:300], pending_version=version
        )
        pub.pending_url, pub.pending_version = pub.link.site_url + poll[:300], version
        return _poll(http, pub, started=started, waits=POLL_WAITS)
    return _outcome(pub, response, version, started)


def _poll(http: httpx.Client, pub: MirrorPublication, *, started, waits=(0,)) -> str:
    """Ask the site for the outcome of the publication it accepted (after
    each of ``waits`` seconds); "waiting" while it is still applying it. A
    connection that fails keeps the question for the next try."""
    for wait in waits:
        time.sleep(wait)
        try:
            response = http.get(
                pub.pending_url, headers={"Authorization": f"Bearer {pub.link.key}"}
            )
        except httpx.HTTPError as exc:
            _failed(pub, words(exc))
            return "failed"
        if response.status_code != 202:
            break
    else:
        return "waiting"
    version = pub.pending_version
    MirrorPublication.objects.filter(pk=pub.pk).update(pending_url="", pending_version=0)
    if response.status_code == 404:  # the site no longer has it: send again
        return "resend"
    return _outcome(pub, response, version, started)


def _outcome(pub: MirrorPublication, response: httpx.Response, version: int, started) -> str:
    """What the site answered to a publication of ``version``."""
    if response.status_code == 409:
        answer = _json(response)
        held = answer.get("hashes") if isinstance(answer.get("hashes"), dict) else {}
        MirrorPublication.objects.filter(pk=pub.pk).update(acked_hashes=held)
        return "resend"
    if response.status_code != 200:
        _failed(pub, _refusal(response))
        return "failed"
    answer = _json(response)
    held = answer.get("hashes") if isinstance(answer.get("hashes"), dict) else {}
    online = answer.get("tournament")
    # a large tournament's snapshot takes a while to build and apply: the
    # next send waits twice as long, so publishing takes at most a third of
    # a core
    took = time.monotonic() - started if started is not None else 0
    pause = dt.timedelta(seconds=2 * took) if took > PAUSE_FROM else None
    url = f"{pub.link.site_url}/t/{online}/" if isinstance(online, int) else ""
    _done(pub, version, held, url, pause)
    return "sent"


def _done(pub: MirrorPublication, version: int, held: dict, url: str, pause) -> None:
    # an acknowledgement of a version older than one acknowledged since
    # changes nothing
    MirrorPublication.objects.filter(pk=pub.pk, published_version__lte=version).update(
        published_version=version,
        published_at=timezone.now(),
        acked_hashes=held,
        last_error="",
        offline_since=None,
        attempts=0,
        next_try_at=timezone.now() + pause if pause else None,
        online_url=url,
    )


def _json(response: httpx.Response) -> dict:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _failed(pub: MirrorPublication, why: str) -> None:
    attempts = pub.attempts + 1
    wait = min(MAX_BACKOFF, 2**attempts)
    now = timezone.now()
    MirrorPublication.objects.filter(pk=pub.pk).update(
        last_error=why[:1000],
        attempts=attempts,
        next_try_at=now + dt.timedelta(seconds=wait),
    )
    MirrorPublication.objects.filter(pk=pub.pk, offline_since=None).update(offline_since=now)
    log.info("publishing tournament %s failed: %s", pub.tournament_id, why)


def due() -> list[int]:
    """The publications with changes waiting whose next try is due."""
    now = timezone.now()
    return list(
        MirrorPublication.objects.filter(active=True)
        .filter(
            Q(version__gt=F("published_version"), next_try_at=None)
            | Q(version__gt=F("published_version"), next_try_at__lte=now)
            | ~Q(pending_url="")  # an outcome to ask for
        )
        .values_list("pk", flat=True)
    )
