"""Hidden units with no referee, through the real files: :mod:`pbem.game.modes.blind.run`'s protocol, one message a file.

The messages (:mod:`pbem.protocol.blindfile`) alternate: the Japanese
player's genesis (the root over his secret set-up, the commitment to his
set-up orders and to his dice salt), the American player's answer (his
acknowledgement of that root and his seed), then for every step the Japanese
publication (the American view, the new root, the openings 19B demands, the
dice; with the commitment to his next orders when he moves next) and the
American answer (his acknowledgement, with his orders or his seed).  Each
player keeps his per-game secret in ``blind-private-SIDE.json`` in his own
game folder (never sent); the Japanese player publishes his at the end
(``blind-secret-JP.pbem``) and the audit replays every step with it.

Every check is :mod:`pbem.game.modes.blind.run`'s: the American player's
(:class:`~pbem.game.modes.blind.run.American`) runs over the publications in the
folder, as they arrived; the audit is :func:`~pbem.game.modes.blind.run.audit`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, get_args

from pbem.loading.datafiles import LoadedScenario, find_scenario, orders_from, scenario_document
from pbem.engine.deployment import apply_deployment, check_deployment
from pbem.errors import BadInput, VerificationFailed
from pbem.game.modes.blind import escrow as blind_escrow, schema as blind_schema, run as br
from pbem.game.step import genesis_step, refuse_two_fogs, verdict
from pbem.loading.turns import scenario_hash, with_overrides
from pbem.model.common import HIDDEN_UNITS, Edition, fog_option
from pbem.protocol import blindfile, commitment, dice, signing
from pbem.protocol.canonical import b64d, b64e
from pbem.protocol.commitment import Opening
from pbem.protocol.files import read_text, write_new, write_replacing
from pbem.protocol.keys import PrivateIdentity, PublicIdentity
from pbem.protocol.turnfile import new_game_id
from pbem.systems import load_scenario, system_of

SIDES = ("US", "JP")
EMPTY_ROOT_SEQ = 0


DEFAULT_EDITION = "dg-2009"
EDITIONS = get_args(Edition)


def _own_orders(genesis: blindfile.Message) -> bool:
    """Whether the genesis's scenario is played by a rules system with orders of its own (another than SPI's): its
    files' orders are checked by that system when read, not by the SPI orders schema."""
    from pbem.systems import name_in, orders_of_its_own

    try:
        return orders_of_its_own(name_in(scenario_document(find_scenario(str(genesis.body["scenario"]["id"])))))
    except (KeyError, TypeError, BadInput):
        return False  # no scenario pbem ships: the genesis's own checks name what is wrong


def _game_edition(loaded: LoadedScenario, edition: object, source: str | None) -> str | None:
    """The edition of a game of ``loaded``: the SPI system's as :func:`_edition` reads it (``source``: the genesis it
    comes from; None: ``pbem new``, dg-2009 unless named), none for a rules system that pins none (its ruleset has
    no edition: the Legion system has one set of rules)."""
    from pbem.systems import system_of

    if "edition" in system_of(loaded).pinned_ruleset(loaded, None):
        return _edition(edition if source is not None else edition or DEFAULT_EDITION, source)
    if edition is not None:
        raise BadInput(f"the rules system of scenario {loaded.scenario.id} has one edition, not {edition!r}",
                       file=source, field="edition" if source else "--edition", hint="give no --edition")
    return None


def _edition(edition: object, source: str | None) -> str:
    """The edition a genesis names (I1): one pbem plays, never anything else."""
    if edition not in EDITIONS:
        raise BadInput(f"unknown edition {edition!r}", file=source, field="edition" if source else None,
                       hint=f"use {' or '.join(EDITIONS)}")
    return edition


Chooser = Callable[[dict, LoadedScenario, int], dict]
"""Who writes a side's orders in the files: his view, the scenario and a seed for the bot's draws, in; his orders out.
The seed derives from his own per-game secret (:func:`bot_seed`), never a constant: the American player cannot
compute a hidden side's set-up or moves from public data (issue 35)."""


def bot_seed(secret: bytes, *, game: str, seq: int) -> int:
    """The seed of a bot's draws for step ``seq`` (the set-up is step 1), derived from the player's per-game secret
    (HKDF): the other player cannot reproduce it; a resend gives the same orders; the published secret explains it."""
    return int.from_bytes(br.derived(secret, "bot-seed", game=game, seq=seq, length=8), "big")


def private_name(side: str) -> str:
    return f"blind-private-{side}.json"


# ---------------------------------------------------------------------------------------------- the game as held


@dataclass
class BlindGame:
    """A folder's messages read and turned into :class:`blind_run.Record` as the American player holds it."""

    folder: Path
    messages: list[blindfile.Message]
    identities: dict[str, PublicIdentity]
    loaded: LoadedScenario
    ref: dict
    record: br.Record
    salt_commitments: dict[int, str] = field(default_factory=dict)
    secret: bytes | None = None
    jp_orders: dict[int, dict] = field(default_factory=dict)
    secret_published: bool = False
    problems: list[br.Finding] = field(default_factory=list)  # what a file's writer owed and did not send (at once)
    secret_recovered_by: str | None = None  # the escrow holder, when the secret came from the escrow (blind_escrow)
    replayed_to: object = None  # the Step the audit's replay reached with no finding (what a stalled step is played on)

    @property
    def game(self) -> str:
        return self.record.game

    @property
    def last_pub(self) -> br.Publication | None:
        return self.record.publications[-1] if self.record.publications else None

    @property
    def over(self) -> bool:
        pub = self.last_pub
        return bool(pub and pub.view.get("over"))

    @property
    def awaiting(self) -> str:
        """Who chooses the orders of the next step (the set-up first: the Japanese player; with no secret set-up, the
        American player, whose player-turn opens such a game: :func:`_start_opened`)."""
        pub = self.last_pub
        if pub is None:
            return "JP" if self.record.secret_setup else "US"
        return pub.public.get("awaiting", "JP")

    def american_view(self) -> dict:
        """The American view the next orders are written on: the latest publication's, or before any (no secret
        set-up) the opening's, which he works out from the public scenario himself."""
        return self.last_pub.view if self.last_pub is not None else self.opening_view()

    def opening_view(self) -> dict:
        """The American view of the opening, from the public scenario and genesis alone."""
        return genesis_step(self.loaded, {}, game=self.game, scenario_ref=self.ref, ruleset=self.record.ruleset,
                            options=self.record.options).views["US"]

    @property
    def next_writer(self) -> str | None:
        """Who writes the next file, or None when the game is over and the secret published."""
        if self.secret_published:
            return None
        return blindfile.writer_of(len(self.messages))


def _publication(doc: dict, source: str) -> br.Publication:
    try:
        return br.Publication(
            int(doc["seq"]), str(doc["side"]), dict(doc["view"]), str(doc["root"]),
            [Opening.from_json(o, source) for o in doc["before"]], [Opening.from_json(o, source) for o in doc["after"]],
            list(doc["rolls"]), b64d(doc["seed"], source=source, field="seed") if doc.get("seed") else None,
            b64d(doc["salt"], source=source, field="salt"), str(doc["next_seed"]), dict(doc["public"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"the publication is malformed ({type(exc).__name__}: {exc})", file=source, field="publication",
                       hint="ask the Japanese player for the file again") from None


def _publication_json(pub: br.Publication) -> dict:
    return {"seq": pub.seq, "side": pub.side, "view": pub.view, "root": pub.root,
            "before": [o.as_json() for o in pub.before], "after": [o.as_json() for o in pub.after], "rolls": pub.rolls,
            "seed": b64e(pub.seed) if pub.seed else None, "salt": b64e(pub.salt), "next_seed": pub.next_seed,
            "public": pub.public}


def load(folder: Path) -> BlindGame:
    """Every message of the folder, each signature checked against the identities the genesis names, the chain of
    digests checked; what the messages carry becomes the Record both players hold."""
    from pbem.protocol.keys import PublicIdentity as Pub

    if not folder.is_dir():
        raise BadInput("is not a folder", file=str(folder), hint="give the folder where you keep this game's files")
    paths = blindfile.numbered_files(folder)
    if not paths:
        raise BadInput("no game files found", file=str(folder), hint=f"the game starts with {blindfile.file_name(0)}")
    messages = [blindfile.read(read_text(p, what="game file"), str(p)) for p in paths]
    genesis = messages[0]
    blind_escrow.refuse_earlier_escrow(genesis)  # before its schema, which would call it altered
    own_orders = _own_orders(genesis)
    for message in messages:  # each body against its schema (schemas/blind-*.schema.json) before anything reads it
        blind_schema.check_body(message.body, message.source, own_orders)
    ids = blindfile.body_field(genesis, "identities", dict)
    identities = {side: Pub.from_line(ids.get(side, ""), source=genesis.source, field=f"identities.{side}") for side in SIDES}
    blindfile.check(genesis, identities["JP"], "JP")
    scenario = blindfile.body_field(genesis, "scenario", dict)
    # its schema allows only a Ground Support track in ``overrides``
    loaded = with_overrides(load_scenario(scenario.get("id", "")), genesis.body.get("overrides"), genesis.source)
    ref = {"id": loaded.scenario.id, "hash": scenario_hash(scenario_document(find_scenario(loaded.scenario.id)))}
    if scenario != ref:
        raise VerificationFailed("the genesis names a scenario that is not the one pbem ships under that id",
                                 file=genesis.source, field="scenario", hint="both players need the same pbem scenarios")
    game = blindfile.body_field(genesis, "game", str)
    written = genesis.body.get("edition", DEFAULT_EDITION if "edition" in br.ruleset_of(loaded, None) else None)
    record = br.Record(game, ruleset=br.ruleset_of(loaded, _game_edition(loaded, written, genesis.source)),
                       options=list(genesis.body.get("options") or [HIDDEN_UNITS]), own_orders=own_orders)
    setup = blindfile.body_field(genesis, "setup", dict)
    record.setup_root, record.setup_markers = setup["root"], list(setup["markers"])
    record.secret_setup = _secret_setup(loaded, record.options)
    record.first_seed = None if record.secret_setup else genesis.body.get("next_seed")
    held = BlindGame(folder, messages, identities, loaded, ref, record)
    held.salt_commitments, record.jp_commitments = {}, {}
    prev = None
    for position, message in enumerate(messages):
        _in_place(message, position, genesis, game)
        side = blindfile.writer_of(message.n)
        body = blindfile.check(message, identities[side], side)
        if body.get("prev") != prev:
            _broken_chain(messages, message, side)
        prev = message.digest
        try:
            _take(held, message, body, side)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadInput(f"a field of the message is malformed ({type(exc).__name__}: {exc})", file=message.source,
                           hint=f"the file was made by another program or altered: ask the {side} player for it again") from None
    secret_path = folder / blindfile.SECRET_NAME
    if secret_path.exists():
        message = blindfile.read(read_text(secret_path, what="secret file"), str(secret_path))
        body = blindfile.check(message, identities["JP"], "JP")
        blind_schema.check_body(body, message.source, own_orders)
        if body.get("game") != game:
            raise VerificationFailed("is the secret of another game", file=str(secret_path), field="game",
                                     hint="ask the Japanese player for this game's secret")
        held.secret = b64d(body.get("secret"), source=str(secret_path), field="secret")
        try:
            held.jp_orders = {int(k): v for k, v in dict(body.get("orders") or {}).items()}
        except (TypeError, ValueError):
            raise BadInput("the secret file's orders are malformed", file=str(secret_path), field="orders",
                           hint="ask the Japanese player for the file again") from None
        held.secret_published = True
    elif (recovered := blind_escrow.read_recovered(folder, held)) is not None:
        held.secret, held.jp_orders, held.secret_recovered_by = recovered
        held.secret_published = True
    return held


def _secret_setup(loaded: LoadedScenario, options: list[str]) -> bool:
    """Whether the game opens with the Japanese secret set-up (its rules system says, of the opening)."""
    from pbem.game.step import fog_opening
    from pbem.systems import system_of

    return system_of(loaded).awaits_secret_setup(fog_opening(loaded, options))


def _in_place(message: blindfile.Message, position: int, genesis: blindfile.Message, game: str) -> None:
    """A file of this game, in its own place: what a mix-up of folders or an older file sent again looks like (exit 2,
    before its signature is checked: a file of another game is no forgery of this one)."""
    if message.body.get("game") != game:
        raise BadInput(f"is a file of game {message.body.get('game')}, not of this game ({game}, {Path(genesis.source).name})",
                       file=message.source, field="game", hint="put only this game's files in the folder")
    if message.n != position:
        raise BadInput(f"is file {message.n} of the game ({blindfile.file_name(message.n)}), not file {position}: an older "
                       "file sent again, or a file saved under another name", file=message.source,
                       hint=f"ask the {blindfile.writer_of(position)} player for {blindfile.file_name(position)} again")


def _broken_chain(messages: list[blindfile.Message], message: blindfile.Message, side: str) -> None:
    """``message``'s 'prev' is not the digest of the file before it: who broke the chain, as far as the files say.

    Both files are signed.  A 'prev' naming another file of the folder was written out of place by ``side``; any
    other means the file before it here is not the one ``side`` answered, and its writer signed two files for one
    place in the game (or rewrote it)."""
    earlier = Path(messages[message.n - 1].source).name if message.n else "nothing"
    answered = next((m for m in messages if m.digest == message.body.get("prev") and m.n != message.n - 1), None)
    if answered is not None:
        raise VerificationFailed(f"answers {Path(answered.source).name} (its 'prev' is that file's digest), not {earlier}, "
                                 f"the file before it: {side} wrote it out of place", file=message.source, field="prev",
                                 hint=f"do not play on; ask the {side} player to write it again with pbem blind next")
    signer = blindfile.writer_of(message.n - 1) if message.n else side
    raise VerificationFailed(f"does not follow {earlier} (its 'prev' digest is another file's): {side} answered "
                             f"another {earlier} than the one here, which {signer} signed too — {signer} sent "
                             "two different files for one place in the game (two histories) or rewrote it",
                             file=message.source, field="prev",
                             hint="do not play on; show both files (the one answered and the one here) to your opponent")


def _take(held: BlindGame, message: blindfile.Message, body: dict, side: str) -> None:
    """What ``message`` adds to the record; what its writer owed and did not send, or sent out of turn, is a finding
    naming him (``held.problems``), checked by the receiver before he answers."""
    record, name = held.record, Path(message.source).name
    if side == "JP" and message.n > 0:
        pub = _publication(blindfile.body_field(message, "publication", dict), message.source)
        if pub.seq != len(record.publications) + 1:
            raise VerificationFailed(f"publishes step {pub.seq} where step {len(record.publications) + 1} is due (JP)",
                                     file=message.source, field="publication.seq", hint="do not play on; show the file to your opponent")
        last = record.publications[-1] if record.publications else None  # the set-up is step 1, again only if rejected
        again = last is not None and last.side == "setup" and isinstance(last.view.get("last"), dict) \
            and last.view["last"].get("valid") is False
        due = "US" if pub.seq in record.us_orders else "setup" if last is None or again else "JP"
        if pub.side != due:  # the American file before it says whose step it is: his orders, or his seed
            answered = Path(held.messages[message.n - 1].source).name
            held.problems.append(br.Finding("JP", pub.seq, br.AT_ONCE, f"published step {pub.seq} as a {pub.side} step, "
                                            f"but {answered} carries the American {'orders' if due == 'US' else 'seed'} for a "
                                            f"{due} step"))
        record.publications.append(pub)
    commit = body.get("commit") if side == "JP" else None
    if isinstance(commit, dict):
        seq, nxt = int(commit["seq"]), len(record.publications) + 1
        if seq != nxt or seq in record.jp_commitments:  # never a commitment again: the American seed may be out
            held.problems.append(br.Finding("JP", nxt - 1, br.AT_ONCE, f"committed to orders for step {seq} in {name}, "
                                            f"where only step {nxt}'s may be, once: a commitment made after the American "
                                            "seed of its step is out would let him choose orders and dice salt knowing the dice"))
        else:
            record.jp_commitments[seq] = str(commit["orders"])
            held.salt_commitments[seq] = str(commit["salt"])
    if side == "US":
        acks = list(blindfile.body_field(message, "acks", list))
        _check_acks(held, message, acks)
        record.acks += acks
        step = len(record.publications) + 1
        if isinstance(body.get("orders"), dict):
            record.us_orders[step] = (body["orders"], b64d(body.get("salt"), source=message.source, field="salt"))
        if body.get("seed"):
            record.us_seeds[step] = b64d(body["seed"], source=message.source, field="seed")
        owed = None if held.over else "orders" if held.awaiting == "US" else "seed"
        if owed and step not in (record.us_orders if owed == "orders" else record.us_seeds):
            held.problems.append(br.Finding("US", step, br.AT_ONCE, f"sent {name} without the {owed} step {step} needs"))


def _check_acks(held: BlindGame, message: blindfile.Message, acks: list) -> None:
    """Each American file acknowledges exactly the roots of the file it answers (pinned by its 'prev'): the genesis's
    empty root and set-up root, then each publication's.  Another root is his doing, not a second history."""
    record, name = held.record, Path(message.source).name
    answered = Path(held.messages[message.n - 1].source).name
    pub = held.last_pub
    due = ({-1: record.setup_root, 0: None} if record.secret_setup else {0: record.setup_root}) if pub is None else {pub.seq: pub.root}
    got = {}
    for ack in acks:
        ack_body = signing.verify(ack, held.identities["US"], br.ACK_CONTEXT, source=message.source, role="US")
        if not isinstance(ack_body, dict) or ack_body.get("game") != held.game or ack_body.get("seq") in got:
            raise BadInput("an acknowledgement is malformed (another game, or a step acknowledged twice)",
                           file=message.source, field="acks", hint="ask the US player to write the file again")
        got[ack_body.get("seq")] = ack_body.get("root")
    step = pub.seq if pub else -1
    if set(got) != set(due):
        held.problems.append(br.Finding("US", step, br.AT_ONCE, f"acknowledged step(s) {sorted(got)} in {name}, "
                                        f"where he owes his acknowledgement of {answered}'s root(s), step(s) {sorted(due)}"))
    elif any(root is not None and got[seq] != root for seq, root in due.items()):
        held.problems.append(br.Finding("US", step, br.AT_ONCE,
                                        f"acknowledged another root than the one published in {answered}"))


# ---------------------------------------------------------------------------------------------- the checks


class _FileAmerican(br.American):
    """The American player's checks run on the files by anyone: his acknowledgements are the signed ones in them."""

    def __init__(self, held: BlindGame) -> None:
        japanese = {u.id for u in held.loaded.scenario.units if u.side == "JP"}
        super().__init__(None, held.game, held.record, b"", japanese, held.loaded)  # type: ignore[arg-type]
        self.seeds = dict(held.record.us_seeds)
        self.roots[-1 if held.record.secret_setup else 0] = (held.record.setup_root, held.record.setup_markers)
        if held.record.first_seed is not None:  # no secret set-up: the Japanese seed of step 1, committed at the genesis
            self.seed_commitments[1] = held.record.first_seed

    def acknowledge(self, seq: int, root: str, markers: list[str]) -> dict:
        self.roots[seq] = (root, markers)
        return {}


def _rejudged(held: BlindGame, before: dict, pub: br.Publication, orders) -> list[str]:
    """The American orders of step ``pub.seq`` judged again on the view he wrote them on, as the Japanese player must
    judge them (:func:`pbem.game.step.verdict`; referee mode's ``status`` does the same): the verdict, the problems
    and, for a rejection, the unchanged position and no dice must be what the publication shows.  A false rejection
    would show the Japanese player the American plans and make the American player move again."""
    from pbem.game.codec import state_from_json
    from pbem.game.limits import capped
    from pbem.protocol.canonical import canonical_bytes

    try:
        seen = state_from_json(before["state"])
    except (KeyError, TypeError, ValueError, BadInput):
        return []  # the view before was unreadable: a finding of its own step already
    _, problems = verdict(held.loaded, held.record.ruleset, seen, orders, f"step {pub.seq}")
    expected = capped([p.as_dict() for p in problems])
    last = pub.view.get("last") or {}
    if not expected:
        return [] if last.get("valid") is True else [
            "rejected the American orders, in which the American view finds no problem (a rejection the American "
            "player cannot check would show his plans and make him move again)"]
    if last.get("valid") is not False:
        return [f"carried out American orders in which the American view finds {len(expected)} problem(s)"]
    if canonical_bytes(last.get("problems")) != canonical_bytes(expected):
        return ["recorded other problems for the rejected American orders than the American view finds"]
    if pub.rolls or canonical_bytes(pub.view.get("state")) != canonical_bytes(before.get("state")):
        return ["rejected the American orders, but the position changed or dice were rolled"]
    return []


def findings(held: BlindGame) -> list[br.Finding]:
    """What each player checks at once on the files he received (and ``verify`` on the folder), naming the cheater."""
    record = held.record
    record.findings = br.setup_problems(held.loaded, record.setup_markers, options=record.options)  # the genesis: zone and counts, at once
    american = _FileAmerican(held)
    previous = None
    for pub in record.publications:
        seq = pub.seq
        if previous is not None:
            american.seed_commitments[seq] = previous.next_seed
        before = american.roots[-1] if pub.side == "setup" else american.roots.get(seq - 1, ("", []))
        if pub.side in ("JP", "setup"):
            committed = held.salt_commitments.get(seq)
            if committed is None or not dice.check_commitment(pub.salt, committed):
                record.findings.append(br.Finding("JP", seq, br.AT_ONCE, "used a dice salt that is not the one he committed"))
        try:
            american.receive(pub, before)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            record.findings.append(br.Finding("JP", seq, br.AT_ONCE, f"published a view or record that cannot be read "
                                                                     f"({type(exc).__name__}: {exc})"))
            american.roots[seq] = (pub.root, [])
        written_on = previous.view if previous is not None else None if record.secret_setup else held.opening_view()
        if pub.side == "US" and written_on is not None and seq in record.us_orders:
            record.findings += [br.Finding("JP", seq, br.AT_ONCE, what)
                                for what in _rejudged(held, written_on, pub, record.us_orders[seq][0])]
        previous = pub
    found = sorted(record.findings + held.problems, key=lambda f: f.seq)
    # the American player's side, which the Japanese player checks as each file arrives
    committed = {}
    for ack in record.acks:
        try:
            body = signing.verify(ack, held.identities["US"], br.ACK_CONTEXT, role="US")
        except (BadInput, VerificationFailed) as exc:
            found.append(br.Finding("US", -1, br.AT_ONCE, f"sent an acknowledgement that is not his: {exc}"))
            continue
        committed[body["seq"] + 1] = body["next_seed"]
    for seq, seed in sorted(record.us_seeds.items()):
        if not dice.check_commitment(seed, committed.get(seq, "")):
            found.append(br.Finding("US", seq, br.AT_ONCE, "revealed a seed that is not the one his acknowledgement committed"))
    shown = {pub.seq: pub.root for pub in record.publications} | {-1 if record.secret_setup else 0: record.setup_root}
    his = {f.seq for f in held.problems if f.cheater == "US"}  # a root he acknowledged wrongly is his doing, not JP's
    found += [br.Finding(f.cheater, f.seq, br.AT_ONCE, f.what) for f in br.check_history(record, held.identities["US"], shown)
              if f.seq not in his]
    found += blind_escrow.public_findings(held)
    if held.over and not held.secret_published and blindfile.writer_of(len(held.messages)) == "JP":
        found.append(br.Finding("JP", len(record.publications), br.AT_END,
                                "withheld his secret at the end of the game: no hidden move can be audited "
                                "(a forfeit in a tournament; 'pbem blind publish-secret' publishes it)"
                                + blind_escrow.withheld_note(held)))
    return found


def audit_findings(held: BlindGame) -> list[br.Finding]:
    """The audit with full information from the published secret (a withheld one is itself the finding)."""
    found = findings(held)
    if found:
        return found
    if not held.secret_published:
        return [br.Finding("JP", len(held.record.publications), br.AT_END,
                           "has not published his secret: no hidden move can be audited yet (a forfeit in a tournament "
                           "if he refuses)")]
    found, reached = br.replay(held.loaded, held.record, held.secret, held.jp_orders, held.ref)
    if not found and not br.salts_match(held.secret, held.record):
        found.append(br.Finding("JP", 0, br.AT_AUDIT, "published a secret that does not derive the salts he opened"))
    held.replayed_to = None if found else reached
    return found


# ---------------------------------------------------------------------------------------------- the players


def _private(folder: Path, side: str, own_orders: bool = False) -> dict:
    path = folder / private_name(side)
    if not path.exists():
        raise BadInput(f"your secret for this game is not in this folder ({path.name})", file=str(folder),
                       hint="run the command in your own game folder, where 'pbem new' or your first 'pbem blind next' wrote it")
    from pbem.loading.jsonfile import read_json

    doc = read_json(path)
    try:
        blind_schema.check_private(doc, str(path), own_orders)
        b64d(doc["secret"], source=str(path), field="secret")
        return doc
    except BadInput as exc:
        exc.hint = "your private game file is damaged: restore it from your backup (without it you cannot play on or publish your secret)"
        raise


def _keep(folder: Path, side: str, doc: dict) -> None:
    write_replacing(folder / private_name(side), json.dumps(doc, sort_keys=True), mode=0o600)


def role_in(held: BlindGame, identity: PublicIdentity) -> str | None:
    return next((s for s in SIDES if held.identities[s].same_keys(identity)), None)


def start(scenario: str, me: PrivateIdentity, us: PublicIdentity, jp: PublicIdentity, *, setup: dict | None,
          choose_setup: Chooser | None = None, edition: str | None = None,
          ground_support: list[dict] | None = None, escrow: PublicIdentity | None = None,
          options: list[str] | None = None, stall_days: int | None = None) -> tuple[str, dict]:
    """The Japanese player's genesis (its text) and what he keeps: the root over his secret set-up, the commitment
    to his set-up orders and to the salt of their dice (and, with ``escrow``, the holder and the first escrow part).
    The edition and a Ground Support track in place of the scenario's are recorded in it, signed, as a referee's
    genesis records them: both players play by them."""
    if not me.public.same_keys(jp):
        raise BadInput("the Japanese player starts a game with hidden units and no referee: his genesis commits his "
                       "secret set-up", hint="run 'pbem new … --no-referee --option hidden-units --key jp.key'")
    if us.same_keys(jp):
        raise BadInput("the US and JP identities are the same key", hint="each player needs a key of his own (pbem keygen)")
    if escrow is not None:
        blind_escrow.refuse_holder(escrow, us, jp)
    from pbem.game.modes.blind.stall import checked_stall_days

    stall_days = checked_stall_days(stall_days, "--stall-days", None)
    overrides = {"ground_support": ground_support} if ground_support is not None else None
    from pbem.systems import name_in, refuse_options

    refuse_options(name_in(scenario_document(find_scenario(scenario))), [HIDDEN_UNITS], scenario)  # before the SPI model reads it
    loaded = with_overrides(load_scenario(scenario), overrides, "--gsp")
    edition = _game_edition(loaded, edition, None)
    ref = {"id": loaded.scenario.id, "hash": scenario_hash(scenario_document(find_scenario(loaded.scenario.id)))}
    game, secret = new_game_id(), commitment.new_secret()
    escrowed = None
    if escrow is not None:  # the secret dealt between the holder and the American player (PVSS), not drawn
        escrowed, secret = blind_escrow.deal(escrow, us, game, secret)
    refuse_two_fogs(options)
    fog = [fog_option(options) or HIDDEN_UNITS]  # the way of hiding units (docs/hidden-units.md): 19B unless named
    step = genesis_step(loaded, {}, game=game, scenario_ref=ref, ruleset=br.ruleset_of(loaded, edition), options=fog)
    from pbem.systems import system_of

    if not system_of(loaded).awaits_secret_setup(step.state):  # the counters start where the scenario prints them
        return _start_opened(loaded, step, me, us, jp, game=game, secret=secret, ref=ref, fog=fog, edition=edition,
                             setup=setup, overrides=overrides, escrowed=escrowed, stall_days=stall_days)
    if step.state.hidden.deployed or step.state.to_act() != "JP":
        raise BadInput(f"scenario {loaded.scenario.id} has no secret Japanese set-up to start from",
                       hint="play hidden units without a referee on a scenario where the Japanese player sets up hidden")
    orders = setup if setup is not None else (choose_setup or _greedy)(step.views["JP"], loaded,
                                                                        bot_seed(secret, game=game, seq=1))
    parsed = orders_from(orders, "the Japanese set-up")
    problems = check_deployment(loaded.board, step.state, parsed)
    if problems:  # an honest player's set-up is checked before he commits to it; a dishonest one's at the audit
        first = problems[0]
        raise BadInput(f"the set-up breaks rule {first.rule}: {first.unit + ': ' if first.unit else ''}{first.message}"
                       + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                       hint="correct the deployment (docs/hidden-units.md, 'The sequence') and run pbem new again")
    placed = apply_deployment(step.state, parsed)
    tree = commitment.commit(secret, game=game, seq=-1, pieces=br.pieces(placed))
    salt, nonce = br.orders_salt_nonce(secret, game=game, seq=1)
    body = {"game": game, "n": 0, "from": "JP", "prev": None, "scenario": ref, "options": fog,
            "identities": {"US": us.line(), "JP": jp.line()}, "setup": {"root": tree.root, "markers": tree.markers},
            "commit": {"seq": 1, "orders": br.orders_commitment(nonce, orders), "salt": dice.commit(salt)},
            "edition": edition, "stall_days": stall_days}
    if overrides:
        body["overrides"] = overrides
    if escrowed is not None:  # the holder named, the secret dealt and its hash committed, signed; the set-up orders escrowed
        body |= escrowed
        body[blind_escrow.PART] = b64e(blind_escrow.seal_part(secret, game=game, n=0, seq=1, orders=orders,
                                                              bucket=blind_escrow.floor_bucket(loaded.scenario)))
    return blindfile.write(me, body), {"secret": b64e(secret), "orders": {"1": orders}}


def _start_opened(loaded: LoadedScenario, step, me: PrivateIdentity, us: PublicIdentity, jp: PublicIdentity, *, game: str,
                  secret: bytes, ref: dict, fog: list[str], edition: str | None, setup: dict | None, overrides: dict | None,
                  escrowed: dict | None, stall_days: int) -> tuple[str, dict]:
    """The genesis of a game with no secret set-up (a Legion scenario prints every set-up hex): the root over the
    opening's counters (step 0, its markers one per counter) and the commitment to the Japanese seed of step 1, the
    American player-turn that opens the game."""
    if setup is not None:
        raise BadInput(f"scenario {loaded.scenario.id} has no secret Japanese set-up: its counters start where it prints them",
                       field="--setup", hint="start the game without --setup")
    if step.state.to_act() != "US":
        raise BadInput(f"scenario {loaded.scenario.id} opens with a Japanese player-turn, which this mode does not yet "
                       "commit at the genesis", hint="play it with a referee (pbem new without --no-referee)")
    from pbem.systems import system_of

    tree = commitment.commit(secret, game=game, seq=0, pieces=system_of(loaded).committed_pieces(
        step.state, br.stack_key(secret, game=game, seq=0)))
    body = {"game": game, "n": 0, "from": "JP", "prev": None, "scenario": ref, "options": fog,
            "identities": {"US": us.line(), "JP": jp.line()}, "setup": {"root": tree.root, "markers": tree.markers},
            "next_seed": dice.commit(br.derived(secret, "jp-seed", game=game, seq=1)),
            "edition": edition, "stall_days": stall_days}
    if overrides:
        body["overrides"] = overrides
    if escrowed is not None:  # the holder named, the secret dealt and its hash committed, signed; no orders committed yet
        body |= escrowed
        body[blind_escrow.PART] = b64e(blind_escrow.seal_part(secret, game=game, n=0, seq=None, orders=None,
                                                              bucket=blind_escrow.floor_bucket(loaded.scenario)))
    return blindfile.write(me, body), {"secret": b64e(secret), "orders": {}}


def _greedy(view: dict, loaded: LoadedScenario, seed: int) -> dict:
    """The greedy bot's set-up, drawn from ``seed`` (:func:`bot_seed`: from the Japanese secret, never seed 0, which
    the American player would replay from the public genesis, issue 35)."""
    from pbem.bot.play import bot_orders

    return bot_orders(view, loaded, "greedy", seed)


def write_next(folder: Path, identity: PrivateIdentity, choose: Chooser) -> Path:
    """Check every file received, then write this player's next file (``choose``: his orders from his view, with a
    seed from his own secret for a bot's draws)."""
    held = load(folder)
    side = role_in(held, identity.public)
    if side is None:
        raise BadInput(f"--key is {identity.public.describe()}, neither player of this game", file=str(folder))
    found = [f for f in findings(held) if f.when == br.AT_ONCE]
    if found:
        raise VerificationFailed(f"do not play on: {found[0]}", file=str(folder),
                                 hint="'pbem verify' lists every finding; show them to your opponent")
    writer = held.next_writer
    if writer != side:
        raise BadInput(f"the next file is not yours to write ({'the game is over' if writer is None else writer + ' writes it'})",
                       file=str(folder), hint=f"'pbem status {folder} --key …' says what to do")
    if held.over and side == "JP":
        raise BadInput("the game is over: publish your secret", file=str(folder),
                       hint=f"pbem blind publish-secret {folder} --key YOUR.key")
    n = len(held.messages)
    body = {"game": held.game, "n": n, "from": side, "prev": held.messages[-1].digest}
    text = (_american(held, folder, identity, choose, body) if side == "US" else _japanese(held, folder, identity, choose, body))
    return write_new(folder / blindfile.file_name(n), text)


def _american(held: BlindGame, folder: Path, identity: PrivateIdentity, choose, body: dict) -> str:
    path = folder / private_name("US")
    if not path.exists():
        _keep(folder, "US", {"secret": b64e(commitment.new_secret())})
    secret = b64d(_private(folder, "US", held.record.own_orders)["secret"])
    american = br.American(identity, held.game, br.Record(held.game), secret, set())
    pub, game = held.last_pub, held.game
    if pub is None and not held.record.secret_setup:  # the genesis: the root over the opening's counters (step 0)
        acks = [american.acknowledge(EMPTY_ROOT_SEQ, held.record.setup_root, held.record.setup_markers)]
        step = 1
    elif pub is None:  # the genesis: the empty root before the set-up (his seed for it), then the set-up root
        acks = [american.acknowledge(EMPTY_ROOT_SEQ, commitment.commit(secret, game=game, seq=0, pieces={}).root, []),
                american.acknowledge(-1, held.record.setup_root, held.record.setup_markers)]
        step = 1
    else:
        acks = [american.acknowledge(pub.seq, pub.root, br.markers_of(pub.view))]
        step = pub.seq + 1
    body["acks"] = acks
    if held.over:
        return blindfile.write(identity, body)
    if held.awaiting == "US":
        body["orders"] = choose(held.american_view(), held.loaded, bot_seed(secret, game=game, seq=step))
        if body["orders"] is None:
            raise BadInput(f"this file carries your orders for step {step}: give them with --orders FILE (or --bot POLICY)",
                           file=str(folder), hint=f"your view: pbem blind view {folder} (the orders format: pbem schema write, or --bot POLICY)")
        system_of(held.loaded).read_orders(body["orders"], "your orders")  # malformed orders are refused here, not sent to stall the game
        body["salt"] = b64e(br.derived(secret, "us-salt", game=game, seq=step))
    else:  # his seed for the Japanese step, whose orders and salt are committed already
        if step not in held.record.jp_commitments or step not in held.salt_commitments:
            last = held.messages[-1].source
            raise VerificationFailed(f"commits no orders and dice salt for step {step}, the Japanese step your seed "
                                     "rolls: revealed now, it would let the Japanese player choose them knowing the dice "
                                     "(JP, caught at once)", file=last, field="commit",
                                     hint=f"do not send your seed; ask the JP player for {Path(last).name} with its commitment")
        body["seed"] = b64e(american.seeds[step])
    return blindfile.write(identity, body)


def _japanese(held: BlindGame, folder: Path, identity: PrivateIdentity, choose, body: dict) -> str:
    private = _private(folder, "JP", held.record.own_orders)
    secret = b64d(private["secret"])
    orders_kept = {int(k): v for k, v in private["orders"].items()}
    replayed, step = br.replay(held.loaded, held.record, secret, orders_kept, held.ref)
    if replayed or step is None:
        raise VerificationFailed(f"your own record does not replay: {replayed[0] if replayed else 'no step'}", file=str(folder),
                                 hint="your private file or a file in the folder was altered")
    game, loaded, seq = held.game, held.loaded, len(held.record.publications) + 1
    jp = br.Japanese(loaded, game, secret, lambda v: choose(v, loaded, bot_seed(secret, game=game, seq=seq)), held.ref)
    ruleset = held.record.ruleset
    side = step.state.to_act()
    setup = jp.system.awaits_secret_setup(step.state)
    before_state = step.state
    due = held.record.us_seeds if side == "JP" else held.record.us_orders
    if seq not in due:
        raise VerificationFailed(f"{Path(held.messages[-1].source).name} does not carry the American "
                                 f"{'seed' if side == 'JP' else 'orders'} step {seq} needs ({side} acts next)",
                                 file=held.messages[-1].source, hint="ask the US player to write the file again with pbem blind next")
    if side == "JP":
        orders = orders_kept[seq]
        salt, _ = br.orders_salt_nonce(secret, game=game, seq=seq)
        stream, revealed = dice.DiceStream(held.record.us_seeds[seq], salt), None
        if setup:
            before_state = apply_deployment(step.state, orders_from(orders, "the Japanese set-up"))
    else:
        orders, salt = held.record.us_orders[seq]
        revealed = jp.seed_for(seq)
        stream = dice.DiceStream(revealed, salt)
    jp.tree(-1, before_state) if setup else jp.tree(seq - 1, step.state)  # the root before the step, re-derived
    after, pub = br.adjudicate(jp, seq, step, orders, stream, side=side, setup=setup, before=before_state,
                               revealed=revealed, salt=salt, ruleset=ruleset)
    body["publication"] = _publication_json(pub)
    if not after.over and after.state.to_act() == "JP":  # his next orders, fixed before the American seed is revealed
        mine = choose(after.views["JP"], loaded, bot_seed(secret, game=game, seq=seq + 1))
        if mine is None:  # he sees the position only now: show it, write nothing (the step replays the same next time)
            seen = write_replacing(folder / f"blind-view-JP-{seq:04d}.json", json.dumps(after.views["JP"], sort_keys=True),
                                   mode=0o600)
            raise BadInput(f"you move next: this file commits your orders for step {seq + 1}; your view after step {seq} "
                           f"is in {seen.name}", file=str(folder),
                           hint=f"write your orders from it, then run 'pbem blind next {folder} --key YOUR.key --orders FILE' "
                                "(or --bot POLICY)")
        next_salt, nonce = br.orders_salt_nonce(secret, game=game, seq=seq + 1)
        body["commit"] = {"seq": seq + 1, "orders": br.orders_commitment(nonce, mine), "salt": dice.commit(next_salt)}
        orders_kept[seq + 1] = mine
        _keep(folder, "JP", {"secret": private["secret"], "orders": {str(k): v for k, v in orders_kept.items()}})
    blind_escrow.attach(held, body, secret, orders_kept)
    return blindfile.write(identity, body)


def template_view(folder: Path, identity: PrivateIdentity) -> tuple[dict, LoadedScenario]:
    """The view a player writes his next orders on (``pbem orders template``): the American player's, the latest
    publication's when it awaits his orders; the Japanese player's, the one ``blind next`` showed him
    (``blind-view-JP-NNNN.json``) when his next file commits his orders."""
    from pbem.loading.jsonfile import read_json

    held = load(folder)
    side = role_in(held, identity.public)
    if side is None:
        raise BadInput(f"--key is {identity.public.describe()}, neither player of this game", file=str(folder))
    if held.over:
        raise BadInput("the game is over: no orders are due", file=str(folder))
    if side == "US":
        if held.next_writer != "US" or held.awaiting != "US":
            raise BadInput("your next file carries no orders (the Japanese player moves, or writes next)", file=str(folder),
                           hint=f"'pbem status {folder} --key …' says what to do")
        return held.american_view(), held.loaded
    seen = folder / f"blind-view-JP-{len(held.record.publications) + 1:04d}.json"
    if held.next_writer != "JP" or not seen.exists():
        raise BadInput("no view of yours awaits orders: 'pbem blind next' shows it (blind-view-JP-NNNN.json) when your "
                       "next file commits your orders", file=str(folder),
                       hint=f"run 'pbem blind next {folder} --key YOUR.key' first")
    return read_json(seen), held.loaded


def publish_secret(folder: Path, identity: PrivateIdentity) -> Path:
    """The Japanese player's secret and every orders of his, signed: the audit replays the whole game with them."""
    held = load(folder)
    if role_in(held, identity.public) != "JP":
        raise BadInput("only the Japanese player publishes the game's secret", file=str(folder))
    if not held.over:  # it opens every marker: published during the game, it would end the hidden units
        raise BadInput("the game is not over: the secret opens every marker, so it is published only at the end",
                       file=str(folder), hint=f"pbem status {folder} --key YOUR.key says what to do now")
    private = _private(folder, "JP", held.record.own_orders)
    body = {"game": held.game, "n": blindfile.SECRET_N, "from": "JP", "prev": held.messages[-1].digest,
            "secret": private["secret"], "orders": private["orders"]}
    return write_new(folder / blindfile.SECRET_NAME, blindfile.write(identity, body))


def latest_view(folder: Path) -> dict:
    """The American view of the latest publication (the set-up's first)."""
    held = load(folder)
    if held.last_pub is None and not held.record.secret_setup:
        return held.american_view()  # the opening, before the first American player-turn
    if held.last_pub is None:
        raise BadInput("nothing is published yet: the Japanese set-up is committed, not yet played", file=str(folder))
    return held.last_pub.view


def read_orders(path: Path) -> dict:
    from pbem.loading.jsonfile import read_json

    doc = read_json(path)
    if not isinstance(doc, dict):
        raise BadInput("orders must be a JSON object", file=str(path), hint="the orders format: pbem schema write; your view: pbem blind view GAMEDIR")
    return doc


__all__ = ["BlindGame", "Chooser", "bot_seed", "audit_findings", "findings", "latest_view", "load", "publish_secret", "start", "template_view", "write_next"]
