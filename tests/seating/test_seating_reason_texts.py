"""Every seating reason has its words: each code of the pure package has a
message beside it (``tournaments.seating.reasons.MESSAGES``), each message a
German translation, and the seating page shows every reason it is given — an
unknown code too, never dropping it — with players and teams by name."""

from pathlib import Path

import polib
import pytest
from django.utils import translation
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.seating.test_seating_properties import _feasible, fields
from tournaments.seating import (
    SeatingError,
    add_late_arrival,
    move_player,
    reasons,
    reseat_after_drop,
    seat,
)
from tournaments.seating_messages import why_text

PO = Path(__file__).resolve().parents[2] / "tournaments/locale/de/LC_MESSAGES/django.po"


def _keys():
    """Every message key: each code, and each wording its ``rule`` picks."""
    out = set(reasons.CODES)
    for code, rules in reasons.RULE_WORDED.items():
        out |= {f"{code}_{rule}" for rule in rules}
    return out


def test_every_code_has_a_message_and_every_message_a_code():
    assert set(reasons.MESSAGES) == _keys()


def test_every_message_has_its_german_translation():
    german = {(e.msgid, e.msgid_plural): e for e in polib.pofile(str(PO)) if not e.obsolete}
    texts = [*reasons.MESSAGES.values(), *reasons.CONSTRAINTS.values()]
    for text in texts:
        if isinstance(text, reasons.Plural):
            entry = german.get((text.singular, text.plural))
            assert entry and all(entry.msgstr_plural.values()), text.singular
        else:
            entry = german.get((text, ""))
            assert entry and entry.msgstr, text


def test_an_unknown_code_is_shown_not_dropped():
    known = {"code": "large_table", "params": {"size": 5, "preferred": 4}}
    text = why_text([{"code": "from_a_later_version", "params": {"x": 1}}, known])
    assert len(text) == 2
    assert "from_a_later_version" in text[0] and "Large table" in text[1]
    with translation.override("de"):
        assert why_text([{"code": "from_a_later_version"}])[0].startswith("Unbekannter Grund")


def test_reasons_saved_in_the_older_form_read_as_todays():
    old = [
        {"code": "club_together", "params": {"a": 1, "b": 2, "club": "SV Nord"}},
        {"code": "bye", "params": {"name": "Anna", "count": 0, "rule": "drawn"}},
    ]
    text = why_text(old, {1: "Anna", 2: "Bernd"})
    assert text[0].startswith("Anna and Bernd (SV Nord) sit at one table")
    assert text[1].startswith("Anna has a bye, drawn among")


def test_a_count_message_takes_its_form_from_its_count_in_german():
    why = [{"code": "bot_table_changed", "params": {"bots": 1}}]
    with translation.override("de"):
        one = why_text(why)[0]
        two = why_text([{"code": "bot_table_changed", "params": {"bots": 2}}])[0]
    assert "1 leeren Sitz" in one and "2 leere Sitze" in two


def _all_reasons(answer) -> list[dict]:
    by_table = answer["reasons"]  # a list (a seating) or by number (a change)
    out = [r for rs in (by_table.values() if isinstance(by_table, dict) else by_table) for r in rs]
    out += answer.get("bye_reasons") or []
    if answer.get("bot_table"):
        out += answer["bot_table"]["reasons"]
    return out


def _check_words(found: list[dict], names: dict):
    assert {r["code"] for r in found} <= set(reasons.CODES)
    text = why_text(found, names)
    assert len(text) == len(found)
    for t in text:
        assert "%(" not in t and "Unknown reason" not in t, t


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.sampled_from(["swiss", "random", "rating_spread", "rating_swiss"]), st.data())
def test_every_reason_the_package_gives_is_a_known_code_and_reads_whole(request_, mode, data):
    # the seating, then a drop, a late arrival and a move by hand: each answer's
    # reasons are codes with a message, filled in without a placeholder left
    if mode.startswith("rating"):
        assume(request_["teams"] != "together")
        for p in request_["players"]:
            p["rating"] = data.draw(st.none() | st.integers(800, 2400))
    request_ = {**request_, "mode": mode, "bots": data.draw(st.booleans())}
    assume(_feasible(request_) or request_["bots"])
    try:
        answer = seat(request_)
    except SeatingError:
        reject()
    names = {p["id"]: f"Player {p['id']}" for p in request_["players"]}
    found = _all_reasons(answer)
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    if answer["bot_table"]:
        tables[len(tables) + 1] = answer["bot_table"]["players"]
    everyone = [p["id"] for p in request_["players"]]
    changes = [
        lambda: reseat_after_drop(
            request_, tables, answer["byes"], data.draw(st.sampled_from(everyone))
        ),
        lambda: move_player(
            request_, tables, answer["byes"], data.draw(st.sampled_from(everyone)), 1
        ),
    ]
    newcomer = {"id": 10_000, "score": 0, "small_tables": 0, "byes": 0, "seat_history": []}
    joined = {**request_, "players": [*request_["players"], newcomer]}
    changes.append(lambda: add_late_arrival(joined, tables, answer["byes"], 10_000))
    for change in changes:
        try:
            found += _all_reasons(change())
        except SeatingError:
            continue
    _check_words(found, names)


@pytest.mark.parametrize("code", sorted(_keys()))
def test_each_message_fills_in_with_the_parameters_its_code_has(code):
    # parameters as the package gives them (ids, lists, numbers)
    params = {
        "a": 1,
        "b": 2,
        "player": 1,
        "strongest": 2,
        "players": [1, 2],
        "had": [[1, 0], [2, 1]],
        "rounds": [1, 3],
        "sizes": [3, 4],
        "size": 3,
        "preferred": 4,
        "score": 2.5,
        "low": 3,
        "high": 4,
        "count": 1,
        "bots": 2,
        "team": 7,
        "value": "SV Nord",
        "kind": "club",
        "constraints": ["repeats", "apart"],
        "first": 1,
        "last": 4,
        "place": 2,
        "tables": 3,
    }
    text = why_text([{"code": code, "params": params}], {1: "Anna", 2: "Bernd"}, {7: "Asse"})
    assert len(text) == 1 and "%(" not in text[0]
    message = reasons.MESSAGES[code]
    english = message if isinstance(message, str) else message.plural
    if "%(player" in english or "%(a)" in english:
        assert "Anna" in text[0]
    if "%(team)" in english:
        assert "Asse" in text[0]
