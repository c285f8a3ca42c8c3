"""Fuzzing the commands a player and a referee run, as a week of play did.

Random damage to every kind of file that travels or is kept (turn files,
orders files, ``.pub`` identities, key files, orders JSON), and random
orders JSON near the schema, are fed to the commands that read them.
Whatever the input, a command ends with exit status 0, 1 or 2 — never 3,
pbem's own fault — and never prints a traceback.

The budget is small so that CI stays quick; set ``PBEM_FUZZ_EXAMPLES`` to
search longer (the week's search ran tens of thousands of inputs).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests import games

BUDGET = settings(
    max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def run(cwd: Path, *args) -> tuple[int, str]:
    """``pbem ARGS`` in ``cwd``: the exit status and everything printed."""
    status, out, err = games.run(*args, cwd=cwd)
    return status, out + err


def assert_no_fault(status: int, printed: str, what: str) -> None:
    assert status in (0, 1, 2) and "internal error" not in printed and "Traceback" not in printed, f"{what}: {status}\n{printed}"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Keys, a started game with one adjudicated player-turn, the JP orders to the next, and their JSON."""
    from pbem.loading.turns import load_turn
    from pbem.protocol.files import write_new
    from pbem.protocol.ordersfile import build_orders_for_turn

    base = tmp_path_factory.mktemp("fuzz")
    ids = games.small_game(base, games.LANDING)
    turn = load_turn(base / "game" / "turn-0001.pbem")
    jp_orders = {"moves": [{"unit": "jp-1-33", "path": ["0604"]}], "note": "your move"}
    (base / "jp.json").write_text(json.dumps(jp_orders))
    write_new(base / "orders-0001-JP.pbem", build_orders_for_turn(ids["jp"], turn, "JP", jp_orders).text)
    return base


# -- damage ----------------------------------------------------------------------

def _flip(data: bytes, at: int, bit: int) -> bytes:
    at %= max(len(data), 1)
    return data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1:] if data else data


MAIL_DAMAGE = [
    lambda t: t.replace("\n", "\r\n"),
    lambda t: "".join("> " + line for line in t.splitlines(True)),
    lambda t: "\ufeff" + t.replace(" ", "\u00a0"),
    lambda t: t.replace("\n\n", "\n"),
    lambda t: t.replace("\n", "\n\n"),
    lambda t: " " + t,
    lambda t: t[: len(t) // 2],
    lambda t: t + t,
    lambda t: t.replace("=", "", 1),
    lambda t: t.replace("PBEM TURN", "PBEM ORDERS"),
]


@st.composite
def damage(draw, data: bytes) -> bytes:
    """One random change a mail, a forum, a disk or a meddler could make."""
    how = draw(st.sampled_from(["flip", "cut", "insert", "mail", "swap-lines", "replace-text"]))
    if how == "flip":
        return _flip(data, draw(st.integers(0, 1 << 20)), draw(st.integers(0, 7)))
    if how == "cut":
        start = draw(st.integers(0, len(data)))
        return data[:start] + data[start + draw(st.integers(1, 200)):]
    if how == "insert":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(min_size=1, max_size=40)) + data[at:]
    text = data.decode("utf-8", errors="replace")
    if how == "mail":
        return draw(st.sampled_from(MAIL_DAMAGE))(text).encode("utf-8")
    if how == "swap-lines":
        lines = text.splitlines(True)
        if len(lines) > 2:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines).encode("utf-8")
    at = draw(st.integers(0, len(text)))
    return (text[:at] + draw(st.text(max_size=20)) + text[at + draw(st.integers(0, 20)):]).encode("utf-8", "surrogatepass")


def _copy(game: Path) -> Path:
    here = Path(tempfile.mkdtemp(dir=game.parent))
    shutil.copytree(game, here, dirs_exist_ok=True)
    return here


# Which command reads which file, and how.
COMMANDS = {
    "game/turn-0001.pbem": [("view", "game/turn-0001.pbem", "--key", "jp.key"),
                            ("orders", "template", "game/turn-0001.pbem", "--key", "jp.key"),
                            ("verify", "game"), ("dice", "game"), ("audit", "game", "--key", "ref.key")],
    "game/turn-0000.pbem": [("view", "game/turn-0001.pbem", "--key", "us.key")],
    "orders-0001-JP.pbem": [("adjudicate", "game/turn-0001.pbem", "orders-0001-JP.pbem", "--key", "ref.key", "-o", "next.pbem")],
    "jp.json": [("validate", "jp.json", "--turn", "game/turn-0001.pbem", "--key", "jp.key"),
                ("orders", "check", "jp.json", "--position", "test-skirmish"),
                ("submit", "jp.json", "--turn", "game/turn-0001.pbem", "--key", "jp.key", "-o", "sent.pbem")],
    "us.pub": [("new", "test-skirmish", "--us", "us.pub", "--jp", "jp.pub", "--referee", "ref.pub", "--key", "ref.key", "--out", "g2")],
    "jp.key": [("view", "game/turn-0001.pbem", "--key", "jp.key")],
}


@BUDGET
@given(data=st.data())
def test_damaged_files_never_end_in_an_internal_error(game, data):
    name = data.draw(st.sampled_from(sorted(COMMANDS)))
    here = _copy(game)
    try:
        target = here / name
        target.write_bytes(data.draw(damage(target.read_bytes())))
        for args in COMMANDS[name]:
            status, printed = run(here, *args)
            assert_no_fault(status, printed, f"{name} damaged, then pbem {' '.join(args)}")
    finally:
        shutil.rmtree(here)


# -- random orders near the schema --------------------------------------------------

UNITS = ["jp-1-33", "jp-1-9", "jp-16rcn", "jp-2-9", "jp-art-22", "us-7cav", "jp-1-33\u200b", "JP-1-9", "\ud800", ""]
HEXES = ["0604", "0605", "0505", "1104", "9999", "06O4", 604, None]
WEIRD = st.one_of(st.sampled_from(UNITS), st.sampled_from(HEXES), st.integers(-3, 10), st.floats(allow_nan=False, allow_infinity=False),
                  st.booleans(), st.none(), st.text(max_size=8), st.just(2.0))


def _listed(item):
    return st.one_of(st.lists(item, max_size=3), WEIRD)


MOVE = st.fixed_dictionaries({"unit": st.one_of(st.sampled_from(UNITS), WEIRD)},
                             optional={"path": _listed(st.sampled_from(HEXES)), "enter": st.sampled_from(HEXES),
                                       "exit": st.booleans(), "speed": WEIRD})
ADVANCE = st.fixed_dictionaries({"unit": st.sampled_from(UNITS), "to": st.one_of(st.integers(0, 4), WEIRD)},
                                optional={"follow": st.sampled_from(UNITS)})
ATTACK = st.fixed_dictionaries(
    {"defenders": _listed(st.sampled_from(UNITS))},
    optional={"attackers": _listed(st.sampled_from(UNITS)), "barrage": _listed(st.sampled_from(UNITS)),
              "gsp": st.one_of(st.integers(-1, 3), WEIRD), "banzai": st.booleans(), "advance": _listed(ADVANCE),
              "retreats": _listed(st.fixed_dictionaries({"unit": st.sampled_from(UNITS), "path": _listed(st.sampled_from(HEXES))}))},
)
ORDERS = st.one_of(
    st.fixed_dictionaries({}, optional={"moves": _listed(MOVE), "attacks": _listed(ATTACK), "note": st.one_of(st.text(max_size=30), WEIRD)}),
    WEIRD,
)


@BUDGET
@given(orders=ORDERS)
def test_validate_and_orders_check_answer_any_orders_with_problems_not_faults(game, orders):
    here = _copy(game)
    try:
        (here / "jp.json").write_text(json.dumps(orders), encoding="utf-8", errors="surrogatepass")
        for args in COMMANDS["jp.json"]:
            status, printed = run(here, *args)
            assert status in (0, 2)
            assert_no_fault(status, printed, f"pbem {' '.join(args)} with {orders!r}")
    finally:
        shutil.rmtree(here)


@BUDGET
@given(orders=ORDERS)
def test_the_referee_adjudicates_any_signed_orders_without_a_fault(game, orders):
    """What a player's pbem lets through (or a modified one signs) is adjudicated or refused, never a crash."""
    from pbem.errors import PbemError
    from pbem.loading.turns import load_turn
    from pbem.game.adjudication import adjudicate_orders
    from pbem.loading.jsonfile import check_document
    from pbem.protocol.keys import read_private
    from pbem.protocol.ordersfile import build_orders_for_turn

    try:
        check_document(orders, "orders")  # what no pbem signs (a lone surrogate cannot even be written as UTF-8)
    except PbemError:
        return
    turn = load_turn(game / "game" / "turn-0001.pbem")
    try:
        sent = build_orders_for_turn(read_private(game / "jp.key", None), turn, "JP", orders)
        done = adjudicate_orders(turn, sent.text, "orders", read_private(game / "ref.key", None))
    except PbemError:
        return
    assert done.step.last["side"] == "JP"


# -- what the referee signed, malformed -----------------------------------------------

JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2, 5), st.text(max_size=6)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                    max_leaves=8)


@st.composite
def malformed(draw, document):
    """``document`` with one value somewhere in it replaced by random JSON, or one key removed."""
    if not isinstance(document, (dict, list)) or not document or draw(st.integers(0, 4)) == 0:
        return draw(JSON)
    keys = list(document) if isinstance(document, dict) else list(range(len(document)))
    key = draw(st.sampled_from(keys))
    copy = dict(document) if isinstance(document, dict) else list(document)
    if isinstance(copy, dict) and draw(st.booleans()):
        del copy[key]
    else:
        copy[key] = draw(malformed(document[key]))
    return copy


@BUDGET
@given(data=st.data())
def test_a_signed_turn_file_with_a_malformed_view_public_record_or_state_never_ends_in_an_internal_error(game, data):
    from pbem.errors import PbemError
    from pbem.loading.turns import load_turn
    from pbem.protocol.canonical import NotCanonical
    from pbem.protocol.dice import new_seed, DiceStream
    from pbem.protocol.files import write_new
    from pbem.protocol.keys import read_private
    from pbem.protocol.turnfile import build_turn, open_referee_state, open_view

    keys = {name: read_private(game / f"{name}.key", None) for name in ("ref", "us", "jp")}
    previous = load_turn(game / "game" / "turn-0000.pbem")
    turn = load_turn(game / "game" / "turn-0001.pbem")
    views = {side: open_view(turn, side, keys[side.lower()]) for side in ("US", "JP")}
    public = turn.public
    state = open_referee_state(turn, keys["ref"]).state
    part = data.draw(st.sampled_from(["US", "JP", "public", "referee state"]))
    if part == "public":
        public = data.draw(malformed(public))
    elif part == "referee state":
        state = data.draw(malformed(state))
    else:
        views[part] = data.draw(malformed(views[part]))
    seed = open_referee_state(previous, keys["ref"]).next_seed
    try:  # pbem's own build_turn refuses what a reader would refuse (issue 11): such a forgery needs a hand-made file
        forged = build_turn(keys["ref"], game=turn.game, seq=1, scenario={"id": turn.scenario_id, "hash": turn.scenario_hash},
                            ruleset=turn.ruleset, identities=turn.identities, public=public, views=views,
                            referee_state=state, next_seed=new_seed(), prev=previous, orders=turn.orders,
                            dice_used=DiceStream(seed, turn.dice.salt))
    except (PbemError, NotCanonical):  # NotCanonical: a value outside RFC 8785's subset, which no reader takes either
        return
    here = _copy(game)
    try:
        (here / "game" / "turn-0001.pbem").unlink()
        write_new(here / "game" / "turn-0001.pbem", forged.text)
        for args in [*COMMANDS["game/turn-0001.pbem"], *COMMANDS["orders-0001-JP.pbem"],
                     ("view", "game/turn-0001.pbem", "--key", "us.key"), ("view", "game/turn-0001.pbem", "--key", "ref.key"),
                     ("validate", "jp.json", "--turn", "game/turn-0001.pbem", "--key", "jp.key")]:
            status, printed = run(here, *args)
            assert_no_fault(status, printed, f"{part} malformed, then pbem {' '.join(args)}")
    finally:
        shutil.rmtree(here)
