"""The final stage, one wing: after the qualifying rounds the best players
meet at a final table, or at semi-final tables whose best go on to a final.

Pure (no Django): ``formats`` (the settings and their checks),
``qualification`` (who qualifies and why, ties by the tiebreaks),
``advancement`` (seating the stage's tables, who goes on from a semi-final)
and ``ordering`` (the final standings: "replace" or "add"). Django side:
``models`` (the settings, one row per tournament; a stage round is a
``Round`` with its ``stage`` set), ``selectors`` (the final page's data,
the qualification now against the one seated), ``services`` (save the
settings, seat the stage), ``messages`` (the reason codes worded), ``forms``,
``views`` and ``urls``; templates in ``templates/finals/``. The final order
is applied where the standings are computed for every consumer
(``scoring.standings.selectors.standings``).
"""
