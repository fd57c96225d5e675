"""Steps of the online site behind a proxy (``tests/tournaments/test_proxy.py``),
each run in the site's environment as ``python -m tests.proxy_site <step>``;
each prints one JSON line.

``setup``: migrate, two organizers (``orga``, ``other``) and a tournament
open for registration; ``state``: the registrations of that tournament.
"""

from __future__ import annotations

import json
import sys

PASSWORDS = {"orga": "pw-orga-online-1", "other": "pw-other-online-1"}


def setup() -> dict:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments import services
    from tournaments.registrations import services as registrations

    call_command("migrate", verbosity=0)
    users = {
        name: get_user_model().objects.create_user(name, password=password)
        for name, password in PASSWORDS.items()
    }
    t = services.tournament_create(owner=users["orga"], name="Vereinsturnier", game="quartett")
    registrations.announcement_save(tournament=t, by=users["orga"], cap=64)
    return {"tournament": t.pk}


def state() -> dict:
    from tournaments.registrations.models import Registration

    return {"registered": sorted(Registration.objects.values_list("name", flat=True))}


if __name__ == "__main__":
    import django

    django.setup()
    step = {"setup": setup, "state": state}[sys.argv[1]]
    print(json.dumps(step()))
