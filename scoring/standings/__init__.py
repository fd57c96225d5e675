"""The standings (the app ``scoring.standings``, label ``standings``): the
pure computation (``compute``: points, tiebreaks, places), the standings
selectors, the listings every page, print and export takes (``listings``),
and the pages (``views/``: the standings, a player's history, a round's
results, the projector)."""
