"""The mirror wing's paths: the laptop's API on the online site
(``mirror/api/``), the organizer's keys (online) and pairing (laptop), a
tournament's publishing page, and its public season page."""

from django.urls import path

from tournaments.mirror.views import api, laptop, online, public

#: pages of no one tournament, below ``mirror/``
site_patterns = [
    path("api/hello/", api.hello, name="mirror_api_hello"),
    path("api/publish/", api.publish, name="mirror_api_publish"),
    path("api/publications/<int:received_id>/", api.outcome, name="mirror_api_outcome"),
    path("api/tournaments/<int:online_id>/entries/", api.entries, name="mirror_api_entries"),
    path("keys/", online.key_list, name="mirror_keys"),
    path("keys/<int:key_id>/revoke/", online.key_revoke, name="mirror_key_revoke"),
    path("confirm/<str:token>/", online.confirm, name="mirror_confirm"),
    path("link/", laptop.link, name="mirror_link"),
]

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("mirror/", laptop.tournament_mirror, name="tournament_mirror"),
    path("mirror/entries/", laptop.entries_fetch, name="mirror_entries_fetch"),
]

#: a public tournament's pages, below ``t/<int:tournament_id>/``
public_patterns = [
    path("season/", public.tournament_season, name="tournament_season"),
]
