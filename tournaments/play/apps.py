from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """A player's seat and the digital tables: seat links, moves, bots."""

    name = "tournaments.play"
    label = "play"
    verbose_name = _("Digital tables")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments import providers, signals
        from tournaments.play import links, poll_cache

        poll_cache.connect()
        providers.provide(seat_keys=links.seat_keys)
        signals.player_dropped.connect(_forget_seats, dispatch_uid="play-dropped")
        signals.round_started.connect(_deal, dispatch_uid="play-deal")
        signals.table_time_called.connect(_call_time, dispatch_uid="play-time")
        signals.clock_sweeping.connect(_finish_due_tables, dispatch_uid="play-finish")


def _deal(sender, round, **kwargs):  # noqa: A002
    """The round started: its digital tables deal their game."""
    from tournaments.play import tables

    tables.tables_deal(round=round)


def _call_time(sender, table, **kwargs):
    """Time was called at a digital table: its engine calls time."""
    from tournaments.play import tables

    if table.digital:
        tables.table_call_time(table=table)


def _finish_due_tables(sender, now, **kwargs) -> int:
    """The clock's sweep: digital tables whose grace period is over are
    finished, each on its own (one that fails is marked on its round)."""
    from tournaments.play import tables
    from tournaments.services import clock

    try:
        due = list(tables.tables_to_finish(now))
    except Exception:
        clock.log.exception("clock: finding tables to finish failed")
        return 0
    finished = 0
    for table_id in due:
        round_id = clock.round_of_table(table_id)
        finished += bool(
            clock.guarded(round_id, clock.FINISH_FAILED, tables.table_finish, table_id=table_id)
        )
    return finished


def _forget_seats(sender, player, **kwargs):
    """A dropped player's links answer "you have left" at their next poll."""
    from tournaments.play import poll_cache
    from tournaments.play.models import SeatLink

    poll_cache.forget_seats(SeatLink.objects.filter(player=player).values_list("key", flat=True))
