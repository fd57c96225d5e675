"""The file cache of the embedded default (one laptop, several processes).

Django's file cache lists its whole folder on every write to decide whether
to cull; with the clock's and the seats' entries written every second that
listing costs more than the answers it caches. This one culls at most once a
minute per process (between two culls the folder grows by at most a
minute's writes, far below ``MAX_ENTRIES``). Everything else is Django's.
"""

from __future__ import annotations

import time

from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY = 60.0


class FileCache(FileBasedCache):
    _culled_at = 0.0

    def _cull(self):
        now = time.monotonic()
        if now - self._culled_at < CULL_EVERY:
            return
        self._culled_at = now
        super()._cull()
