"""The embedded default's file cache: shared by every process of the laptop
(it lives in files), culled at most once a minute instead of listing its
folder on every write."""

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
