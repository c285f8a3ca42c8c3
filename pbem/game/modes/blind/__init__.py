"""Hidden units with no referee: the Japanese player adjudicates, commits what stands under every marker, opens
what 19B exposes, and publishes his secret at the end (docs/PROTOCOL.md, "Hidden units with no referee").

Its files are not turn files but one signed message each (:mod:`pbem.protocol.blindfile`), played by
:mod:`pbem.game.modes.blind.files`; the seam's questions about turn files have no turn file to ask in this mode, and
say so.  ``pbem new``, ``status``, ``verify``, ``audit`` and ``demo`` find such a game by its genesis file and ask
this mode.  What plays it (the engine, the scenario) is imported only when it is used: every command imports the
modes, and the light ones (``view``, ``verify``) must not load the engine.

This package holds what only this mode uses: the markers a step opens (:mod:`.exposure`), the protocol in one
process (:mod:`.run`) and through the files (:mod:`.files`), their schemas (:mod:`.schema`), the escrow
(:mod:`.escrow`, :mod:`.recover`), what ``view``, ``show`` and ``dice`` read (:mod:`.views`), and two of the
American player's checks from public data: the bound on hidden moves (:mod:`.move_bound`) and the set-up's markers
kind by kind (:mod:`.setup_kinds`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import BadInput
from pbem.game.modes.base import GameMode
from pbem.protocol import blindfile
from pbem.protocol.modes import FILE_MODES

NAME = blindfile.MODE
_NO_TURN_FILES = "a game with hidden units and no referee has no turn files: its messages are blind-NNNN-SIDE.pbem"


@dataclass(frozen=True)
class BlindStart:
    """What ``pbem new`` writes for this mode: the genesis message and the Japanese player's private file."""

    text: str
    private: dict
    mode: str = NAME
    file_name: str = blindfile.file_name(0)
    private_name: str = "blind-private-JP.json"  # blind_files.private_name("JP"), which loads the engine: not at import
    bot_setup: bool = False
    public: dict = field(default_factory=dict)
    committed: list[str] = field(default_factory=list)  # what stands under each marker, for the Japanese player's eyes
    escrow: str | None = None  # the escrow holder's description, when pbem new --escrow named one
    stall_days: int = 14  # after how many days without an answer the game is stalled (pbem new --stall-days)
    opening: bool = False  # no secret set-up: the opening's counters are committed, where the scenario sets them up


class BlindMode(GameMode):
    name = NAME
    files = FILE_MODES[NAME]
    audit_needs_reveal = False
    verifies_before_adjudicating = True

    def secrets(self, turn):
        return {"per-game secret (every marker salt, his orders' nonces and dice salts)": "JP",
                "seeds of the Japanese steps": "US", "seeds of the American player-turns": "JP"}

    def parties(self, genesis):
        return "US and JP, no referee, hidden units"

    def referee(self, genesis):
        return None

    def seed_holder(self, turn):
        return "JP"  # he adjudicates every step; whose seed rolls it is blind_run's rule

    def _refuse(self, what: str):
        raise BadInput(f"{what}: {_NO_TURN_FILES}", hint="'pbem status GAMEDIR --key YOUR.key' says what to run")

    def held(self, turn, adjudicator):
        self._refuse("nothing to adjudicate from a turn file")

    def adjudicate_nmr(self, turn, adjudicator, side):
        raise BadInput("a game without a referee has no NMR: only a referee plays the bot's orders for an absent player",
                       hint="wait for your opponent's file")

    def start(self, scenario, me, us, jp, *, referee, edition, ground_support, options, setup=None, escrow=None,
              stall_days=None):
        from pbem.systems import load_scenario
        from pbem.game.modes.blind import files as blind_files
        from pbem.game.modes.blind.views import opening_pieces, placed_setup, setup_lines
        from pbem.game.modes.blind.exposure import pieces

        text, private = blind_files.start(scenario, me, us, jp, setup=setup, edition=edition, ground_support=ground_support,
                                          escrow=escrow, options=options, stall_days=stall_days)
        if "1" in private["orders"]:  # his secret set-up, deployed
            committed = setup_lines(pieces(placed_setup(load_scenario(scenario), private["orders"]["1"], options)))
        else:  # no secret set-up: the opening's counters where the scenario sets them up
            from pbem.protocol.canonical import b64d

            game = blindfile.read(text, "the genesis").body["game"]
            committed = setup_lines(opening_pieces(load_scenario(scenario), b64d(private["secret"]), game, options))
        from pbem.game.modes.blind.stall import checked_stall_days

        return BlindStart(text, private, bot_setup=setup is None, committed=committed, opening="1" not in private["orders"],
                          escrow=escrow.describe() if escrow else None,
                          stall_days=checked_stall_days(stall_days, "--stall-days", None))

    def following(self, turn, adjudicator, step, body, dice, superseded, *, loaded, hidden):
        self._refuse("no turn file follows")

    def side_view(self, turn, side, identity):
        self._refuse("no sealed view")

    def faulty_view_hint(self, turn):
        return "'pbem verify GAMEDIR' names what is wrong and who wrote it"

    def verify(self, check, folders, replay_with, receipts_required, remember=None):
        self._refuse("verify the game folder")

    def audit_from_files(self, turns):
        return None

    def audit_summary(self, replayed):
        return (f"audited {replayed} step(s) with full information from the Japanese player's secret: every "
                "commitment, opening, hidden move, view and roll is what the replay gives")

    def nothing_to_reveal(self, game, what):
        return BadInput(f"a game with hidden units and no referee has nothing sealed {what}",
                        file=str(game), hint=f"the Japanese player publishes his secret: pbem blind publish-secret {game} --key jp.key")

    def sender(self, turn):
        return "your opponent"

    def do_not_play_on(self):
        return "do not play on: show your opponent what pbem verify lists (it names the cheater and the step)"

    def advise(self, status, folder, turn_path, orders_file, received, key_hint):
        self._refuse("no turn file to advise on")

    def advise_over(self, status, folder, key_hint):
        self._refuse("no turn file to advise on")

    def announce_genesis(self, genesis, target):
        whose = ("the opening (every counter where the scenario sets it up)" if genesis.opening else
                 "the greedy bot's set-up (give --setup FILE for your own)" if genesis.bot_setup else "your secret set-up")
        lines = [f"wrote {target}: a game with hidden units and no referee; {whose} is committed (its root is "
                "in the file), your per-game secret is in "
                f"{target.parent / genesis.private_name} (keep it, never send it)",
                "committed under each marker (check it is what you meant; only you see this, and "
                f"'pbem status {target.parent} --key YOUR.key' shows it again):", *genesis.committed]
        if genesis.escrow:
            lines.append(f"escrow: your secret is dealt between {genesis.escrow} and the US player (each holds a share "
                         "the US player checks at once; neither alone opens it) and every file of yours carries the "
                         "orders it commits, encrypted under it: if you stall, the two together open the whole game "
                         "for the audit (pbem blind recover)")
        else:
            lines.append(NO_ESCROW)
        lines.append(stall_line(genesis.stall_days))
        return lines + [
                f"send {target.name} to the US player; he answers with blind-0001-US.pbem (pbem blind next)"]

    def announce_turn(self, done, target):
        self._refuse("no turn file to announce")

    # ------------------------------------------------------------ the folder, as status advises it

    @staticmethod
    def _committed_setup(held, folder: Path) -> list[str]:
        """The Japanese player's set-up as committed, marker by marker, for him to check before the dice exist."""
        from pbem.errors import VerificationFailed
        from pbem.game.modes.blind.views import committed_setup, setup_lines

        try:
            _, under = committed_setup(held, folder)
        except (BadInput, VerificationFailed) as exc:
            return [f"your committed set-up cannot be shown: {exc}"]
        return ["your set-up as committed in blind-0000-JP.pbem (what stands under each marker; only you see this):",
                *setup_lines(under)]

    def advice(self, folder: Path, role: str | None, key_hint: str) -> tuple[list[str], list, bool]:
        """``status``'s lines for a folder of this mode, its findings, and whether it verifies."""
        from pbem.game.modes.blind import escrow as blind_escrow, files as blind_files
        from pbem.game.modes.blind.run import AT_ONCE

        held = blind_files.load(folder)
        found = blind_files.findings(held)
        pubs = held.record.publications
        from pbem.systems import system_of

        edition = system_of(held.loaded).rules_named(held.record.ruleset or {}) or "dg-2009"  # a Legion game: its system
        track = ", its own Ground Support track" if held.messages[0].body.get("overrides") else ""
        lines = [f"game {held.game}: {held.loaded.scenario.id} ({edition}{track}), hidden units, no referee; {len(held.messages)} file(s), "
                 f"{len(pubs)} step(s) played" + (", game over" if held.over else "")]
        if pubs:
            last = pubs[-1].view
            turn = last.get("state", {}).get("position", {}).get("turn", "?")
            lines.append(f"latest: step {pubs[-1].seq} ({pubs[-1].side}), Game-Turn {turn}")
            victory = last.get("victory")
            if held.over and isinstance(victory, dict) and victory.get("level"):
                lines.append(f"result: {victory['level']}")
        if role == "JP" and not pubs:
            lines += self._committed_setup(held, folder)
        for f in found:
            lines.append(f"FINDING: {f}")
        if [f for f in found if f.when == AT_ONCE]:
            lines.append("next: " + self.do_not_play_on())
            return lines, found, False
        nxt = held.next_writer
        n = len(held.messages)
        name = blindfile.file_name(n)
        other = "US" if role == "JP" else "JP"
        holder = blind_escrow.holder_of(held.messages[0])
        if holder is not None:
            lines.insert(1, f"escrow: held by {holder.describe()} and the US player (the Japanese secret dealt "
                            "between them, checked at once; every Japanese file carries the orders it commits, "
                            "encrypted under it)")
        else:
            lines.insert(1, NO_ESCROW)
        from pbem.game.modes.blind.stall import stall, stall_days

        lines.insert(2, stall_line(stall_days(held)))
        if held.secret_recovered_by:
            lines.append(f"the Japanese secret came from the escrow, opened by {held.secret_recovered_by}")
            from pbem.game.modes.blind.stall import left_unanswered

            if (waiting := left_unanswered(held)) is not None:  # the stall's words stay, after the game is opened
                lines.append(f"ended at a stall: {waiting.words}")
        stalled = stall(held)
        if stalled is not None:  # the same verdict as verify and both audits (issue 36)
            lines.append(f"STALLED: {stalled.words}"
                         + (f"; you and the escrow holder ({holder.describe()}) can open the game: each runs "
                            f"pbem blind recover {folder} --key YOUR.key" if holder and stalled.side == "JP" else ""))
        if nxt is None and not held.over:  # recovered from the escrow while the game went on: it ends here
            lines.append(f"next: the game ends here (every marker is open): pbem audit {folder}")
        elif nxt is None:
            lines.append(f"next: the game is over and the secret published: pbem audit {folder}")
        elif role is None:
            lines.append(f"next: {nxt} writes {name}; give --key to be told what you should do")
        elif held.over and nxt == "JP":
            if role == "JP":
                lines.append(f"next: publish your secret so that the game can be audited: pbem blind publish-secret {folder} "
                             f"--key {key_hint}; send {blindfile.SECRET_NAME} to the US player")
            else:
                lines.append(f"next: wait for {blindfile.SECRET_NAME} from the JP player; until it comes, verify lists the "
                             "withheld secret as a finding (a forfeit in a tournament)"
                             + (f"; if he will not send it, you and the escrow holder ({holder.describe()}) each "
                                f"run pbem blind recover {folder} --key YOUR.key" if holder else ""))
        elif nxt == role:
            us_orders = role == "US" and held.awaiting == "US" and not held.over
            orders = " --orders ORDERS.json" if us_orders else ""
            what = {"US": "your acknowledgement of the root just published, with " + (
                "your orders" if us_orders else "your seed for the Japanese step" if not held.over
                else "nothing else (the game is over)"),
                    "JP": "the publication of the next step (you adjudicate it)"}[role]
            lines.append(f"next: write {name}, {what}: pbem blind next {folder} --key {key_hint}{orders}; "
                         f"then send {name} to the {other} player")
            if us_orders:
                lines.append(f"your view: pbem blind view {folder} (or give --bot POLICY instead of --orders)")
            if role == "JP":
                lines.append("if you move next, the command first writes your view after the step (blind-view-JP-NNNN.json) "
                             "and asks for your orders: run it again with --orders FILE (or --bot POLICY)")
        else:
            lines.append(f"next: wait for {name} from the {other} player and put it in {folder}")
        return lines, found, not found


def stall_line(days: int) -> str:
    """The stall period a game pins, as ``new`` and ``status`` say it."""
    return (f"stall: a file left unanswered for {days} days stalls the game (pinned in its genesis; pbem new "
            "--stall-days chose it, 14 by default)")


NO_ESCROW = ("no escrow: this game names no escrow holder, so only the Japanese player can open it for the audit; if "
             "he stalls or withholds his secret, nothing he did in secret can ever be checked (give pbem new "
             "--escrow HOLDER.pub for an escrow)")
"""What a game without an escrow leaves the American player with, said at ``new`` and in ``status`` (issue 36)."""

MODE = BlindMode()
