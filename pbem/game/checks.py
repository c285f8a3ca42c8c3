"""``pbem verify`` for a game: the protocol's chain checks, then what the game layer can add.

Without any key: the chain (:func:`pbem.protocol.chain.verify_chain`), the
player's receipts against the orders headers the turn files publish, and
every public combat record against the public rolls (a die shown in the
record that is not the die rolled is a lie anyone can see).  With the
player's key (``--replay-mine``): each of his own player-turns replayed from
his view before it, his orders as kept in his receipt and the revealed
seed, and compared with his view after it, the public record and the rolls.

A two-player game hides nothing, so without any key every player-turn is
replayed from the files alone (:func:`pbem.game.twoplayer.replay_all`), each
file's seed commitment is checked to belong to the player who will
adjudicate the next orders, and the report says whom the game waits for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pbem.errors import PbemError
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.keys import PrivateIdentity
from pbem.protocol.turnfile import REFEREE, TurnFile


@dataclass
class GameCheck:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    turns: list[TurnFile] = field(default_factory=list)
    game: str | None = None
    referee: str | None = None
    parties: str | None = None  # "referee …", or the two players of a game without one

    @property
    def rolls(self) -> int:
        return sum(len(t.dice.rolls) for t in self.turns)


def verify_game(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    folders: set[Path],
    *,
    replay_with: PrivateIdentity | None = None,
) -> GameCheck:
    """Everything ``pbem verify`` checks; ``folders`` are searched for the player's receipts."""
    from pbem.game.receipts import check_receipts

    chain = verify_chain(sources)
    check = GameCheck(list(chain.findings), [], chain.turns)
    genesis = next((t for t in chain.turns if t.seq == 0), None)
    if genesis is not None:
        check.game = genesis.game
        if genesis.two_player:
            check.parties = " and ".join(f"{side} {genesis.identities[side].describe()}" for side in genesis.identities) + ", no referee"
        else:
            check.referee = genesis.identities[REFEREE].describe()
            check.parties = f"referee {check.referee}"
    if not chain.ok:
        return check
    receipts = check_receipts(folders, chain.turns)
    check.findings += receipts.findings
    check.notes += receipts.notes
    for turn in chain.turns:
        check.findings += [Finding(turn.source, p, turn.seq) for p in combat_roll_problems(turn.public, turn.dice.rolls)]
    if genesis is not None and genesis.two_player:
        _two_player_checks(check, folders)
    elif replay_with is not None:
        check.findings += replay_mine(chain.turns, folders, replay_with, check.notes)
    return check


def _two_player_checks(check: GameCheck, folders: set[Path]) -> None:
    from pbem.game.twoplayer import awaited, commitment_problem, replay_all

    for turn in check.turns:
        problem = commitment_problem(turn)
        if problem:
            check.findings.append(Finding(turn.source, problem, turn.seq))
    findings, replayed = replay_all(check.turns)
    check.findings += findings
    check.notes.append(f"replayed {replayed} player-turn(s) from the files alone: every position, public record and roll "
                       "is what the engine gives")
    folder = next(iter(folders)) if len(folders) == 1 else None
    check.notes.append(awaited(max(check.turns, key=lambda t: t.seq), folder))


def combat_roll_problems(public: dict, rolls: Iterable[dict]) -> list[str]:
    """Where the public combat record does not show the die the public rolls made (combat N takes the roll
    whose purpose is ``combat N: …``)."""
    if not isinstance(public, dict) or not isinstance(public.get("last") or {}, dict):
        return ["the public record is not an object with a 'last' record"]
    by_combat = {}
    for roll in rolls:
        label = roll["purpose"].split(":", 1)[0]
        if label.startswith("combat "):
            by_combat[label.removeprefix("combat ")] = roll
    combats = ((public or {}).get("last") or {}).get("combats") or []
    problems, shown = [], set()
    if not isinstance(combats, list) or not all(isinstance(c, dict) and "index" in c for c in combats):
        return ["the public combat record is not a list of combats"]
    for combat in combats:
        if combat.get("die") is None:
            continue
        shown.add(str(combat["index"]))
        roll = by_combat.get(str(combat["index"]))
        if roll is None:
            problems.append(f"combat {combat['index']} shows die {combat['die']}, but no roll was made for it")
        elif roll["value"] != combat["die"]:
            problems.append(f"combat {combat['index']} shows die {combat['die']}, but roll {roll['n']} for it is {roll['value']}")
    for index in sorted(set(by_combat) - shown):
        problems.append(f"roll {by_combat[index]['n']} was made for combat {index}, which the public record does not show")
    return problems


def view_problems(view: dict, public: dict) -> list[str]:
    """Where a side's view disagrees with the signed public record of the same turn file."""
    if not isinstance(view, dict) or not isinstance(public, dict):
        return ["the view or the public record is not an object"]
    problems = []
    for key in ("awaiting", "over"):
        if view.get(key) != public.get(key):
            problems.append(f"the view says {key} is {view.get(key)!r}, the public record {public.get(key)!r}")
    shown = (view.get("last") or {}).get("combats") if isinstance(view.get("last") or {}, dict) else None
    public_combats = (public.get("last") or {}).get("combats") if isinstance(public.get("last") or {}, dict) else None
    if canonical_bytes(shown) != canonical_bytes(public_combats):
        problems.append("the combats in the view are not the combats of the public record")
    return problems


def replay_mine(turns: list[TurnFile], folders: set[Path], player: PrivateIdentity, notes: list[str]) -> list[Finding]:
    """Replay the holder's own player-turns (see the module docstring)."""
    from pbem.game.codec import state_from_json
    from pbem.game.nmr import nmr_document, source_of
    from pbem.game.player import role_of
    from pbem.game.receipts import SUFFIX, read_receipt
    from pbem.game.referee import play
    from pbem.game.scenario_ref import scenario_of
    from pbem.protocol.dice import DiceStream
    from pbem.protocol.nmr import is_nmr
    from pbem.protocol.turnfile import open_view

    by_seq = {t.seq: t for t in turns}
    side = role_of(turns[-1], player)
    genesis = by_seq.get(0)
    if side == "US" and genesis is not None and "hidden-units" in ((genesis.public or {}).get("options") or []):
        notes.append("not replayed: under hidden units your view does not hold the Japanese units your combats met; "
                     "after the game, 'pbem audit GAMEDIR --reveal FILE' replays every player-turn (docs/hidden-units.md)")
        return []
    documents = {}
    for folder in folders:
        for path in folder.glob(f"*{SUFFIX}"):
            record = read_receipt(path)
            for item in (record or {}).get("revisions", []):
                documents[item["orders"]] = item["document"]
    findings, replayed = [], 0
    for seq in sorted(by_seq):
        turn = by_seq[seq]
        if seq == 0 or turn.orders_header["body"]["side"] != side:
            continue
        document = documents.get(turn.orders)
        if document is None and is_nmr(turn.orders_header):  # no moves received: the bot's orders, recomputed from your view
            document = nmr_document(turn, by_seq[seq - 1], side, player)
        if document is None:
            findings.append(Finding(turn.source, f"cannot replay: the {side} orders it adjudicated ({turn.orders}) are in none of your receipts", seq))
            continue
        try:
            before = open_view(by_seq[seq - 1], side, player)
            after = open_view(turn, side, player)
            dice = DiceStream(turn.dice.revealed_seed, turn.dice.salt)
            step = play(scenario_of(turn), turn.ruleset, state_from_json(before["state"]), document, dice,
                        game=turn.game, seq=seq, scenario_ref={"id": turn.scenario_id, "hash": turn.scenario_hash},
                        source=source_of(turn))
        except PbemError as exc:
            findings.append(Finding(turn.source, f"cannot replay: {exc.render()}", seq))
            continue
        replayed += 1
        if list(turn.dice.rolls) != dice.rolls:
            findings.append(Finding(turn.source, "the rolls recorded are not the rolls your orders and the revealed seed make", seq))
        if canonical_bytes(step.public) != canonical_bytes(turn.public):
            findings.append(Finding(turn.source, "the public record is not what your orders give", seq))
        if canonical_bytes(step.views[side]) != canonical_bytes(after):
            findings.append(Finding(turn.source, f"your {side} view is not what your orders give", seq))
    notes.append(f"replayed {replayed} of your own player-turn(s) from your views, your receipts and the revealed seeds")
    return findings
