"""The scanned sheets' URLs (a round's upload, a pile, a page's image and
crops, the table named for a page), below ``tournaments/<id>/`` like the
organizer's pages of ``tournaments/urls.py``, which includes them."""

from django.urls import path

from scoring.scans import views as scan_views

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("rounds/<int:number>/scans/", scan_views.scan_upload, name="scan_upload"),
    path("rounds/<int:number>/scans/<int:pile_id>/", scan_views.scan_pile, name="scan_pile"),
    path(
        "rounds/<int:number>/scans/<int:pile_id>/confirm/",
        scan_views.scan_pile_confirm,
        name="scan_pile_confirm",
    ),
    path(
        "rounds/<int:number>/scans/pages/<int:page_id>/<slug:name>.png",
        scan_views.scan_crop,
        name="scan_crop",
    ),
    path(
        "rounds/<int:number>/scans/pages/<int:page_id>.jpg",
        scan_views.scan_page_image,
        name="scan_page_image",
    ),
    path(
        "rounds/<int:number>/scans/pages/<int:page_id>/table/",
        scan_views.scan_page_table,
        name="scan_page_table",
    ),
]
