"""Referee mode: a third party holds the full state and the seeds, and adjudicates every player-turn.

The referee seals each side's view to that side and the full state to
himself, commits to both, and after the game publishes the openings in a
reveal file from which anyone audits (docs/PROTOCOL.md, "Referee mode").

This package holds what only this mode uses: the genesis (:mod:`.start`), no
moves received (:mod:`.nmr`), reveal files (:mod:`.reveal`) and the keyless
audit from them (:mod:`.audit`), a player's ``verify --replay-mine``
(:mod:`.own_replay`) and what ``status --key`` remembers of it (:mod:`.replayed`).
"""

from __future__ import annotations

from pbem.protocol.fog_options import fog_option
from pbem.game.advice import mail_subject, orders_steps, orders_subject
from pbem.loading.folder import orders_name, turn_name
from pbem.game.modes.base import GameMode, genesis_lines
from pbem.protocol.modes import FILE_MODES
from pbem.protocol.turnfile import REFEREE, SIDES, build_turn, open_referee_state, open_view

NAME = "referee"


class RefereeMode(GameMode):
    name = NAME
    files = FILE_MODES[NAME]
    audit_needs_reveal = True
    verifies_before_adjudicating = False  # the referee wrote every file he plays on from, and opens his own sealed state

    def secrets(self, turn):
        return {**{f"views.{side}": side for side in SIDES}, "referee_state": REFEREE, "next seed": REFEREE}

    def parties(self, genesis):
        return f"referee {self.referee(genesis)}"

    def referee(self, genesis):
        return genesis.identities[REFEREE].describe()

    def seed_holder(self, turn):
        return REFEREE

    def held(self, turn, adjudicator):
        secret = open_referee_state(turn, adjudicator)
        return secret.state, secret.next_seed

    def adjudicate_nmr(self, turn, adjudicator, side):
        from pbem.game.modes.referee.nmr import adjudicate_nmr

        return adjudicate_nmr(turn, adjudicator, side)

    def start(self, scenario, me, us, jp, *, referee, edition, ground_support, options, setup=None, escrow=None,
              stall_days=None):
        self.refuse_no_referee_settings(escrow, stall_days)
        from pbem.game.modes.referee.start import start_game

        return start_game(scenario, me, us, jp, edition, ground_support=ground_support, options=options)

    def following(self, turn, adjudicator, step, body, dice, superseded, *, loaded, hidden):
        from pbem.game.sizes import sealed_bucket
        from pbem.protocol.dice import new_seed

        return build_turn(
            adjudicator, game=turn.game, seq=turn.seq + 1, scenario={"id": turn.scenario_id, "hash": turn.scenario_hash},
            ruleset=turn.ruleset, identities=turn.identities, public=step.public, views=step.views,
            referee_state=step.referee_state, next_seed=new_seed(), prev=turn, orders=body.envelope, dice_used=dice,
            superseded=superseded,
            min_bucket=sealed_bucket(loaded.scenario, hidden=hidden, previous=turn, note=(step.last or {}).get("note")),
        )

    def side_view(self, turn, side, identity):
        return open_view(turn, side, identity)

    def faulty_view_hint(self, turn):
        return "'pbem reveal --key' lets you prove what your view says"

    def verify(self, check, folders, replay_with, receipts_required, remember=None):
        if replay_with is not None:
            from pbem.game.modes.referee.own_replay import replay_mine

            check.findings += replay_mine(check.turns, folders, replay_with, check.notes, receipts_required, remember)

    def audit_from_files(self, turns):
        return None  # the sealed states and views are opened by the referee's reveal file

    def audit_summary(self, replayed):
        return f"audited {replayed} adjudication(s): every public record and roll is what the engine gives"

    def nothing_to_reveal(self, game, what):
        return None

    def sender(self, turn):
        return "the referee"

    def do_not_play_on(self):
        return "do not play on: ask the referee for the files again and compare them (pbem verify lists what is wrong)"

    def advise(self, status, folder, turn_path, orders_file, received, key_hint):
        latest, role = status.latest, status.role
        public = latest.public if isinstance(latest.public, dict) else {}
        awaiting = public.get("awaiting")
        if role is None:
            status.action = f"waiting for {awaiting}'s orders answering {turn_name(latest.seq)}; give --key to be told what you should do"
        elif role == REFEREE:
            if orders_file.exists():
                status.action = f"adjudicate {awaiting}'s orders, then send the new turn file to both players"
                status.command = f"pbem adjudicate {turn_path} {' '.join(map(str, received))} --key {key_hint}"
                status.send = {"file": turn_name(latest.seq + 1), "to": "both players",
                               "subject": mail_subject(latest, f"turn file {latest.seq + 1}")}
            else:
                status.action = f"wait for {awaiting}'s orders ({orders_name(latest.seq, awaiting)}) and put them in {folder}"
        elif role == awaiting:
            if orders_file.exists():
                status.action = "your orders for this turn are written; send them to the referee (or replace them before he adjudicates)"
            else:
                status.action = ("write your secret set-up, check it, and submit it" if public.get("setup")
                                 else "write your orders, check them, and submit them")
                orders_steps(status, turn_path, key_hint, setup=bool(public.get("setup")))
            status.send = {"file": orders_file.name, "to": "the referee", "subject": orders_subject(latest, awaiting, orders_file)}
        else:
            status.action = f"nothing to do: {awaiting} is to move; wait for turn file {latest.seq + 1} from the referee"
            status.command = f"pbem view {turn_path} --key {key_hint}"

    def advise_over(self, status, folder, key_hint):
        """After the last player-turn: check everything; the referee publishes the reveal file, the players audit with it."""
        latest, role = status.latest, status.role
        checks = [f"pbem verify {folder}", f"pbem dice {folder}"]
        reveal = next(iter(sorted(folder.glob("reveal*.pbem")) + sorted(folder.parent.glob("reveal*.pbem"))), None)
        if role == REFEREE:
            out = folder / "reveal.pbem"
            status.action = "the game is over: publish the openings of everything sealed, so that each player can audit every adjudication"
            status.steps = [f"pbem verify {folder}", f"pbem reveal {folder} --key {key_hint} -o {out}"] if reveal is None else [f"pbem verify {folder}"]
            status.send = {"file": (reveal or out).name, "to": "both players", "subject": mail_subject(latest, "reveal file: audit the game")}
            return
        if reveal is None:
            status.action = ("the game is over; check the whole game and its dice, then ask the referee for his reveal file "
                             "(pbem reveal) and audit every adjudication with it")
            status.notes.append(f"Put the referee's reveal file in {folder} when it comes; the last step reads it there.")
            status.steps = [*checks, f"pbem audit {folder} --reveal {folder / 'reveal.pbem'}"]
        else:
            status.action = "the game is over; check the whole game and its dice, and audit every adjudication with the referee's reveal file"
            status.steps = [*checks, f"pbem audit {folder} --reveal {reveal}"]

    def announce_genesis(self, genesis, target):
        if fog_option(genesis.public.get("options", [])) is not None and genesis.public.get("setup"):  # 19B.2's secret set-up
            send = f"send {target.name} to both players; JP sends his secret set-up first (pbem orders template writes one)"
        else:
            send = f"send {target.name} to both players; {genesis.public['awaiting']} moves first"
        return genesis_lines(genesis, target, "", send)

    def announce_turn(self, done, target):
        if done.step.over:
            lines = ["the game is over"]
            step = "The game is over: pbem view shows the victory report; pbem reveal <game folder> --key REF.key -o reveal.pbem lets anyone audit it."
        else:
            awaiting = done.turn.public["awaiting"]
            lines = [f"send {target.name} to both players; {awaiting} moves next"]
            step = f"{awaiting} moves next: pbem view {target.name} --key YOUR.key, then pbem status <folder> --key YOUR.key."
        return lines, step, "both players"


MODE = RefereeMode()
