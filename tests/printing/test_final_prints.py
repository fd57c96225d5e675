"""Prints where a final stage decides (issue 36): the certificates say
"Winner of the final" and the finalists' stage and place, not qualifying
points that did not decide; the standings PDF and certificates name the
rounds as rounds and the final stage by name ("after 1 round, the
semi-final and the final", never "round 3 of 3"); the standings PDF labels
a finalist "Semi-final, place 1" as the pages do."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.printing import documents
from scoring.standings.selectors import standings
from tests.finals.test_finals import (
    _pdf_text,
    end,
    enter,
    final_of,
    play_round,
    quartett,
)
from tournaments.finals import services
from tournaments.finals.models import FinalStage

pytestmark = pytest.mark.django_db


def _semis_and_final(organizer, mode=FinalStage.REPLACE):
    t = quartett(organizer, players=12, rounds=1)
    final_of(
        t,
        format=FinalStage.SEMIS,
        semi_tables=2,
        semi_size=4,
        advance=2,
        final_size=4,
        mode=mode,
    )
    play_round(t)
    semi = services.final_seat(tournament=t, by=organizer)
    for table in semi.tables.all():
        enter(table)
    end(semi)
    final = services.final_seat(tournament=t, by=organizer)
    enter(final.tables.get())
    end(final)
    return t


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            {
                "after": "Final standings after one round, the semi-final and the final",
                "winner": "Winner of the final",
                "second": "Final, place 2",
                "semi": "Semi-final, place 3",
                "points": "Points:",
                "counts": "Counts round 1, semi-final and final.",
            },
        ),
    ]
    + [
        (
            "de",
            {
                "after": "Endstand nach einer Runde, dem Halbfinale und dem Finale",
                "winner": "Sieger des Finales",
                "second": "Finale, Platz 2",
                "semi": "Halbfinale, Platz 3",
                "points": "Punkte:",
                "counts": "Gezählt: Runde 1, Halbfinale und Finale.",
            },
        ),
    ],
)
def test_certificates_and_final_standings_name_the_final_that_decided(organizer, language, said):
    t = _semis_and_final(organizer)
    rows = standings(t)
    with translation.override(language):
        certificates = flat(_pdf_text(documents.render("certificates", t, places=5)))
        final = flat(_pdf_text(documents.render("final", t)))
    assert said["after"] in certificates
    assert said["after"] in final
    assert said["counts"] in final  # the line under the title: stages by name too
    assert "5 von 5" not in certificates + final and "5 of 5" not in certificates + final
    # the winner of the final: so named, and no qualifying points on any finalist's page
    assert certificates.count(said["winner"]) == 1
    assert said["second"] in certificates
    assert said["points"] not in certificates
    assert certificates.index(rows[0].name) < certificates.index(said["winner"])
    # the standings PDF: a finalist's stage and place as the pages say it
    assert said["semi"] in final
    assert "Halbfinale 3" not in final and "Semi-final 3" not in final


def test_where_the_final_only_adds_points_the_certificates_keep_the_points(organizer):
    t = _semis_and_final(organizer, FinalStage.ADD)
    with translation.override("en"):
        certificates = flat(_pdf_text(documents.render("certificates", t, places=3)))
    assert "Winner of the final" not in certificates
    assert certificates.count("Points:") >= 3
    assert "after one round, the semi-final and the final" in certificates
