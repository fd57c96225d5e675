"""The seat wing's model: a player's private link for one round.

It belongs to the ``play`` app; its table is ``tournaments_seatlink`` as
before (``db_table``). The
relations name their models by label, so this module imports no other model
module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SeatLink(models.Model):
    """A player's private link for one round, bound to that player and round
    for good (never to a table position, which a re-seat can change). The key
    is random and stored; re-issuing revokes the old key (who and when)."""

    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, related_name="seat_links"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="seat_links"
    )
    key = models.CharField(max_length=40, unique=True)
    issued_at = models.DateTimeField(auto_now_add=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        db_table = "tournaments_seatlink"  # its table from before it was an app
        ordering = ["issued_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"],
                condition=models.Q(revoked_at__isnull=True),
                name="seat_link_one_active",
            )
        ]

    def __str__(self):
        return f"{self.round}: {self.player}"
