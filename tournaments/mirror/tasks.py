"""The mirror's Celery tasks (laptop): thin calls into ``publish``. A send
after each commit that changed something public, and the beat's sweep every
2 s that sends what is waiting (after a failure: with backoff) and, every
15 s, compares the public snapshot with what the site holds, for a change no
signal announced."""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache

from tournaments.mirror import dirty, inbox, keys, publish, snapshot
from tournaments.mirror.models import MirrorPublication

CHECK_EVERY = 15.0


@shared_task(name="mirror.publish", ignore_result=True)
def publish_one(publication_id: int) -> str:
    return publish.send(publication_id)


@shared_task(name="mirror.apply", ignore_result=True)
def apply_publication(received_id: int):
    """Online: one received publication unpacked, checked and applied."""
    return inbox.process(received_id)


@shared_task(name="mirror.confirm_mail", ignore_result=True)
def confirm_mail(email: str, url: str, language: str):
    """Online: an organizer's confirmation link mailed."""
    keys.send_confirmation(email=email, url=url, language=language)


@shared_task(name="mirror.sweep", ignore_result=True)
def sweep() -> dict:
    inbox.sweep()  # online: what a lost worker left
    sent = {pk: publish.send(pk) for pk in publish.due()}
    if cache.add("mirror-check", time.time(), CHECK_EVERY):
        for pub in MirrorPublication.objects.filter(active=True).select_related("tournament"):
            if pub.version > pub.published_version:
                continue  # a send is due anyway
            held = pub.acked_hashes or {}
            if snapshot.hashes(publish.build(pub.tournament)) != held:
                dirty.bump(tournament_ids=[pub.tournament_id])
    return sent
