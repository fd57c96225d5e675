"""Results, tournament points, tiebreakers, standings and printing."""
