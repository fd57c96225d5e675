"""Let a round's time pass at once: every stored time of the round, its clock
activations and its tables moves back, so the database clock is later by
that much — how the tests reach a deadline without waiting for it."""

from datetime import timedelta

from tournaments.models import Round
from tournaments.services.clock import db_now


def travel(rnd: Round, seconds: float) -> None:
    """Let ``seconds`` pass for this round."""
    d = timedelta(seconds=seconds)
    rnd.refresh_from_db()
    for a in rnd.activations.all():
        a.at -= d
        a.save(update_fields=["at"])
    for field in ("deadline", "time_called_at", "starts_at"):
        if getattr(rnd, field):
            setattr(rnd, field, getattr(rnd, field) - d)
    rnd.save()
    for t in rnd.tables.all():
        for field in ("deadline", "time_called_at"):
            if getattr(t, field):
                setattr(t, field, getattr(t, field) - d)
        t.save()


def past_deadline(rnd: Round) -> None:
    """Let the round's time pass until a second after its deadline."""
    rnd.refresh_from_db()
    travel(rnd, (rnd.deadline - db_now()).total_seconds() + 1)
