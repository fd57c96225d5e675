"""The order the tests start in (tests/conftest.py): the long ones first,
longest first, so that none begins at a worker's tail."""

from types import SimpleNamespace

from tests import conftest


def _item(nodeid, marker=None):
    return SimpleNamespace(
        nodeid=nodeid, get_closest_marker=lambda name: name if name == marker else None
    )


def _order(items, durations):
    return [i.nodeid for i in sorted(items, key=lambda i: conftest._cost(i, durations))]


def test_measured_long_tests_start_first_longest_first_the_rest_keep_their_order():
    items = [_item(f"tests/a.py::test_{n}") for n in "abcde"]
    durations = {"tests/a.py::test_b": 3.0, "tests/a.py::test_d": 20.0, "tests/a.py::test_e": 0.2}
    assert _order(items, durations) == [
        "tests/a.py::test_d",
        "tests/a.py::test_b",
        "tests/a.py::test_a",
        "tests/a.py::test_c",
        "tests/a.py::test_e",
    ]


def test_without_measures_the_listed_long_tests_start_first():
    listed = "tests/test_fuzz_urls.py::" + conftest._LONG_FAST[1].split("::")[1]
    items = [_item("tests/a.py::test_a"), _item(listed)]
    assert _order(items, {}) == [listed, "tests/a.py::test_a"]
    # measured short now: it keeps its place
    assert _order(items, {listed: 0.1}) == ["tests/a.py::test_a", listed]


def test_browser_and_server_tests_keep_their_order_however_long():
    items = [_item("tests/b.py::test_a", "server"), _item("tests/b.py::test_b", "browser")]
    items.append(_item("tests/a.py::test_c"))
    durations = {"tests/b.py::test_a": 1.0, "tests/b.py::test_b": 30.0, "tests/a.py::test_c": 2.0}
    assert _order(items, durations) == [
        "tests/a.py::test_c",
        "tests/b.py::test_a",
        "tests/b.py::test_b",
    ]
