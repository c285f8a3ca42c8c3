"""Hidden units with no referee, played in one process: the protocol's skeleton (docs/PROTOCOL.md).

No files and no command line: the mode that will wrap this (issue 24's third
mode) carries each message below in a signed file.  The two players:

- the **Japanese player** holds the true position and a per-game secret.
  He commits his set-up (a root over the deployed markers) and his orders
  before the dice of his player-turn exist; he adjudicates every step with
  the referee's own :func:`~pbem.game.step.play`, and publishes after
  each one the American view (built as a referee builds it), a new root
  over the counters on the map, and the openings the rules demand
  (:func:`pbem.game.modes.blind.exposure.exposure`);
- the **American player** checks each opening against the root he already
  holds before he plays on, checks the dice, and signs an acknowledgement
  of every root he received.

Dice are two-player mode's: the player who does not choose the orders of a
step supplies the seed, committed before the mover's salt exists.  For an
American player-turn that is the Japanese player's seed (committed in the
previous publication); for a Japanese step it is the American player's
(committed in his acknowledgement, revealed only after the Japanese orders
are committed).  At the end the Japanese player publishes his secret and
his orders: :func:`audit` replays every step with full information.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Callable

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.loading.datafiles import LoadedScenario, orders_from
from pbem.engine.deployment import apply_deployment
from pbem.engine import hexes
from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind.exposure import called_off, displacement_told, pieces, public_exposure, strings_in
from pbem.game.modes.blind.move_bound import MoveBound, Seen
from pbem.game.record_checks import combat_roll_problems, combat_table_problems, view_problems
from pbem.game.step import Step, genesis_step, play
from pbem.model.common import ELIMINATED, EXITED, NOT_ON_MAP
from pbem.model.state import GameState
from pbem.protocol import blindfile, commitment, dice, signing
from pbem.protocol.canonical import DIGEST_PREFIX, canonical_bytes
from pbem.protocol.commitment import Opening, verify_opening
from pbem.protocol.keys import PrivateIdentity, PublicIdentity

ACK_CONTEXT = "marker-ack"
AT_ONCE, AT_AUDIT, AT_END = "at once", "at the audit", "at the end"
_ORDERS_INFO = b"pbem-v1/blind-orders\x00"
SELFPLAY = "selfplay"
"""The game id and scenario hash of a game played in process, as :mod:`pbem.bot.selfplay` labels them: a view built
here is byte for byte the view a refereed self-play game builds from the same position."""


@dataclass(frozen=True)
class Finding:
    """A cheat found: who, at which step (turn file number), when it was caught, and what."""

    cheater: str
    seq: int
    when: str
    what: str

    def __str__(self) -> str:
        return f"step {self.seq}: {self.cheater} {self.what} (caught {self.when})"


def derived(secret: bytes, label: str, *, game: str, seq: int, length: int = 32) -> bytes:
    """A value of step ``seq`` derived from a player's per-game secret (HKDF-SHA256): he keeps nothing else, a
    resend gives the same bytes, and the Japanese player's published secret lets the audit re-derive his."""
    info = b"pbem-v1/blind-" + label.encode("ascii") + b"\x00" + canonical_bytes({"game": game, "seq": seq})
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(secret)


def orders_salt_nonce(secret: bytes, *, game: str, seq: int) -> tuple[bytes, bytes]:
    """The Japanese salt for the dice of step ``seq`` and the nonce of his orders' commitment."""
    both = derived(secret, "orders-salt", game=game, seq=seq, length=64)
    return both[:32], both[32:]


def orders_commitment(nonce: bytes, orders: Any) -> str:
    return DIGEST_PREFIX + hashlib.sha256(_ORDERS_INFO + nonce + canonical_bytes(orders)).hexdigest()


def markers_of(view: dict) -> list[str]:
    """The public marker ids of a view, sorted: what its step's root commits to, as the view's rules system (named by
    its ruleset) marks its counters (the SPI system: the hexes of every Japanese counter on the map)."""
    return _system_of_view(view).view_markers(view)


def _system_of_view(view: dict):
    from pbem.systems import name_in, system_named

    return system_named(name_in(view.get("ruleset")), field="ruleset.system")


def stack_key(secret: bytes, *, game: str, seq: int) -> bytes:
    """The key that orders what no public fact orders under the markers of step ``seq``'s root (the counters of a
    stack, :meth:`pbem.systems.base.RulesSystem.committed_pieces`): drawn from the Japanese secret, so the audit draws
    it again."""
    return derived(secret, "stack-order", game=game, seq=seq)


def _off_map(where: object) -> bool:
    """Whether a location in a view is none on the map (the SPI system's, and another system's own, as "removed")."""
    from pbem.engine.hexes import is_hex_id

    return where in NOT_ON_MAP or not isinstance(where, str) or not is_hex_id(where)


@dataclass
class Publication:
    """What the Japanese player sends after a step: view, root, openings, dice."""

    seq: int
    side: str
    view: dict
    root: str
    before: list[Opening]
    after: list[Opening]
    rolls: list[dict]
    seed: bytes | None  # the Japanese seed revealed (American player-turns)
    salt: bytes  # the mover's salt
    next_seed: str  # commitment to the Japanese seed of the next American player-turn
    public: dict = field(default_factory=dict)  # the public record (combats), as a turn file's


def ruleset_of(loaded: LoadedScenario, edition: str | None) -> dict:
    """The rules a game is played by: the scenario's, in the edition chosen at the start (dg-2009 unless named),
    as its rules system pins them (:mod:`pbem.systems`)."""
    from pbem.systems import system_of

    return system_of(loaded).pinned_ruleset(loaded, edition)


@dataclass
class Record:
    """The game as both players hold it at the end."""

    game: str
    setup_root: str = ""
    setup_markers: list[str] = field(default_factory=list)
    publications: list[Publication] = field(default_factory=list)
    acks: list[dict] = field(default_factory=list)
    jp_commitments: dict[int, str] = field(default_factory=dict)
    us_orders: dict[int, tuple[dict, bytes]] = field(default_factory=dict)
    us_seeds: dict[int, bytes] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    ruleset: dict | None = None
    """The rules the genesis names (its edition); None: the scenario's own."""
    options: list[str] = field(default_factory=lambda: ["hidden-units"])
    """The way of hiding units the genesis names (docs/hidden-units.md): 19B, fog-iph or fog-formosa."""
    escrow: dict | None = None
    """With an escrow holder: the genesis's ``escrow`` fields (the holder, the secret's hash, the PVSS dealing)."""
    escrow_parts: dict[int, bytes] = field(default_factory=dict)
    """With an escrow holder: step -> its committed Japanese orders, encrypted under the secret (:mod:`.dealing`)."""
    own_orders: bool = False
    """The game's rules system checks its own orders (another than SPI's): its files hold any orders object, read by
    the system (:meth:`pbem.systems.base.RulesSystem.read_orders`)."""
    first_seed: str | None = None
    """Without a secret set-up: the commitment to the Japanese seed of step 1 (the genesis's ``next_seed``)."""
    secret_setup: bool = True
    """The game opens with the Japanese secret set-up (its root at step -1); else the opening's counters, as the scenario
    sets them up, are committed at the genesis under step 0's root (a Legion scenario: its rules system says which)."""


class Japanese:
    """The Japanese player: honest.  A test subclasses one method to play a cheat."""

    def __init__(self, loaded: LoadedScenario, game: str, secret: bytes, choose: Player, ref: dict | None = None) -> None:
        from pbem.systems import system_of

        self.loaded, self.game, self.secret, self.choose = loaded, game, secret, choose
        self.system = system_of(loaded)
        self.ref = ref or {"id": loaded.scenario.id, "hash": SELFPLAY}  # the scenario as the game's files name it
        self.orders: dict[int, dict] = {}
        self.seeds: dict[int, bytes] = {}
        self.trees: dict[int, commitment.Commitment] = {}

    def choose_orders(self, seq: int, step: Step) -> dict:
        return self.choose(step.views["JP"])

    def committed_pieces(self, seq: int, state: GameState) -> dict[str, dict]:
        return self.system.committed_pieces(state, stack_key(self.secret, game=self.game, seq=seq))

    def carry_out(self, seq: int, step: Step, orders: dict, stream: dice.DiceStream, ruleset: dict) -> Step:
        return play(self.loaded, ruleset, step.state, orders, stream, game=self.game, seq=seq,
                    scenario_ref=self.ref, source=f"step {seq}")

    def open(self, tree: commitment.Commitment, marker: str) -> Opening:
        return tree.opening(marker)

    def openings(self, tree: commitment.Commitment, markers: list[str]) -> list[Opening]:
        """The openings against the root before a step: those :func:`exposure` demands."""
        return [self.open(tree, m) for m in markers]

    def tree(self, seq: int, state: GameState) -> commitment.Commitment:
        self.trees[seq] = commitment.commit(self.secret, game=self.game, seq=seq, pieces=self.committed_pieces(seq, state))
        return self.trees[seq]

    def seed_for(self, seq: int) -> bytes:
        """His seed for the dice of the American player-turn ``seq`` (committed one step earlier)."""
        return self.seeds.setdefault(seq, derived(self.secret, "jp-seed", game=self.game, seq=seq))

    @staticmethod
    def deal_escrow(holder: PublicIdentity, us: PublicIdentity, game: str, seed: bytes) -> tuple[dict, bytes]:
        """The escrow fields of his genesis and the secret they deal (:func:`.dealing.deal`, as ``pbem new`` deals
        it): a cheater's client overrides this."""
        from pbem.game.modes.blind.dealing import deal

        fields, secret = deal(holder, us, game, seed)
        return fields["escrow"], secret

    def escrow_part(self, seq: int, orders: dict, bucket: int) -> bytes:
        """His orders of step ``seq`` encrypted under the secret; in one process there are no files, so the part is
        labelled with its step where a file's carries the file's number."""
        from pbem.game.modes.blind.dealing import seal_part

        return seal_part(self.secret, game=self.game, n=seq, seq=seq, orders=orders, bucket=bucket)


class American:
    """The American player: checks every opening against a root he already holds, acknowledges each root."""

    def __init__(self, identity: PrivateIdentity, game: str, record: Record, secret: bytes, japanese: set[str],
                 loaded: LoadedScenario | None = None) -> None:
        self.identity, self.game, self.record, self.secret = identity, game, record, secret
        self.japanese = japanese  # the Japanese units' ids, from the public scenario
        self.loaded = loaded  # the public scenario: its order of battle, dummy count and map (issue 35's checks)
        from pbem.systems import system_of

        self.system = None if loaded is None else system_of(loaded)
        # the checks from public data its rules system makes at once (the others are the audit's, docs/hidden-units.md)
        self.checks = frozenset() if loaded is None else self.system.blind_public_checks()
        self.order_of_battle = {} if loaded is None else order_of_battle(loaded)
        self.bound = None if loaded is None else MoveBound(loaded)  # the public bound on hidden moves (issue 35 item 4)
        self.last_view: dict | None = None  # the view of the publication before, on which he wrote his orders
        self.dummies_removed = 0
        self._allowed_dummies: int | None = None
        self.known: set[str] = set()  # those he has been shown
        self.roots: dict[int, tuple[str, list[str]]] = {}
        self.seeds: dict[int, bytes] = {}
        self.seed_commitments: dict[int, str] = {}

    @functools.cached_property
    def scenario_document(self) -> dict | None:
        """The scenario as a genesis carries it (every file it names read in), read once: what the game's rules system
        checks a public record's combats against (the Legion charts, as ``pbem verify`` reads them from a refereed
        genesis; the SPI system's table is its own)."""
        if self.loaded is None:
            return None
        from pbem.loading.datafiles import scenario_document

        return self.system.carried_document(self.loaded, scenario_document(self.loaded.path))

    def acknowledge(self, seq: int, root: str, markers: list[str]) -> dict:
        """His signed acknowledgement of the root of step ``seq``; it commits his seed for the next Japanese step."""
        self.roots[seq] = (root, markers)
        self.seeds[seq + 1] = derived(self.secret, "us-seed", game=self.game, seq=seq + 1)
        ack = signing.sign(self.identity, {"game": self.game, "seq": seq, "root": root,
                                           "next_seed": dice.commit(self.seeds[seq + 1])}, ACK_CONTEXT)
        self.record.acks.append(ack)
        return ack

    def _found(self, seq: int, what: str) -> None:
        self.record.findings.append(Finding("JP", seq, AT_ONCE, what))

    def check_escrow(self, holder: PublicIdentity) -> None:
        """The dealing of the Japanese secret, before anything depends on it (Schoenmakers' proofs): the escrow the
        genesis names, dealt to the holder and to him, two of two."""
        from pbem.game.modes.blind.dealing import dealing_problem

        escrow = self.record.escrow or {}
        if escrow.get("holder") != holder.line():
            self._found(0, "named another escrow holder in his genesis than the one agreed")
        elif (problem := dealing_problem(escrow, holder, self.identity.public, self.game)) is not None:
            self._found(0, f"sent an escrow that does not verify ({problem}): the holder and the American player could "
                           "not open the game if he stalls; do not play on")

    def receive(self, pub: Publication, before_root: tuple[str, list[str]]) -> None:
        """Check a publication before anything depends on it; every problem is a finding naming the Japanese player."""
        view, seq = pub.view, pub.seq
        self._check_concealed_moves(pub, self.last_view)  # fog-formosa only (Formosa 11.1)
        root, markers = before_root
        names = _names(view)
        removed = _system_of_view(view).dummies_removed(view["last"]["events"])
        for opened in (pub.before, pub.after):  # the rules open a marker once: a second opening is none they demand
            markers_opened = [o.marker for o in opened]
            for twice in sorted({m for m in markers_opened if markers_opened.count(m) > 1}):
                self._found(seq, f"opened the marker in {twice} twice")
        if pub.side == "JP" and pub.before:  # it would tell where a piece came from: its exposures wait for the audit
            self._found(seq, f"opened {' '.join(o.marker for o in pub.before)} against the root before his own "
                             "player-turn, which the rules never demand (docs/PROTOCOL.md, 'not at once')")
        dummies = []
        for opening in pub.before:
            if not verify_opening(root, opening, markers):
                self._found(seq, f"opened the marker in {opening.marker} with a leaf that does not match the root he committed (step {seq - 1 if pub.side != 'setup' else 'set-up'})")
            elif opening.is_dummy:
                dummies.append(opening.marker)
            elif opening.piece.get("id") not in names:
                self._found(seq, f"opened the marker in {opening.marker} as {opening.piece.get('id')}, a unit the step does not show")
        # Every unit an American step names was a marker he holds a root for, unless he knew it: it must be opened.
        named = names & self.japanese
        if pub.side in ("US", "setup"):
            unopened = named - self.known - {o.piece.get("id") for o in pub.before}
            if unopened:
                self._found(seq, f"exposed {' '.join(sorted(unopened))} without opening the marker it stood under")
        self.known |= named
        # Every dummy an American step exposes is removed (19B.6), where it stood or where a retreat displaced it.
        if pub.side in ("US", "setup") and len(dummies) != len(removed):
            self._found(seq, f"opened {len(dummies)} marker(s) as dummies ({' '.join(dummies) or 'none'}), but the step "
                             f"removes {len(removed)} dummy(ies) ({' '.join(removed) or 'none'}, 19B.6): "
                             + ("a real unit stood under a marker opened as a dummy" if len(dummies) > len(removed)
                                else "a dummy was committed as a real unit"))
        found = len(self.record.findings)
        self._check_dice(pub)  # first: the exposures below are computed from the dice (19B.7)
        dice_hold = len(self.record.findings) == found
        if "events" in self.checks or self.loaded is None:
            self._check_events(pub)
        if self.loaded is not None:
            self._check_pieces(pub)
            if pub.side == "setup" and "setup_openings" in self.checks:
                self._check_set_up_openings(pub)
            if dice_hold:
                if "exposure" in self.checks:
                    self._check_exposure(pub, markers)
                if "moves" in self.checks:
                    self._check_moves(pub, markers)
            self.dummies_removed += len(removed)
            allowed = self._dummies_allowed()
            if self.dummies_removed > allowed:
                self._found(seq, f"has removed {self.dummies_removed} dummies by now, where scenario "
                                 f"{self.loaded.scenario.id} has {allowed} (19B.6): a real unit was passed off as a dummy")
        self.last_view = view
        shown = {u["id"]: u for u in view["state"]["units"]}
        new_markers = markers_of(view)
        for opening in pub.after:
            unit = shown.get(opening.piece.get("id"))
            if not verify_opening(pub.root, opening, new_markers):
                self._found(seq, f"opened the counter in {opening.marker} with a leaf that does not match his new root")
            elif unit is None or any(unit.get(k) != v for k, v in opening.piece.items()):
                self._found(seq, f"opened {opening.marker} as {opening.piece.get('id')} with other strengths than the view shows")
        where = view["state"]["locations"]
        standing = {where[u] for u, unit in shown.items() if unit["side"] == "JP" and unit.get("kind", unit.get("type")) != "hidden"
                    and not _off_map(where[u])}
        missing = standing - {_system_of_view(view).marker_hex(o.marker) for o in pub.after}
        if missing:
            self._found(seq, f"shows exposed units in {' '.join(sorted(missing))} without opening them")
        if pub.side == "US" and ("defense" in self.checks or self.loaded is None):
            self._check_defense(pub, {o.piece["id"]: o.piece for o in pub.before + pub.after if not o.is_dummy} | shown)
        if self.loaded is not None and pub.side in ("US", "JP") and "attack" in self.checks:
            self._check_attack(pub, self.order_of_battle | {u: unit for u, unit in shown.items() if unit["side"] == "US"})
        self.acknowledge(seq, pub.root, new_markers)

    def _check_attack(self, pub: Publication, strengths: dict[str, dict]) -> None:
        """Each combat's attack is its listed units' printed strengths (7.3, 8.1: barrage for artillery; 10.11: an
        infantry or engineer attack doubled in a Banzai) plus its Ground Support Points (9.1): every figure public,
        the Japanese attackers' from the order of battle.  Issue 35: a Japanese attack fought stronger than printed."""
        from pbem.engine.engagement import BANZAI_KINDS

        for e in pub.view["last"]["events"]:
            if e.get("type") != "combat":
                continue
            listed = list(e.get("attackers") or []) + list(e.get("barrage") or [])
            if any(u not in strengths for u in listed):
                continue  # a unit no public list holds: its opening's own checks name it
            banzai = bool(e.get("banzai"))
            expected = int(e.get("gsp") or 0) + sum(
                int(strengths[u].get("barrage") or 0) if strengths[u].get("kind") == "artillery"
                else int(strengths[u].get("attack") or 0) * (2 if banzai and strengths[u].get("kind") in BANZAI_KINDS else 1)
                for u in listed)
            if expected != e.get("attack"):
                self._found(pub.seq, f"resolved combat {e.get('index')} with an attack of {e.get('attack')}, but its "
                                     f"attackers ({' '.join(listed) or 'none'}, printed strengths) and Ground Support make "
                                     f"{expected} (7.3, 8.1, 9.1, 10.11)")

    def _check_moves(self, pub: Publication, markers: list[str]) -> None:
        """The counters after the step against those before it, under the public bound on every Japanese move
        (:mod:`pbem.game.modes.blind.move_bound`): what no legal play gives is refused now, not at the audit."""
        if pub.side == "setup" and pub.view["last"].get("valid") is False:
            return  # a set-up refused is not carried out: nothing stands where its markers were committed
        if pub.side == "setup":
            before = Seen.of_markers(markers)
        elif self.last_view is not None:
            before = Seen.of_view(self.last_view)
        else:
            return
        placed = len(self.record.setup_markers) - self.bound.set_up_units
        for problem in self.bound.check(pub.side, before, Seen.of_view(pub.view), pub.view["last"]["events"],
                                        dummies_left=placed - self.dummies_removed, file=blindfile.file_name(2 * pub.seq)):
            self._found(pub.seq, problem)

    def _dummies_allowed(self) -> int:
        """19B.6's dummies, Formosa's deception units (11.1), none under IPH 6.8: the opening's count, public data,
        laid out once for the game (every publication asks it)."""
        if self._allowed_dummies is None:
            from pbem.game.step import fog_opening

            self._allowed_dummies = sum(1 for u in fog_opening(self.loaded, self.record.options).units if u.is_dummy)
        return self._allowed_dummies

    def _check_concealed_moves(self, pub: Publication, before: dict | None) -> None:
        """Formosa 11.1: every marker the Japanese player-turn leaves concealed came from one before, within the one
        public movement factor (:mod:`pbem.game.modes.blind.concealed_moves`)."""
        if pub.side != "JP" or before is None or self.loaded is None or "fog-formosa" not in self.record.options \
                or "concealed" not in self.checks:
            return
        from pbem.game.modes.blind.concealed_moves import illegal_concealed_moves
        from pbem.loading.fog_data import fog_setting

        setting = fog_setting(self.loaded.scenario.id, "fog-formosa")
        if setting is None or setting.concealed_move is None:
            return
        turn = before["state"]["position"]["turn"]  # the Game-Turn of the player-turn played (the view after may be the next)
        due = [u.counter() for u in self.loaded.scenario.units if u.side == "JP" and u.arrives is not None and u.arrives <= turn]
        bad = illegal_concealed_moves(self.loaded.board, self.record.ruleset or ruleset_of(self.loaded, None), before,
                                      pub.view, setting.concealed_move, due)
        if bad:
            from pbem.protocol.blindfile import file_name

            self._found(pub.seq, f"left concealed markers in {' '.join(bad)} that no concealed unit could reach: every "
                                 f"concealed unit moves with the one public factor of {setting.concealed_move} (Formosa 11.1; "
                                 f"in {file_name(2 * pub.seq)}, the view of step {pub.seq})")

    def _check_events(self, pub: Publication) -> None:
        """The view's events against its position: each unit the position names stands where the last event that
        moved it left it (a move, entry, retreat, advance or displacement: 5.1, 7.7, 7.8, 7.9), an eliminated one
        off the map.  A combat result told but not applied shows here."""
        events, where = pub.view["last"]["events"], pub.view["state"]["locations"]
        final: dict[str, tuple[str, str]] = {}
        for e in events:
            kind, unit = e.get("type"), e.get("unit")
            if not isinstance(unit, str):
                continue
            if kind in ("moved", "advanced", "entered"):
                path = e.get("path") or []
                final[unit] = (path[-1] if path else e.get("hex") or e.get("from"), kind)
            elif kind == "retreated":
                path = e.get("path") or []
                final[unit] = (ELIMINATED if e.get("eliminated") else path[-1] if path else e.get("from"), "7.7 retreated")
            elif kind == "displaced":
                final[unit] = (e.get("to"), "7.8 displaced")
            elif kind == "eliminated":
                final[unit] = (ELIMINATED, "eliminated")
            elif kind == "exited":
                final[unit] = (EXITED, "exited")
        for unit, (hex_id, how) in sorted(final.items()):
            if unit in where and where[unit] != hex_id:
                self._found(pub.seq, f"published a view whose events leave {unit} in {hex_id} ({how}) but whose "
                                     f"position keeps it in {where[unit]}: a result told and not applied")

    def _check_pieces(self, pub: Publication) -> None:
        """Every piece opened is one the scenario prints: its id, kind and strengths as the public order of battle
        gives them (a dummy is counted by :meth:`receive`, 19B.6)."""
        for opening in pub.before + pub.after:
            if opening.is_dummy:
                continue
            piece, unit = opening.piece, self.order_of_battle.get(str(opening.piece.get("id")))
            if unit is None:
                self._found(pub.seq, f"opened the marker in {opening.marker} as {piece.get('id')!r}, which is no Japanese "
                                     f"unit of scenario {self.loaded.scenario.id}")
                continue
            differ = sorted(k for k in set(piece) | set(unit) if piece.get(k) != unit.get(k))
            if differ:
                self._found(pub.seq, f"opened the marker in {opening.marker} as {unit['id']} with "
                                     + ", ".join(f"{k} {piece.get(k)!r}" for k in differ) + ", where the scenario's order "
                                     "of battle prints " + ", ".join(f"{k} {unit.get(k)!r}" for k in differ)
                                     + " (3.0: every unit fights and moves with its printed strengths)")

    def _check_set_up_openings(self, pub: Publication) -> None:
        """Each piece the set-up step opens stands where its kind may set up: no dummy in a clear hex (19B.3), no armor
        off its terrain (5.25) — what the markers alone could not tell (:mod:`.setup_kinds`)."""
        from pbem.engine.deployment import SetupZone
        from pbem.engine.sequence import opening

        zone = SetupZone.of(self.loaded.board, opening(self.loaded.scenario, hidden=True))
        for o in pub.before:
            kind = "dummy" if o.is_dummy else o.piece.get("kind")
            broken = zone.limits_broken(o.marker, armor=kind == "armor", dummy=o.is_dummy)
            if broken:
                self._found(pub.seq, f"opened the marker in {o.marker} as {'a dummy' if o.is_dummy else o.piece.get('id')}, "
                                     f"which may not set up there ({broken[0][0]}: {broken[0][1]}): his set-up broke 19B.2")

    def _check_exposure(self, pub: Publication, markers: list[str]) -> None:
        """An American player-turn (or the set-up's intelligence roll) opens exactly the markers it exposes, which he
        computes from public data (:func:`public_exposure`): his attacks' defenders, the picks of the intelligence die,
        and dummies only where one may be removed (19B.4, 19B.6, 19B.7)."""
        if pub.side not in ("US", "setup") or pub.view["last"].get("valid") is False:
            return
        from pbem.game.codec import state_from_json

        if pub.side == "setup":
            seen, hidden, orders = state_from_json(pub.view["state"]), list(markers), None
        else:
            sent = self.record.us_orders.get(pub.seq)
            if self.last_view is None or sent is None:
                return
            seen = state_from_json(self.last_view["state"])
            hidden = sorted(self.last_view["state"]["locations"][u["id"]] for u in self.last_view["state"]["units"]
                            if u["side"] == "JP" and u["kind"] == "hidden")
            try:
                orders = orders_from(sent[0], f"the American orders of step {pub.seq}")
            except BadInput:
                return  # orders the view refuses: _rejudged's finding
        try:
            due = public_exposure(self.loaded.board, seen, hidden, orders, pub.rolls, setup=pub.side == "setup",
                                  beaches=self.loaded.board.beaches,
                                  cancelled=called_off(pub.view["last"]["events"], orders, self.japanese) if orders else ())
        except (KeyError, TypeError, ValueError) as exc:
            self._found(pub.seq, f"published rolls from which the exposures cannot be computed ({type(exc).__name__}: {exc})")
            return
        opened = {o.marker for o in pub.before}
        for where, rule in sorted(due.required.items()):
            if where not in opened:
                what = {"19B.4": "a defender of an American attack", "19B.3": "a unit set up in a clear hex"}.get(
                    rule, "a pick of the intelligence roll")
                self._found(pub.seq, f"did not open the marker in {where}, {what} ({rule}): the step must open it "
                                     "against the root before it, and resolve with what stood there")
        # the artillery a defense's FPF named is exposed (19B.4): allowed where it stood within range of a defender
        # it fired for (8.0); which gun fires is the Japanese choice, so only the event names it
        guns = {e.get("artillery"): e.get("index") for e in pub.view["last"]["events"] if e["type"] == "fpf"}
        fought = {e["index"]: e.get("defenders", []) for e in pub.view["last"]["events"] if e["type"] == "combat"}
        firing = set()
        for o in pub.before:
            if not o.is_dummy and o.piece.get("id") in guns:
                defenders = {where for where in due.required} | {seen.locations.get(d) for d in fought.get(guns[o.piece["id"]], [])}
                reach = int(o.piece.get("range") or 0)
                if any(d and d not in NOT_ON_MAP and hexes.distance(o.marker, d) <= reach for d in defenders):
                    firing.add(o.marker)
        events = pub.view["last"]["events"]
        pieces_opened = {o.marker: ({"kind": "dummy"} if o.is_dummy else o.piece) for o in pub.before}
        for where in sorted(opened - set(due.allowed) - firing):
            if displacement_told(self.loaded.board, events, where, pieces_opened[where], self.japanese):
                continue
            self._found(pub.seq, f"opened the marker in {where}, which the step does not expose: it is no defender, no "
                                 "pick of an intelligence roll, in no American zone of control, and no Japanese retreat of "
                                 "the step displaced its piece into a clear hex within reach, where the step tells it "
                                 "(19B.4, 19B.6, 19B.7, 7.8, 19B.3)")

    def _check_defense(self, pub: Publication, strengths: dict[str, dict]) -> None:
        """Each of his attacks fought the opened defenders: its defense is theirs plus the FPF it drew (7.4, 8.0)."""
        events = pub.view["last"]["events"]
        for event in events:
            if event["type"] != "combat" or any(d not in strengths for d in event["defenders"]):
                continue
            fpf = [e for e in events if e["type"] == "fpf" and e["index"] == event["index"]]
            for e in fpf:
                gun = strengths.get(e.get("artillery") or "")
                if gun is not None and gun.get("fpf") != e["points"]:
                    self._found(pub.seq, f"gave FPF of {e['points']} with {e['artillery']}, whose opened FPF strength is {gun.get('fpf')}")
            expected = sum(strengths[d]["defense"] for d in event["defenders"]) + sum(e["points"] for e in fpf)
            if expected != event["defense"]:
                self._found(pub.seq, f"resolved combat {event['index']} with a defense of {event['defense']}, but the opened "
                                     f"defenders and their FPF make {expected}")

    def _check_dice(self, pub: Publication) -> None:
        if pub.side == "US":
            committed = self.seed_commitments.get(pub.seq)
            if committed is None or pub.seed is None or not dice.check_commitment(pub.seed, committed):
                self._found(pub.seq, "revealed a seed that is not the one he committed")
                return
            sent = self.record.us_orders.get(pub.seq)  # his salt travels with his orders: the mover's half of the dice
            if sent is None or not isinstance(pub.salt, bytes) or not hmac.compare_digest(sent[1], pub.salt):
                self._found(pub.seq, "rolled the American player-turn with another salt than the American player sent")
                return
            seed = pub.seed
        else:
            seed = self.seeds[pub.seq]
        values = dice.recompute(seed, pub.salt, [r["purpose"] for r in pub.rolls])
        if values != [r["value"] for r in pub.rolls]:
            self._found(pub.seq, "recorded rolls that the committed seed and the salt do not give")
        # the combats the view and the public record show, against those rolls and the table (7.61), as verify does
        table = combat_table_problems(pub.public, pub.rolls, self.record.ruleset, scenario=self.scenario_document)
        for problem in combat_roll_problems(pub.public, pub.rolls) + table + view_problems(pub.view, pub.public):
            self._found(pub.seq, f"published a record the rolls do not give: {problem}")


def order_of_battle(loaded: LoadedScenario) -> dict[str, dict]:
    """Every Japanese unit of the scenario as a root commits it (the SPI system: :func:`pieces`' fields), by id."""
    from pbem.systems import system_of

    return system_of(loaded).order_of_battle(loaded)


def setup_problems(loaded: LoadedScenario, markers: list[str], seq: int = 1, options: list[str] | None = None) -> list[Finding]:
    """The set-up's markers against the public set-up zone and counts (19B.2 adapted, 19B.6): each marker on a hex
    some piece may take, no two on one hex (5.31), as many as the set-up units and at most the scenario's dummies more,
    and kind by kind (:mod:`.setup_kinds`): every set-up unit under a marker its kind may take (armor, 5.25), every
    marker where no dummy may stand (a clear hex, 19B.3) held by a unit."""
    from pbem.game.modes.blind.setup_kinds import kind_problems
    from pbem.engine.deployment import SetupZone
    from pbem.game.step import fog_opening
    from pbem.systems import system_of

    if "setup" not in system_of(loaded).blind_public_checks():
        return []  # no secret set-up: the genesis commits the opening's counters, checked at the audit
    state = fog_opening(loaded, options or ["hidden-units"])
    zone = SetupZone.of(loaded.board, state)
    units = [u for u in state.units if u.side == "JP" and state.locations.get(u.id) not in NOT_ON_MAP]
    dummies = sum(1 for u in state.units if u.is_dummy)  # 19B.6's dummies, Formosa's deception units, none in IPH 6.8
    found = []
    if len(set(markers)) != len(markers):
        found.append(Finding("JP", seq, AT_ONCE, "committed a set-up with two markers on one hex (5.31)"))
    if not len(units) <= len(markers) <= len(units) + dummies:
        found.append(Finding("JP", seq, AT_ONCE, f"committed a set-up of {len(markers)} markers, where scenario "
                             f"{loaded.scenario.id} sets up {len(units)} units and at most {dummies} dummies (19B.2, 19B.6)"))
    outside = [h for h in markers if all(zone.limits_broken(h, armor=a, dummy=d) for a, d in ((False, False), (True, False), (False, True)))]
    if outside:
        found.append(Finding("JP", seq, AT_ONCE, f"committed markers in {' '.join(sorted(outside))}, where no piece may "
                             f"set up: outside the set-up zone of scenario {loaded.scenario.id} (19B.2 adapted)"))
        return found
    inside = sorted(set(markers))
    found += [Finding("JP", seq, AT_ONCE, f"{what} (scenario {loaded.scenario.id})") for what in kind_problems(
        units, inside, lambda unit, h: not zone.limits_broken(h, armor=unit.kind == "armor"),
        lambda h: not zone.limits_broken(h, dummy=True))]
    return found


def _names(view: dict) -> set[str]:
    """Every name the view gives: its units and every string of the step's events."""
    return {u["id"] for u in view["state"]["units"]} | set(strings_in(view["last"]["events"]))



Player = Callable[[dict], dict]
"""Who writes a side's orders: its view in, its orders out (a person at a keyboard, or a bot)."""


def bot_players(loaded: LoadedScenario, policies: dict[str, str], seed: int = 0) -> dict[str, Player]:
    """Both sides played by the bot (the rules system's), each from its own view, as :mod:`pbem.bot.selfplay` plays them."""
    from pbem.systems import system_of

    bot_orders = system_of(loaded).bot_orders
    return {side: (lambda view, policy=policy: bot_orders(view, loaded, policy, seed)) for side, policy in policies.items()}


def run(loaded: LoadedScenario, *, us: PrivateIdentity, players: dict[str, Player],
        secret: bytes | None = None, us_secret: bytes | None = None, japanese: Callable[..., Japanese] = Japanese,
        game: str = SELFPLAY, max_steps: int | None = None, options: list[str] | None = None,
        escrow: PublicIdentity | None = None) -> tuple[Record, Japanese]:
    """Play a game through the protocol; returns both players' record and the Japanese player (his secret).

    Each player's dice seeds and salts derive from his own per-game secret (fresh ones unless given), so a game
    with given secrets, bots and seed is played again exactly.  With ``escrow`` (the holder's identity) the secret
    is dealt between the holder and the American player as ``pbem new --escrow`` deals it (:mod:`.dealing`), the
    American player checks the dealing at once, and every committed Japanese order is escrowed
    (:func:`recover_escrow` opens them)."""
    secret = secret or commitment.new_secret()
    ruleset = ruleset_of(loaded, None)
    options = options or ["hidden-units"]
    record = Record(game, ruleset=ruleset, options=options)
    if escrow is not None:
        record.escrow, secret = getattr(japanese, "deal_escrow", Japanese.deal_escrow)(escrow, us.public, game, secret)
    jp = japanese(loaded, game, secret, players["JP"])
    american = American(us, game, record, us_secret or commitment.new_secret(),
                        {u.id for u in loaded.scenario.units if u.side == "JP"}, loaded)
    if escrow is not None:
        american.check_escrow(escrow)
    bucket = escrow_bucket(loaded) if escrow is not None else 0
    step = genesis_step(loaded, {}, game=game, scenario_ref={"id": loaded.scenario.id, "hash": SELFPLAY},
                        ruleset=ruleset, options=options)
    system = jp.system
    record.secret_setup = system.awaits_secret_setup(step.state)
    if record.secret_setup:
        american.acknowledge(0, commitment.commit(secret, game=game, seq=0, pieces={}).root, [])
    else:  # the opening's counters, where the scenario sets them up, committed before anything is played
        opening = jp.tree(0, step.state)
        record.setup_root, record.setup_markers = opening.root, opening.markers
        record.first_seed = dice.commit(jp.seed_for(1))  # the first step may be American: his seed's commitment
        american.acknowledge(0, opening.root, opening.markers)
        american.seed_commitments[1] = record.first_seed
    seq = 0
    while not step.over and (max_steps is None or seq < max_steps):
        seq += 1
        side = step.state.to_act()
        setup = system.awaits_secret_setup(step.state)
        if side == "JP":
            orders = jp.choose_orders(seq, step)
            jp.orders[seq] = orders
            salt, nonce = orders_salt_nonce(secret, game=game, seq=seq)
            record.jp_commitments[seq] = orders_commitment(nonce, orders)
            if escrow is not None:
                record.escrow_parts[seq] = jp.escrow_part(seq, orders, bucket)
            before_root = american.roots[seq - 1]
            if setup:  # the set-up is committed before the dice of its intelligence roll exist (19B.7)
                placed = apply_deployment(step.state, orders_from(orders, "the Japanese set-up"))
                tree = jp.tree(-1, placed)
                record.setup_root, record.setup_markers = tree.root, tree.markers
                american.acknowledge(-1, tree.root, tree.markers)
                before_root = american.roots[-1]
            stream = dice.DiceStream(american.seeds[seq], salt)  # his seed, revealed only now
            revealed = None
        else:
            orders = players["US"](step.views["US"])
            salt = derived(american.secret, "us-salt", game=game, seq=seq)
            record.us_orders[seq] = (orders, salt)
            revealed = jp.seed_for(seq)
            stream = dice.DiceStream(revealed, salt)
            before_root = american.roots[seq - 1]
        before_state = placed if setup else step.state
        if side == "JP":
            record.us_seeds[seq] = american.seeds[seq]
        step, pub = adjudicate(jp, seq, step, orders, stream, side=side, setup=setup, before=before_state,
                               revealed=revealed, salt=salt, ruleset=ruleset)
        american.seed_commitments[seq + 1] = pub.next_seed
        record.publications.append(pub)
        american.receive(pub, before_root)
    return record, jp


def escrow_bucket(loaded: LoadedScenario) -> int:
    """The length an escrow part is padded to in this scenario (the refereed mode's sealed size: public data)."""
    from pbem.game.sizes import sealed_bucket

    return sealed_bucket(loaded.scenario, hidden=True, previous=None)


def recover_escrow(record: Record, holder: PrivateIdentity, us: PrivateIdentity) -> tuple[bytes, dict[int, dict]]:
    """The holder and the American player open their shares together (each proven against the dealing), which gives
    the secret, checked against its committed hash; the secret opens every escrowed order.  ValueError naming what
    fails: a share, the secret, or the part of a step (each the Japanese player's doing but a share)."""
    import json

    from pbem.game.modes.blind.dealing import (AMERICAN, HOLDER, dealing_from, identity_point, open_part, open_share,
                                               pvss_context, secret_from_shares)
    from pbem.protocol import pvss

    escrow = record.escrow
    if escrow is None:
        raise ValueError("this game has no escrow")
    if escrow["holder"] != holder.public.line():
        raise ValueError(f"{holder.public.describe()} is not the escrow holder this game names")
    try:  # the American player is the one who signed the acknowledgements
        signing.verify(record.acks[0], us.public, ACK_CONTEXT, role="US")
    except (IndexError, BadInput, VerificationFailed):
        raise ValueError(f"{us.public.describe()} is not the American player of this game") from None
    dealing, opened = dealing_from(escrow["pvss"]), {}
    for index, who in ((HOLDER, holder), (AMERICAN, us)):
        share, proof = open_share(who, index, escrow, record.game)
        opened[index] = pvss.verify_share(index, share, proof, identity_point(who.public), dealing,
                                          pvss_context(record.game))
    secret = secret_from_shares(opened, escrow, record.game)
    if secret is None:
        raise ValueError("the shares open another secret than the one the escrow's hash commits")
    orders = {}
    for seq, part in sorted(record.escrow_parts.items()):
        plain = open_part(secret, record.game, seq, part, seq)
        doc = json.loads(plain) if plain is not None else None
        if not isinstance(doc, dict) or doc.get("seq") != seq:
            raise ValueError(f"step {seq}: the escrow part does not open as that step's")
        orders[seq] = doc["orders"]
    return secret, orders


def adjudicate(jp: Japanese, seq: int, step: Step, orders: dict, stream: dice.DiceStream, *, side: str, setup: bool,
               before: GameState, revealed: bytes | None, salt: bytes, ruleset: dict) -> tuple[Step, Publication]:
    """The Japanese player adjudicates step ``seq`` and builds its publication: the American view, the new root, the
    openings :func:`exposure` demands against the root before (``jp.trees``: the set-up's, or the previous step's)
    and the new one, the rolls, and the commitment to his seed for the next American player-turn.

    ``before`` is the position whose markers the root before the step commits (the deployed one for the set-up)."""
    after = jp.carry_out(seq, step, orders, stream, ruleset)
    keys = (stack_key(jp.secret, game=jp.game, seq=-1 if setup else seq - 1), stack_key(jp.secret, game=jp.game, seq=seq))
    opened_before, opened_after, _ = jp.system.blind_exposure(jp.loaded.board, before, after.state, after.last["events"],
                                                              "setup" if setup else side, keys)
    before_tree = jp.trees[-1 if setup else seq - 1] if (setup or seq > 1 or seq - 1 in jp.trees) else None
    tree = jp.tree(seq, after.state)
    return after, Publication(
        seq, "setup" if setup else side, after.views["US"], tree.root,
        jp.openings(before_tree, sorted(opened_before)) if before_tree else [],
        [jp.open(tree, m) for m in sorted(opened_after)],
        stream.rolls, revealed, salt, dice.commit(jp.seed_for(seq + 1)), after.public)


def check_history(record: Record, us: PublicIdentity, shown: dict[int, str]) -> list[Finding]:
    """Roots the Japanese player shows (``shown``: step → root, e.g. to a tournament) against the American player's
    signed acknowledgements: a root he did not receive is a second history."""
    acked = {}
    for ack in record.acks:
        body = signing.verify(ack, us, ACK_CONTEXT, role="US")
        acked[body["seq"]] = body["root"]
    return [Finding("JP", seq, AT_AUDIT, f"shows root {root[:19]}… for step {seq}, but the American player acknowledged "
                                         f"{acked[seq][:19]}…: two histories")
            for seq, root in sorted(shown.items()) if seq in acked and acked[seq] != root]


def audit(loaded: LoadedScenario, record: Record, secret: bytes | None, jp_orders: dict[int, dict],
          ref: dict | None = None) -> list[Finding]:
    """Replay every step with full information from the published secret and orders; name the first wrong step."""
    return replay(loaded, record, secret, jp_orders, ref)[0]


def replay(loaded: LoadedScenario, record: Record, secret: bytes | None, jp_orders: dict[int, dict],
           ref: dict | None = None) -> tuple[list[Finding], Step | None]:
    """:func:`audit`'s findings and the step the replay reached (the Japanese player plays on from it with the files)."""
    if secret is None:
        return [Finding("JP", len(record.publications), AT_END,
                        "withheld his secret at the end of the game: no hidden move can be audited (a forfeit in a tournament)")], None
    game, findings = record.game, []
    committed = {a["body"]["seq"] + 1: a["body"]["next_seed"] for a in record.acks if isinstance(a.get("body"), dict)}
    for seq, seed in sorted(record.us_seeds.items()):
        if not dice.check_commitment(seed, committed.get(seq, "")):
            findings.append(Finding("US", seq, AT_AUDIT, "revealed a seed that is not the one his acknowledgement committed"))
    if findings:  # the Japanese player would have refused it at once; a step rolled with it cannot be judged
        return findings, None
    ruleset = record.ruleset or ruleset_of(loaded, None)
    ref = ref or {"id": loaded.scenario.id, "hash": SELFPLAY}
    step = genesis_step(loaded, {}, game=game, scenario_ref=ref, ruleset=ruleset, options=record.options)
    from pbem.systems import system_of

    system = system_of(loaded)

    def committed(state, seq: int) -> dict[str, dict]:
        return system.committed_pieces(state, stack_key(secret, game=game, seq=seq))

    if not record.secret_setup and commitment.commit(secret, game=game, seq=0, pieces=committed(step.state, 0)).root != record.setup_root:
        return [Finding("JP", 0, AT_AUDIT, f"committed counters at the genesis that are not the opening of scenario "
                                           f"{loaded.scenario.id}: a unit under another marker than where it sets up")], None
    for pub in record.publications:
        seq = pub.seq
        if pub.side in ("JP", "setup"):
            orders = jp_orders.get(seq)
            salt, nonce = orders_salt_nonce(secret, game=game, seq=seq)
            if orders is None or orders_commitment(nonce, orders) != record.jp_commitments.get(seq):
                findings.append(Finding("JP", seq, AT_AUDIT, "published orders that are not the ones he committed"))
                break
            if seq not in record.us_seeds:
                findings.append(Finding("US", seq, AT_AUDIT, "never revealed the seed of this step"))
                break
            stream = dice.DiceStream(record.us_seeds[seq], salt)
            if pub.side == "setup":
                placed = apply_deployment(step.state, orders_from(orders, "the Japanese set-up"))
                tree = commitment.commit(secret, game=game, seq=-1, pieces=pieces(placed))
                if tree.root != record.setup_root:
                    findings.append(Finding("JP", seq, AT_AUDIT, "committed a set-up that is not the one his orders deploy "
                                            "(19B.2)" + opened_otherwise(pieces(placed), pub.before)))
                    break
        else:
            orders, salt = record.us_orders[seq]
            stream = dice.DiceStream(pub.seed, salt)
        prior = step.state
        step = play(loaded, ruleset, step.state, orders, stream, game=game, seq=seq, scenario_ref=ref, source=f"step {seq}")
        if not step.last["valid"] and pub.view["last"]["valid"]:  # a rejection both show is no cheat
            rules = ", ".join(sorted({p["rule"] for p in step.last["problems"] if p.get("rule")}))
            findings.append(Finding("JP", seq, AT_AUDIT,  # he adjudicated the step, whoever wrote the orders
                                    f"carried out orders the rules refuse ({rules}): "
                                    + "; ".join(p["message"] for p in step.last["problems"][:3])
                                    + moves_refused(prior, orders, step.last["problems"])))
            break
        if commitment.commit(secret, game=game, seq=seq, pieces=committed(step.state, seq)).root != pub.root:
            findings.append(Finding("JP", seq, AT_AUDIT, "published a root that the replayed position does not give: "
                                                         "the commitment changed otherwise than the moves (5.11: no "
                                                         "unit moves but as the orders and the combat results move it)"
                                    + deed(step.state, pub, prior, lambda p, seq=seq: commitment.commit(
                                        secret, game=game, seq=seq, pieces=p).root, committed(step.state, seq))))
            break
        if canonical_bytes(step.views["US"]) != canonical_bytes(pub.view):
            findings.append(Finding("JP", seq, AT_AUDIT, "sent an American view that the replay does not give"
                                    + deed(step.state, pub, prior, true=committed(step.state, seq))))
            break
        if stream.rolls != pub.rolls:
            findings.append(Finding("JP", seq, AT_AUDIT, "recorded other rolls than the replay makes"))
            break
    return findings, step


def moves_refused(prior: GameState, orders: Any, problems: list[dict]) -> str:
    """The moves of the orders the audit refuses, as deeds: each unit a problem names, where it stood, where its move
    ended and its allowance (issue 35 item 6)."""
    named = {p.get("unit") for p in problems if p.get("unit")}
    units = prior.unit_index()
    told = []
    for move in (orders.get("moves") or []) if isinstance(orders, dict) else []:
        unit = move.get("unit") if isinstance(move, dict) else None
        if unit not in named or unit not in units:
            continue
        path = [h for h in move.get("path") or [] if isinstance(h, str)]
        start = move.get("enter") or prior.locations.get(unit)
        told.append(f"{unit} moved from {start} to {path[-1] if path else start} (path {' '.join(path) or 'none'}; "
                    f"movement allowance {units[unit].move})")
    return (" — the deed: " + "; ".join(told)) if told else ""


def opened_otherwise(true: dict[str, dict], opened: list[Opening]) -> str:
    """Each piece opened against a root as another than the replay has under that marker: its hex, what was opened
    and what the replay has there (strengths included)."""
    def named(piece: dict | None) -> str:
        if not piece or piece.get("kind") == "dummy":
            return "a dummy"
        return f"{piece.get('id')} ({piece.get('attack')}-{piece.get('defense')}-{piece.get('move')})"

    told = [f"opened {o.marker} as {named(o.piece)}, where the replay has {named(true.get(o.marker))}"
            for o in opened if any((true.get(o.marker) or {}).get(k) != v for k, v in o.piece.items())]
    return (": " + "; ".join(told[:4])) if told else ""


def deed(replayed: GameState, pub: Publication, prior: GameState | None = None,
         root_of: Callable[[dict], str] | None = None, true: dict[str, dict] | None = None) -> str:
    """What the Japanese player did, as far as the replay and the publication tell (issue 35 item 6): each piece
    opened as another than the replay has there, each marker where the replay has none and each replayed piece with
    no marker, naming the unit, where the replay had it (before and after the step) and its allowance or strengths."""
    true = pieces(replayed) if true is None else true  # the committed pieces by marker (the SPI system's: by hex)
    before = {u.id: prior.locations.get(u.id) for u in prior.units} if prior is not None else {}

    def named(piece: dict | None) -> str:
        if not piece or piece.get("kind") == "dummy":
            return "a dummy"
        return (f"{piece.get('id')} ({piece.get('attack')}-{piece.get('defense')}-{piece.get('move')}, "
                f"movement allowance {piece.get('move')})")

    told = []
    for opening in pub.after:
        honest = true.get(opening.marker)
        if honest is None or any(honest.get(k) != v for k, v in opening.piece.items()):
            told.append(f"opened {opening.marker} as {named(opening.piece)}, where the replay has {named(honest)}")
    shown = set(markers_of(pub.view))
    for hex_id in sorted(shown - set(true)):
        told.append(f"shows a marker in {hex_id}, where the replay has no Japanese piece")
    for hex_id in sorted(set(true) - shown):
        piece = true[hex_id]
        came = before.get(piece.get("id")) if piece.get("id") else None
        told.append(f"shows no marker in {hex_id}, where the replay has {named(piece)}"
                    + (f" (in {came} before the step)" if came and came != hex_id else ""))
    if not told and root_of is not None:  # the same hexes: which two pieces changed places gives the root he published
        hexes_ = sorted(true)
        for i, x in enumerate(hexes_):
            for y in hexes_[i + 1:]:
                if true[x] != true[y] and root_of(true | {x: true[y], y: true[x]}) == pub.root:
                    return (f": {named(true[x])} committed in {y} and {named(true[y])} in {x}, where the replay has them "
                            "the other way round (pieces exchanged between markers)")
    return (": " + "; ".join(told[:4]) + (f" (and {len(told) - 4} more)" if len(told) > 4 else "")) if told else \
        " (the same hexes and openings: pieces exchanged between markers, or a piece committed otherwise than the " \
        "replay under a marker no opening shows)"


def salts_match(secret: bytes, record: Record) -> bool:
    """Every salt opened during the game is the one the published secret derives."""
    return all(hmac.compare_digest(commitment.marker_salt(secret, game=record.game, seq=seq, marker=o.marker), o.salt)
               for pub in record.publications
               for seq, opened in ((pub.seq - 1 if pub.side != "setup" else -1, pub.before), (pub.seq, pub.after))
               for o in opened)
