"""The seam for rules systems: what the game layer, the bot, the views and the audits ask of a game's rules.

pbem plays every rules system through the same files, dice and modes; what
differs is the rules themselves — the opening position, which orders are
legal (every problem with its rule case), what a player-turn does on the
dice committed for it, and who has won.  A rules system is one room
(``pbem/systems/<name>/``, with whatever modules it needs) holding one object
that answers the questions below; the registry (:mod:`pbem.systems`) finds
it by the name a scenario gives and the genesis pins (docs/PROTOCOL.md,
"Rules systems").  The callers hand back what the system gave them (the
loaded scenario, the position, the orders, the check) without looking inside:
only a system's own room knows its shapes.

Every call is pure: no files, no clock, no randomness except the dice passed
in (the engine's rule, README "Standards").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

# The record every system reports a broken rule with (rule case, unit, sentence), and the dice every system
# rolls: defined in the first system's room, which is older than the seam, and shared by all.
from pbem.engine.dice import DiceSource
from pbem.engine.problems import Problem

__all__ = ["Checked", "DiceSource", "PlayerTurn", "Problem", "RulesSystem"]


@dataclass(frozen=True)
class Checked:
    """Orders checked on a position: every problem with its rule case, and what the system may reuse
    (``handle``) when it carries out the same orders on the same position straight after."""

    problems: tuple[Problem, ...]
    handle: Any = None

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class PlayerTurn:
    """What one player-turn did.  When ``valid`` is false nothing was applied and ``state`` is the position before.

    ``events`` and ``combats`` are plain JSON, as the turn file records them.
    """

    valid: bool
    problems: tuple[Problem, ...]
    events: tuple[dict, ...]
    combats: tuple[dict, ...]
    state: Any


@runtime_checkable
class RulesSystem(Protocol):
    """One rules system: a name the scenario and the genesis give, and the rules of its games."""

    name: str
    """How a scenario (``"system"``) and a genesis (``ruleset.system``) name it; the SPI system is named by their absence."""

    title: str
    """The rules it plays, for people (``pbem scenario list``, the docs)."""

    options: frozenset[str]
    """The game options (:data:`pbem.model.common.OPTIONS`: ``hidden-units``) a game of this system may be started with;
    ``pbem new`` and ``pbem demo`` refuse any other (:func:`pbem.systems.refuse_options`)."""

    def load_scenario(self, document: dict, path: Path, *, verified: bool = False) -> Any:
        """A scenario document (a file's, or the one a genesis carries) checked and built: a
        :class:`~pbem.loading.datafiles.LoadedScenario` whose ``system`` is this system's name.  Bad input raises
        :class:`~pbem.errors.BadInput` naming the file and the field."""

    def map_scene(self, view: dict, loaded: Any, *, centre: str | None = None, radius: int | None = None,
                  show_zoc: bool = False, show_events: bool = True, objectives: bool = True) -> Any:
        """A side's sealed ``view`` as a map: the :class:`~pbem.render.scene.Scene` that ``pbem show`` (terminal,
        SVG, offline page) and the ``pbem play`` page draw, every renderer the same.

        Asked of the system because only its room knows its board (the hexes' terrain and features, the hexsides,
        roads and places: :class:`~pbem.render.scene.DrawnBoard`), what is printed on its counters and which
        markers lie on them (a :class:`~pbem.render.scene.Counter`, or the room's own subclass), what else a hex
        holds (Legion's hex ownership, 5B) and how it is all read (a :class:`~pbem.render.scene.MapKey`: terrain
        letters and colours, the legend).  Nothing but the view and the scenario goes in, so no map shows more
        than the side may see.  ``centre``/``radius``: only the hexes that near (BadInput naming ``--around``
        when ``centre`` is not on the map); ``objectives``: the scenario's objective hexes drawn (``pbem show``); false
        (the play page), those the view's outlook lists — a system whose objectives are public rules may draw them anyway."""

    def planner(self, view: dict, loaded: Any, source: str) -> Any:
        """What the ``pbem play`` page asks while the side to move writes orders on its ``view`` (``source``: the
        orders file, for messages).  A planner whose ``clicks`` is true answers the clicking page
        (:class:`pbem.game.planning.Planner`: reach, paths, odds, set-up); one whose ``clicks`` is false
        (:class:`pbem.game.orders_text.OrdersText`) checks orders written as JSON with :meth:`read_orders` and
        :meth:`check_orders`, every problem with its rule case, so that any system is played on the page."""

    def carried_document(self, loaded: Any, document: dict) -> dict:
        """The scenario document as a genesis carries it: self-contained, every file the scenario names beside it
        (a map, a chart) read in, so that every party plays with what the referee loaded and its hash covers it."""

    def catalogue_entry(self, loaded: Any, *, full: bool) -> dict:
        """What ``pbem scenario list`` (``full`` false: ``id``, ``title``, ``kind``, ``first_turn``, ``last_turn``,
        ``first_player``, ``edition``) and ``pbem scenario show`` (``full``: with ``description``, ``units`` and the
        rest the system's scenarios hold) print of a scenario, as plain JSON; ``describe`` words it."""

    def describe(self, entry: dict) -> list[str]:
        """:meth:`catalogue_entry` (``full``) in words, for people."""

    def state_to_json(self, state: Any) -> dict:
        """A position as canonical-JSON-ready data (the same position always the same bytes: every turn file commits
        to it).  A position of any system but SPI's carries ``system``: its name, by which :meth:`state_from_json` of
        the same system is found again (SPI positions carry none, so their bytes are what they were)."""

    def state_from_json(self, document: dict) -> Any:
        """A position :meth:`state_to_json` wrote (ValueError, KeyError or TypeError when it is malformed: the caller
        names the file)."""

    def tell_view(self, view: dict, outlook: dict | None) -> str:
        """A side's sealed view in words (``pbem view``), from its plain JSON alone (no model built); ``outlook``: what the
        scenario holds in store (:func:`pbem.game.views.outlook`)."""

    def tell_last(self, last: dict) -> list[str]:
        """The last player-turn of a view (its ``last``: valid or not, problems, events, combats) in words, as
        :meth:`tell_view` tells it: the judge's turn-file mail quotes it, and only the system knows its events."""

    def orders_template(self, view: dict, document: dict) -> tuple[dict, list[str]]:
        """An orders skeleton for the side to move and hints (``pbem orders template``), from its view and the scenario
        document the genesis carries, as plain JSON."""

    def pinned_ruleset(self, loaded: Any, edition: str | None) -> dict:
        """The rules a new game is played by, as its genesis signs them (edition, exclusive rules, and the system's
        name unless it is the SPI system)."""

    def rules_named(self, ruleset: dict) -> str | None:
        """How a game's rules are named for people (``pbem status``' first line), from the ruleset its genesis pins: the
        SPI system's edition (``dg-2009``), a system of one edition its own name; never another system's field as None."""

    def rules(self, ruleset: dict) -> Any:
        """The game's rules as the system reads them from the ruleset its signed files carry (ValueError or TypeError
        when they are malformed: the caller names the file)."""

    def opening(self, loaded: Any, *, hidden: bool, options: list[str] | None = None) -> Any:
        """The opening position of the scenario (``hidden``: with hidden units; ``options``: the game's, which may name
        the way they are hidden — a fog variant the system plays)."""

    def read_orders(self, document: Any, source: str) -> Any:
        """A side's orders document checked against the system's orders schema (BadInput naming ``source`` and the field)."""

    def check_orders(self, loaded: Any, ruleset: dict, state: Any, orders: Any) -> Checked:
        """Every problem with ``orders`` on ``state`` (the position the side to move may know), each with its rule case."""

    def adjudicate(self, loaded: Any, ruleset: dict, state: Any, orders: Any, dice: DiceSource, *,
                   checked: Checked | None = None) -> PlayerTurn:
        """Carry out one player-turn on the committed ``dice``; ``checked``: :meth:`check_orders` of these very orders on
        this very position, when the caller has just asked it."""

    def end_player_turn(self, loaded: Any, before: Any, after: Any) -> tuple[Any, list[dict]]:
        """The position handed to the next player-turn after a valid one (the end of a Game-Turn, arrivals), and its events."""

    def game_over(self, loaded: Any, state: Any) -> bool:
        """Whether the game has ended on ``state``."""

    def victory(self, loaded: Any, state: Any, *, final: bool) -> dict:
        """The victory report on ``state`` as plain JSON (``final``: the game is over, the level is decided)."""

    def record_problems(self, public: dict, rolls: list[dict], scenario: dict | None = None) -> list[str]:
        """Where a signed public record of a player-turn (``public``, its turn file's ``rolls``) is not what the
        system's tables give, from public data alone: what ``pbem verify`` checks of every turn file without a key.
        ``scenario``: the scenario document the game's genesis carries (a system whose charts are data reads them
        there), or None when the caller has none (no genesis among the files): a system checks then what needs none."""

    def bot_orders(self, view: dict, loaded: Any, policy: str, seed: int | None, think: float | None = None) -> dict:
        """Orders for the side whose sealed ``view`` this is, by the system's bot with ``policy`` (an NMR, ``pbem bot``,
        ``pbem demo``): valid by the system's own check, and the same for the same view, policy and seed."""

    def with_suggestions(self, problems: list[Problem], state: Any) -> list[Problem]:
        """``problems`` with what the player might do instead, where the system knows (what ``pbem validate`` prints)."""

    # -- hidden units: what each side may know (the hidden-units option, docs/hidden-units.md) ------------------------
    # The game layer's views, public record, orders check and the no-referee mode ask these rather than reading a
    # position's fog themselves: each system hides its units its own way (the SPI system's 19B markers, one per hex;
    # Legion's 19B, stacks of markers and the U.S. stacks seen from above), and only its room knows how.

    def hides(self, state: Any) -> bool:
        """Whether ``state`` keeps units from a side (the game was started with a way of hiding units): the views,
        the public record and the check of orders then ask the questions below; without it every side sees all."""

    def known_position(self, state: Any, side: str) -> Any:
        """The position ``side`` may know, as its sealed view carries it (:meth:`state_to_json` of it): the other
        side's hidden units as markers.  Asked only when :meth:`hides`."""

    def known_events(self, board: Any, before: Any, after: Any, side: str, events: list[dict]) -> list[dict]:
        """The events of the player-turn from ``before`` to ``after`` as ``side`` may read them (a hidden unit's moves
        only where it was seen, no hidden unit's name).  Asked only when :meth:`hides`."""

    def known_victory(self, loaded: Any, state: Any, side: str, victory: dict, *, final: bool) -> dict:
        """The victory report ``victory`` (:meth:`victory` of ``state``) as ``side``'s view tells it: what it scores
        from hidden units (a timed award, the count of real units) stays out until the game is over."""

    def judged_on(self, state: Any, side: str) -> Any:
        """The position orders of ``side`` are checked on: every rejection of them must be one his own view gives,
        so under hidden units a side that may not know the whole position is judged on what it may know
        (:meth:`known_position`), else the whole position (``state`` itself)."""

    def as_carried(self, orders: Any, state: Any, side: str) -> Any:
        """``side``'s ``orders`` as they are checked and carried out on ``state`` (its picture, or the whole position):
        a hidden unit named by its marker read as the unit standing there."""

    def committed_position(self, state: Any) -> Any:
        """The position the public record's digest commits to (pbem/game/position.py): one that both sides can work
        out from their own view, so each checks that the record agrees with what he was shown."""

    def view_position(self, state_json: dict, side: str) -> dict:
        """From the ``state`` of ``side``'s view (plain JSON), the position :meth:`committed_position` gives, as plain
        JSON: what that side digests to check the public record (``pbem view``, ``verify``)."""

    def sees_everything(self, side: str) -> bool:
        """Whether, under this system's hidden units, ``side``'s view is the whole position: then his own player-turns
        are replayed from his views (``verify --replay-mine``); else his orders are re-judged on the view he wrote
        them on, and the audit replays the rest."""

    def awaits_secret_setup(self, state: Any) -> bool:
        """Whether ``state`` awaits the Japanese secret set-up (the SPI system's 19B.2): the public record says so, and
        the no-referee mode commits the set-up at the genesis.  A system whose hidden units start where the
        scenario prints them has none: the no-referee mode commits the opening's counters instead."""

    # -- hidden units with no referee: what the Japanese player commits, and the American checks at once -----------
    # The no-referee mode (pbem/game/modes/blind/) commits every Japanese counter under a marker, opens what the rules
    # expose and lets the American player check each step from public data; what a marker is, what a step exposes and
    # which checks can be made at once are the rules', so the mode asks the system.

    def committed_pieces(self, state: Any, key: bytes) -> dict[str, dict]:
        """Every Japanese counter on the map under its marker id, as a root commits it: a dummy only
        ``{"kind": "dummy"}``, a unit its identity and printed strengths.  ``key`` (derived from the Japanese
        player's secret) orders what no public fact orders, such as the counters of one stack."""

    def view_markers(self, view: dict) -> list[str]:
        """The marker ids of an American view (plain JSON), sorted: what the root of its step commits to."""

    def marker_hex(self, marker: str) -> str:
        """The hex a marker id stands for."""

    def blind_exposure(self, board: Any, before: Any, after: Any, events: list[dict], side: str,
                       keys: tuple[bytes, bytes]) -> tuple[dict, dict, frozenset]:
        """The openings a step of ``side`` from ``before`` to ``after`` demands, as the refereed American view of it names
        them: ``(before, after, claims)`` — markers opened against the root before the step and against its new root
        (marker id -> unit id), and what neither root can show without telling more than the rules (left to the audit).
        ``keys``: :meth:`committed_pieces`' keys of the root before and of the new one."""

    def order_of_battle(self, loaded: Any) -> dict[str, dict]:
        """Every Japanese unit of the scenario (not a dummy) as a root commits it, by id: what an opened piece must be."""

    def dummies_removed(self, events: list[dict]) -> list[str]:
        """The hexes where the step's (American-view) events remove or reveal a dummy (19B.6)."""

    def blind_public_checks(self) -> frozenset[str]:
        """Which of the no-referee mode's at-once checks from public data (pbem/game/modes/blind/) read this system's
        rules and are made for its games: ``setup`` (the committed set-up's markers against the set-up zone and counts,
        kind by kind), ``setup_openings``, ``exposure`` (the markers an American step must open), ``moves`` (the public
        bound on hidden moves), ``concealed`` (moves left concealed), ``events`` (each unit where its last event left
        it), ``attack`` and ``defense`` (a combat's strengths from the opened pieces).  A check left out is the audit's:
        docs/hidden-units.md's threat table lists each, with its test."""
