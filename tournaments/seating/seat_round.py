"""``seat(request) -> answer``: seat one round (the entry point).

It parses the request, decides the table sizes and who gets the byes
and the small tables (:mod:`~tournaments.seating.sizes`), hands the players to
the matching of 2-player tables (:mod:`~tournaments.seating.pairs`), the
groups of 3–6 (:mod:`~tournaments.seating.groups`) or the mixing plan
(:mod:`~tournaments.seating.mixing`), numbers the tables by standings, and
records each table's reasons (:mod:`~tournaments.seating.reasons`) as it
decides.

Answer: ``tables`` (lists of ids in seat order; table 1 first, holding the
top of the standings), ``reasons`` (per table, a list of ``{"code",
"params"}``), ``byes`` (ids), ``bye_reasons``, ``bot_table`` and ``stats``.
``bot_table`` is None, or (request ``bots``) the table of the players left
over: ``{"players": ids in seat order, "seats": its seats, "reasons": [...]}``;
the bot plays its ``seats - len(players)`` empty seats. It is not among
``tables`` (the web side adds it as the last table). In ``stats``,
``bot_seats`` counts those empty seats (0 without a bot table), ``tables``
the tables without the bot table, and
``mixed_pairs`` counts score-group crossings: a pair whose scores lie k score
groups apart counts k times (``unequal_pairs`` counts each pair with different
scores once); ``mixed_pairs_lower_bound`` (2-player tables) is the number of
cuts between score groups with an odd number of players above them.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

from tournaments.seating import reasons
from tournaments.seating.bounds import _chunking, _mixed_pairs_lb, _range_lb, _repeat_range_lb
from tournaments.seating.errors import SeatingError
from tournaments.seating.groups import seat_groups
from tournaments.seating.mixing import mixing_round
from tournaments.seating.order import seat_order
from tournaments.seating.pairs import _seat_pairs
from tournaments.seating.rating import rating_order, seat_by_rating
from tournaments.seating.request import RATING_MODES, SeatingRequest, parse
from tournaments.seating.sizes import (
    big_sizes,
    closed_under_teams,
    plan_bot_table,
    plan_sizes,
    rule_pick,
    small_sizes,
)


def conflicts(req: SeatingRequest, tables) -> Counter:
    """Broken constraints of a seating: ``repeats`` (pairs who met before),
    ``apart`` (mates kept apart at one table), ``teams`` (partners split)."""
    out = Counter()
    table_of = {p: x for x, t in enumerate(tables) for p in t}
    for t in tables:
        for a, b in itertools.combinations(t, 2):
            out["repeats"] += bool(req.times_met(a, b))
            out["apart"] += req.mates(a, b) is not None
    if req.teams == "together":
        where = {}
        for p, x in table_of.items():
            if req.team[p] is not None:
                where.setdefault(req.team[p], set()).add(x)
        out["teams"] = sum(len(xs) > 1 for xs in where.values())
    return +out


def _check_teams(req):
    if req.teams != "together":
        return
    for t, c in Counter(x for x in req.team if x is not None).items():
        if c > max(req.allowed):
            raise SeatingError(
                "team_too_large",
                f"team {t!r} has {c} players, more than the largest table ({max(req.allowed)})",
                team=t,
                players=c,
                largest=max(req.allowed),
            )


def _groups(req, order, sizes, rng):
    """Seat ``order`` (player numbers) at tables of ``sizes``; player numbers out."""
    if not order:
        return [], None
    ctx, tables = seat_groups(req, order, sizes, rng, req.mode)
    return [[order[x] for x in t] for t in tables], ctx


def _seat_with_small_tables(req, seated, sizes, rng):
    """Tables of 3–6 with small tables: the rule's pick sits at the small
    tables, everybody else at the others, unless the constraints force another
    choice. Returns (tables, rule's pick, constraints that forced it aside)."""
    small = small_sizes(sizes, req.size)
    pick = rule_pick(req, seated, sum(small), req.small_had)
    chosen = set(pick)
    split, broken = None, None
    if closed_under_teams(req, chosen, seated):
        big_part, _ctx = _groups(
            req, [p for p in seated if p not in chosen], big_sizes(sizes, req.size), rng
        )
        small_part, _ctx = _groups(req, pick, small, rng)
        split = big_part + small_part
        broken = conflicts(req, split)
        if not broken:
            return split, chosen, ()
    # the whole field, the pick at the bottom (where small tables go by standings)
    order = [p for p in seated if p not in chosen] + pick
    whole, _ctx = _groups(req, order, sizes, rng)
    if split is not None:
        now = conflicts(req, whole)
        if sum(now.values()) >= sum(broken.values()):
            return split, chosen, ()
        forced = tuple(k for k in ("repeats", "apart", "teams") if now[k] < broken[k])
    else:
        forced = ("teams",)
    return whole, chosen, forced


def _planned(req, sizes, seated, bye_players):
    """Mixing mode's planned tables for the ``seated`` players (all but the
    bot table's; a round with byes is not planned), or None."""
    if req.mode != "mixing" or not req.rounds or bye_players:
        return None
    n = len(seated)
    if not n or n % req.size or sizes != [req.size] * (n // req.size):
        return None
    inside = sorted(seated)
    here = set(seated)
    met_ids = [
        [req.ids[a], req.ids[b]]
        for a in inside
        for b, c in req.met[a].items()
        if a < b and b in here
        for _ in range(c)
    ]
    ids = [req.ids[p] for p in inside]
    return mixing_round(ids, req.size, req.rounds, req.round or 1, met_ids, req.seed)


def _pair_counts(req, seated, tables) -> tuple[Counter, float]:
    """(per-pair counts over the tables, the sum of the tables' score ranges)."""
    score = req.score
    levels = {s: k for k, s in enumerate(sorted({score[p] for p in seated}, reverse=True))}
    stats = Counter()
    ranges = 0.0
    for t in tables:
        s = [score[p] for p in t]
        ranges += max(s) - min(s)
        stats["mixed_tables"] += max(s) != min(s)
        for a, b in itertools.combinations(t, 2):
            stats["repeat_pairs"] += bool(req.times_met(a, b))
            stats["unequal_pairs"] += score[a] != score[b]
            stats["mixed_pairs"] += abs(levels[score[a]] - levels[score[b]])
            stats["apart"] += req.mates(a, b) is not None
    return stats, ranges


def _fair_bound(req, seated, sizes):
    """Swiss with small tables: the range bound when the small tables go by
    the rule (fewest, then lowest), or None."""
    small = small_sizes(sizes, req.size)
    if not small or req.mode != "swiss":
        return None
    pick = set(rule_pick(req, seated, sum(small), req.small_had))
    top = tuple(req.score[p] for p in seated if p not in pick)
    low = tuple(req.score[p] for p in seated if p in pick)
    parts = (_range_lb(top, tuple(big_sizes(sizes, req.size))), _range_lb(low, tuple(small)))
    return None if None in parts else sum(parts)


def _repeat_bound(req, seated, sizes, ctx) -> float:
    """For repeat-free seatings: the cuts of the standings that repeats force
    tables across."""
    if ctx is not None and ctx.repeat_lb is not None:
        return ctx.repeat_lb
    pos = {p: x for x, p in enumerate(seated)}
    met = [{pos[q]: c for q, c in req.met[p].items() if q in pos} for p in seated]
    return _repeat_range_lb([req.score[p] for p in seated], met, sizes[0])


def _stats(req, seated, tables, sizes, n_byes, planned, ctx, pair_only, bot_seats=0):
    stats, ranges = _pair_counts(req, seated, tables)
    scores_desc = sorted((req.score[p] for p in seated), reverse=True)
    out = {
        "tables": len(tables),
        "byes": n_byes,
        "repeat_pairs": stats["repeat_pairs"],
        "score_range_sum": ranges,
        # chunking the sorted standings with the planned sizes (small tables at the bottom)
        "score_range_chunking": _chunking(scores_desc, sizes),
        # exact bound: the best consecutive chunking with the sizes in any order
        "score_range_lower_bound": _range_lb(tuple(scores_desc), tuple(sizes)),
        # pairs with different scores, a pair k score groups apart counted k times
        "mixed_pairs": stats["mixed_pairs"],
        "unequal_pairs": stats["unequal_pairs"],
        "mixed_tables": stats["mixed_tables"],
        "planned": planned is not None,
        "bot_seats": bot_seats,
    }
    fair = _fair_bound(req, seated, sizes)
    if fair is not None:
        out["score_range_fair_bound"] = fair
    if len(set(sizes)) == 1 and sizes[0] > 2 and not n_byes and len(seated) <= 200:
        lb = _repeat_bound(req, seated, sizes, ctx)
        out["score_range_repeat_bound"] = max(lb, out["score_range_lower_bound"] or 0.0)
    if req.teams == "apart":
        out["apart_violations"] = stats["apart"]
    if pair_only:
        out["mixed_pairs_lower_bound"] = _mixed_pairs_lb(scores_desc)
    return out


def table_reasons(req, tables, picked=frozenset(), forced=(), bots=()) -> list[list[dict]]:
    """The reasons of each table (player numbers, table order). ``bots``: the
    places in ``tables`` of bot tables; they get only the reasons about who
    meets whom (their size is the caller's reason) and are left out of the
    score groups and the small tables' rule."""
    table_of = {p: x for x, t in enumerate(tables) for p in t}
    normal = [t for x, t in enumerate(tables) if x not in bots]
    big_min = min((req.small_had[p] for t in normal if len(t) >= req.size for p in t), default=None)
    groups = reasons.score_groups(req, normal) if req.mode == "swiss" and normal else None
    out, k = [], 0
    for x, t in enumerate(tables):
        rs = reasons.repeats(req, t) + reasons.mates(req, t) + reasons.team_split(req, t, table_of)
        if x not in bots:
            if groups is not None:
                rs += reasons.moved(req, t, groups[k])
            rs += reasons.table_size(req, t, picked, forced, big_min)
            k += 1
        out.append([r.as_dict() for r in rs])
    return out


def _plan(req):
    """(table sizes, byes, players at the bot table, its seats)."""
    if req.bots:
        sizes, at_bot, seats = plan_bot_table(req.n, req.allowed, req.size)
        return sizes, 0, at_bot, seats
    sizes, n_byes = plan_sizes(req.n, req.allowed, req.size, req.byes)
    return sizes, n_byes, 0, 0


def _all_reasons(req, tables, at_bot, picked=frozenset(), forced=()):
    """(the tables' reasons, the bot table's or None): the bot table counts
    for who meets whom (a partner there splits a team), not for the rest."""
    if not at_bot:
        return table_reasons(req, tables, picked, forced), None
    why = table_reasons(req, [*tables, at_bot], picked, forced, bots={len(tables)})
    return why[:-1], why[-1]


def seat_request(req: SeatingRequest) -> dict:
    """Seat one round of a parsed request (see the module docstring)."""
    rng = random.Random(f"seat:{req.seed}")
    standings = sorted(range(req.n), key=lambda p: -req.score[p])
    sizes, n_byes, n_bot, seats = _plan(req)
    _check_teams(req)
    if req.mode in RATING_MODES:
        return _seat_by_rating(req, sizes, n_byes, n_bot, seats, rng)
    bye_players = rule_pick(req, standings, n_byes, req.byes_had, salt="byes")
    at_bot = rule_pick(req, standings, n_bot, req.bot_had, salt="bots")
    away = set(bye_players) | set(at_bot)
    seated = [p for p in standings if p not in away]
    pair_only = req.allowed == [2] and req.teams != "together"
    planned = _planned(req, sizes, seated, bye_players)
    ctx, picked, forced = None, frozenset(), ()
    if planned is not None:
        tables = [[req.index[x] for x in t] for t in planned]
    elif pair_only:
        order = list(seated)
        if req.mode == "random":
            rng.shuffle(order)  # the draw; positions below are places in it
        ctx, pos_tables = _seat_pairs(req, order, rng)
        tables = [[order[x] for x in t] for t in pos_tables]
    elif small_sizes(sizes, req.size):
        tables, picked, forced = _seat_with_small_tables(req, seated, sizes, rng)
    else:
        tables, ctx = _groups(req, seated, sizes, rng)
    # table 1 holds the top of the standings
    rank = {p: x for x, p in enumerate(seated)}
    tables.sort(key=lambda t: min(rank[p] for p in t))
    why, bot_why = _all_reasons(req, tables, at_bot, picked, forced)
    stats = _stats(req, seated, tables, sizes, n_byes, planned, ctx, pair_only, seats - len(at_bot))
    return _answer(req, tables, why, bye_players, stats, rng, (at_bot, seats, bot_why))


def _seat_by_rating(req, sizes, n_byes, n_bot, seats, rng) -> dict:
    order = rating_order(req)
    bye_players = rule_pick(req, order, n_byes, req.byes_had, salt="byes")
    at_bot = rule_pick(req, order, n_bot, req.bot_had, salt="bots")
    away = set(bye_players) | set(at_bot)
    seated = [p for p in order if p not in away]
    tables, why = seat_by_rating(req, seated, sizes, small_sizes(sizes, req.size))
    # the tables keep the rating reasons; the bot table's are about who meets whom
    bot_why = _all_reasons(req, tables, at_bot)[1] if at_bot else None
    stats = _stats(
        req, seated, tables, sizes, n_byes, None, None, req.allowed == [2], seats - len(at_bot)
    )
    stats["rated"] = sum(req.rating[p] is not None for p in range(req.n))
    return _answer(req, tables, why, bye_players, stats, rng, (at_bot, seats, bot_why))


def _answer(req, tables, why, bye_players, stats, rng, bot=((), 0, None)) -> dict:
    """The answer in players' ids: each table in seat order, its reasons,
    the byes and theirs, the bot table (``bot``: its players, seats and
    reasons about who meets whom), the figures."""
    out = {
        "tables": [[req.ids[p] for p in seat_order(req.seats, t, rng)] for t in tables],
        "reasons": why,
        "byes": [req.ids[p] for p in bye_players],
        "bye_reasons": [reasons.bye(req, p).as_dict() for p in bye_players],
        "bot_table": None,
        "stats": stats,
    }
    at_bot, seats, why_bot = bot
    if at_bot:
        order = seat_order(req.seats, at_bot, rng)
        rule = reasons.bot_table(req, order, seats - len(order))
        out["bot_table"] = {
            "players": [req.ids[p] for p in order],
            "seats": seats,
            "reasons": [*why_bot, rule.as_dict()],
        }
    return out


def seat(request: dict) -> dict:
    """Seat one round. See :mod:`tournaments.seating.request` for the request
    and the module docstring for the answer."""
    t0 = time.perf_counter()
    answer = seat_request(parse(request))
    answer["stats"]["seconds"] = round(time.perf_counter() - t0, 6)
    return answer
