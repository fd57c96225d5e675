"""What the Django side and the printed sheets read from every engine."""

import pytest

from games import ENGINES

# seeds: Terra Trumpf and Monddämmerung pass to the right ("rechts"), Quartett,
# Trumpet and Altruismus to the left / clockwise ("links", "im Uhrzeigersinn")
DIRECTIONS = {
    "quartett": "left",
    "terra_trumpf": "right",
    "trumpet": "left",
    "monddaemmerung": "right",
    "altruismus": "left",
}


@pytest.mark.parametrize("engine_id", sorted(ENGINES))
def test_engine_says_how_play_passes_at_the_physical_table(engine_id):
    assert ENGINES[engine_id].play_direction == DIRECTIONS[engine_id]


@pytest.mark.parametrize("engine_id", sorted(ENGINES))
def test_engine_has_names_and_time_called_instructions(engine_id):
    engine = ENGINES[engine_id]
    assert engine.id == engine_id and engine.name
    assert 2 <= engine.min_players <= engine.max_players <= 6
    assert len(engine.time_called_text) > 20
    assert engine.figure_label


@pytest.mark.parametrize("engine_id", sorted(ENGINES))
def test_default_options_are_accepted_by_the_engine(engine_id):
    engine = ENGINES[engine_id]
    options = engine.default_options()
    s = engine.new_game(engine.min_players, 1, options)
    assert engine.to_act(s)
    names = {f["name"] for f in engine.options_schema()}
    assert set(options) <= names


@pytest.mark.parametrize("engine_id", sorted(ENGINES))
def test_sheet_texts_are_msgids_filled_after_translation(engine_id):
    """Labels, help texts and groups are plain msgids; numbers come from params,
    so a translated text gets the same numbers."""
    from games.sheets import display

    engine = ENGINES[engine_id]
    for n in range(engine.min_players, engine.max_players + 1):
        for f in engine.sheet_schema(n, engine.default_options()):
            for text in (f["label"], f.get("help") or ""):
                shown = display(text, f.get("params"), lambda t: "X:" + t)
                assert "{" not in shown, (f["name"], shown)
            if f.get("group"):
                assert display(f["group"], None, lambda w: "X" + w).startswith("X")


def test_display_translates_first_then_fills_params():
    from games.sheets import display

    german = {"1 to {track}": "1 bis {track}", "hand": "Durchgang"}.get
    assert display("1 to {track}", {"track": 30}, german) == "1 bis 30"
    assert display("hand 3", None, german) == "Durchgang 3"


@pytest.mark.parametrize("engine_id", sorted(ENGINES))
def test_a_mistyped_option_is_refused_not_ignored(engine_id):
    engine = ENGINES[engine_id]
    with pytest.raises(ValueError, match=f"unknown {engine.name} option.*: dekc"):
        engine.new_game(engine.min_players, 1, {"dekc": "standard"})
    with pytest.raises(ValueError, match="options must be a dict, not list"):
        engine.new_game(engine.min_players, 1, ["deck"])
