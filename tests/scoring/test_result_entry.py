"""Result entry through the pages: every game's sheet checked by its engine,
versions and conflicts, second-person confirmation, corrections with their
standings preview, the signed QR link and the round's completion."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import SheetError, get_engine
from games.sheets import display
from scoring import services, sheet_links
from scoring.models import Submission
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db

NAMES = ["Anna Şahin", "Łukasz Nowak", "Grete Weiß", "Dieter Ruß"]

TT_CATS = ["bigcats", "bears", "canines", "hoofed", "primates", "rodents", "reptiles",
           "amphibians", "marsupials"]  # fmt: skip
TT_OPTIONS = {"deck": "tiere", "sheet": "values", "categories": TT_CATS}


def _tt_total() -> int:
    deck = get_engine("terra_trumpf").deck(3, TT_OPTIONS)
    return sum(c["value"] for c in deck if c["category"] in TT_CATS)


def _tt_hand(k, chooser, alpha, values, finished=True):
    d = {f"h{k}_chooser": chooser, f"h{k}_alpha": alpha}
    if finished:
        d[f"h{k}_finished"] = True
    d.update({f"h{k}_s{j}_value": v for j, v in enumerate(values)})
    return d


def _altruismus(**over):
    d = {"turns": 10}
    rows = [(10, 95, 20, 115), (10, 80, 0, 80), (10, 90, 10, 100)]
    for i, (cards, s, b, t) in enumerate(rows):
        d.update({f"s{i}_cards": cards, f"s{i}_sum": s, f"s{i}_bonus": b, f"s{i}_total": t})
    d.update(over)
    return d


def _games():
    total = _tt_total()
    t1 = [40000, 30500, total - 70500]
    t2 = [20999, 50000, total - 70999]
    return {
        "quartett": {
            "options": None,
            "valid": {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8},
            "bad": {
                "counts_do_not_add_up": {"s0_cards": 12, "s1_cards": 10, "s2_cards": 7},
                "out_with_cards": {
                    "s0_cards": 12,
                    "s1_cards": 10,
                    "s2_cards": 8,
                    "s2_out": True,
                    "s2_out_order": 1,
                },
                "tie_without_decision": {
                    "s0_cards": 15,
                    "s1_cards": 15,
                    "s2_out": True,
                    "s2_out_order": 1,
                },  # fmt: skip
            },
        },
        "terra_trumpf": {
            "options": TT_OPTIONS,
            "valid": {**_tt_hand(1, 0, "bears", t1), **_tt_hand(2, 1, "canines", t2)},
            "bad": {
                "chooser_out_of_order": {
                    **_tt_hand(1, 0, "bears", t1),
                    **_tt_hand(2, 2, "canines", t2),
                },
                "chooser_repeated": {
                    **_tt_hand(1, 0, "bears", t1),
                    **_tt_hand(2, 0, "canines", t2),
                },
                "hand_total_mismatch": _tt_hand(1, 0, "bears", [40000, 30500, 1000]),
            },
        },
        "trumpet": {
            "options": None,
            "valid": {"s0_field": 28, "s1_hall": True, "s2_field": 0},
            "bad": {
                "field_shared": {"s0_field": 12, "s1_field": 12, "s2_field": 5},
                "several_in_hall": {"s0_hall": True, "s1_hall": True, "s2_field": 5},
                # 45 is refused by the form (0..31); 31 without the Hall box by the engine
                "hall_not_ticked": {"s0_field": 31, "s1_field": 3, "s2_field": 4},
            },
        },
        "monddaemmerung": {
            "options": None,
            "valid": {"s0_won": 10, "s1_won": 30, "s2_won": 5, "s0_out": 1},
            "bad": {
                "counts_exceed_deck": {"s0_won": 30, "s1_won": 30, "s2_won": 5},
                "one_laid_twice": {
                    "s0_won": 10,
                    "s0_one": True,
                    "s0_out": 1,
                    "s1_won": 30,
                    "s1_one": True,
                    "s1_out": 2,
                    "s2_won": 5,
                },  # fmt: skip
                "placings_mismatch": {"s0_won": 10, "s1_won": 30, "s2_won": 5, "s0_place": 1},
            },
        },
        "altruismus": {
            "options": None,
            "valid": _altruismus(),
            "bad": {
                "total_mismatch": _altruismus(s2_total=116),
                "bonus_not_allowed": _altruismus(s1_bonus=15, s1_total=95),
                "too_many_cards": _altruismus(turns=9),
            },
        },
    }


GAMES = _games()


# -- helpers -------------------------------------------------------------------


def make_tables(
    owner, game="quartett", players=3, *, count=1, running=False, options=None, **fields
):
    """A tournament's round 1 with ``count`` tables of ``players`` players,
    seated, started and (unless ``running``) closed through the services;
    table N seats ``NAMES[i] N`` at seat i."""
    if options is not None:
        # options may fix what is dealt (Terra Trumpf's categories): the
        # engine must be able to deal them at every allowed size
        fields["game_options"] = options
    fields.setdefault("allowed_sizes", [players])
    fields.setdefault("table_size", players)
    tournament = TournamentFactory(owner=owner, name=f"Turnier {game}", game=game, **fields)
    order = [
        [PlayerFactory(tournament=tournament, name=f"{NAMES[i]} {n}") for i in range(players)]
        for n in range(1, count + 1)
    ]
    rnd = seated_round(tournament, order=order, start=True, time_called=not running)
    return list(rnd.tables.order_by("number"))


def make_table(owner, game="quartett", players=3, **kwargs):
    """Table 1 of ``make_tables``: a round whose time has been called."""
    return make_tables(owner, game, players, **kwargs)[0]


def entry_url(table):
    rnd = table.round
    return reverse("result_entry", args=[rnd.tournament_id, rnd.number, table.number])


def post_data(sheet: dict, *, version=None, action="save", **meta) -> dict:
    data = {"action": action, "expected_version": "" if version is None else version}
    for key, value in sheet.items():
        if value is True:
            data[f"sheet-{key}"] = "on"
        elif value is not False:
            data[f"sheet-{key}"] = str(value)
    data.update(meta)
    return data


def cell(content: str, field: str) -> str:
    """The HTML of the form cell (or box) of a sheet field."""
    m = re.search(rf'id="cell-sheet-{field}"(.*?)</(td|div)>', content, re.S)
    assert m, f"no cell for {field}"
    return html.unescape(m.group(1))


def named(message: str, problem, names) -> str:
    """The engine's message as the form shows it: the player's name where
    the engine says "seat N"."""
    seat = problem.params.get("seat")
    if isinstance(seat, int):
        return re.sub(rf"\w+ {seat}\b", names[seat - 1], message, count=1)
    return message


def engine_problem(game, sheet, code, options=None):
    engine = get_engine(game)
    with pytest.raises(SheetError) as exc:
        engine.check_sheet(3, sheet, options)
    found = [p for p in exc.value.problems if p.code == code]
    assert found, f"{game}: the engine does not report {code} for this sheet"
    return found[0]


def add_keeper(tournament, django_user_model, name):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-12345")
    tournament.scorekeepers.add(user)
    return user


# -- per game: valid sheets are scored, inconsistent ones refused ----------------


@pytest.mark.parametrize("game", list(GAMES))
def test_valid_sheet_is_accepted_and_scored(client, organizer, game):
    spec = GAMES[game]
    table = make_table(organizer, game, options=spec["options"])
    client.force_login(organizer)
    response = client.post(entry_url(table), post_data(spec["valid"]))
    assert response.status_code == 302, response.content.decode()[:2000]
    sub = Submission.objects.get(table=table)
    expected = get_engine(game).check_sheet(3, spec["valid"], spec["options"])
    assert sub.status == Submission.CONFIRMED and sub.version == 1
    assert sub.ranks == expected.ranks and sub.figures == expected.figures
    assert sub.by == organizer and sub.source == "form" and sub.from_address == "127.0.0.1"
    table.refresh_from_db()
    assert table.status == Table.DONE
    page = client.get(entry_url(table)).content.decode()
    assert "Current result" in page and f"{NAMES[0]} 1" in page


CASES = [(game, code) for game, spec in GAMES.items() for code in spec["bad"]]


@pytest.mark.parametrize(("game", "code"), CASES)
def test_inconsistent_sheet_is_refused_with_its_message_next_to_the_field(
    client, organizer, game, code
):
    spec = GAMES[game]
    sheet = spec["bad"][code]
    table = make_table(organizer, game, options=spec["options"])
    status = table.status
    problem = engine_problem(game, sheet, code, spec["options"])
    client.force_login(organizer)
    response = client.post(entry_url(table), post_data(sheet))
    assert response.status_code == 200
    content = response.content.decode()
    names = [f"{n} 1" for n in NAMES]
    message = named(problem.message, problem, names)
    assert cell(content, problem.fields[0]).count(message) == 1
    if "seat" in problem.params:  # the player is named, not the seat number
        assert names[problem.params["seat"] - 1] in message
        assert f"eat {problem.params['seat']}" not in message
    assert re.search(r'class="(card-field|field)( check)? invalid"', content)
    assert not Submission.objects.exists()
    table.refresh_from_db()
    assert table.status == status != Table.DONE  # refused: the table is as it was


@pytest.mark.parametrize("game", list(GAMES))
def test_problems_are_shown_in_german(client, organizer, game):
    spec = GAMES[game]
    code, sheet = next(iter(spec["bad"].items()))
    table = make_table(organizer, game, options=spec["options"])
    problem = engine_problem(game, sheet, code, spec["options"])
    with translation.override("de"):
        german = named(display(problem.template, problem.params, gettext), problem,
                       [f"{n} 1" for n in NAMES])  # fmt: skip
    assert german != named(problem.message, problem, [f"{n} 1" for n in NAMES]), (
        "the .po has no German text for this problem"
    )
    client.force_login(organizer)
    response = client.post(entry_url(table), post_data(sheet), HTTP_ACCEPT_LANGUAGE="de")
    assert german in cell(response.content.decode(), problem.fields[0])
    assert not Submission.objects.exists()


def test_german_message_for_a_shared_field(client, organizer):
    table = make_table(organizer, "trumpet")
    client.force_login(organizer)
    sheet = {"s0_field": 12, "s1_field": 12, "s2_field": 5}
    response = client.post(entry_url(table), post_data(sheet), HTTP_ACCEPT_LANGUAGE="de")
    assert "Auf Feld 12 kann nur eine Spielfigur stehen." in cell(
        response.content.decode(), "s0_field"
    )


def test_fields_are_in_seat_order_labelled_with_the_players(client, organizer):
    table = make_table(organizer, "altruismus")
    client.force_login(organizer)
    content = client.get(entry_url(table)).content.decode()
    positions = [content.index(f'name="sheet-s{i}_cards"') for i in range(3)]
    assert positions == sorted(positions)
    names = [content.index(f'<span class="name">{NAMES[i]} 1</span>') for i in range(3)]
    assert names == sorted(names)
    assert f'aria-label="{NAMES[1]} 1 · Cards collected"' in html.unescape(content)
    assert content.index('name="sheet-turns"') < positions[0]  # the box before the grid


def test_terra_trumpf_form_groups_hands_and_names_chooser_seats(client, organizer):
    table = make_table(organizer, "terra_trumpf", options=TT_OPTIONS)
    client.force_login(organizer)
    content = html.unescape(client.get(entry_url(table)).content.decode())
    assert "hand 1" in content and "hand 3" in content
    assert f"2 · {NAMES[1]} 1" in content  # the chooser is picked by name


def test_bad_input_is_a_form_error_and_saves_nothing(client, organizer):
    table = make_table(organizer, "quartett")
    client.force_login(organizer)
    response = client.post(
        entry_url(table), post_data({"s0_cards": "zwölf", "s1_cards": 99, "s2_cards": 8})
    )
    assert response.status_code == 200
    content = response.content.decode()
    assert "Enter a whole number." in cell(content, "s0_cards")
    assert "less than or equal to 30" in cell(content, "s1_cards")
    assert not Submission.objects.exists()


def test_missing_required_field_message_from_the_engine(client, organizer):
    table = make_table(organizer, "monddaemmerung")
    client.force_login(organizer)
    response = client.post(entry_url(table), post_data({"s0_won": 10, "s1_won": 30}))
    assert "This field is required." in cell(response.content.decode(), "s2_won")
    assert not Submission.objects.exists()


def test_table_with_a_wrong_number_of_players_shows_why(client, organizer):
    table = make_table(organizer, "monddaemmerung", players=3)
    # the services never seat a table the game can't take (sizes are checked
    # when seating, moving and swapping): only data written around them,
    # e.g. by an old import, has one; the entry page must still explain it
    Seat.objects.filter(table=table, position=2).delete()
    client.force_login(organizer)
    response = client.get(entry_url(table))
    assert response.status_code == 200
    assert "played by 3 to 5 players; this table has 2" in response.content.decode()
    response = client.post(entry_url(table), post_data({"s0_won": 1, "s1_won": 2}))
    assert response.status_code == 200 and not Submission.objects.exists()


# -- versions and conflicts ------------------------------------------------------


def test_two_entries_from_the_same_version_second_sees_the_first(
    client, organizer, django_user_model
):
    table = make_table(organizer, "quartett")
    tournament = table.round.tournament
    first = add_keeper(tournament, django_user_model, "erste")
    second = add_keeper(tournament, django_user_model, "zweite")
    client.force_login(first)
    page = client.get(entry_url(table)).content.decode()
    assert 'name="expected_version"' in page
    assert client.post(entry_url(table), post_data({"s0_cards": 12, "s1_cards": 10,
                                                     "s2_cards": 8})).status_code == 302  # fmt: skip
    client.force_login(second)
    response = client.post(
        entry_url(table), post_data({"s0_cards": 20, "s1_cards": 6, "s2_cards": 4})
    )
    assert response.status_code == 409
    content = html.unescape(response.content.decode())
    assert "erste saved version 1 of this table's result meanwhile" in content
    conflict = content[content.index('id="conflict"') :]
    conflict = conflict[: conflict.index("</section>")]
    assert "version 1 by erste" in conflict and f"{NAMES[0]} 1" in conflict
    assert Submission.objects.count() == 1
    assert Submission.objects.get().figures == [12, 10, 8]
    # his own input is kept, and saving again now replaces the first entry knowingly
    assert 'value="20"' in content and 'name="expected_version" value="1"' in content
    response = client.post(
        entry_url(table),
        post_data({"s0_cards": 20, "s1_cards": 6, "s2_cards": 4}, version=1, reason="Zählfehler"),
    )
    # a correction of a confirmed result is checked first (preview), then saved
    assert response.status_code == 200 and 'id="preview"' in response.content.decode()


def test_service_refuses_a_stale_version(organizer):
    table = make_table(organizer, "trumpet")
    sheet = {"s0_field": 3, "s1_field": 2, "s2_field": 1}
    services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    with pytest.raises(services.ResultConflict) as exc:
        services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    assert exc.value.other.version == 1
    assert Submission.objects.count() == 1


def test_versions_are_append_only_with_who_when_and_what_they_replace(client, organizer):
    table = make_table(organizer, "trumpet", running=True)
    s1 = services.result_submit(
        table=table, sheet={"s0_field": 3, "s1_field": 2, "s2_field": 1}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    s2 = services.result_submit(
        table=table, sheet={"s0_field": 1, "s1_field": 2, "s2_field": 3}, by=organizer,
        expected_version=1,
    )  # fmt: skip
    s1.refresh_from_db()
    assert s1.status == Submission.SUPERSEDED and s2.status == Submission.CONFIRMED
    assert s2.replaces == s1 and s2.version == 2 and s1.sheet == {
        "s0_field": 3, "s1_field": 2, "s2_field": 1
    }  # fmt: skip
    client.force_login(organizer)
    content = client.get(entry_url(table)).content.decode()
    assert 'id="version-1"' in content and 'id="version-2"' in content
    assert "replaced" in content and "orga" in content


# -- confirmation by a second person ---------------------------------------------


def test_second_person_confirms_an_entry_never_its_author(client, organizer, django_user_model):
    table = make_table(organizer, "quartett", confirmation_required=True)
    tournament = table.round.tournament
    author = add_keeper(tournament, django_user_model, "autor")
    other = add_keeper(tournament, django_user_model, "pruefer")
    client.force_login(author)
    client.post(entry_url(table), post_data({"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}))
    sub = Submission.objects.get()
    assert sub.status == Submission.PENDING
    page = client.get(entry_url(table)).content.decode()
    assert "You entered this version" in page
    confirm = reverse("result_confirm", args=[tournament.pk, 1, table.number, sub.version])
    response = client.post(confirm, follow=True)
    assert "You entered this result yourself" in html.unescape(response.content.decode())
    sub.refresh_from_db()
    assert sub.status == Submission.PENDING
    client.force_login(other)
    assert "Confirm version 1" in client.get(entry_url(table)).content.decode()
    response = client.post(confirm, follow=True)
    assert "version 1 confirmed" in response.content.decode()
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED
    assert list(sub.confirmations.values_list("by__username", flat=True)) == ["pruefer"]
    # a second confirmation finds it confirmed: a clear conflict
    client.force_login(organizer)
    response = client.post(confirm, follow=True)
    assert "Version 1 is already confirmed." in response.content.decode()


def test_confirmation_required_pending_does_not_count_until_confirmed(organizer, django_user_model):
    table = make_table(organizer, "trumpet", confirmation_required=True)
    sheet = {"s0_field": 3, "s1_field": 2, "s2_field": 1}
    sub = services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    assert sub.status == Submission.PENDING
    from scoring import selectors

    assert selectors.results_data(table.round.tournament) == []
    keeper = add_keeper(table.round.tournament, django_user_model, "k2")
    services.result_confirm(submission=sub, by=keeper)
    assert len(selectors.results_data(table.round.tournament)) == 1


# -- corrections after time: reason and standings preview ------------------------


def test_correction_after_time_shows_place_changes_and_needs_a_reason(client, organizer):
    table, t2 = make_tables(organizer, "quartett", count=2)
    services.result_submit(
        table=table, sheet={"s0_cards": 14, "s1_cards": 10, "s2_cards": 6}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    services.result_submit(
        table=t2, sheet={"s0_cards": 14, "s1_cards": 10, "s2_cards": 6}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    client.force_login(organizer)
    corrected = {"s0_cards": 6, "s1_cards": 10, "s2_cards": 14}
    # saving straight away first shows the check step; nothing is saved yet
    response = client.post(entry_url(table), post_data(corrected, version=1))
    content = html.unescape(response.content.decode())
    assert response.status_code == 200 and 'id="preview"' in content
    assert Submission.objects.filter(table=table).count() == 1
    changes = re.findall(r'<tr class="place-change"><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>',
                         content)  # fmt: skip
    moved = {name: (old, new) for name, old, new in changes}
    assert moved[f"{NAMES[0]} 1"][1] != moved[f"{NAMES[0]} 1"][0]
    assert moved[f"{NAMES[2]} 1"][0] != moved[f"{NAMES[2]} 1"][1]
    assert f"{NAMES[1]} 2" not in moved  # table 2 is unchanged; its middle player too
    token = re.search(r'name="checked" value="([^"]+)"', content).group(1)
    # save after the check, without a reason: refused next to the reason field
    response = client.post(entry_url(table), post_data(corrected, version=1, checked=token))
    content = html.unescape(response.content.decode())
    assert "Give a reason for correcting a confirmed result after time was called." in content
    assert Submission.objects.filter(table=table).count() == 1
    response = client.post(
        entry_url(table),
        post_data(corrected, version=1, checked=token, reason="Karten falsch gezählt"),
    )
    assert response.status_code == 302
    new = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    assert new.version == 2 and new.reason == "Karten falsch gezählt"
    assert new.replaces.version == 1 and new.replaces.status == Submission.SUPERSEDED
    assert new.ranks == [3, 2, 1]


def test_a_checked_sheet_changed_afterwards_is_checked_again(client, organizer):
    table = make_table(organizer, "quartett")
    services.result_submit(
        table=table, sheet={"s0_cards": 14, "s1_cards": 10, "s2_cards": 6}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    client.force_login(organizer)
    response = client.post(
        entry_url(table),
        post_data({"s0_cards": 6, "s1_cards": 10, "s2_cards": 14}, version=1, action="check"),
    )
    token = re.search(r'name="checked" value="([^"]+)"', response.content.decode()).group(1)
    response = client.post(
        entry_url(table),
        post_data({"s0_cards": 6, "s1_cards": 14, "s2_cards": 10}, version=1, checked=token,
                  reason="x"),
    )  # fmt: skip
    assert response.status_code == 200 and 'id="preview"' in response.content.decode()
    assert Submission.objects.count() == 1


def test_preview_service_lists_only_changed_places(organizer):
    table = make_table(organizer, "trumpet")
    services.result_submit(
        table=table, sheet={"s0_field": 3, "s1_field": 2, "s2_field": 1}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    preview = services.result_preview_correction(
        table=table, sheet={"s0_field": 1, "s1_field": 2, "s2_field": 3}
    )
    assert preview.result.ranks == [3, 2, 1]
    moves = {c.name: (c.old_place, c.new_place) for c in preview.changes}
    assert moves == {f"{NAMES[0]} 1": (1, 3), f"{NAMES[2]} 1": (3, 1)}
    with pytest.raises(services.ResultInvalid):
        services.result_preview_correction(table=table, sheet={"s0_field": 99})


def test_correction_before_time_needs_no_reason(organizer):
    table = make_table(organizer, "trumpet", running=True)
    services.result_submit(
        table=table, sheet={"s0_field": 3, "s1_field": 2, "s2_field": 1}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    sub = services.result_submit(
        table=table, sheet={"s0_field": 1, "s1_field": 2, "s2_field": 3}, by=organizer,
        expected_version=1,
    )  # fmt: skip
    assert sub.status == Submission.CONFIRMED and not sub.late and sub.reason == ""


# -- late flag and round completion ---------------------------------------------


def test_a_sheet_handed_in_late_is_flagged_not_refused(organizer):
    """Typing sheets in after time is normal; the scorekeeper flags one that
    came in late (it may not be the state at time)."""
    table, other = make_tables(organizer, "trumpet", count=2)
    sheet = {"s0_field": 3, "s1_field": 2, "s2_field": 1}
    sub = services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    assert not sub.late and sub.status == Submission.CONFIRMED
    sub = services.result_submit(
        table=other, sheet=sheet, by=organizer, expected_version=None, handed_in_late=True
    )
    assert sub.late and sub.status == Submission.CONFIRMED


def test_the_late_box_on_the_form_flags_the_result(client, organizer):
    table = make_table(organizer, "trumpet")
    client.force_login(organizer)
    url = reverse("result_entry", args=[table.round.tournament_id, table.round.number, 1])
    page = client.get(url).content.decode()
    assert 'name="handed_in_late"' in page
    data = {"sheet-s0_field": 3, "sheet-s1_field": 2, "sheet-s2_field": 1, "handed_in_late": "on"}
    client.post(url, data)
    assert Submission.objects.get(table=table).late


def test_round_completes_when_every_table_has_a_confirmed_result(organizer):
    table, t2 = make_tables(organizer, "trumpet", count=2)
    rnd = table.round
    sheet = {"s0_field": 3, "s1_field": 2, "s2_field": 1}
    services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    rnd.refresh_from_db()
    assert rnd.status == Round.TIME_CALLED and rnd.completed_at is None
    services.result_submit(table=t2, sheet=sheet, by=organizer, expected_version=None)
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE and rnd.completed_at is not None


def test_running_round_is_not_completed_by_results(organizer):
    table = make_table(organizer, "trumpet", running=True)
    rnd = table.round
    services.result_submit(
        table=table, sheet={"s0_field": 3, "s1_field": 2, "s2_field": 1}, by=organizer,
        expected_version=None,
    )  # fmt: skip
    rnd.refresh_from_db()
    assert rnd.status == Round.RUNNING


# -- finding a table, the QR link ------------------------------------------------


def test_go_to_table_by_number(client, organizer):
    table, *_others = make_tables(organizer, "trumpet", count=3)
    tid = table.round.tournament_id
    client.force_login(organizer)
    url = reverse("result_find", args=[tid, 1])
    page = client.get(url).content.decode()
    assert "3 tables without a confirmed result." in page
    response = client.get(url, {"table": 3})
    assert response.status_code == 302 and response.url == reverse("result_entry", args=[tid, 1, 3])
    response = client.get(url, {"table": 4})
    assert response.status_code == 200
    assert "Round 1 has no table 4." in response.content.decode()


def test_qr_link_leads_to_the_right_table(client, organizer):
    table, other = make_tables(organizer, "trumpet", count=2)
    url = sheet_links.table_sheet_url(other.pk)
    path = url[url.index("/s/") :]
    # without an account: a page that says what the code is for, and the
    # staff's login that leads on to this table
    response = client.get(path)
    assert response.status_code == 200
    login = re.search(r'href="([^"]*)">Log in to enter the result', response.content.decode())
    assert login and reverse("login") in login.group(1)
    assert unquote(login.group(1).replace("&amp;", "&")).endswith(f"?next={path}")
    client.force_login(organizer)
    response = client.get(path)
    assert response.status_code == 302
    assert response.url == entry_url(other) + "?via=qr"
    page = client.get(response.url).content.decode()
    assert "Result of table 2, round 1" in page and 'name="via" value="qr"' in page
    response = client.post(
        entry_url(other), post_data({"s0_field": 3, "s1_field": 2, "s2_field": 1}, via="qr")
    )
    assert Submission.objects.get(table=other).source == "qr"


def test_tampered_qr_link_is_refused(client, organizer):
    table = make_table(organizer, "trumpet")
    token = sheet_links.table_token(table.pk)
    client.force_login(organizer)
    for bad in [token[:-1] + ("A" if token[-1] != "A" else "B"), str(table.pk),
                f"{table.pk + 1}:{token.split(':')[1]}"]:  # fmt: skip
        response = client.get(reverse("sheet_link", args=[bad]))
        assert response.status_code == 404
        assert "This link is not valid" in response.content.decode()
    response = client.get(reverse("sheet_link", args=[str(table.pk)]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    with translation.override("de"):
        assert gettext("This link is not valid") in response.content.decode()


def test_qr_link_of_another_tournament_is_forbidden(client, organizer, other_user):
    table = make_table(organizer, "trumpet")
    client.force_login(other_user)
    response = client.get(reverse("sheet_link", args=[sheet_links.table_token(table.pk)]))
    assert response.status_code == 403
