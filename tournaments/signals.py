"""What the core tells the apps above it, so it never imports them: each
signal is sent synchronously, inside the sender's transaction, and the apps
connect to it in their ``AppConfig.ready`` (tournaments.play deals its
digital tables when a round starts, calls time at them, finishes them after
the grace period, forgets a dropped player's seat links).

- ``player_dropped(player)``: a player left the tournament.
- ``round_started(round)``: a round's clock started (its seating published).
- ``table_time_called(table)``: time was called at a table that has no result
  yet (its ``time_called_at`` is set); a paper table already waits for its
  sheet.
- ``clock_sweeping(now)``: the clock's sweep, every second; a receiver does
  its own due work, each piece guarded (``services.clock.guarded``), and
  returns how many tables it finished.
- ``tournament_deleting(tournament)``: the tournament is about to be deleted
  with everything in it (inside the delete's transaction); a receiver clears
  what would protect its rows from the cascade (scoring: the corrections'
  links to the versions they replace).
"""

from django.dispatch import Signal

player_dropped = Signal()
round_started = Signal()
table_time_called = Signal()
clock_sweeping = Signal()
tournament_deleting = Signal()
