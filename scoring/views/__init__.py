"""Scoring pages: result entry (``entry``), standings, exports and printing."""
