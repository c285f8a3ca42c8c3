"""Shared parties and a small game builder for the protocol tests."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import pytest

from pbem.protocol import dice, keys, ordersfile, parts, signing, turnfile
from pbem.protocol.armour import armour

SCENARIO = {"id": "leyte-test", "hash": "sha256:" + "ab" * 32}
RULESET = {"edition": "test", "options": []}


@dataclass
class Parties:
    us: keys.PrivateIdentity
    jp: keys.PrivateIdentity
    ref: keys.PrivateIdentity

    @property
    def identities(self) -> dict[str, keys.PublicIdentity]:
        return {"US": self.us.public, "JP": self.jp.public, "referee": self.ref.public}

    def player(self, side: str) -> keys.PrivateIdentity:
        return {"US": self.us, "JP": self.jp}[side]


@pytest.fixture(scope="session")
def parties() -> Parties:
    return Parties(keys.generate("alice"), keys.generate("bob"), keys.generate("umpire"))


@dataclass(repr=False)
class Game:
    """Plays a fake game: sides alternate, each turn rolls a few dice."""

    def __repr__(self) -> str:
        return f"Game({self.game}, {len(self.turns)} turn files)"

    parties: Parties
    game: str = field(default_factory=turnfile.new_game_id)
    turns: list[turnfile.TurnFile] = field(default_factory=list)
    orders: list[ordersfile.OrdersBody] = field(default_factory=list)

    def start(self) -> turnfile.TurnFile:
        genesis = turnfile.build_turn(
            self.parties.ref, game=self.game, seq=0, scenario=SCENARIO, ruleset=RULESET,
            identities=self.parties.identities, public={"to_move": "US", "events": []},
            views={"US": {"units": ["US-1"]}, "JP": {"units": ["JP-1"]}},
            referee_state={"turn": 0, "hidden": ["JP-1"]}, next_seed=dice.new_seed(),
        )
        self.turns.append(genesis)
        return genesis

    def side_to_move(self) -> str:
        return self.turns[-1].public["to_move"]

    def write_orders(self, side: str | None = None, orders=None) -> ordersfile.OrdersFile:
        side = side or self.side_to_move()
        return ordersfile.build_orders_for_turn(
            self.parties.player(side), self.turns[-1], side, orders or {"moves": [len(self.turns)]}
        )

    def adjudicate(self, orders_text: str, rolls: int = 4) -> turnfile.TurnFile:
        last = self.turns[-1]
        body = ordersfile.open_orders_for_turn(orders_text, last, self.parties.ref)
        self.orders.append(body)
        secret = turnfile.open_referee_state(last, self.parties.ref)
        stream = dice.DiceStream(secret.next_seed, body.salt)
        for index in range(rolls):
            stream.roll(f"combat {last.seq}.{index}")
        other = "JP" if body.side == "US" else "US"
        turn = turnfile.build_turn(
            self.parties.ref, game=self.game, seq=last.seq + 1, scenario=SCENARIO, ruleset=RULESET,
            identities=self.parties.identities, public={"to_move": other, "events": [body.orders]},
            views={"US": {"units": ["US-1"], "seq": last.seq + 1}, "JP": {"units": ["JP-1", "JP-2"]}},
            referee_state={"turn": last.seq + 1}, next_seed=dice.new_seed(),
            prev=last, orders=body.envelope, dice_used=stream,
        )
        self.turns.append(turn)
        return turn

    def play(self, n: int) -> list[turnfile.TurnFile]:
        if not self.turns:
            self.start()
        for _ in range(n):
            self.adjudicate(self.write_orders().text)
        return self.turns


@pytest.fixture
def new_game(parties):
    return lambda: Game(parties)


@pytest.fixture(scope="session")
def played(parties) -> Game:
    """A game of genesis + 3 turns, shared read-only between tests."""
    game = Game(parties)
    game.play(3)
    return game


def resign(turn: turnfile.TurnFile, referee: keys.PrivateIdentity, mutate, sealed: dict | None = None) -> str:
    """A turn file whose body was changed by ``mutate`` and signed again —
    what a cheating referee could produce.  ``sealed`` replaces sealed parts
    (``{"views.US": bytes}``); their descriptors are set to match."""
    body = copy.deepcopy(turn.body)
    mutate(body)
    blobs = {"views.US": turn.views["US"], "views.JP": turn.views["JP"], "referee_state": turn.referee_state} | (sealed or {})
    if sealed:
        for name, blob in sealed.items():
            if name == "referee_state":
                body[name] = parts.descriptor(blob)
            else:
                body["views"][name.split(".")[1]] = parts.descriptor(blob)
    envelope = signing.sign(referee, body, turnfile.SIGN_CONTEXT)
    payload = parts.join(envelope, [blobs["views.US"], blobs["views.JP"], blobs["referee_state"]])
    return armour("TURN", payload, {"Game": body["game"], "Sequence": str(body["seq"])})


@pytest.fixture
def resigner():
    return resign
