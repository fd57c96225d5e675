"""What a scorekeeper may do is ONE list in code (tournaments/permissions.py),
every view checks through it, and the user guide (docs/user-guide.md) says the same. Each forbidden action answers 403 and changes nothing; each allowed
one works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import Submission
from tests.factories import PlayerFactory, seated_round
from tests.timetravel import past_deadline
from tests.tournaments.test_permissions import named_patterns
from tournaments import services
from tournaments.models import Player, Round, Seat, Tournament
from tournaments.permissions import ACTIONS, SCOREKEEPER_MAY, may
from tournaments.play.models import SeatLink
from tournaments.services import deadlines, round_life

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def test_every_organizer_view_names_an_action_of_the_one_list():
    for p in named_patterns():
        if "tournament_id" not in str(p.pattern):
            continue
        action = getattr(p.callback, "required_action", None)
        if action is None:  # public pages check visibility instead
            continue
        assert action in ACTIONS, p.name
    assert set(ACTIONS) > SCOREKEEPER_MAY
    assert may("owner", "drop_players") and not may("scorekeeper", "drop_players")
    assert not may(None, "view")


def test_the_user_guide_lists_exactly_what_a_scorekeeper_may_do():
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("**Scorekeepers**") : text.index("Everything else is yours")]
    listed = {line.strip()[2:] for line in section.splitlines() if line.strip().startswith("- ")}
    with translation.override("en"):
        assert listed == {str(ACTIONS[a]) for a in SCOREKEEPER_MAY}
    for words in ("dropping and re-adding players", "seating and re-seating", "the settings"):
        assert words in re.sub(r"\s+", " ", text)


@pytest.fixture
def world(db, tournament, organizer, django_user_model, client):
    keeper = django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    services.scorekeeper_add(tournament=tournament, username="keeper")
    players = [
        PlayerFactory(tournament=tournament, name=f"Spieler {k}", checked_in=k < 3)
        for k in range(4)
    ]
    # round 1 seated through the services, a draft: Spieler 0–2 at table 1
    rnd = seated_round(tournament, order=[players[:3]], publish=False)
    table = rnd.tables.get(number=1)
    services.player_drop(player=players[3], by=organizer)
    client.login(username="keeper", password="pw-keeper-12345")
    return {"t": tournament, "players": players, "round": rnd, "table": table, "keeper": keeper}


def snapshot(t: Tournament):
    return (
        list(Tournament.objects.filter(pk=t.pk).values()),
        list(Player.objects.order_by("pk").values()),
        list(Round.objects.order_by("pk").values()),
        list(Seat.objects.order_by("pk").values()),
        list(SeatLink.objects.order_by("pk").values()),
        list(t.scorekeepers.values_list("pk", flat=True)),
        list(Submission.objects.values()),
    )


FORBIDDEN = [
    ("player_drop", lambda w: [w["t"].pk, w["players"][0].pk], {}),
    ("player_readd", lambda w: [w["t"].pk, w["players"][3].pk], {}),
    ("player_add", lambda w: [w["t"].pk], {"name": "Neu"}),
    ("player_edit", lambda w: [w["t"].pk, w["players"][0].pk], {"name": "Anders"}),
    ("player_remove", lambda w: [w["t"].pk, w["players"][0].pk], {}),
    ("player_import", lambda w: [w["t"].pk], {"content": "Neu;Club", "confirm": "1"}),
    ("round_seat", lambda w: [w["t"].pk], {}),
    ("seating_publish", lambda w: [w["t"].pk, 1], {}),
    (
        "seating_move",
        lambda w: [w["t"].pk, 1],
        {"player": "1", "table": "1"},
    ),
    ("round_start", lambda w: [w["t"].pk, 1], {}),
    ("round_extend", lambda w: [w["t"].pk, 1], {"minutes": "5"}),
    ("tournament_edit", lambda w: [w["t"].pk], {"name": "Umbenannt", "game": "quartett"}),
    ("scorekeepers", lambda w: [w["t"].pk], {"username": "orga"}),
    ("seat_link_reissue", lambda w: [w["t"].pk, 1, w["players"][0].pk], {}),
    ("tournament_archive", lambda w: [w["t"].pk], {"action": "archive"}),
    ("tournament_delete", lambda w: [w["t"].pk], {"confirm_name": "Herbstturnier"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "args", "data"), FORBIDDEN, ids=[f[0] for f in FORBIDDEN])
def test_a_scorekeeper_is_refused_what_is_not_on_the_list(client, world, name, args, data):
    before = snapshot(world["t"])
    response = client.post(reverse(name, args=args(world)), data)
    assert response.status_code == 403, name
    assert snapshot(world["t"]) == before, name


@pytest.mark.django_db
def test_a_scorekeeper_checks_players_in_and_out(client, world):
    p = world["players"][0]
    client.post(reverse("player_check_out", args=[world["t"].pk, p.pk]))
    p.refresh_from_db()
    assert not p.checked_in
    client.post(reverse("player_check_in", args=[world["t"].pk, p.pk]))
    p.refresh_from_db()
    assert p.checked_in


@pytest.mark.django_db
def test_a_scorekeeper_enters_confirms_prints_and_exports(client, world, organizer):
    t, table = world["t"], world["table"]
    t.confirmation_required = True
    t.save()
    # the round is played: started and its time called by the clock
    rnd = round_life.round_start(round=world["round"], by=organizer)
    past_deadline(rnd)
    round_life.round_time_up(rnd.pk, via="test")
    from scoring import services as scoring_services
    from tests.scoring.test_result_entry import post_data

    entry = reverse("result_entry", args=[t.pk, 1, 1])
    assert client.get(entry).status_code == 200
    sheet = {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}
    response = client.post(entry, post_data(sheet))
    assert response.status_code in (200, 302)
    assert Submission.objects.filter(table=table).count() == 1
    # a version the organizer entered: the scorekeeper confirms it
    sub = scoring_services.result_submit(
        table=table,
        sheet={"s0_cards": 10, "s1_cards": 12, "s2_cards": 8},
        by=organizer,
        expected_version=1,
    )
    client.post(reverse("result_confirm", args=[t.pk, 1, 1, sub.version]))
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED
    assert client.get(reverse("print_round", args=[t.pk, 1, "sheets"])).status_code == 200
    assert client.get(reverse("export", args=[t.pk, "players", "csv"])).status_code == 200
    slip = reverse("seat_slip", args=[t.pk, 1, world["players"][0].pk])
    assert client.get(slip).status_code == 200


@pytest.mark.django_db
def test_the_player_list_offers_a_scorekeeper_check_in_but_no_drop(client, world, organizer):
    html = client.get(reverse("player_list", args=[world["t"].pk])).content.decode()
    assert reverse("player_check_out", args=[world["t"].pk, world["players"][0].pk]) in html
    assert "player_drop" not in html and "/drop/" not in html and "/readd/" not in html
    client.force_login(organizer)
    html = client.get(reverse("player_list", args=[world["t"].pk])).content.decode()
    assert reverse("player_drop", args=[world["t"].pk, world["players"][0].pk]) in html
