"""Mailing a registration's personal link: only where the site sends mail
(``REGISTRATION_MAIL``: an SMTP host is configured), after the registration's
commit, through the Celery worker; a mail that can't be queued or sent is
logged and never fails the registration (the link is on the page already)."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def send_link(*, email: str, url: str, tournament: str, language: str) -> None:
    """Send the mail now (the worker's task calls this)."""
    with translation.override(language):
        send_mail(
            _("Your registration: %(tournament)s") % {"tournament": tournament},
            _(
                "You are registered for %(tournament)s.\n\n"
                "Your personal link — to see, change or withdraw your registration "
                "and to check in on the day:\n%(url)s\n\n"
                "Keep this link to yourself."
            )
            % {"tournament": tournament, "url": url},
            None,
            [email],
        )


def send_to_worker(**kwargs) -> None:
    """Hand the mail to the worker (the task ``registrations.mail_link`` in
    ``tournaments/registrations/tasks.py``, named here so this module needs no import of it)."""
    current_app.send_task("registrations.mail_link", kwargs=kwargs, expires=3600)


def mail_link_later(*, email: str, url: str, tournament: str, language: str) -> None:
    """After the commit: queue the mail for the worker (or log why not)."""
    if not email or not getattr(settings, "REGISTRATION_MAIL", False):
        return

    def queue():
        try:
            send_to_worker(email=email, url=url, tournament=tournament, language=language)
        except Exception:  # the broker is away: the link is on the page anyway
            log.exception("registration mail not queued")

    transaction.on_commit(queue)
