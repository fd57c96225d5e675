"""The mirror app's models (their tables keep the names they had in the
``tournaments`` app: ``db_table``). Online side: :class:`PublishingKey`, :class:`MirroredTournament`.
Laptop side: :class:`MirrorLink`, :class:`MirrorPublication`. Relations name
their models by label, so this module imports no other model module."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PublishingKey(models.Model):
    """Online: a key an organizer gives their laptop. It allows exactly two
    things, on that organizer's own tournaments: publishing a tournament from
    the laptop and reading a tournament's entries. Only its SHA-256 is kept
    (the key is 32 random bytes, so a plain hash is enough); the first
    characters are kept to tell keys apart."""

    SCOPE = "publish registrations"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publishing_keys"
    )
    name = models.CharField(_("name"), max_length=80, blank=True, default="")
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    scope = models.CharField(max_length=40, default=SCOPE)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_publishingkey"  # its table from before it was an app
        ordering = ["-created_at", "pk"]

    def __str__(self):  # the prefix only: the key itself is not kept
        return f"{self.prefix}…"


class MirroredTournament(models.Model):
    """Online: a tournament that a laptop publishes here. It is identified by
    (owner, the laptop's id for it); its rows are rebuilt from the stored
    sections on every publication and the organizer can't edit it here."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    source = models.UUIDField()
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="mirrored_from"
    )
    version = models.BigIntegerField(default=0)
    #: the hashes of the snapshot's sections as last applied (their contents:
    #: :class:`MirrorSection`)
    hashes = models.JSONField(default=dict)
    applied_at = models.DateTimeField(null=True, blank=True)
    publications = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "tournaments_mirroredtournament"  # its table from before it was an app
        constraints = [
            models.UniqueConstraint(fields=["owner", "source"], name="mirrored_owner_source")
        ]

    def __str__(self):
        return f"{self.tournament_id} @ {self.version}"


class MirrorSection(models.Model):
    """Online: one section of a mirrored tournament's snapshot as last
    applied (``tournaments.mirror.snapshot``), so that a publication carries
    only the sections that changed."""

    mirror = models.ForeignKey(MirroredTournament, on_delete=models.CASCADE, related_name="stored")
    name = models.CharField(max_length=20)
    content = models.JSONField()

    class Meta:
        db_table = "tournaments_mirrorsection"  # its table from before it was an app
        constraints = [
            models.UniqueConstraint(fields=["mirror", "name"], name="mirror_section_unique")
        ]

    def __str__(self):
        return self.name


class MirrorLink(models.Model):
    """Laptop: the online site an organizer publishes to, with its key. The
    key is kept only here: no page, log or export shows it."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mirror_link"
    )
    site_url = models.URLField(_("online site"), max_length=300)
    key = models.CharField(max_length=100)
    connected_at = models.DateTimeField(null=True, blank=True)
    #: the online account the key belongs to (as the site answered)
    online_user = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        db_table = "tournaments_mirrorlink"  # its table from before it was an app

    def __str__(self):  # never the key
        return self.site_url

    def __repr__(self):
        return f"<MirrorLink {self.site_url}>"


class MirrorPublication(models.Model):
    """Laptop: one tournament published to the online site. ``version`` is
    bumped after every commit that changes what a visitor could see;
    ``published_version`` is the last one the site acknowledged, and
    ``acked_hashes`` the sections it holds (only others are sent)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="mirror_publication"
    )
    link = models.ForeignKey(MirrorLink, on_delete=models.CASCADE, related_name="publications")
    source = models.UUIDField(default=uuid.uuid4, editable=False)
    active = models.BooleanField(default=True)
    version = models.BigIntegerField(default=1)
    published_version = models.BigIntegerField(default=0)
    published_at = models.DateTimeField(null=True, blank=True)
    acked_hashes = models.JSONField(default=dict, blank=True)
    #: the online tournament's public address, as the site answered
    online_url = models.CharField(max_length=400, blank=True, default="")
    #: since when sending fails, why (in words) and when to try again
    offline_since = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    attempts = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(null=True, blank=True)
    #: the online tournament the registrations are fetched from, and each
    #: entry fetched: its key → [name, club] as it came
    entries_from = models.PositiveIntegerField(null=True, blank=True)
    fetched = models.JSONField(default=dict, blank=True)
    #: a publication the site accepted and is still applying: where to ask
    #: for its outcome, and the version it carries
    pending_url = models.CharField(max_length=400, blank=True, default="")
    pending_version = models.BigIntegerField(default=0)

    class Meta:
        db_table = "tournaments_mirrorpublication"  # its table from before it was an app

    def __str__(self):
        return f"{self.tournament_id} @ {self.version}"

    @property
    def waiting(self) -> int:
        return max(0, self.version - self.published_version)


class ReceivedPublication(models.Model):
    """Online: a publication as a laptop sent it, waiting for the worker
    (``tournaments.mirror.inbox``): the request only stores the body and
    answers "accepted"; a Celery task unpacks, checks and applies it and
    keeps the outcome here, which the laptop asks for. The body is dropped
    once it is applied or refused."""

    QUEUED, RUNNING, DONE = "queued", "running", "done"
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    body = models.BinaryField(default=b"")
    status = models.CharField(max_length=10, default=QUEUED)
    received_at = models.DateTimeField(auto_now_add=True)
    #: when a worker last took it (a lost worker's is handed out again)
    started_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    done_at = models.DateTimeField(null=True, blank=True)
    #: the outcome as the laptop reads it: an HTTP status and its JSON
    answer_status = models.PositiveSmallIntegerField(null=True, blank=True)
    answer = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "tournaments_receivedpublication"  # its table from before it was an app
        indexes = [models.Index(fields=["status", "received_at"], name="received_pub_status")]

    def __str__(self):
        return f"{self.pk} ({self.status})"


class PublisherConfirmation(models.Model):
    """Online: an organizer account confirmed to publish from a laptop (a
    publishing key needs one): by a link mailed to ``email`` or by the
    site admin's approval, as ``settings.ORGANIZER_CONFIRMATION`` says."""

    MAIL, ADMIN = "mail", "admin"
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="publisher_confirmation"
    )
    email = models.EmailField(_("mail address"), blank=True, default="")
    requested_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    via = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        db_table = "tournaments_publisherconfirmation"  # its table from before it was an app

    def __str__(self):
        return f"{self.user_id}: {'confirmed' if self.confirmed_at else 'waiting'}"
