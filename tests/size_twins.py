"""Twin turn files: the same step with hidden identities traded must give files of the same lengths (issue 19 item 5).

Shared by ``tests/test_sealed_sizes.py`` and ``benchmarks/hidden_leaks.py``.
A twin trades the identities of two hidden pieces — two units, or a dummy
and a unit (so the dummy stands elsewhere) — in the referee's position, the
position before and the events, as ``tests/leak_scan.py`` does; it is a
twin only if the American view and the public record stay the same.  Both
are built into turn files the way the referee builds them and every length
is compared: each sealed view, the sealed referee state, the whole file.
"""

from __future__ import annotations

from pbem.game.codec import state_from_json, state_to_json
from pbem.game.step import Step, record_step
from pbem.game.sizes import sealed_bucket
from pbem.protocol import keys
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import new_seed
from pbem.protocol.sealing import bucket_for
from pbem.protocol.turnfile import build_turn
from tests.leak_scan import HIDDEN_UNITS, Scan, _rename

SCENARIO_HASH = "sha256:" + "ab" * 32


def parties() -> dict[str, keys.PrivateIdentity]:
    return {"US": keys.generate("us"), "JP": keys.generate("jp"), "referee": keys.generate("ref")}


def built(parties, loaded, step: Step, game: str):
    """The turn file the referee would write for ``step`` (as a first file: the chain changes no length)."""
    return build_turn(parties["referee"], game=game, seq=0, scenario={"id": loaded.scenario.id, "hash": SCENARIO_HASH},
                      ruleset={"edition": "dg-2009", "options": HIDDEN_UNITS}, identities={r: p.public for r, p in parties.items()},
                      public=step.public, views=step.views, referee_state=step.referee_state, next_seed=new_seed(),
                      min_bucket=sealed_bucket(loaded.scenario, hidden=True, previous=None))


def twin(loaded, step: Step, before, seq: int, a: str, b: str) -> Step:
    """``step`` with the identities of ``a`` and ``b`` traded everywhere the referee holds them."""
    swap = {a: b, b: a}
    state = state_from_json(_rename(state_to_json(step.state), swap))
    earlier = state_from_json(_rename(state_to_json(before), swap)) if before is not None else None
    last = _rename(step.last, swap) if step.last is not None else None
    extra = {k: v for k, v in step.public.items() if k in ("title", "scenario_document", "options")}
    return record_step(state, game="selfplay", seq=seq, scenario_ref={"id": loaded.scenario.id, "hash": "selfplay"},
                       ruleset=step.views["US"]["ruleset"], over=step.over, last=last, loaded=loaded, before=earlier,
                       extra_public=extra)


def lengths(turn) -> tuple[int, int, int, int]:
    return len(turn.views["US"]), len(turn.views["JP"]), len(turn.referee_state), len(turn.text)


def pairs_to_trade(step: Step) -> list[tuple[str, str]]:
    """Two hidden units, and a dummy with a hidden unit, when the step has them."""
    truth = step.state
    hidden = sorted(u.id for u in truth.units if u.side == "JP" and truth.on_map(u.id) and u.id not in truth.hidden.exposed)
    dummies = [u for u in hidden if truth.unit(u).is_dummy]
    reals = [u for u in hidden if u not in dummies]
    return [p for p in [(reals[0], reals[-1]) if len(reals) > 1 else None, (dummies[0], reals[0]) if dummies and reals else None] if p]


def check_sizes(scan: Scan, where: str, parties, loaded, step: Step, before, seq: int, game: str, pairs=None) -> int:
    """Build ``step`` and its twins into turn files and compare every length; returns how many twins were compared.
    Also counts a step whose sealed parts need more than the game's public size (``scan.growths``)."""
    fixed = sealed_bucket(loaded.scenario, hidden=True, previous=None)
    needed = max(bucket_for(canonical_bytes(x)) for x in (step.views["US"], step.views["JP"], step.referee_state))
    if needed > fixed:
        scan.growths += 1
        scan.leak(where, f"a sealed part needs {needed} bytes, more than the game's public size {fixed}")
    compared = 0
    first = None
    for a, b in pairs_to_trade(step) if pairs is None else pairs:
        other = twin(loaded, step, before, seq, a, b)
        if canonical_bytes(other.views["US"]) != canonical_bytes(step.views["US"]) or other.public != step.public:
            continue  # not a twin: the American player can tell them apart (a combat fought with them)
        first = first or lengths(built(parties, loaded, step, game))
        scan.size_twins += 1
        compared += 1
        second = lengths(built(parties, loaded, other, game))
        if second != first:
            scan.leak(where, f"trading {a} and {b} changes the turn file's lengths {first} -> {second}")
    return compared
