"""A club season: series of tournaments, season standings and ratings.

- ``standings`` (pure): season points per tournament by a scheme, best N of M,
  minimum tournaments, tiebreakers.
- ``ratings`` (pure): multiplayer ratings (openskill, Plackett–Luce) from the
  table results in play order.
- ``selectors``: reads — a series' standings, a person's season, ratings from
  the database.
- ``services``: writes — series and their tournaments.
"""
