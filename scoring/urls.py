"""The results app's URLs: result entry and the printed sheet's signed link
(the standings: ``scoring/standings/urls.py``; the exports:
``scoring/exchange/urls.py``; series and season standings:
``scoring/season/urls.py``; scanned sheets: ``scoring/scans/urls.py``;
printing: ``scoring/printing/urls.py``).

Grouped by audience, like ``tournaments/urls.py`` which includes them:
``organizer_patterns`` below ``tournaments/<id>/`` (the organizer and the
scorekeepers) and ``urlpatterns`` for the pages that belong to no one
tournament. A player's seat link (``p/<token>/``) is the seat wing's
(``tournaments/play/urls.py``).
"""

from django.urls import path

from scoring.views import entry

_TABLE = "rounds/<int:number>/tables/<int:table>/"

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    # result entry
    path(_TABLE + "result/", entry.result_entry, name="result_entry"),
    path(_TABLE + "result/<int:version>/confirm/", entry.result_confirm, name="result_confirm"),
    path("rounds/<int:number>/results/enter/", entry.result_find, name="result_find"),
]

#: pages of no one tournament
urlpatterns = [
    # the QR code on a printed sheet: the table's result form, for its staff
    path("s/<str:token>/", entry.sheet_link, name="sheet_link"),
]
