"""An outsider's attempt to compute the cards of digital tables.

The outsider has the open-source ``games/`` and what any visitor sees: the
tournament's id (in every public URL), the round and table numbers (the public
round page) and, at worst, the organizer's seating seed (organizers reuse
their favourite number, and the seating page shows it). From these the
attacker tries every way the server ever turned public facts into a deal seed
(re-implemented here from the published source, not imported from it, so the
server can't "fix" the attack by changing what it imports) and deals the game
with each candidate: a table counts as reproduced when one candidate gives
the table's dealt hands *and* draw pile exactly.

``reproduced(tables)`` counts them; the attack reproduced 10 of 10 before tables
got a deal secret, and expects 0 of 10 after.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from games import get_engine


def _public_hash(*parts) -> int:
    """The 60-bit hash the server used for seeds (``derive_seed``)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()
    return int(digest[:15], 16)


@dataclass(frozen=True)
class PublicFacts:
    """What a visitor knows about one digital table."""

    game: str
    tournament_id: int
    round_number: int
    table_number: int
    organizer_seeds: tuple[int, ...] = ()


def candidate_seeds(facts: PublicFacts) -> list[int]:
    """Every engine seed computable from ``facts``: the default round seed
    (tournament id and round number) or an organizer's seed, each mixed with
    the table number as the server did; the bare numbers too, in case a seed
    is used as it is."""
    round_seeds = [_public_hash("round", facts.tournament_id, facts.round_number)]
    round_seeds += list(facts.organizer_seeds)
    out = []
    for r in round_seeds:
        out += [_public_hash(r, facts.table_number), r]
    out += [facts.table_number, facts.tournament_id, facts.round_number]
    return out


def _deal_of(engine, state: dict) -> dict:
    """Every card location of a state: each hand and the draw pile, in order."""
    return engine.zones(state)


def reproduces(facts: PublicFacts, dealt: dict) -> bool:
    """Whether one candidate seed deals exactly ``dealt`` (the table's state
    before its first move): the same hands and the same draw-pile order."""
    engine = get_engine(facts.game)
    target = _deal_of(engine, dealt)
    for seed in candidate_seeds(facts):
        guess = engine.new_game(dealt["players"], seed, dealt.get("options") or {})
        if _deal_of(engine, guess) == target:
            return True
    return False


def reproduced(tables: list[tuple[PublicFacts, dict]]) -> int:
    """How many of ``tables`` (public facts, dealt state) an outsider computes."""
    return sum(1 for facts, dealt in tables if reproduces(facts, dealt))
