"""A refused request as a page: the site's layout, a translated title and
message, the right status code. Views call :func:`problem` for bad input
(nothing has changed when it is shown)."""

from __future__ import annotations

from django.shortcuts import render


def problem(request, message: str, *, status: int = 400, title: str | None = None, back: str = "/"):
    return render(
        request,
        "problem.html",
        {"message": message, "title": title, "back": back},
        status=status,
    )
