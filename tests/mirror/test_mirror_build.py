"""The laptop's build of a publication: a completed round whose content is
unchanged is not read again (its sections kept with their hashes), and the
kept sections are always the ones a fresh build gives — after a correction
in a completed round, a round seated, a player added or renamed."""

from __future__ import annotations

import pytest

from scoring import services as results
from scoring.exchange.export import export_tournament
from tests.mirror.mirror_helpers import approved_key, laptop_tournament, play_round, sheet
from tournaments import services
from tournaments.mirror import publish, snapshot
from tournaments.models import Table
from tournaments.services import round_life

pytestmark = pytest.mark.django_db


def fresh(tournament):
    """What a build without anything kept gives."""
    publish._ROUNDS.pop(tournament.pk, None)
    return publish.build_hashed(tournament)


@pytest.fixture
def reads(monkeypatch):
    """The rounds each build left out of its export (read from what was kept)."""
    left_out = []
    real = publish.export_tournament

    def spy(tournament, **kwargs):
        left_out.append(set(kwargs.get("without_rounds", ())))
        return real(tournament, **kwargs)

    monkeypatch.setattr(publish, "export_tournament", spy)
    return left_out


def test_completed_rounds_are_kept_and_match_a_fresh_build(organizer, reads):
    t = laptop_tournament(organizer, rounds=2)
    first = publish.build_hashed(t)
    assert reads[-1] == set()
    again = publish.build_hashed(t)
    assert reads[-1] == {1, 2} and again == first
    # the next round under way is read; the completed ones are kept
    rnd = play_round(t, results_in=False, shift=2)
    built = publish.build_hashed(t)
    assert reads[-1] == {1, 2} and built == fresh(t)
    assert built[1] == snapshot.hashes(built[0])
    # its results in: round 3 complete, read once more, then kept
    for table in Table.objects.filter(round=rnd):
        results.result_submit(
            table=table, sheet=sheet(table.seats.count(), 1), by=organizer, expected_version=None
        )
    round_life.round_end_when_done(round_id=rnd.pk, by=organizer)
    assert publish.build_hashed(t) == fresh(t)
    publish.build_hashed(t)
    assert reads[-1] == {1, 2, 3}


def test_a_correction_in_a_completed_round_is_built_again(organizer, reads):
    t = laptop_tournament(organizer, rounds=2)
    before = publish.build_hashed(t)
    table = Table.objects.get(round__tournament=t, round__number=1, number=1)
    results.result_submit(
        table=table,
        sheet=sheet(table.seats.count(), 2),
        by=organizer,
        expected_version=table.submissions.count(),
        reason="Zählfehler",
    )
    after = publish.build_hashed(t)
    assert reads[-1] == {2}  # round 1 read again
    assert after == fresh(t)
    assert after[1]["round:1"] != before[1]["round:1"]
    assert after[1]["round:2"] == before[1]["round:2"]


def test_a_player_added_or_renamed_changes_only_the_tournament_section(organizer):
    t = laptop_tournament(organizer, rounds=2)
    before = publish.build_hashed(t)[1]
    services.player_add(tournament=t, by=organizer, name="Nachzüglerin", club="SV Nord")
    player = t.players.order_by("name").first()
    player.name = "Aaron Umbenannt"
    player.save()
    after = publish.build_hashed(t)
    assert after == fresh(t)
    changed = {n for n in after[1] if after[1][n] != before.get(n)}
    assert changed == {"tournament"}


def test_the_published_keys_are_the_players_ids(organizer):
    t = laptop_tournament(organizer, rounds=1)
    doc = export_tournament(t, keys_by_id=True)
    assert {p["key"] for p in doc["players"]} == set(t.players.values_list("pk", flat=True))
    seated = {s["player"] for table in doc["rounds"][0]["tables"] for s in table["seats"]}
    assert seated <= {p["key"] for p in doc["players"]}


# -- online: players updated in place ------------------------------------------


def online_pair(organizer, other_user, rounds=2):
    from tests.mirror.mirror_helpers import body
    from tournaments.mirror import receive

    laptop = laptop_tournament(organizer, rounds=rounds)
    _row, key = approved_key(user=other_user, name="laptop")
    state = {"version": 0, "held": {}}

    def send():
        sections, hashes = publish.build_hashed(laptop)
        state["version"] += 1
        data = {
            "format": receive.FORMAT,
            "source": "6f1c1d43-3c1f-4b0c-9a43-0d5a4a6c2b11",
            "version": state["version"],
            "hashes": hashes,
            "sections": {n: c for n, c in sections.items() if state["held"].get(n) != hashes[n]},
        }
        answer = receive.apply(owner=other_user, data=receive.unpack(body(data)))
        state["held"] = answer["hashes"]
        return data, answer

    return laptop, send


def online_state(online):
    return snapshot.public_sections(export_tournament(online))


def test_a_player_added_or_renamed_online_is_updated_in_place(organizer, other_user):
    from tests.mirror.test_mirror import standings_rows
    from tournaments.models import Round, Tournament

    laptop, send = online_pair(organizer, other_user)
    _data, answer = send()
    online = Tournament.objects.get(pk=answer["tournament"])
    rounds = list(Round.objects.filter(tournament=online).values_list("pk", flat=True))
    renamed = laptop.players.order_by("name").first()
    online_player = online.players.get(name=renamed.name)
    renamed.name, renamed.club = "Zora Umbenannt", "SC Süd"
    renamed.save()
    services.player_add(tournament=laptop, by=organizer, name="Nachzüglerin", club="SV Nord")
    data, answer = send()
    assert set(data["sections"]) == {"tournament"} and answer["applied"]
    online_player.refresh_from_db()
    assert (online_player.name, online_player.club) == ("Zora Umbenannt", "SC Süd")
    assert online.players.filter(name="Nachzüglerin", club="SV Nord").exists()
    assert list(Round.objects.filter(tournament=online).values_list("pk", flat=True)) == rounds
    assert online_state(online) == online_state(laptop)
    assert standings_rows(online) == standings_rows(laptop)


def test_two_players_swapping_names_arrive_right(organizer, other_user):
    from tournaments.models import Tournament

    laptop, send = online_pair(organizer, other_user, rounds=1)
    online = Tournament.objects.get(pk=send()[1]["tournament"])
    a, b = laptop.players.order_by("name")[:2]
    a_name, b_name = a.name, b.name
    a.name = "Zwischenname"
    a.save()
    b.name, a.name = a_name, b_name
    b.save()
    a.save()
    assert send()[1]["applied"]
    assert online_state(online) == online_state(laptop)


def test_a_rename_onto_another_players_name_is_refused_and_changes_nothing(organizer, other_user):
    from tournaments.mirror import receive
    from tournaments.models import Tournament

    laptop, send = online_pair(organizer, other_user, rounds=1)
    data, answer = send()
    online = Tournament.objects.get(pk=answer["tournament"])
    before = online_state(online)
    head = data["sections"]["tournament"]
    players = head["players"]
    players[1] = players[1] | {"name": players[0]["name"], "club": players[0]["club"]}
    forged = data | {"version": 2, "sections": {"tournament": head}}
    forged["hashes"] = data["hashes"] | {"tournament": snapshot.digest(head)}
    with pytest.raises(receive.Refused) as refused:
        receive.apply(owner=other_user, data=forged)
    assert refused.value.status == 422 and "players[1]" in str(refused.value)
    assert online_state(online) == before


def test_a_player_updated_in_place_is_checked_like_an_import(organizer, other_user):
    """The in-place update refuses what the import refuses: a rating out of
    range, a team that isn't there; nothing changes."""
    from tournaments import limits
    from tournaments.mirror import receive
    from tournaments.models import Tournament

    laptop, send = online_pair(organizer, other_user, rounds=1)
    data, answer = send()
    online = Tournament.objects.get(pk=answer["tournament"])
    before = online_state(online)
    for bad in ({"rating": limits.MAX_RATING + 1}, {"team": "Niemand"}):
        head = data["sections"]["tournament"]
        head = head | {"players": [dict(p) for p in head["players"]]}
        head["players"][1] = head["players"][1] | {"name": "Neu Benannt"} | bad
        forged = data | {"version": 2, "sections": {"tournament": head}}
        forged["hashes"] = data["hashes"] | {"tournament": snapshot.digest(head)}
        with pytest.raises(receive.Refused) as refused:
            receive.apply(owner=other_user, data=forged)
        assert refused.value.status == 422 and "players[1]" in str(refused.value)
        assert online_state(online) == before
