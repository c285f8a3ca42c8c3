"""Games with hidden units and no referee, played through the command line and the real files, for the tests.

Two folders, one per player, exchange only what a mail would carry: the .pub
identities and the ``blind-NNNN-SIDE.pbem`` files.  Each step is the one
``pbem status`` names (its command run as printed, the file it names mailed to
the player it names).  The cheats' tools are here too: a file rewritten and
signed again by its writer (he holds his own key), and a Japanese player who
moves one hidden unit as a rule forbids (:class:`IllegalMover`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from pbem.bot.selfplay import SeededDice
from pbem.game.modes.blind import run as br
from pbem.game.modes.blind.exposure import hidden_markers
from pbem.game.step import play, record_step, verdict
from pbem.model.common import NOT_ON_MAP
from pbem.protocol import blindfile, commitment as c
from tests.games import pbem, run

SCENARIO = "test-skirmish"  # the smallest scenario with a hidden Japanese set-up


_MAILS = itertools.count(1)


class Player:
    received = 0
    """When this player last received a file (a count of the mails sent, 0: never)."""

    def __init__(self, base: Path, side: str):
        self.side, self.dir = side, base / side.lower()
        self.dir.mkdir()
        self.game = self.dir / "game"
        pbem("keygen", side.lower(), "--dir", self.dir, "--no-passphrase")
        self.key = self.dir / f"{side.lower()}.key"
        self.pub = self.dir / f"{side.lower()}.pub"

    def status(self, code: int = 0) -> str:
        return pbem("status", self.game, "--key", self.key, code=code)

    def mail(self, name: str, to: "Player") -> None:
        shutil.copy(self.game / name, to.game / name)
        to.received = next(_MAILS)


def begin(base: Path, scenario: str = SCENARIO) -> dict[str, Player]:
    """Both players' keys in ``base``, the Japanese player's ``pbem new`` (his set-up the greedy bot's), the genesis mailed."""
    players = {side: Player(base, side) for side in ("US", "JP")}
    jp, us = players["JP"], players["US"]
    said = pbem("new", scenario, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game,
                "--no-referee", "--option", "hidden-units")
    assert "blind-0000-JP.pbem" in said and "blind-private-JP.json" in said
    us.game.mkdir()
    jp.mail("blind-0000-JP.pbem", us)
    return players


def step(players: dict[str, Player]) -> str | None:
    """The next file, written by whoever status says, with the command status prints; mailed where it says.
    Returns the file's name (None when status asks for no ``pbem blind next``).  The player who received the last
    file is asked first: he is the one to write next, as a rule (asking the other first only cost a status)."""
    for side, player in sorted(players.items(), key=lambda item: -item[1].received):
        _, out, err = run("status", player.game, "--key", player.key)  # exit 1 once the secret is awaited
        assert "Traceback" not in err, err
        said = out + err
        found = re.search(r"next: write (blind-\d{4}-\w\w\.pbem), .*?: (pbem blind next [^;]+); then send \1 to the (US|JP) player", said)
        if found:
            name, command, to = found.groups()
            words = shlex.split(command.replace("--orders ORDERS.json", "--bot greedy"))[1:]
            if "--bot" not in words:  # the Japanese player: asked for his orders once he has seen the step
                code, out, err = run(*words)
                if code == 2:
                    assert "you move next" in out + err and "blind-view-JP-" in out + err
                    pbem(*words, "--bot", "greedy")
                else:
                    assert code == 0, out + err
            else:
                pbem(*words)
            player.mail(name, players[to])
            return name
    return None


def write(players, cheat=None) -> tuple[str, Path]:
    """The next file, by whoever writes it (his bot's orders, ``pbem blind next --bot greedy``), mailed to the other;
    ``cheat``: a context manager active while the Japanese player's pbem writes it (his modified client).  Returns the
    writer and the file as the other player received it."""
    from pbem.game.modes.blind import files as blind_files

    held = blind_files.load(players["US"].game)
    writer = held.next_writer
    me, other = players[writer], players["US" if writer == "JP" else "JP"]
    with (cheat() if cheat and writer == "JP" else contextlib.nullcontext()):
        pbem("blind", "next", me.game, "--key", me.key, "--bot", "greedy")
    name = blindfile.file_name(len(held.messages))
    me.mail(name, other)
    return writer, other.game / name


def play_to_the_end(players: dict[str, Player], until: int | None = None) -> int:
    written = 0
    while step(players) is not None:
        written += 1
        assert written < 200
        if until is not None and written >= until:
            break
    return written


def resign(path: Path, key: Path, change) -> None:
    """A cheater (he holds his own key) rewrites his file and signs it again."""
    from pbem.protocol.keys import read_private

    message = blindfile.read(path.read_text(), str(path))
    body = json.loads(json.dumps(message.body))
    change(body)
    path.write_text(blindfile.write(read_private(key, None), {k: v for k, v in body.items() if k not in ("format", "mode")}))


def play_until(players: dict[str, Player], wanted) -> tuple[str, dict]:
    """Play on until a file whose body ``wanted`` accepts has been written and mailed; its name and body."""
    while True:
        name = step(players)
        assert name is not None, "no such file in the whole game"
        writer = players[name[-7:-5]]
        body = blindfile.read((writer.game / name).read_text(), name).body
        if wanted(body):
            return name, body


def publish_secret(players) -> None:
    jp, us = players["JP"], players["US"]
    said = jp.status(code=1)
    found = re.search(r"(pbem blind publish-secret [^;]+);", said)
    assert found, f"the Japanese player's status does not offer publish-secret:\n{said}"
    command = found.group(1)
    pbem(*shlex.split(command)[1:])
    jp.mail(blindfile.SECRET_NAME, us)



# -- a Japanese player who moves one hidden unit as a rule forbids (in process, and through his modified pbem)

def _zoc(board, state):
    return {n for u in state.units if u.side == "US" and state.on_map(u.id) for n in board.neighbours(state.locations[u.id])}


def _candidate_paths(board, state, start, rule):
    occupied = {h for h in state.locations.values() if h not in NOT_ON_MAP}
    zoc = _zoc(board, state)
    free = [h for h in board.neighbours(start) if board.land(h) and h not in occupied]
    if rule == "5.13":  # a walk past the allowance, clear of every zone of control
        path, seen = [], {start}
        here = start
        for _ in range(16):
            nxt = [h for h in board.neighbours(here) if board.land(h) and h not in occupied and h not in zoc and h not in seen]
            if not nxt:
                break
            here = nxt[0]
            seen.add(here)
            path.append(here)
            yield list(path)
    elif rule == "6.0":  # into an American zone of control, and on
        for a in free:
            if a in zoc:
                continue
            for b in board.neighbours(a):
                if board.land(b) and b not in occupied and b in zoc:
                    for c in board.neighbours(b):
                        if board.land(c) and c not in occupied and c not in (start, a):
                            yield [a, b, c]
    elif rule == "5.21":  # into the sea
        for a in board.neighbours(start):
            if not board.land(a):
                yield [a]
        for a in free:
            for b in board.neighbours(a):
                if not board.land(b):
                    yield [a, b]


class IllegalMover(br.Japanese):
    """Moves one hidden unit as the rules forbid (``rule``), reports the move in his orders, and carries it out."""

    rule = "5.13"
    cheat: tuple | None = None

    def choose_orders(self, seq, step):
        orders = super().choose_orders(seq, step)
        state = step.state
        if self.cheat is not None or not state.hidden.deployed or state.position.phasing != "JP":
            return orders
        ruleset = self.loaded.scenario.ruleset.model_dump(mode="json")
        attacking = {u for a in orders.get("attacks", []) for u in [*a["attackers"], *a.get("barrage", [])]}
        zoc = _zoc(self.loaded.board, state)
        for hex_id, unit in sorted(hidden_markers(state).items()):
            if state.unit(unit).is_dummy or unit in attacking or hex_id in zoc:
                continue
            honest = {**orders, "moves": [m for m in orders.get("moves", []) if m["unit"] != unit]}
            trial = play(self.loaded, ruleset, state, honest, SeededDice("trial"), game=self.game, seq=seq,
                         scenario_ref={"id": "t", "hash": "t"}, source="trial")
            if not trial.last["valid"]:
                continue
            for path in _candidate_paths(self.loaded.board, trial.state, hex_id, self.rule):
                cheat = {**honest, "moves": [*honest["moves"], {"unit": unit, "path": path}]}
                _, problems = verdict(self.loaded, ruleset, state, cheat, "cheat")
                if problems and {p.rule for p in problems} == {self.rule}:
                    self.cheat = (seq, unit, path[-1], honest)
                    return cheat
        return orders

    def carry_out(self, seq, step, orders, stream, ruleset):
        if self.cheat is None or self.cheat[0] != seq:
            return super().carry_out(seq, step, orders, stream, ruleset)
        _, unit, end, honest = self.cheat
        played = super().carry_out(seq, step, honest, stream, ruleset)
        moved = played.state.model_copy(update={"locations": {**played.state.locations, unit: end}})
        return record_step(moved, game=self.game, seq=seq, scenario_ref={"id": self.loaded.scenario.id, "hash": br.SELFPLAY},
                           ruleset=ruleset, over=played.over, last=played.last, loaded=self.loaded, before=step.state)


# -- reproducible games, and the Japanese player's modified pbem that makes one illegal hidden move --------------

GAME = "b1" * 16
SENT = __import__("pbem.protocol.blindfile", fromlist=["sent_now"]).sent_now()
"""The date every file of a reproducible game is signed with: this run's (a game of these tests never stalls by age)."""


def fix_games(patch: pytest.MonkeyPatch, counter=None) -> None:
    """Every new game gets the id ``GAME`` and secrets of bytes from ``counter`` (default :data:`SECRETS`' current
    count, read at each call): the same moves and dice every run."""
    patch.setattr("pbem.game.modes.blind.files.new_game_id", lambda: GAME)
    patch.setattr("pbem.protocol.blindfile.sent_now", lambda: SENT)  # one date for every file of this run
    patch.setattr(c, "new_secret", lambda: bytes([next(counter or SECRETS[0]) % 256]) * c.SECRET_LENGTH)


@pytest.fixture(autouse=True)
def reproducible(monkeypatch):
    """The same game id and per-game secrets every game: an honest game and its cheat play the same moves and dice.
    The count of secrets starts afresh for each test, so its games are the same whatever ran before it in the
    process (the suite runs files in parallel, in an order of its own)."""
    SECRETS[0] = itertools.count()
    fix_games(monkeypatch)


SECRETS = [itertools.count()]  # the Japanese player's secret first (pbem new), then the American player's



@contextlib.contextmanager
def illegal_mover(monkeypatch, rule: str):
    """The Japanese player's modified pbem: his bot's orders, with one hidden unit moved as ``rule`` forbids (found
    as tests/test_blind_run.py's cheater finds it), committed as they are; then carried out as if legal."""
    import pbem.bot.play as bot
    from pbem.game.modes.blind import run as br
    from pbem.game.step import record_step
    from pbem.game.views import state_of_view
    from pbem.protocol.canonical import canonical_bytes

    real_orders, real_play, cheat = bot.bot_orders, br.play, {}

    def orders(view, loaded, policy="greedy", seed=0, think=None):
        honest = real_orders(view, loaded, policy, seed, think)
        state = view["state"]
        if cheat or view.get("side") != "JP" or not (state.get("hidden") or {}).get("deployed"):
            return honest
        mover = type("Mover", (IllegalMover,), {"rule": rule})(loaded, GAME, bytes(32), lambda v: honest)
        step = type("Seen", (), {"state": state_of_view(view), "views": {"JP": view}})()
        chosen = mover.choose_orders(view["seq"] + 1, step)
        if mover.cheat is not None:
            _, unit, end, legal = mover.cheat
            cheat.update(orders=canonical_bytes(chosen), unit=unit, end=end, legal=legal, start=step.state.locations[unit])
        return chosen

    def play(loaded, ruleset, state, orders, stream, **kw):
        if not cheat or canonical_bytes(orders) != cheat["orders"]:
            return real_play(loaded, ruleset, state, orders, stream, **kw)
        played = real_play(loaded, ruleset, state, cheat["legal"], stream, **kw)
        moved = played.state.model_copy(update={"locations": {**played.state.locations, cheat["unit"]: cheat["end"]}})
        return record_step(moved, game=kw["game"], seq=kw["seq"], scenario_ref=kw["scenario_ref"], ruleset=ruleset,
                           over=played.over, last=played.last, loaded=loaded, before=state)

    with monkeypatch.context() as m:
        m.setattr(bot, "bot_orders", orders)
        m.setattr(br, "play", play)
        yield cheat
