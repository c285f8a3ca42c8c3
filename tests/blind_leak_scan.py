"""The leak scan of hidden units with no referee: what the American player receives says no more than the rules expose.

One bot game through :func:`pbem.game.modes.blind.run.run`, with fresh secrets; for
every step the American player receives a view (built as a referee builds
it), a root and openings.  Checked, step by step:

(a) the view and public record: the refereed scan's checks (tests/leak_scan.py), identities traded included;
(b) openings: exactly the markers :func:`pbem.game.modes.blind.exposure.exposure` demands, each naming what the view itself
    names there (a unit it shows, or a dummy it removes) — nothing else is opened;
(c) identities traded between two hidden counters (two units, a dummy and a unit), same positions: the same
    markers are opened with the same pieces, the tree has the same size and order; only the root and the sibling
    hashes differ, and those are (d);
(d) roots and sibling hashes: one format and length, never repeated from step to step (a leaf that did not change
    gets a new salt), bits balanced over the game;
(e) the small-space search: for every hidden marker of every step, every piece that could stand there (each
    Japanese unit, a dummy) with every salt the American player could guess (none, zeros, derived from the game id
    or from a secret of zeros) — no hash he received is ever hit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pbem.loading.datafiles import LoadedScenario
from pbem.game.modes.blind import run as br
from pbem.game.codec import state_from_json, state_to_json
from pbem.game.modes.blind.exposure import exposure, hidden_markers, pieces
from pbem.protocol import commitment as c
from pbem.protocol.keys import generate
from tests.leak_scan import Scan, _rename, check_swaps, forbidden, may_know, scan_text, without_final_report
from pbem.protocol.canonical import canonical_bytes

EMPTY_TREE = hashlib.sha256(b"").digest()  # RFC 6962's hash of an empty tree

US = generate("us-blind")


@dataclass
class BlindScan(Scan):
    openings: int = 0
    hidden_leaves: int = 0
    guesses: int = 0
    bits: int = 0
    ones: int = 0
    hashes: set = field(default_factory=set)


class Recorder(br.Japanese):
    """The honest Japanese player, keeping each step's true positions for the scan."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.steps: dict[int, tuple] = {}

    def carry_out(self, seq, step, orders, stream, ruleset):
        played = super().carry_out(seq, step, orders, stream, ruleset)
        self.steps[seq] = (step.state, played)
        return played


def _guess_salts(game: str, seq: int, marker: str) -> list[bytes]:
    zero_secret = c.marker_salt(bytes(32), game=game, seq=seq, marker=marker)
    return [b"", bytes(32), hashlib.sha256(game.encode()).digest(), hashlib.sha256(marker.encode()).digest(), zero_secret]


def _bits(scan: BlindScan, digest: bytes) -> None:
    scan.bits += 8 * len(digest)
    scan.ones += sum(bin(b).count("1") for b in digest)


def secrets_of(seed: int) -> tuple[bytes, bytes]:
    """Each game's two secrets, fixed by its seed so a leak found is found again (the American player's guesses
    below never use them)."""
    return hashlib.sha256(b"jp secret %d" % seed).digest(), hashlib.sha256(b"us secret %d" % seed).digest()


def scan_blind_game(scan: BlindScan, loaded: LoadedScenario, policies: tuple[str, str], seed: int,
                    secrets: tuple[bytes, bytes] | None = None, options: list[str] | None = None) -> None:
    jp_secret, us_secret = secrets or secrets_of(seed)
    players = br.bot_players(loaded, {"US": policies[0], "JP": policies[1]}, seed)
    record, jp = br.run(loaded, us=US, players=players, japanese=Recorder,
                        secret=jp_secret, us_secret=us_secret, options=options)
    scan.games += 1
    ruleset = loaded.scenario.ruleset.model_dump(mode="json")
    received: dict[int, set[bytes]] = {}  # tree (step, -1 for the set-up) -> the hashes of it he received
    candidates = [dict(c.DUMMY)] + [p for p in _all_pieces(jp)]
    for pub in record.publications:
        where = f"{loaded.scenario.id} {policies[0]}/{policies[1]} seed {seed} step {pub.seq}"
        scan.steps += 1
        if record.findings:
            scan.leak(where, f"an honest game has findings: {record.findings[0]}")
        before, step = jp.steps[pub.seq]
        side = pub.side
        if side == "setup":
            from pbem.loading.datafiles import orders_from
            from pbem.engine.deployment import apply_deployment

            before = apply_deployment(before, orders_from(jp.orders[pub.seq], "set-up"))
        events = step.last["events"]
        # (a) the refereed scan on the view this mode sends
        known = may_know(loaded.board, step.state, events)
        view = without_final_report(pub.view) if step.over else pub.view
        scan_text(scan, f"{where} US view", canonical_bytes(view).decode(), forbidden(step.state, known))
        check_swaps(scan, where, loaded, ruleset, step, before if side != "setup" else None, known, pub.seq, True)
        # (b) only what the rules expose is opened
        found = exposure(loaded.board, before, step.state, events, side)
        if sorted(o.marker for o in pub.before) != sorted(found.before) or sorted(o.marker for o in pub.after) != sorted(found.after):
            scan.leak(where, "the openings are not the markers the rules expose")
        named = {u["id"] for u in pub.view["state"]["units"]} | set(br.strings_in(pub.view["last"]["events"]))
        removed = sum(e["type"] == "dummy_removed" for e in pub.view["last"]["events"])
        for opening in pub.before + pub.after:
            scan.openings += 1
            if not opening.is_dummy and opening.piece.get("id") not in named:
                scan.leak(where, f"the opening of {opening.marker} says more than the view: {opening.piece}")
        if sum(o.is_dummy for o in pub.before + pub.after) > removed:
            scan.leak(where, "more markers are opened as dummies than the view removes")
        # (c) identities traded: the same openings, the same tree shape
        _check_trades(scan, where, loaded, before, step, side, found, pub)
        # (d) roots and sibling hashes
        if len(pub.root) != 71 or not pub.root.startswith("sha256:"):
            scan.leak(where, f"a root of another shape: {pub.root}")
        earlier_tree = -1 if side == "setup" else pub.seq - 1
        root = bytes.fromhex(pub.root.removeprefix("sha256:"))
        if root == EMPTY_TREE and br.markers_of(pub.view):
            scan.leak(where, "the empty tree's root over a position with Japanese counters")
        # A tree over no counter at all (every Japanese counter gone, which his view shows) is the same in every step
        # (RFC 6962: the hash of nothing) and says nothing more: it is the one root that may repeat.
        trees = {pub.seq: ({root} - {EMPTY_TREE}) | {h for o in pub.after for h in o.path},
                 earlier_tree: {h for o in pub.before for h in o.path}}
        for tree, new in trees.items():
            others = set().union(*(hs for t, hs in received.items() if t != tree)) if received else set()
            if new & others:
                scan.leak(where, f"{len(new & others)} hash(es) of one step's tree in another's: an unchanged leaf shows")
            fresh = new - received.get(tree, set())
            for h in fresh:
                _bits(scan, h)
            received.setdefault(tree, set()).update(new)
        got = set().union(*received.values())
        # (e) no small space of guesses reaches any hash he received
        hidden = hidden_markers(step.state)
        scan.hidden_leaves += len(hidden)
        for marker in hidden:
            for salt in _guess_salts(record.game, pub.seq, marker):
                for piece in candidates:
                    scan.guesses += 1
                    if c.leaf_hash(c.leaf_data(salt, marker, piece)) in got:
                        scan.leak(where, f"a guessed leaf of {marker} is a hash he received")


def _all_pieces(jp: br.Japanese) -> list[dict]:
    seen = {}
    for _, step in jp.steps.values():
        for piece in pieces(step.state).values():
            if piece != c.DUMMY:
                seen[piece["id"]] = piece
    return list(seen.values())


def _check_trades(scan, where, loaded, before, step, side, found, pub) -> None:
    truth = step.state
    opened = set(found.before.values()) | set(found.after.values()) | set(found.claims)
    hidden = sorted(u for u in hidden_markers(truth).values() if u not in opened and before.unit_index().get(u) is not None)
    dummies = [u for u in hidden if truth.unit(u).is_dummy]
    reals = [u for u in hidden if u not in dummies]
    pairs = set()
    if len(reals) >= 2:
        pairs.add((reals[0], reals[-1]))
    if dummies and reals:
        pairs.add((dummies[0], reals[-1]))
    tree = c.commit(bytes(32), game="trade", seq=pub.seq, pieces=pieces(truth))
    mine = {m: tree.pieces[m] for m in sorted(found.after)}
    for a, b in sorted(pairs):
        scan.swaps += 1
        swap = {a: b, b: a}
        after = state_from_json(_rename(state_to_json(truth), swap))
        earlier = state_from_json(_rename(state_to_json(before), swap))
        events = _rename(step.last["events"], swap)
        again = exposure(loaded.board, earlier, after, events, side)
        if again.before.keys() != found.before.keys() or again.after.keys() != found.after.keys():
            scan.leak(where, f"other markers are opened when {a} and {b} trade identities")
        traded = c.commit(bytes(32), game="trade", seq=pub.seq, pieces=pieces(after))
        opened_before = {m: pieces(earlier)[m] for m in sorted(again.before)}
        if opened_before != {m: pieces(before)[m] for m in sorted(found.before)}:
            scan.leak(where, f"the leaves opened against the earlier root change when {a} and {b} trade identities")
        if traded.markers != tree.markers or {m: traded.pieces[m] for m in sorted(again.after)} != mine:
            scan.leak(where, f"the opened leaves or the tree's shape change when {a} and {b} trade identities")
