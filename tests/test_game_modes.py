"""The game's mode is one seam (issue 24): each mode answers every question, and the header picks the mode.

The rest of the game layer, the protocol layer and the CLI ask
:func:`pbem.game.modes.mode_of` (and :func:`pbem.protocol.modes.file_mode`)
instead of testing a flag, so a mode that leaves a question unanswered, or a
turn file read as the wrong mode, would break every caller at once.  A third
mode is one more implementation: the checks below hold for any entry added
to ``MODES`` or ``FILE_MODES``.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from pbem.bot.play import bot_orders
from pbem.game.adjudication import adjudicate_received
from pbem.loading.folder import turn_name
from pbem.game.modes import MODES, GameMode, mode_of, mode_to_start
from pbem.game.modes.referee import RefereeMode
from pbem.game.modes.two_player import TwoPlayerMode
from pbem.game.player import side_to_move
from pbem.game.receipts import submit_orders
from pbem.loading.turns import scenario_of
from pbem.protocol.files import write_new
from pbem.protocol.keys import generate
from pbem.protocol.modes import FILE_MODES, FileMode, file_mode
from pbem.protocol.turnfile import REFEREE, read_turn

SCENARIO = str(Path(__file__).resolve().parent.parent / "scenarios" / "test-skirmish.json")


def _questions(seam: type) -> set[str]:
    """Every question a seam asks: its abstract methods and the attributes it declares without a value."""
    return set(seam.__abstractmethods__) | {name for name in getattr(seam, "__annotations__", {}) if not hasattr(seam, name)}


@pytest.mark.parametrize("seam, implementations, some", [
    (GameMode, MODES, {"name", "files", "secrets", "held", "following", "verify", "audit_from_files", "advise", "advise_over"}),
    (FileMode, FILE_MODES, {"name", "orders_commit_seed", "adjudicator", "link_problem", "orders_problems", "nmr_problem"}),
], ids=["game", "files"])
def test_every_mode_answers_every_question_of_the_seam(seam, implementations, some):
    questions = _questions(seam)
    assert some <= questions
    assert {"referee", "two-player"} <= set(implementations)
    for name, mode in implementations.items():
        assert isinstance(mode, seam)
        assert not type(mode).__abstractmethods__, f"{name} leaves {sorted(type(mode).__abstractmethods__)} unanswered"
        for question in questions:
            # answered by the implementation itself, not merely inherited from the seam
            assert any(question in vars(klass) for klass in type(mode).__mro__ if klass is not seam and klass is not object), \
                f"the {name} mode does not answer {question}"
        assert mode.name == name
        for method in seam.__abstractmethods__:
            ours, theirs = inspect.signature(getattr(seam, method)), inspect.signature(getattr(type(mode), method))
            assert list(ours.parameters) == list(theirs.parameters), f"{name}.{method} takes {theirs}, the seam asks {ours}"


def test_a_mode_that_leaves_a_question_unanswered_cannot_be_made():
    missing = {name: getattr(RefereeMode, name) for name in vars(RefereeMode) if name != "advise_over"}
    incomplete = type("Incomplete", (GameMode,), missing)
    with pytest.raises(TypeError, match="advise_over"):
        incomplete()
    assert "advise_over" in _questions(GameMode)


def test_each_game_mode_names_the_file_rules_of_its_own_mode():
    for name, mode in MODES.items():
        assert mode.files is FILE_MODES[name]


def test_mode_of_a_name_and_the_mode_new_starts():
    assert isinstance(mode_of("referee"), RefereeMode)
    assert isinstance(mode_of("two-player"), TwoPlayerMode)
    with pytest.raises(ValueError, match="no game mode is called 'hidden'"):
        mode_of("hidden")
    assert mode_to_start(referee=True, options=None) is mode_of("referee")
    assert mode_to_start(referee=False, options=None) is mode_of("two-player")
    assert mode_to_start(referee=False, options=["hidden-units"]) is mode_of("hidden-no-referee")
    assert mode_to_start(referee=True, options=["hidden-units"]) is mode_of("referee")


def _play_one_turn(folder: Path, referee: bool) -> list:
    """The genesis file and the first adjudicated turn file of a skirmish in one mode, through the files."""
    folder.mkdir()
    parties = {role: generate(role.lower()) for role in ("ref", "US", "JP")}
    starter = parties["ref"] if referee else parties["JP"]  # US moves first: Japan starts a two-player game
    mode = mode_to_start(referee=referee, options=None)
    genesis = mode.start(SCENARIO, starter, parties["US"].public, parties["JP"].public,
                         referee=parties["ref"].public if referee else None, edition=None, ground_support=None, options=None)
    path = write_new(folder / turn_name(0), genesis.text)
    turn = read_turn(path, genesis=genesis)
    side = turn.public["awaiting"]
    _, view = side_to_move(turn, parties[side])
    sent = submit_orders(turn, parties[side], side, bot_orders(view, scenario_of(turn), "greedy", 1))
    adjudicator = parties["ref"] if referee else parties[mode.seed_holder(turn)]
    done = adjudicate_received(turn, [(sent.built.text, str(sent.path))], adjudicator)
    following = read_turn(write_new(folder / turn_name(1), done.turn.text), genesis=genesis)
    return [genesis, following]


@pytest.mark.parametrize("referee", [True, False], ids=["referee", "two-player"])
def test_mode_of_picks_the_mode_a_turn_file_header_names(tmp_path, referee):
    turns = _play_one_turn(tmp_path / "game", referee)
    expected = RefereeMode if referee else TwoPlayerMode
    for turn in turns:
        named = turn.body.get("mode", "referee")  # a referee's turn file names no mode: the format's default
        assert named == ("referee" if referee else "two-player")
        assert type(mode_of(turn)) is expected
        assert file_mode(turn) is mode_of(turn).files
    genesis, following = turns
    mode = mode_of(following)
    # the answers the callers rely on, from the files of each mode
    if referee:
        assert mode.adjudicator(genesis, "US") == mode.seed_holder(genesis) == REFEREE
        assert set(mode.secrets(genesis)) == {"views.US", "views.JP", "referee_state", "next seed"}
        assert mode.audit_needs_reveal and mode.audit_from_files([genesis, following]) is None
    else:
        assert mode.adjudicator(genesis, "US") == mode.seed_holder(genesis) == "JP" == genesis.writer
        assert mode.secrets(following) == {"next seed": following.dice.committed_by}
        assert not mode.audit_needs_reveal and mode.audit_from_files([genesis, following]) == ([], 1)
