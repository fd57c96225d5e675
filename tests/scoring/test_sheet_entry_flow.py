"""Typing a pile of sheets in: save and go to the next table
without a result, a correction saved with one press after its preview (also
after a conflict), the question whether a game really ended before time, and
messages that name players rather than seats."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import get_engine
from scoring import services
from scoring.models import Submission
from tests.examples import examples
from tests.scoring.test_result_entry import NAMES, entry_url, make_table, make_tables, post_data
from tournaments.models import Round

pytestmark = pytest.mark.django_db

QUARTETT_DONE = {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}


def quartett_cards(players=3) -> int:
    return get_engine("quartett").in_play_count(players, None)


def token(content: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', content)
    return m.group(1) if m else ""


def round_of_tables(organizer, n=5, *, status=Round.TIME_CALLED):
    return make_tables(organizer, "quartett", count=n, running=status == Round.RUNNING)


# -- save and next --------------------------------------------------------------


def test_save_and_next_opens_the_next_table_without_a_result(client, organizer):
    tables = round_of_tables(organizer, 4)
    services.result_submit(
        table=tables[1], sheet=QUARTETT_DONE, by=organizer, expected_version=None
    )  # table 2 is in already
    client.force_login(organizer)
    response = client.post(entry_url(tables[0]), post_data(QUARTETT_DONE, action="next"))
    assert response.status_code == 302 and response.url == entry_url(tables[2])
    assert Submission.objects.get(table=tables[0]).status == Submission.CONFIRMED
    # the next table's form has keyboard focus on its first field
    page = client.get(response.url).content.decode()
    first = re.search(r"<input[^>]*name=\"sheet-s0_cards\"[^>]*>", page).group(0)
    assert "autofocus" in first
    assert "Table 1: version 1 saved and counted." in html.unescape(page)


def test_save_and_next_wraps_round_and_ends_at_the_round_list(client, organizer):
    tables = round_of_tables(organizer, 3)
    client.force_login(organizer)
    response = client.post(entry_url(tables[2]), post_data(QUARTETT_DONE, action="next"))
    assert response.url == entry_url(tables[0])  # back to the first missing one
    client.post(entry_url(tables[0]), post_data(QUARTETT_DONE, action="next"))
    response = client.post(entry_url(tables[1]), post_data(QUARTETT_DONE, action="next"))
    rnd = tables[0].round
    assert response.url == reverse("result_find", args=[rnd.tournament_id, rnd.number])
    page = html.unescape(client.get(response.url).content.decode())
    assert "Every table of round 1 has a result now." in page


def test_save_and_next_is_the_first_button_so_enter_uses_it(client, organizer):
    (table,) = round_of_tables(organizer, 1)
    client.force_login(organizer)
    page = client.get(entry_url(table)).content.decode()
    form = page[page.index('id="sheet-form"') :]
    buttons = re.findall(r'<button type="submit" name="action" value="(\w+)"', form)
    assert buttons[0] == "next"
    # the fields come in sheet order: seat by seat
    fields = re.findall(r'name="sheet-(s\d_\w+)"', form)
    assert [f[:2] for f in fields] == sorted(f[:2] for f in fields)


# -- corrections ----------------------------------------------------------------


def test_a_correction_is_saved_by_one_press_after_its_preview(client, organizer):
    (table,) = round_of_tables(organizer, 1)
    services.result_submit(table=table, sheet=QUARTETT_DONE, by=organizer, expected_version=None)
    client.force_login(organizer)
    corrected = {"s0_cards": 8, "s1_cards": 10, "s2_cards": 12}
    first = client.post(entry_url(table), post_data(corrected, version=1, reason="miscounted"))
    content = first.content.decode()
    assert 'id="preview"' in content and Submission.objects.count() == 1
    save = re.search(r'<button type="submit" name="action" value="save"[^>]*>', content).group(0)
    assert "autofocus" in save  # one press (or Enter) saves
    response = client.post(
        entry_url(table),
        post_data(corrected, version=1, reason="miscounted", checked=token(content, "checked")),
    )
    assert response.status_code == 302
    assert Submission.objects.get(status=Submission.CONFIRMED).ranks == [3, 2, 1]


def test_a_correction_needing_a_reason_focuses_it_in_the_preview(client, organizer):
    (table,) = round_of_tables(organizer, 1)
    services.result_submit(table=table, sheet=QUARTETT_DONE, by=organizer, expected_version=None)
    client.force_login(organizer)
    corrected = {"s0_cards": 8, "s1_cards": 10, "s2_cards": 12}
    content = client.post(entry_url(table), post_data(corrected, version=1)).content.decode()
    reason = re.search(r'<[^>]*name="reason"[^>]*>', content).group(0)
    assert "autofocus" in reason
    response = client.post(
        entry_url(table),
        post_data(corrected, version=1, reason="miscounted", checked=token(content, "checked")),
    )
    assert response.status_code == 302


def test_after_a_conflict_one_press_saves_over_the_other_entry(client, organizer, other_user):
    (table,) = round_of_tables(organizer, 1)
    table.round.tournament.scorekeepers.add(other_user)
    client.force_login(organizer)
    # someone else saved while this scorekeeper was typing
    services.result_submit(table=table, sheet=QUARTETT_DONE, by=other_user, expected_version=None)
    mine = {"s0_cards": 8, "s1_cards": 10, "s2_cards": 12}
    response = client.post(entry_url(table), post_data(mine, reason="sheet says so"))
    content = html.unescape(response.content.decode())
    assert response.status_code == 409
    assert f"{other_user.get_username()} saved version 1" in content
    assert 'id="preview"' in content  # the preview against what is there now
    response = client.post(
        entry_url(table),
        post_data(
            mine,
            version=token(content, "expected_version"),
            reason="sheet says so",
            checked=token(content, "checked"),
        ),
    )
    assert response.status_code == 302
    assert Submission.objects.get(status=Submission.CONFIRMED).ranks == [3, 2, 1]


# -- a game that can't have ended before time -----------------------------------


def test_unfinished_quartett_while_the_round_runs_asks_before_counting(client, organizer):
    (table,) = round_of_tables(organizer, 1, status=Round.RUNNING)
    client.force_login(organizer)
    unfinished = QUARTETT_DONE  # three players still hold cards
    response = client.post(entry_url(table), post_data(unfinished, action="next"))
    content = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Did this game really end before time?" in content
    assert "3 players still hold cards." in content
    assert not Submission.objects.exists()
    # yes: saved, flagged as ended before time through the clock's lock
    response = client.post(
        entry_url(table),
        post_data(unfinished, action="early", early_answer=token(content, "early_answer")),
    )
    assert response.status_code == 302
    assert Submission.objects.get().status == Submission.CONFIRMED


def test_the_before_time_answer_is_for_one_sheet_only(client, organizer):
    (table,) = round_of_tables(organizer, 1, status=Round.RUNNING)
    client.force_login(organizer)
    content = client.post(entry_url(table), post_data(QUARTETT_DONE)).content.decode()
    other = {"s0_cards": 10, "s1_cards": 12, "s2_cards": 8}
    response = client.post(
        entry_url(table),
        post_data(other, action="early", early_answer=token(content, "early_answer")),
    )
    assert "Did this game really end before time?" in html.unescape(response.content.decode())
    assert not Submission.objects.exists()


def test_a_finished_quartett_while_the_round_runs_counts_without_a_question(client, organizer):
    (table,) = round_of_tables(organizer, 1, status=Round.RUNNING)
    client.force_login(organizer)
    finished = {"s0_cards": quartett_cards(), "s1_out": True, "s1_out_order": 1,
                "s2_out": True, "s2_out_order": 2}  # fmt: skip
    response = client.post(entry_url(table), post_data(finished))
    assert response.status_code == 302
    assert Submission.objects.get().ranks == [1, 3, 2]


def test_after_time_an_unfinished_sheet_is_normal(client, organizer):
    (table,) = round_of_tables(organizer, 1, status=Round.TIME_CALLED)
    client.force_login(organizer)
    response = client.post(entry_url(table), post_data(QUARTETT_DONE))
    assert response.status_code == 302


def test_unfinished_reason_is_the_engines_word_translated():
    quartett = get_engine("quartett")
    result = quartett.check_sheet(4, {"s0_cards": 20, "s1_cards": 12, "s2_out": True,
                                      "s2_out_order": 2, "s3_out": True, "s3_out_order": 1})  # fmt: skip
    with translation.override("en"):
        assert services.unfinished_reason(quartett, result, 4) == "2 players still hold cards."
    done = quartett.check_sheet(
        3,
        {
            "s0_cards": quartett_cards(),
            "s1_out": True,
            "s1_out_order": 1,
            "s2_out": True,
            "s2_out_order": 2,
        },  # fmt: skip
    )
    assert services.unfinished_reason(quartett, done, 3) is None
    from tests.scoring.test_result_entry import GAMES, TT_OPTIONS

    two_hands = get_engine("terra_trumpf").check_sheet(
        3, GAMES["terra_trumpf"]["valid"], TT_OPTIONS
    )
    with translation.override("en"):
        assert (
            services.unfinished_reason(get_engine("terra_trumpf"), two_hands, 3)
            == "Only 2 of 3 hands were played."
        )
    # Trumpet: the game is won when a figure enters the Great Hall
    trumpet = get_engine("trumpet").check_sheet(3, {"s0_field": 3, "s1_field": 2, "s2_field": 1})
    with translation.override("en"):
        assert (
            services.unfinished_reason(get_engine("trumpet"), trumpet, 3)
            == "No figure reached the Great Hall."
        )
    won = get_engine("trumpet").check_sheet(3, {"s0_hall": True, "s1_field": 2, "s2_field": 1})
    assert services.unfinished_reason(get_engine("trumpet"), won, 3) is None


# -- names, not seat numbers ----------------------------------------------------


def test_problems_name_the_player_not_the_seat(client, organizer):
    (table,) = round_of_tables(organizer, 1)
    client.force_login(organizer)
    sheet = {**QUARTETT_DONE, "s2_out": True, "s2_out_order": 1}
    content = html.unescape(client.post(entry_url(table), post_data(sheet)).content.decode())
    assert f"{NAMES[2]} 1 is marked out but holds 8 cards." in content
    assert "Seat 3" not in content
    content = html.unescape(
        client.post(entry_url(table), post_data(sheet), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    )
    assert f"{NAMES[2]} 1 " in content and "Platz 3" not in content and "Sitz 3" not in content


@st.composite
def quartett_sheets(draw):
    """A valid Quartett sheet: some players out (in an order), the cards in
    play shared by the others without ties."""
    players = draw(st.integers(2, 6))
    in_play = get_engine("quartett").in_play_count(players, None)
    holders = draw(st.integers(1, players))
    cuts = sorted(draw(st.sets(st.integers(1, in_play - 1), min_size=holders - 1,
                               max_size=holders - 1)))  # fmt: skip
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, in_play], strict=True)]
    assume(len(set(parts)) == len(parts))
    seats = draw(st.permutations(range(players)))
    sheet = {}
    for k, seat in enumerate(seats):
        if k < holders:
            sheet[f"s{seat}_cards"] = parts[k]
        else:
            sheet[f"s{seat}_out"] = True
            sheet[f"s{seat}_out_order"] = k - holders + 1
    return players, holders, sheet


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(quartett_sheets())
def test_a_quartett_sheet_is_a_finished_game_iff_one_player_holds_cards(case):
    players, holders, sheet = case
    result = get_engine("quartett").check_sheet(players, sheet, None)
    with translation.override("en"):
        reason = services.unfinished_reason(get_engine("quartett"), result, players)
    if holders == 1:
        assert reason is None
    else:
        assert reason == f"{holders} players still hold cards."


def test_hand_cards_name_the_player_of_each_field(client, organizer):
    from tests.scoring.test_result_entry import TT_OPTIONS

    table = make_table(organizer, "terra_trumpf", options=TT_OPTIONS)
    client.force_login(organizer)
    content = html.unescape(client.get(entry_url(table)).content.decode())
    card = content[content.index("<legend>hand 1</legend>") :]
    card = card[: card.index("</fieldset>")]
    for i in range(3):
        assert f"{NAMES[i]} 1 · " in card


def test_a_players_seat_page_does_not_grab_the_keyboard(client, organizer):
    from tournaments.play.links import seat_token

    table = make_table(organizer, "quartett", self_report=True)
    seat = table.seats.order_by("position").first()
    page = client.get(reverse("seat_link", args=[seat_token(seat)])).content.decode()
    assert 'name="sheet-s0_cards"' in page and "autofocus" not in page
