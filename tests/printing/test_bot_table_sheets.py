"""A digital round with a table the bot fills prints like any other: its
score sheet is for the table's full size (the game is played and ranked at
four), the empty seats named "Bot" in their place. Before, the sheet asked
the engine for a sheet of the humans only, and Monddämmerung refused two."""

import io

import pytest
from pypdf import PdfReader

from scoring.printing import documents
from tests.play.test_bot_fill import mond
from tournaments.services import seating

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_bots")]


def test_every_print_of_a_round_with_a_bot_table_renders(organizer):
    t = mond(organizer, players=10)  # tables of 4: two full, one of 2 players + 2 bots
    rnd = seating.round_seat(tournament=t, by=organizer)
    bot_table = next(tb for tb in rnd.tables.all() if tb.seats.filter(player=None).exists())
    for kind in documents.ROUND_KINDS:
        pdf = documents.render(kind, t, rnd.number, url_for_table=lambda pk: "http://lan/s/x/")
        assert pdf.startswith(b"%PDF")
    sheets = documents.render("sheets", t, rnd.number, url_for_table=lambda pk: "http://lan/s/x/")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(sheets)).pages)
    humans = [s.player.name for s in bot_table.seats.exclude(player=None)]
    assert all(name in text for name in humans)
    assert text.count("Bot") >= 2  # the two empty seats, in their places
