"""Signing up (rate-limited per address) and the page a locked-out login sees."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.addresses import client_address
from tournaments.forms import JoinForm
from tournaments.problems import problem
from tournaments.views._helpers import AddressLimit

#: the accounts one address may create (``SIGNUP_LIMIT`` in ``SIGNUP_WINDOW`` seconds)
SIGNUPS = AddressLimit(
    "signup-count",
    "SIGNUP",
    lambda minutes: (
        ngettext(
            "Too many accounts were created from this address. Try again in %(n)s minute.",
            "Too many accounts were created from this address. Try again in %(n)s minutes.",
            minutes,
        )
        % {"n": minutes}
    ),
)


@require_http_methods(["GET", "POST"])
def signup(request):
    """An organizer creates an account and is logged in; at most
    ``SIGNUP_LIMIT`` accounts per address in ``SIGNUP_WINDOW`` seconds."""
    if request.user.is_authenticated:
        return redirect("tournament_list")
    if request.method == "POST" and not SIGNUPS.left(request):
        return SIGNUPS.refused(request)
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not SIGNUPS.take(request):
            return SIGNUPS.refused(request)
        try:
            # the account and its logged-in session are stored together or not at all
            with transaction.atomic():
                user = form.save()
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except IntegrityError:  # the same name was taken a moment ago
            SIGNUPS.give_back(request)
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
        except BaseException:
            SIGNUPS.give_back(request)
            raise
        else:
            return redirect("tournament_list")
    return render(request, "registration/signup.html", {"form": form})


def locked_out(request, response=None, credentials=None):
    """django-axes' lockout answer: when the login may be tried again."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt

    username = (credentials or {}).get("username") or request.POST.get("username", "")
    address = client_address(request)
    # the lock is the name's from this address (AXES_LOCKOUT_PARAMETERS)
    attempts = AccessAttempt.objects.filter(
        Q(ip_address=address) if address else Q(ip_address__isnull=True), username=username
    )
    last = attempts.aggregate(last=Max("attempt_time"))["last"]
    until = (last or timezone.now()) + (get_cool_off(request) or timedelta(0))
    minutes = max(1, round((until - timezone.now()).total_seconds() / 60))
    when = formats.time_format(timezone.localtime(until), "TIME_FORMAT")
    return problem(
        request,
        ngettext(
            "Too many failed logins for this name from this address. "
            "Try again at %(time)s (in %(n)s minute).",
            "Too many failed logins for this name from this address. "
            "Try again at %(time)s (in %(n)s minutes).",
            minutes,
        )
        % {"time": when, "n": minutes},
        status=429,
        title=_("Please wait"),
    )


@require_http_methods(["GET", "POST"])
def helper_join(request, tournament_id: int, token: str):
    """A helper opens his invitation: logged in, he joins with one press;
    otherwise he creates his account here (name and password) or logs in first.
    A used, withdrawn, expired or unknown link, or one for another tournament,
    gets a page saying so (410 / 404) and changes nothing."""
    try:
        invite = services.invite_check(tournament_id=tournament_id, token=token)
    except services.ServiceError as e:
        return problem(request, str(e), status=410, title=_("Invitation not valid"))
    user = request.user if request.user.is_authenticated else None
    posted = request.method == "POST" and user is None
    form = JoinForm(request.POST if posted else None, initial={"username": invite.name})
    if request.method == "POST" and (user is not None or form.is_valid()):
        try:
            with transaction.atomic():
                joined, invite = services.invite_accept(
                    tournament_id=tournament_id,
                    token=token,
                    user=user,
                    username="" if user else form.cleaned_data["username"],
                    password="" if user else form.cleaned_data["password1"],
                )
                if user is None:
                    login(request, joined, backend="django.contrib.auth.backends.ModelBackend")
        except services.ServiceError as e:
            if user is None:
                form.add_error("username", str(e))
            else:
                messages.error(request, str(e))
        else:
            messages.success(
                request,
                _("Welcome, %(name)s: you are now a scorekeeper of %(tournament)s.")
                % {"name": joined.get_username(), "tournament": invite.tournament.name},
            )
            return redirect(invite.tournament)
    return render(
        request,
        "registration/helper_join.html",
        {
            "invite": invite,
            "tournament": invite.tournament,
            "form": form,
            "joining_user": user,
            "login_url": reverse("login") + "?" + urlencode({"next": request.get_full_path()}),
        },
    )
