"""The embedded default's file cache: shared by every process of the laptop
(it lives in files), culled at most once a minute instead of listing its
folder on every write."""

import pytest

from tournaments.cache import FileCache


def test_two_processes_share_entries_through_the_folder(tmp_path):
    one = FileCache(str(tmp_path), {})
    other = FileCache(str(tmp_path), {})  # another gunicorn worker
    one.set("live:clock:7", {"status": "running"}, 60)
    assert other.get("live:clock:7") == {"status": "running"}
    other.delete("live:clock:7")
    assert one.get("live:clock:7") is None


def test_culling_still_bounds_the_folder_but_not_on_every_write(tmp_path, monkeypatch):
    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    listings = []
    original = FileCache._list_cache_files
    monkeypatch.setattr(
        FileCache, "_list_cache_files", lambda self: listings.append(1) or original(self)
    )
    for i in range(30):
        cache.set(f"k{i}", i, 60)
    assert len(listings) == 1  # one cull in this minute
    monkeypatch.setattr(cache, "_culled_at", -1e9)  # a minute later
    cache.set("again", 1, 60)
    assert len(list(tmp_path.glob("*.djcache"))) <= 16


def _count_in_another_process(folder: str, times: int, start) -> list[bool]:
    """A gunicorn worker counting signups: ``add`` the counter or ``incr`` it."""
    cache = FileCache(folder, {})
    start.wait()
    firsts = []
    for _ in range(times):
        first = cache.add("signup-count:203.0.113.9", 1, 3600)
        if not first:
            cache.incr("signup-count:203.0.113.9")
        firsts.append(first)
    return firsts


def test_counting_from_several_processes_at_once_loses_no_count(tmp_path):
    """Four processes count 50 each into one entry: 200, and exactly one of
    them created it (Django's file cache lost counts and let several create)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    start = context.Manager().Event()
    with ProcessPoolExecutor(4, mp_context=context) as pool:
        futures = [
            pool.submit(_count_in_another_process, str(tmp_path), 50, start) for _ in range(4)
        ]
        start.set()
        firsts = [first for f in futures for first in f.result(timeout=60)]
    assert FileCache(str(tmp_path), {}).get("signup-count:203.0.113.9") == 200
    assert firsts.count(True) == 1


def test_incr_keeps_the_entrys_expiry(tmp_path, monkeypatch):
    """The window of a count starts with its first signup, as in Redis: an
    increment neither extends it nor shortens it to the default 5 minutes."""
    import time

    cache = FileCache(str(tmp_path), {})
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    assert cache.add("n", 1, 3600)
    now[0] += 3000
    assert cache.incr("n") == 2
    now[0] += 599
    assert cache.get("n") == 2
    now[0] += 2
    assert cache.get("n") is None
    with pytest.raises(ValueError):
        cache.incr("n")
    assert cache.add("n", 1, 3600)  # a new window
    cache.set("forever", 5, None)
    assert cache.incr("forever", 2) == 7
    now[0] += 10**7
    assert cache.get("forever") == 7
