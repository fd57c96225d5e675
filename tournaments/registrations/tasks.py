"""The registrations' Celery task: a player's personal link by mail."""

from __future__ import annotations

from celery import shared_task

from tournaments.registrations import mail


@shared_task(name="registrations.mail_link", ignore_result=True)
def registration_mail(*, email: str, url: str, tournament: str, language: str) -> None:
    """A player's personal link by mail; a failed send is logged, not retried."""
    try:
        mail.send_link(email=email, url=url, tournament=tournament, language=language)
    except Exception:
        mail.log.exception("registration mail not sent")
