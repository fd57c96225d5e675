"""The site's URLs plus two runaway pages (test-only, see __init__)."""

from django.db import connection
from django.http import HttpResponse
from django.urls import path

from tournaments.urls import urlpatterns as site


def one_long_query(request):
    """A single statement that never ends by itself."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_sleep(3600)")
        else:
            cursor.execute(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                "SELECT count(*) FROM c"
            )
    return HttpResponse("finished")  # never reached


def many_short_queries(request):
    """Short statements one after the other, for ever: each is within the
    statement timeout, the request as a whole is not."""
    with connection.cursor() as cursor:
        while True:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT pg_sleep(0.05)")
            else:
                cursor.execute(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                    "WHERE x < 20000) SELECT count(*) FROM c"
                )


urlpatterns = [
    path("test-only/one-long-query/", one_long_query),
    path("test-only/many-short-queries/", many_short_queries),
    *site,
]
