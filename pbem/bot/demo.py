"""``pbem demo``: the identities, one game, bot against bot, through the real files — with a referee, or two players.

Every step is the function the matching command calls — ``keygen``,
``new``, a player's view and ``validate``, ``submit`` (signed, salted,
sealed orders and a receipt), ``adjudicate`` by whoever the game's mode
names (the referee; in a two-player game the player who does not move,
with the seed he committed) — in one process instead of three people's (or
two), then ``verify`` over the folder it wrote and a keyless ``audit``: from
the referee's ``reveal`` file, or in a two-player game from the turn files
alone (they hide nothing), and the final result.  Identities are made
without a passphrase: they exist for this demo only.  The mode is asked
(:mod:`pbem.game.modes`), never tested: one driver plays both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.bot.orders import BotError
from pbem.bot.report import FinalReport, final_report
from pbem.systems import load_scenario, refuse_options, system_of
from pbem.errors import BadInput
from pbem.protocol.fog_options import fog_option
from pbem.game.replay import AuditReport
from pbem.game.modes.referee.audit import audit_game
from pbem.game.checks import verify_game
from pbem.game.codec import state_from_json
from pbem.loading.folder import keep_orders, turn_name
from pbem.loading.turns import open_turn
from pbem.game.player import check_own_orders, side_to_move
from pbem.game.receipts import submit_orders
from pbem.game.adjudication import adjudicate_received
from pbem.game.modes import mode_to_start
from pbem.game.modes.two_player.turns import refuse_hidden
from pbem.game.modes.referee.reveal import read_reveal, referee_reveal, reveal_text
from pbem.protocol.chain import Finding, verify_chain
from pbem.protocol.files import write_new
from pbem.protocol.keys import PrivateIdentity, generate, write_private, write_public

PARTIES = {"referee": "ref", "US": "us", "JP": "jp"}
"""Each role of a refereed game and the name of its identity files; a two-player game has the players' alone."""
PLAYERS = {"US": "us", "JP": "jp"}


@dataclass(frozen=True)
class TurnPlayed:
    """What the progress display shows after each player-turn."""

    done: int
    total: int
    turn: int
    side: str
    moves: int
    combats: int
    rolls: list[int]
    setup: bool = False
    """The Japanese secret set-up (hidden units), not a player-turn."""


@dataclass
class DemoResult:
    folder: Path
    game: Path
    keys: dict[str, Path]
    reveal: Path | None
    """The referee's reveal file the audit read; None in a two-player game, audited from its turn files alone."""
    player_turns: int
    verify_findings: list[Finding]
    audit: AuditReport
    report: FinalReport


def default_folder(scenario: str, base: Path = Path("."), *, referee: bool = True) -> Path:
    """``pbem-demo-SCENARIO`` (``-two-player`` without a referee), numbered when that folder already holds a game."""
    name = f"pbem-demo-{Path(scenario).stem}" + ("" if referee else "-two-player")
    candidate, n = base / name, 1
    while (candidate / "game" / turn_name(0)).exists():
        n += 1
        candidate = base / f"{name}-{n}"
    return candidate


def _identities(folder: Path, parties: dict[str, str]) -> tuple[dict[str, PrivateIdentity], dict[str, Path]]:
    identities, paths = {}, {}
    for role, name in parties.items():
        identity = generate(name)
        paths[role] = write_private(folder / f"{name}.key", identity, None)
        write_public(folder / f"{name}.pub", identity)
        identities[role] = identity
    return identities, paths


def run_demo(
    scenario: str,
    folder: Path,
    *,
    seed: int | None = 0,
    edition: str | None = None,
    policies: dict[str, str] | None = None,
    on_turn: Callable[[TurnPlayed], None] | None = None,
    options: list[str] | None = None,
    think: float | None = None,
    referee: bool = True,
) -> DemoResult:
    """Play ``scenario`` to its end in ``folder``; raise BadInput when a game is already there.

    ``options`` are game options for ``pbem new`` (``hidden-units``: the Japanese bot sends its secret set-up first);
    ``think`` is the look-ahead policy's budget a turn (:mod:`pbem.bot.lookahead`); ``referee`` false: a two-player
    game (``pbem new --no-referee``, started by the player who does not move first; no hidden units)."""
    policies = policies or {"US": "greedy", "JP": "greedy"}
    roles = PARTIES if referee else PLAYERS
    game = folder / "game"
    drafts = folder / "orders"
    if (game / turn_name(0)).exists():
        raise BadInput("a game already exists here", file=str(game / turn_name(0)), hint="give another --dir")
    for name in roles.values():
        if (folder / f"{name}.key").exists():
            raise BadInput("a demo identity already exists here", file=str(folder / f"{name}.key"), hint="give another --dir")
    loaded = load_scenario(scenario)  # a missing scenario fails here, before anything is written
    refuse_options(loaded.system, options, str(loaded.path))  # and an option its rules system does not play
    mode = mode_to_start(referee=referee, options=options)
    if not referee:
        refuse_hidden(options)  # a two-player game keeps nothing hidden: refused before anything is written
    game.mkdir(parents=True, exist_ok=True)
    drafts.mkdir(exist_ok=True)
    parties, keys = _identities(folder, roles)
    us, jp = parties["US"].public, parties["JP"].public
    if referee:
        starter, named = parties["referee"], parties["referee"].public
    else:  # the player who does not move first starts a two-player game: his genesis commits the seed of the first orders
        first = system_of(loaded).catalogue_entry(loaded, full=False)["first_player"]
        starter, named = parties["JP" if first == "US" else "US"], None
    genesis = mode.start(str(loaded.path), starter, us, jp, referee=named, edition=edition, ground_support=None, options=options)
    path = write_new(game / turn_name(0), genesis.text)
    total = 2 * (loaded.scenario.last_turn - loaded.scenario.first_turn + 1) + (1 if fog_option(options) is not None else 0)
    done = 0
    while True:
        game_turn = open_turn(path)
        turn = game_turn.turn
        if turn.public["over"]:
            break
        side = turn.public["awaiting"]
        player = parties[side]
        _, view = side_to_move(turn, player)
        document = system_of(game_turn.scenario).bot_orders(view, game_turn.scenario, policies[side], seed, think)
        draft = write_new(drafts / f"orders-{turn.seq:04d}-{side}.json", json.dumps(document, indent=2) + "\n")
        _, problems = check_own_orders(turn, player, document, str(draft))
        if problems:
            raise BotError(f"{draft}: the bot wrote orders that do not validate: " + "; ".join(map(str, problems)))
        submitted = submit_orders(turn, player, side, document)
        sent, text = submitted.path, submitted.built.text
        adjudicated = adjudicate_received(turn, [(text, str(sent))], parties[mode.seed_holder(turn)])
        keep_orders(game, turn.seq, side, sent, text, submitted.revision)
        path = write_new(game / turn_name(turn.seq + 1), adjudicated.turn.text)
        done += 1
        last = adjudicated.step.last
        if on_turn:
            on_turn(TurnPlayed(
                done, max(total, done), turn.public["turn"], side, len(document.get("moves", [])), len(last["combats"]),
                [r["value"] for r in adjudicated.turn.dice.rolls], bool(turn.public.get("setup")),
            ))

    findings = verify_game(game, {game}).findings
    revealed, audit = _audit(mode, game, parties)
    last_turn = open_turn(path)
    final, _ = mode.held(last_turn.turn, parties[mode.seed_holder(last_turn.turn)])
    report = final_report(last_turn.scenario, state_from_json(final["state"]))
    return DemoResult(folder, game, keys, revealed, done, findings, audit, report)


def _audit(mode, game: Path, parties: dict[str, PrivateIdentity]) -> tuple[Path | None, AuditReport]:
    """The keyless audit any stranger can run: from the referee's reveal file (written here as he would), or, in a
    mode whose turn files hide nothing, from the turn files alone."""
    if mode.audit_needs_reveal:
        referee = parties["referee"]
        revealed = write_new(game.parent / "reveal.pbem", reveal_text(referee_reveal(game, referee), referee))
        return revealed, audit_game(game, [read_reveal(revealed)])
    chain = verify_chain(game)
    findings, replayed = (list(chain.findings), 0) if not chain.ok else mode.audit_from_files(chain.turns)
    return None, AuditReport(findings=list(findings), replayed=replayed)
