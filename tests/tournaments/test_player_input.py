"""Player list imports and the player form refuse bad input with a clear
message, save nothing, and read the files spreadsheets really write."""

import codecs

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments import limits, services
from tournaments.models import Player
from tournaments.player_import import UnreadableFile, decode_upload, parse_players


def upload(client, tournament, raw: bytes, confirm=True):
    data = {"file": SimpleUploadedFile("players.csv", raw, content_type="text/csv")}
    if confirm:
        data["confirm"] = "1"
    return client.post(reverse("player_import", args=[tournament.pk]), data)


def test_utf16_files_with_a_bom_are_read():
    text = "Name;Verein\nAyşe Şahin;SC Köln\n"
    for raw in (codecs.BOM_UTF16_LE + text.encode("utf-16-le"), text.encode("utf-16")):
        rows, errors = parse_players(decode_upload(raw))
        assert errors == [] and rows[0].name == "Ayşe Şahin" and rows[0].club == "SC Köln"


def test_windows_1252_is_read_and_other_bytes_refused():
    assert decode_upload("Jürgen Weiß\n".encode("cp1252")) == "Jürgen Weiß\n"
    with pytest.raises(UnreadableFile):
        decode_upload(b"Anna \x81 Berg\n")  # neither UTF-8 nor Windows-1252


def test_nul_bytes_are_refused():
    rows, errors = parse_players("Anna\x00Berg, SC\n")
    assert rows == [] and "NUL" in errors[0].message


def test_cr_only_line_ends_are_read_as_lines():
    rows, errors = parse_players("Anna Berg,SC\rBernd Roth,SC\rClara Dupont,\r")
    assert errors == [] and [r.name for r in rows] == ["Anna Berg", "Bernd Roth", "Clara Dupont"]


def test_a_huge_field_is_refused_on_its_line():
    rows, errors = parse_players("Anna Berg\n" + "x" * (130 * 1024) + "\n")
    assert rows == [] and errors[0].line == 2


def test_a_rating_out_of_range_is_refused():
    rows, errors = parse_players("Anna Berg,SC,99999999999\nBernd,SC,²\n")
    assert rows == []
    assert [e.line for e in errors] == [1, 2]
    assert "99999999999" in errors[0].message


def test_an_unclosed_quote_does_not_merge_lines_silently():
    rows, errors = parse_players('Anna Berg,SC\n"Bernd Roth,SC\nClara Dupont,SC\n')
    assert errors and errors[0].line == 2
    assert "not closed" in errors[0].message
    assert all("\n" not in r.name for r in rows)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw",
    [
        b"Anna \x81 Berg,SC\n",
        b"Anna\x00Berg,SC\n",
        b"Anna Berg,SC," + b"x" * (130 * 1024) + b"\n",
        b"Anna Berg,SC,99999999999\n",
        b'Anna Berg,SC\n"Bernd Roth,SC\nClara,SC\n',
        codecs.BOM_UTF16_BE + "\x00".encode("utf-16-be"),
    ],
)
def test_import_view_refuses_bad_files_and_saves_nothing(client, organizer, tournament, raw):
    client.force_login(organizer)
    response = upload(client, tournament, raw)
    assert response.status_code == 200
    assert Player.objects.count() == 0
    assert b"errorlist" in response.content or b"error" in response.content


@pytest.mark.django_db
def test_import_view_reads_utf16_and_cr_files(client, organizer, tournament):
    client.force_login(organizer)
    raw = "Name\tVerein\r\nAyşe Şahin\tSC Köln\r\n".encode("utf-16")
    response = upload(client, tournament, raw)
    assert response.status_code == 302
    upload(client, tournament, b"Bernd Roth,SC\rClara Dupont,SC\r")
    assert sorted(Player.objects.values_list("name", flat=True)) == [
        "Ayşe Şahin",
        "Bernd Roth",
        "Clara Dupont",
    ]


@given(st.binary(max_size=300))
@settings(max_examples=examples(150), deadline=None)
def test_any_bytes_give_rows_or_errors_never_an_exception(raw):
    try:
        text = decode_upload(raw)
    except UnreadableFile:
        return
    rows, errors = parse_players(text)
    assert rows or errors
    for row in rows:
        assert row.name and "\n" not in row.name and "\x00" not in row.name


@pytest.mark.django_db
def test_player_form_refuses_a_duplicate_name_and_club_on_add_and_edit(
    client, organizer, tournament
):
    client.force_login(organizer)
    anna = services.player_add(tournament=tournament, by=organizer, name="Anna Berg", club="SC")
    bernd = services.player_add(tournament=tournament, by=organizer, name="Bernd", club="SC")
    add = client.post(
        reverse("player_add", args=[tournament.pk]), {"name": "anna berg", "club": "sc"}
    )
    assert add.status_code == 200 and "already registered" in add.content.decode()
    edit = client.post(
        reverse("player_edit", args=[tournament.pk, bernd.pk]), {"name": "Anna Berg", "club": "SC"}
    )
    assert edit.status_code == 200 and "already registered" in edit.content.decode()
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna Berg", "Bernd"]
    assert anna.pk != bernd.pk


@pytest.mark.django_db
def test_player_form_refuses_a_huge_rating(client, organizer, tournament):
    client.force_login(organizer)
    response = client.post(
        reverse("player_add", args=[tournament.pk]), {"name": "Anna", "rating": "99999999999"}
    )
    assert response.status_code == 200 and Player.objects.count() == 0


@pytest.mark.django_db
def test_no_door_lets_a_tournament_exceed_the_player_limit(
    client, organizer, tournament, settings, monkeypatch
):
    monkeypatch.setattr(limits, "MAX_PLAYERS", 3)
    client.force_login(organizer)
    for name in ("A", "B"):
        services.player_add(tournament=tournament, by=organizer, name=name)
    response = upload(client, tournament, b"C\nD\n")
    assert "at most 3 players" in response.content.decode()
    assert Player.objects.count() == 2
    client.post(reverse("player_add", args=[tournament.pk]), {"name": "C"})
    response = client.post(reverse("player_add", args=[tournament.pk]), {"name": "D"})
    assert response.status_code == 200 and "at most 3 players" in response.content.decode()
    assert Player.objects.count() == 3
    with pytest.raises(services.ServiceError):
        services.player_add(tournament=tournament, by=organizer, name="E")


@pytest.mark.django_db
def test_an_account_owns_a_bounded_number_of_tournaments(client, organizer, monkeypatch):
    from scoring.exchange.export import export_tournament
    from scoring.exchange.format import ImportRefused
    from scoring.exchange.importer import import_tournament
    from tournaments.models import Tournament

    monkeypatch.setattr(limits, "MAX_TOURNAMENTS_PER_OWNER", 2)
    services.tournament_create(owner=organizer, name="A", game="quartett")
    first = services.tournament_create(owner=organizer, name="B", game="quartett")
    with pytest.raises(services.ServiceError):
        services.tournament_create(owner=organizer, name="C", game="quartett")
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        {"name": "C", "game": "quartett", "rounds": 4, "round_minutes": 60},
    )
    assert response.status_code == 200 and "at most 2 tournaments" in response.content.decode()
    with pytest.raises(ImportRefused) as info:
        import_tournament(data=export_tournament(first), owner=organizer)
    assert "at most 2 tournaments" in info.value.errors[0]
    assert Tournament.objects.count() == 2
