"""Two-player mode: no referee; the player who does not move adjudicates, with a seed he committed earlier.

Nothing is sealed: each turn file carries the full state and the orders it
carried out, so anyone replays every player-turn from the files alone
(docs/PROTOCOL.md, "Two-player mode"; the files are
:mod:`pbem.protocol.twoplayer`, the game's side :mod:`pbem.game.modes.two_player.turns`, the one module only this mode uses).
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import BadInput, VerificationFailed
from pbem.game.advice import mail_subject, orders_steps, orders_subject
from pbem.loading.folder import turn_name
from pbem.game.modes.base import GameMode, genesis_lines
from pbem.game.roles import role_of
from pbem.protocol.chain import Finding
from pbem.protocol.derive import orders_seed, turn_seed
from pbem.protocol.dice import commit
from pbem.protocol.modes import FILE_MODES
from pbem.protocol.turnfile import TWO_PLAYER

NAME = TWO_PLAYER


class TwoPlayerMode(GameMode):
    name = NAME
    files = FILE_MODES[NAME]
    audit_needs_reveal = False
    verifies_before_adjudicating = True  # he plays on from a file his opponent may have written

    def secrets(self, turn):
        return {"next seed": turn.dice.committed_by}  # derived from his key (pbem.protocol.derive); nothing is sealed

    def parties(self, genesis):
        return " and ".join(f"{side} {genesis.identities[side].describe()}" for side in genesis.identities) + ", no referee"

    def referee(self, genesis):
        return None

    def seed_holder(self, turn):
        return turn.dice.committed_by

    def held(self, turn, adjudicator):
        """The full state (public) and the seed the holder committed for the orders answering ``turn``.

        Only the player named as committing that seed may adjudicate them; he
        re-derives it from his key and checks it against the commitment.
        """
        role = role_of(turn, adjudicator)
        owner = turn.dice.committed_by
        if role != owner:
            raise BadInput(
                f"the orders answering {Path(turn.source).name} are adjudicated by {owner}, with the seed {owner} committed; your key is {role}'s",
                file=turn.source, hint=f"send your orders to {owner}, who runs 'pbem adjudicate'",
            )
        if owner == turn.writer:
            seed = turn_seed(adjudicator, game=turn.game, seq=turn.seq, prev=turn.prev)
        else:
            header = turn.orders_header["body"]
            seed = orders_seed(adjudicator, game=turn.game, turn_digest=header["answers"]["turn"], side=header["side"],
                               revision=header["revision"])
        if commit(seed) != turn.dice.next_commitment:
            raise VerificationFailed(
                f"the seed commitment in this file is not one your key made ({role})",
                file=turn.source, field="dice.next_commitment",
                hint="the file was made by another program or altered; run 'pbem verify' and show the result to your opponent",
            )
        return turn.state, seed

    def adjudicate_nmr(self, turn, adjudicator, side):
        raise BadInput("a two-player game has no NMR: only a referee plays the bot's orders for an absent player",
                       file=turn.source, hint="wait for your opponent's orders")

    def start(self, scenario, me, us, jp, *, referee, edition, ground_support, options, setup=None, escrow=None,
              stall_days=None):
        self.refuse_no_referee_settings(escrow, stall_days)
        from pbem.game.modes.two_player.turns import start_two_player_game

        return start_two_player_game(scenario, me, us, jp, edition, ground_support=ground_support, options=options)

    def following(self, turn, adjudicator, step, body, dice, superseded, *, loaded, hidden):
        from pbem.game.modes.two_player.turns import following_turn

        return following_turn(turn, adjudicator, step, body, dice, superseded)

    def side_view(self, turn, side, identity):
        from pbem.game.modes.two_player.turns import side_view

        return side_view(turn, side)

    def faulty_view_hint(self, turn):
        return "'pbem verify' names what is wrong"

    def verify(self, check, folders, replay_with, receipts_required, remember=None):
        """Every player-turn replayed from the files alone, each seed commitment owned by the next adjudicator, and
        whom the game waits for (a key adds nothing: everything is in the files)."""
        from pbem.game.modes.two_player.turns import awaited, commitment_problem, replay_all

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

    def audit_from_files(self, turns):
        from pbem.game.modes.two_player.turns import replay_all

        return replay_all(turns)

    def audit_summary(self, replayed):
        return (f"audited {replayed} adjudication(s) from the files alone (a two-player game hides nothing): "
                "every state, public record and roll is what the engine gives")

    def nothing_to_reveal(self, game, what):
        return BadInput(f"a two-player game has nothing sealed {what}: its turn files carry the state and the orders in clear",
                        file=str(game), hint=f"'pbem verify {game}' replays every player-turn from them")

    def sender(self, turn):
        return "your opponent"

    def do_not_play_on(self):
        return "do not play on: show your opponent what pbem verify lists (it names the player who wrote each bad file)"

    def advise(self, status, folder, turn_path, orders_file, received, key_hint):
        """The mover writes orders for his opponent; the opponent adjudicates them."""
        from pbem.game.modes.two_player.turns import awaited

        latest, role = status.latest, status.role
        awaiting, judge = latest.public["awaiting"], latest.dice.committed_by
        status.notes.append(awaited(latest, folder))
        with_turn = f", with {turn_path.name}, which you wrote" if role == latest.writer and latest.seq > 0 else ""
        if role is None:
            status.action = f"{awaited(latest, folder)}; give --key to be told what you should do"
        elif role == awaiting:
            if orders_file.exists():
                status.action = (f"your orders for this turn are written; send them to {judge}{with_turn}: he adjudicates them "
                                 "(replace them before he does if you change your mind)")
            else:
                status.action = f"write your orders, check them, submit them and send them to {judge}{with_turn}: he adjudicates them"
                orders_steps(status, turn_path, key_hint)
            status.send = {"file": orders_file.name, "to": f"the {judge} player", "subject": orders_subject(latest, awaiting, orders_file)}
            if with_turn:
                status.send["with"] = turn_path.name
        elif orders_file.exists():
            status.action = f"adjudicate {awaiting}'s orders with the seed you committed, then send the new turn file to {awaiting}"
            status.command = f"pbem adjudicate {turn_path} {' '.join(map(str, received))} --key {key_hint}"
            status.send = {"file": turn_name(latest.seq + 1), "to": f"the {awaiting} player",
                           "subject": mail_subject(latest, f"turn file {latest.seq + 1}")}
        else:
            status.action = f"wait for {awaiting}'s orders ({orders_file.name}) and put them in {folder}; you adjudicate them"
            status.command = f"pbem view {turn_path} --key {key_hint}"

    def advise_over(self, status, folder, key_hint):
        status.action = "the game is over; check the whole game and its dice (every player-turn is replayed from the files)"
        status.steps = [f"pbem verify {folder}", f"pbem dice {folder}"]

    def announce_genesis(self, genesis, target):
        awaiting = genesis.public["awaiting"]
        return genesis_lines(genesis, target, " (two players, no referee)",
                             f"send {target.name} to the {awaiting} player; {awaiting} moves first and sends you his orders, which you adjudicate")

    def announce_turn(self, done, target):
        """The turn file goes to the mover whose orders it carried out; say who moves next."""
        mover, writer, awaiting = done.orders.side, done.turn.writer, done.turn.public["awaiting"]
        if done.step.over:
            lines = ["the game is over"]
            step = "The game is over: pbem view shows the victory report; pbem verify <game folder> replays every player-turn."
        elif awaiting == writer:
            lines = [f"you ({writer}) move next: write your orders answering {target.name} and send them to {mover} with it"]
            step = f"{writer} moves next; his orders follow (or come with this file). Check it with pbem status <folder> --key YOUR.key."
        else:
            lines = [f"{awaiting} moves again; send {target.name} to {mover}"]
            step = f"{awaiting} moves again: pbem view {target.name} --key YOUR.key, then pbem status <folder> --key YOUR.key."
        return lines, step, f"the {mover} player"


MODE = TwoPlayerMode()
