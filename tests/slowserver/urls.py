"""The site's URLs plus two runaway pages and a push stream (test-only, see
__init__)."""

import asyncio

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.http import HttpResponse, StreamingHttpResponse
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


def write_then_run_away(request):
    """A change in a transaction, then a statement that never ends."""
    with transaction.atomic():
        get_user_model().objects.create(username="written-by-a-runaway")
        return one_long_query(request)


async def stream(request):
    """A push stream as a live screen's would be (Server-Sent Events from an async
    view): an event every 0.5 s, ten in all."""

    async def events():
        for n in range(10):
            yield f"data: {n}\n\n"
            await asyncio.sleep(0.5)

    return StreamingHttpResponse(events(), content_type="text/event-stream")


urlpatterns = [
    path("test-only/stream/", stream),
    path("test-only/one-long-query/", one_long_query),
    path("test-only/many-short-queries/", many_short_queries),
    path("test-only/write-then-run-away/", write_then_run_away),
    *site,
]
