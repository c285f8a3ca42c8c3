"""Verifying a whole game's turn files, as anyone holding them can.

:func:`verify_chain` checks, without any secret:

* every file reads (armour, canonical JSON, shape) and is signed by the
  referee — the one given, or else the one named by the single genesis file;
* every file belongs to the genesis file's game, scenario, ruleset and identities;
* sequence numbers run 0, 1, 2, … without gaps;
* **equivocation**: two different files with one sequence number are both
  reported (identical copies are fine);
* the hash chain: each ``prev`` is the digest of the previous file;
* each revealed seed matches the ``next_commitment`` of the previous file;
* every recorded roll recomputes from (revealed seed, salt, purposes);
* no orders digest and no salt is used twice (replayed orders);
* the orders header each file publishes is signed by the side named, its
  salt is the one the dice used, and it answers exactly the file this one
  follows — so a referee who keeps one history for each player (a **fork**)
  is caught by either player: the other side's signed orders echoed in his
  next turn file answer a turn file he never saw.

A two-player game (:mod:`pbem.protocol.twoplayer`) is checked the same way,
each file against the key of the player who wrote it, and with the rules of
who adjudicates and whose seed rolls; a problem there names the player.
What differs between modes is asked of the mode (:mod:`pbem.protocol.modes`).

It reports instead of stopping at the first problem, so that one run shows
everything wrong; :attr:`ChainReport.first_bad` names the earliest bad file.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pbem.errors import BadInput, PbemError, VerificationFailed
from pbem.protocol import signing
from pbem.protocol.dice import check_commitment, recompute
from pbem.protocol.files import looks_like_text, read_text, too_large
from pbem.protocol.keys import PublicIdentity
from pbem.protocol.modes import file_mode
from pbem.protocol.nmr import is_nmr, record_problems
from pbem.protocol.ordersfile import read_header
from pbem.protocol.turnfile import KIND, REFEREE, ROLES, SIDES, SIGN_CONTEXT, TurnFile, parse_turn

_BEGIN = f"-----BEGIN PBEM {KIND}-----"


@dataclass(frozen=True)
class Finding:
    """One problem: the file it is in, its sequence number if known, what."""

    file: str
    problem: str
    seq: int | None = None

    def render(self) -> str:
        where = f"{self.file} (seq {self.seq})" if self.seq is not None else self.file
        return f"{where}: {self.problem}"


@dataclass
class ChainReport:
    """The result of :func:`verify_chain`."""

    findings: list[Finding] = field(default_factory=list)
    turns: list[TurnFile] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def first_bad(self) -> str | None:
        """The earliest file with a problem (unreadable files count first)."""
        return self.findings[0].file if self.findings else None

    def render(self) -> str:
        if self.ok:
            last = max((t.seq for t in self.turns), default=None)
            return f"verified {len(self.turns)} turn file(s), seq 0 to {last}: no problems"
        return "\n".join(f.render() for f in self.findings)

    def raise_if_bad(self) -> None:
        """Raise :class:`VerificationFailed` naming the first bad file."""
        if not self.ok:
            first = self.findings[0]
            more = len(self.findings) - 1
            raise VerificationFailed(
                first.problem + (f" (and {more} more problem(s))" if more else ""),
                file=first.file,
                hint="run 'pbem verify' to see every problem; do not trust these turn files until resolved",
            )


def collect(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[tuple[str, str]]:
    """``(source name, text)`` for a folder, one path, or a list of paths/texts.

    In a folder, every file containing a ``-----BEGIN PBEM TURN-----`` line is
    taken; other files are ignored.
    """
    if isinstance(sources, (str, os.PathLike)):
        if looks_like_text(sources, _BEGIN):
            return [("turn text 1", str(sources))]
        path = Path(sources)
        if path.is_dir():
            found = []
            for child in sorted(path.iterdir()):
                if not child.is_file() or child.name.startswith("."):
                    continue
                refusal = too_large(child, "turn file")
                if refusal is not None:
                    if _BEGIN.encode() in _head(child):
                        raise refusal
                    continue  # a large file of something else kept in the folder
                try:
                    data = child.read_bytes()
                except OSError:
                    continue
                if _BEGIN.encode() in data:
                    # undecodable bytes become U+FFFD, which the armour reader refuses
                    found.append((str(child), data.decode("utf-8", errors="replace")))
            return found
        return [(str(path), read_text(path, what="turn file"))]
    collected = []
    for index, item in enumerate(sources, start=1):
        if looks_like_text(item, _BEGIN):
            collected.append((f"turn text {index}", str(item)))
        else:
            collected.append((str(item), read_text(item, what="turn file")))
    return collected


def verify_chain(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    referee: PublicIdentity | None = None,
) -> ChainReport:
    """Check a game's turn files; see the module docstring for what is checked."""
    report = ChainReport()
    findings: list[Finding] = []

    parsed: list[TurnFile] = []
    for source, text in collect(sources):
        try:
            parsed.append(parse_turn(text, source))
        except PbemError as exc:
            findings.append(Finding(source, f"unreadable: {exc.render()}"))
    if not parsed and not findings:
        findings.append(Finding(str(sources), "no turn files found"))

    unique: dict[str, TurnFile] = {}
    for turn in parsed:
        unique.setdefault(turn.digest, turn)  # identical copies count once
    turns = sorted(unique.values(), key=lambda t: (t.seq, t.source))

    geneses = [t for t in turns if t.seq == 0]
    genesis = geneses[0] if len(geneses) == 1 else None
    if not geneses and turns:
        findings.append(Finding(turns[0].source, "no genesis turn file (seq 0) among the files", turns[0].seq))
    trusted = None if referee is None else {REFEREE: referee}
    if referee is None and geneses:
        named = geneses[0].identities
        if all(g.mode == geneses[0].mode and all(g.identities[r].same_keys(named[r]) for r in named) for g in geneses):
            trusted = named  # even several genesis files must agree on the parties
    if trusted is None and turns:
        findings.append(Finding(
            turns[0].source,
            "cannot check signatures: no single genesis file names the referee; give the referee's identity",
            turns[0].seq,
        ))

    verified: list[TurnFile] = []
    for turn in turns:
        problem = _signature_problem(turn, trusted)
        if problem:
            findings.append(Finding(turn.source, problem, turn.seq))
            continue
        if genesis is not None and turn is not genesis:
            for problem in _membership_problems(turn, genesis):
                findings.append(Finding(turn.source, problem, turn.seq))
        verified.append(turn)

    by_seq: dict[int, list[TurnFile]] = defaultdict(list)
    for turn in verified:
        by_seq[turn.seq].append(turn)
    for seq, group in sorted(by_seq.items()):
        if len(group) > 1:
            for turn in group:
                others = ", ".join(f"{o.source} ({o.digest})" for o in group if o is not turn)
                findings.append(Finding(
                    turn.source,
                    f"equivocation: different turn files carry seq {seq}: this one ({turn.digest}) and {others}",
                    seq,
                ))
    if by_seq:
        for seq in sorted(by_seq):  # only the numbers present: a seq of 10**10 costs nothing
            if seq > 0 and seq - 1 not in by_seq:
                for turn in by_seq[seq]:
                    findings.append(Finding(turn.source, f"the turn file with seq {seq - 1} is missing", seq))

    seen_orders: dict[str, TurnFile] = {}
    seen_salts: dict[bytes, TurnFile] = {}
    for turn in verified:
        if turn.seq > 0:
            predecessors = by_seq.get(turn.seq - 1, [])
            for problem in _link_problems(turn, predecessors) + _orders_header_problems(turn, predecessors):
                findings.append(Finding(turn.source, problem, turn.seq))
        else:
            findings += [Finding(turn.source, problem, turn.seq) for problem in file_mode(turn).genesis_problems(turn)]
        problem = _roll_problem(turn)
        if problem:
            findings.append(Finding(turn.source, problem, turn.seq))
        if turn.orders is not None:
            earlier = seen_orders.setdefault(turn.orders, turn)
            if earlier is not turn and earlier.seq != turn.seq:
                findings.append(Finding(
                    turn.source,
                    f"adjudicates the same orders ({turn.orders}) as seq {earlier.seq} ({earlier.source}): replayed orders",
                    turn.seq,
                ))
        if turn.dice.salt is not None:
            earlier = seen_salts.setdefault(turn.dice.salt, turn)
            if earlier is not turn and earlier.seq != turn.seq:
                findings.append(Finding(
                    turn.source,
                    f"uses the same dice salt as seq {earlier.seq} ({earlier.source}): replayed orders",
                    turn.seq,
                ))

    report.findings = sorted(findings, key=lambda f: (-1 if f.seq is None else f.seq, f.file))
    report.turns = verified
    return report


def _signature_problem(turn: TurnFile, trusted: dict[str, PublicIdentity] | None) -> str | None:
    if trusted is None:
        return "signature not checked: the referee's identity is unknown"
    if turn.writer not in trusted:
        return (f"is signed as {turn.writer}, but " + ("this is a two-player game: its files are signed by US or JP"
                                                        if REFEREE not in trusted else "this game's files are signed by its referee"))
    named, expected = turn.identities[turn.writer], trusted[turn.writer]
    if not expected.same_keys(named):
        return f"names {named.describe()} as {turn.writer}, not {expected.describe()}"
    try:
        signing.verify(turn.envelope, expected, SIGN_CONTEXT, source=turn.source, role=turn.writer, body_bytes=turn.signed_body)
    except (BadInput, VerificationFailed) as exc:
        return exc.message
    return None


def _membership_problems(turn: TurnFile, genesis: TurnFile) -> list[str]:
    problems = []
    if turn.game != genesis.game:
        problems.append(f"belongs to game {turn.game}, not {genesis.game} of the genesis file")
    if (turn.scenario_id, turn.scenario_hash) != (genesis.scenario_id, genesis.scenario_hash):
        problems.append("names a different scenario from the genesis file")
    if turn.ruleset != genesis.ruleset:
        problems.append(f"switches the ruleset to {turn.ruleset} from the genesis file's {genesis.ruleset}: "
                        "the rules are fixed for the whole game")
    if turn.mode != genesis.mode:
        problems.append(f"is a {turn.mode} turn file in a {genesis.mode} game")
    for role in ROLES:
        if (role in turn.identities) != (role in genesis.identities) or (
                role in turn.identities and not turn.identities[role].same_keys(genesis.identities[role])):
            problems.append(f"the {role} identity differs from the genesis file's")
    return problems


def _link_problems(turn: TurnFile, predecessors: list[TurnFile]) -> list[str]:
    if not predecessors:
        return []  # reported as a gap
    previous = next((p for p in predecessors if p.digest == turn.prev), None)
    if previous is None:
        names = ", ".join(f"{p.source} ({p.digest})" for p in predecessors)
        return [f"broken hash chain: prev is {turn.prev}, but the turn file with seq {turn.seq - 1} is {names}"]
    assert turn.dice.revealed_seed is not None
    wrong_writer = file_mode(turn).link_problem(turn, previous)
    if wrong_writer:
        return [wrong_writer]
    if not check_commitment(turn.dice.revealed_seed, previous.dice.next_commitment):
        return [file_mode(turn).seed_mismatch(turn, previous)]
    return []


def _orders_header_problems(turn: TurnFile, predecessors: list[TurnFile] = ()) -> list[str]:
    """The published orders header: the player's signature, his salt, and the turn file he answered."""
    if is_nmr(turn.orders_header):  # no moves received: the referee's NMR record stands in (pbem.protocol.nmr)
        return record_problems(turn, list(predecessors))
    try:
        header = read_header(turn.orders_header, {side: turn.identities[side] for side in SIDES}, source=turn.source)
    except (BadInput, VerificationFailed) as exc:
        return [f"the orders header it publishes does not hold: {exc.message}"]
    problems = []
    problems += file_mode(turn).orders_problems(turn, header)
    if header.game != turn.game:
        problems.append(f"adjudicates orders for game {header.game}, not {turn.game}")
    if header.seq != turn.seq - 1 or header.turn != turn.prev:
        problems.append(
            f"fork: the {header.side} orders it adjudicates answer turn file {header.seq} ({header.turn}), "
            f"but this file follows {turn.seq - 1} ({turn.prev}): {turn.writer_name} showed {header.side} another history"
        )
    if header.salt != turn.dice.salt:
        problems.append(f"rolled the dice with another salt than the one in the {header.side} orders it adjudicates")
    players = {side: turn.identities[side] for side in SIDES}
    seen = {header.digest: header}
    for index, envelope in enumerate(turn.superseded):
        try:
            earlier = read_header(envelope, players, source=turn.source, field_name=f"superseded[{index}]")
        except (BadInput, VerificationFailed) as exc:
            problems.append(f"a superseded orders header does not hold: {exc.message}")
            continue
        if (earlier.game, earlier.seq, earlier.turn, earlier.side) != (header.game, header.seq, header.turn, header.side):
            problems.append(f"lists as superseded {earlier.side} orders for another turn (revision {earlier.revision})")
        elif earlier.revision > header.revision:
            problems.append(f"received {header.side} revision {earlier.revision} but adjudicated the earlier revision {header.revision}")
        elif earlier.revision == header.revision:
            problems.append(f"second signed orders with revision {earlier.revision} from {header.side} for turn file {header.seq}: "
                            f"{header.digest} and {earlier.digest}")
        elif earlier.digest in seen:
            problems.append(f"lists {header.side} revision {earlier.revision} twice")
        elif (header.salt_per_player_turn or earlier.salt_per_player_turn) and earlier.salt != header.salt:
            problems.append(f"{header.side} revision {earlier.revision} (signed by {header.side}) carries another dice salt than "
                            f"revision {header.revision} (signed by {header.side}), which it adjudicated: the dice of one "
                            "player-turn are the same whatever revision (issue 37; docs/PROTOCOL.md, Dice), so a revision "
                            f"with another salt was made by a modified pbem; ask the {header.side} player")
        seen[earlier.digest] = earlier
    return problems


def _roll_problem(turn: TurnFile) -> str | None:
    if not turn.dice.rolls:
        return None
    seed, salt = turn.dice.revealed_seed, turn.dice.salt
    assert seed is not None and salt is not None  # enforced by parse_turn
    rolls = turn.dice.rolls
    expected = recompute(seed, salt, [roll["purpose"] for roll in rolls])
    for roll, value in zip(rolls, expected):
        if roll["value"] != value:
            return (
                f"roll {roll['n']} ({roll['purpose']}) is recorded as {roll['value']}, "
                f"but the revealed seed and salt give {value}"
            )
    return None


def _head(path: Path, size: int = 64 * 1024) -> bytes:
    """The first bytes of ``path`` (empty when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return b""
