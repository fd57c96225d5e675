"""Authentication backends: django-axes' lockout check in front of Django's."""

from axes.backends import AxesStandaloneBackend


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' check for logins made through a request (the login form).

    ``authenticate()`` without a request (``Client.login`` in tests, a
    management command) has no address to throttle; axes would refuse it with
    an exception, this backend leaves it to the next one instead."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
