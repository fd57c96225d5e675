"""The registration wing's URLs, grouped by audience like
``tournaments/urls.py``, which includes them: ``organizer_patterns`` below
``tournaments/<id>/``, ``public_patterns`` below ``t/<id>/``,
``link_patterns`` below ``r/<token>/`` (a player's personal link) and
``seat_patterns`` below ``p/<token>/`` (leaving from a seat link)."""

from django.urls import path

from tournaments.registrations.views import link, organizer, public, seat

_REG = "registrations/<int:registration_id>/"

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("registrations/", organizer.registration_list, name="registration_list"),
    path("registrations/announcement/", organizer.announcement_edit, name="announcement_edit"),
    path("registrations/add/", organizer.registration_add, name="registration_add"),
    path("registrations/check-in/", organizer.self_check_in_switch, name="self_check_in_switch"),
    path("registrations/no-shows/", organizer.no_shows_drop, name="no_shows_drop"),
    path("registrations/poster/", organizer.check_in_poster, name="check_in_poster"),
    path("registrations.json", organizer.registrations_json, name="registrations_json"),
    path("registrations.csv", organizer.registrations_csv, name="registrations_csv"),
    path(_REG + "<str:action>/", organizer.registration_action, name="registration_action"),
]

#: below ``t/<int:tournament_id>/``
public_patterns = [
    path("register/", public.announcement_public, name="announcement_public"),
    path("check-in/", public.door, name="registration_door"),
]

#: below ``r/<str:token>/``
link_patterns = [
    path("", link.registration_link, name="registration_link"),
    path("change/", link.registration_change, name="registration_change"),
    path("withdraw/", link.registration_withdraw, name="registration_withdraw"),
    path("check-in/", link.registration_check_in, name="registration_check_in"),
    path("leave/", link.registration_leave, name="registration_leave"),
]

#: below ``p/<str:token>/``
seat_patterns = [
    path("leave/", seat.seat_leave, name="seat_leave"),
]
