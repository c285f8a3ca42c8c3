"""The Legion system's check of a signed public record against the charts the genesis carries, from public data alone.

What ``pbem verify`` asks of every player-turn's public record
(:meth:`pbem.systems.base.RulesSystem.record_problems`), with no key and
no position: each combat's odds from its recorded strengths (9A.2, rounded
down), its column, its DRMs (their sum, the -4 floor of 9C, the terrain of
the hex attacked from the map, the DRMs 9A.2 and 6B.2c give), the committed
die and the table's entry; each Fire Combat and its return fire read on the
Fire Combat Results Table (9A.1, 9D.2); an Overrun's odds and shifts against
8:1 (6B.2a); and every other roll a record shows — Retreat Before Combat
(9J, whose failure is the +1 DRM of its combat) and the Banzai Attack Table
(19A) — against the combat it was made for.  What a record cannot show
(whose strengths, which hex-side, which unit is armour) the replay and the
audit check: this is what anyone holding only the public files can see.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from pbem.errors import BadInput
from pbem.systems.legion import odds
from pbem.systems.legion.charts import column_index
from pbem.systems.legion.terrain_combat import best_fire_drm, best_hex_terrain, capped

RBC = re.compile(r"^Retreat Before Combat of (?P<unit>\S+) in combat (?P<index>\S+) \(9J\)$")
BANZAI = re.compile(r"^Banzai Attack Table in combat (?P<index>\S+), defenders' strength (?P<steps>\d+) \(19A\)$")
RETURN = re.compile(r"^return fire into (?P<into>\S+) in combat (?P<index>\S+) \(9A\.1\)$")
COMBAT = re.compile(r"^combat (?P<index>\S+): (?P<what>Assault Combat against (?P<a_target>\S+) at (?P<column>\S+) \(9A\.2\)"
                    r"|Fire Combat against (?P<f_target>\S+) \(9A\.1\))$")
ASSAULTS = ("assault", "overrun-assault")
FAILED_RBC = "failed Retreat Before Combat (9J)"
FAILED_OVERRUN = "failed Overrun (6B.2c)"
BEYOND = "odds beyond 7:1 (9A.2)"
TERRAIN = "terrain (9C)"
SIDE = "hex-side (9C)"
ARMOR = "armor (10A)"
DISRUPTED = "disrupted defenders (14)"
NIGHT = "night (6C.2)"

#: The last scenarios built here, by the document object a genesis carries (kept with it, so its id names it).
_BUILT: dict[int, tuple[dict, Any]] = {}


def board_of(scenario: dict, source: str = "the genesis"):
    """The board and charts of the scenario document a genesis carries (map and charts inline), built once per document."""
    known = _BUILT.get(id(scenario))
    if known is None or known[0] is not scenario:
        from pbem.systems.legion.files import scenario_from

        if not isinstance(scenario.get("map"), dict) or not all(isinstance(c, dict) for c in (scenario.get("charts") or {}).values()):
            raise BadInput("the scenario it carries does not hold its map and charts", field="scenario_document")
        if len(_BUILT) >= 4:
            _BUILT.clear()
        known = _BUILT[id(scenario)] = (scenario, scenario_from(scenario, Path(source)).board)
    return known[1]


def _number(value: object) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return Fraction(value)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Rolls:
    """The public rolls of one player-turn, sorted by the combat each was made for."""

    def __init__(self, rolls: list[dict]):
        self.rbc: dict[str, list[dict]] = {}
        self.banzai: dict[str, dict] = {}
        self.returns: dict[str, tuple[str, dict]] = {}
        self.combat: dict[str, re.Match] = {}
        self.strange: list[dict] = []
        for roll in rolls:
            purpose = str(roll.get("purpose"))
            if m := RBC.match(purpose):
                self.rbc.setdefault(m["index"], []).append(roll)
            elif m := BANZAI.match(purpose):
                self.banzai[m["index"]] = roll | {"steps": int(m["steps"])}
            elif m := RETURN.match(purpose):
                self.returns[m["index"]] = (m["into"], roll)
            elif m := COMBAT.match(purpose):
                self.combat[m["index"]] = m
            else:
                self.strange.append(roll)


def record_problems(public: dict, rolls: list[dict], scenario: dict | None, source: str = "the genesis") -> list[str]:
    """Where ``public``'s combats are not what the charts of ``scenario`` (the document the genesis carries) give for
    their recorded strengths, DRMs and the committed dice; each problem names the combat and the rule case.  Without
    ``scenario``: only that every roll is one the Legion rules make."""
    last = public.get("last") if isinstance(public, dict) else None
    if not isinstance(scenario, dict) or not (rolls or (isinstance(last, dict) and last.get("combats"))):
        return combat_problems(public, rolls, None)  # no combat, no roll: nothing the charts would say
    try:
        board = board_of(scenario, source)
    except BadInput as exc:
        return [f"the charts the genesis carries cannot be read, so no combat can be checked against them: {exc.message}"]
    return combat_problems(public, rolls, board)


def combat_problems(public: dict, rolls: list[dict], board) -> list[str]:
    """:func:`record_problems` on a built board (its charts: ``board.charts``); None: the rolls' purposes only."""
    last = public.get("last") if isinstance(public, dict) else None
    combats = last.get("combats") if isinstance(last, dict) else None
    if not isinstance(combats, list) or not all(isinstance(c, dict) for c in combats):
        return []  # the shape is pbem.game.record_checks.combat_roll_problems's to judge
    seen = _Rolls(rolls)
    problems = [f"roll {r.get('n')} ('{r.get('purpose')}') is none the Legion rules make (9A.1, 9A.2, 9J, 19A)" for r in seen.strange]
    if board is None:
        return problems
    by_index = {str(c.get("index")): c for c in combats}
    for index in sorted(set(seen.rbc) | set(seen.banzai) | set(seen.returns)):
        if index not in by_index:
            problems.append(f"a roll was made for combat {index} (9J, 19A or 9A.1 return fire), which the public record does not show")
    assaulted = {str(c.get("index")) for c in combats if c.get("type") == "overrun-assault"}
    for combat in combats:
        if combat.get("type") == "overrun" and (combat.get("result") == "failed") != (str(combat.get("index")) in assaulted):
            problems.append(f"{_name(combat)} is recorded as {combat.get('result')!r}, but " + (
                "no Assault Combat follows it: a failed Overrun becomes one (6B.2c)" if combat.get("result") == "failed" else
                "an Assault Combat follows it, which only a failed Overrun becomes (6B.2c)"))
    for combat in combats:
        check = _check_overrun if combat.get("type") == "overrun" else _check_fire if combat.get("type") == "fire" else _check_assault
        problems += check(combat, seen, board)
    return problems


def _name(combat: dict) -> str:
    kinds = {"assault": "Assault Combat", "overrun-assault": "the Assault Combat of a failed Overrun", "fire": "Fire Combat",
             "overrun": "Overrun"}
    kind = kinds.get(combat.get("type")) if isinstance(combat.get("type"), str) else None
    kind = kind or f"a combat of type {combat.get('type')!r}"
    return f"combat {combat.get('index')} ({kind} against {combat.get('target')})"


def _rbc_failed(combat: dict, seen: _Rolls, board) -> bool:
    chart = board.charts.retreat_before_combat
    return any(board.charts.lookup(r["value"], chart).result == "failed" for r in seen.rbc.get(str(combat.get("index")), []))


def _check_assault(combat: dict, seen: _Rolls, board) -> list[str]:
    name, index = _name(combat), str(combat.get("index"))
    if combat.get("type") not in ASSAULTS:
        return [f"{name}: no Legion combat is of this type (9A)"]
    status, banzai = combat.get("status"), seen.banzai.get(index)
    declared = combat.get("banzai") is True or status == "banzai-spent"  # a spent Banzai's record ends before its flag
    problems = []
    if banzai is not None and (not declared or status in ("vacated", "automatic")):
        problems.append(f"{name}: a Banzai Attack Table roll was made for it, but "
                        + ("it is not a Banzai attack (19A)" if not declared else
                           f"a {status} combat reaches no Banzai losses (19A)"))
    if status == "vacated":
        if _rbc_failed(combat, seen, board):
            problems.append(f"{name} is recorded as vacated, but a unit's Retreat Before Combat failed and it stayed (9J)")
        return problems + _no_die(combat, name)
    if declared and status in ("resolved", "banzai-spent") and banzai is None:
        problems.append(f"{name} is a Banzai attack, but no roll was made on the Banzai Attack Table for it (19A)")
    if status == "banzai-spent":
        if banzai is not None and _banzai_result(banzai, board) == "-":
            problems.append(f"{name}: the Banzai Attack Table gives '-' (no losses) for die {banzai['value']} against strength "
                            f"{banzai['steps']}, yet the record says the attackers were all lost to it (19A)")
        return problems + _no_die(combat, name)
    if status == "automatic":
        if combat.get("rule") != "9G" or combat.get("result") != "-/DE":
            problems.append(f"{name}: an automatic result is -/DE, when no defender has Defense Strength (9G); "
                            f"the record shows {combat.get('result')!r} by rule {combat.get('rule')!r}")
        return problems + _no_die(combat, name)
    if status != "resolved":
        return problems + [f"{name}: status {status!r} is none a Legion combat ends in (9A.2)"]
    attack, defense = _number(combat.get("attack")), _number(combat.get("defense"))
    drms = combat.get("drms")
    if attack is None or defense is None or not isinstance(drms, dict) or not all(_int(v) for v in drms.values()) or not _int(combat.get("drm")):
        return problems + [f"{name} is resolved, but its record lacks the strengths or DRMs the table is read with (9A.2)"]
    ratio = odds.step(attack, defense) if defense > 0 else odds.AUTO_DE
    shown = odds.label(min(ratio, odds.AUTO_DE))
    if combat.get("odds") != shown:
        problems.append(f"{name} shows attack {combat['attack']} against defense {combat['defense']} at {combat.get('odds')}, "
                        f"but those are {shown}, rounded down (9A.2)")
        return problems
    problems += _drm_problems(name, combat, drms, ratio, seen, board)
    total = capped(sum(drms.values()), board)
    if combat["drm"] != total:
        problems.append(f"{name} shows a DRM of {combat['drm']:+d}, but its DRMs {_listed(drms)} come to {total:+d} "
                        f"(at most {board.charts.terrain.max_negative_drm}, 9C note)")
        return problems
    if ratio < odds.WORST or ratio >= odds.AUTO_DE:
        expected = "AE/-" if ratio < odds.WORST else "-/DE"
        rule = "worse than 1:4" if ratio < odds.WORST else "10:1 or more"
        if combat.get("result") != expected:
            problems.append(f"{name} at {shown} is {rule}, an automatic {expected} (9A.2), but the record shows {combat.get('result')!r}")
        return problems + _no_die(combat, name)
    column = odds.label(min(ratio, odds.TOP))
    die = combat.get("die")
    if combat.get("column") != column:
        problems.append(f"{name} at {shown} is read in the {column} column (9A.2), but the record shows {combat.get('column')!r}")
        return problems
    if not _int(die) or not 1 <= die <= 6:
        return problems + [f"{name} shows die {die!r}, which no die shows"]
    if combat.get("modified") != die + total:
        problems.append(f"{name} shows a modified roll of {combat.get('modified')}, but die {die} with DRM {total:+d} is {die + total} (9A.2)")
    chart = board.charts.assault
    expected = board.charts.lookup(die + total, chart).results[chart.columns.index(column)]
    if combat.get("result") != expected:
        problems.append(f"{name}: column {column}, die {die}, DRM {total:+d} (modified {die + total}) gives {expected} on the "
                        f"Assault Combat Results Table (9A.2, 9D.1), but the record shows {combat.get('result')!r}")
    said = seen.combat.get(index)
    if said is not None and (said["column"], said["a_target"]) != (column, combat.get("target")):
        problems.append(f"{name} is read at {column} against {combat.get('target')}, but the roll made for it says "
                        f"'{said.string}' (9A.2)")
    return problems


def _drm_problems(name: str, combat: dict, drms: dict, ratio: int, seen: _Rolls, board) -> list[str]:
    """Each DRM is one the Legion rules give an Assault (9A.2), at a value it may take; those public data decides — the
    terrain of the hex attacked (9C), a failed Retreat Before Combat (9J), a failed Overrun (6B.2c), odds beyond 7:1
    (9A.2) — at exactly that value.  Which hex-side, armour and Disruption apply needs the position: the audit's."""
    board, target = board, combat.get("target")
    exact = {
        FAILED_RBC: 1 if _rbc_failed(combat, seen, board) else 0,
        FAILED_OVERRUN: -2 if combat.get("type") == "overrun-assault" else 0,
        BEYOND: ratio - odds.TOP if odds.TOP < ratio < odds.AUTO_DE else 0,
    }
    sides = set()
    if isinstance(target, str) and board.on_board(target):
        exact[TERRAIN] = best_hex_terrain(board, target).assault_drm
        sides = {sum(f.assault_drm for f in board.side_effects(h, target)) for h in board.neighbours(target)} - {0}
    problems = [f"{name} shows {key} {drms.get(key, 0):+d}, but {_why(key, value)}"
                for key, value in exact.items() if drms.get(key, 0) != value]
    for key, value in drms.items():
        if key in exact:
            continue
        allowed = {SIDE: sides, ARMOR: {1, -1}, DISRUPTED: {1}, NIGHT: {-1}}.get(key)
        if allowed is None:
            problems.append(f"{name} shows a DRM '{key}' {value:+d}, which is none the Legion rules give an Assault (9A.2: "
                            "terrain and hex-sides 9C, Armor 10A, Disruption 14, 9J, 6B.2c, night 6C.2, odds beyond 7:1)")
        elif value not in allowed:
            can = ", ".join(f"{v:+d}" for v in sorted(allowed)) or "none: no hex-side of it has an Assault DRM"
            problems.append(f"{name} shows {key} {value:+d}, but it can only be {can} ({key.rsplit('(', 1)[-1].rstrip(')')})")
    return problems


def _why(key: str, value: int) -> str:
    return {
        FAILED_RBC: "a Retreat Before Combat roll made for it failed: +1 (9J)" if value else
                    "no Retreat Before Combat roll made for it failed (9J)",
        FAILED_OVERRUN: "the Assault of a failed Overrun is rolled at -2 (6B.2c)" if value else "it is no failed Overrun (6B.2c)",
        BEYOND: f"each ratio beyond 7:1 is +1: {value:+d} (9A.2)",
        TERRAIN: f"the map's terrain of the hex attacked gives {value:+d} on the Terrain Effects Chart (9C)",
    }[key]


def _listed(drms: dict) -> str:
    return "(" + ", ".join(f"{k} {v:+d}" for k, v in drms.items()) + ")" if drms else "(none)"


def _no_die(combat: dict, name: str) -> list[str]:
    if combat.get("die") is not None:
        return [f"{name} shows die {combat['die']}, but no die is rolled for it ({combat.get('status')}, 9A.2)"]
    return []


def _banzai_result(roll: dict, board) -> str:
    chart = board.charts.banzai
    column = column_index(chart.columns, roll["steps"])
    return "-" if column is None else board.charts.lookup(roll["value"], chart).results[column]


def _fire_losses(strength: Fraction, die: int, drm: int, board) -> int:
    chart = board.charts.fire
    column = column_index(chart.columns, strength)
    return 0 if column is None else board.charts.lookup(die + drm, chart).losses[column]


def _check_fire(combat: dict, seen: _Rolls, board) -> list[str]:
    name, index = _name(combat), str(combat.get("index"))
    problems = []
    if seen.banzai.get(index) is not None:
        problems.append(f"{name}: a Banzai Attack Table roll was made for it, but a Banzai attack is an Assault (19A)")
    if combat.get("status") == "vacated":
        if _rbc_failed(combat, seen, board):
            problems.append(f"{name} is recorded as vacated, but a unit's Retreat Before Combat failed and it stayed (9J)")
        if index in seen.returns:
            problems.append(f"{name} is recorded as vacated, yet return fire was rolled (9A.1)")
        return problems + _no_die(combat, name)
    if combat.get("status") != "resolved":
        return problems + [f"{name}: status {combat.get('status')!r} is none a Fire Combat ends in (9A.1)"]
    attack, strength_back = _number(combat.get("attack")), _number(combat.get("defense"))
    numbers = [combat.get(k) for k in ("drm", "die", "inflicted", "suffered", "return_drm")]
    target, into = combat.get("target"), combat.get("return_into")
    if attack is None or strength_back is None or not all(_int(v) for v in numbers) or not all(
            isinstance(h, str) and board.on_board(h) for h in (target, into)):
        return problems + [f"{name} is resolved, but its record lacks the strengths, hexes, DRMs, dice or losses the "
                           "Fire Combat Results Table is read with (9A.1)"]
    drm = capped(best_fire_drm(board, target) + (1 if _rbc_failed(combat, seen, board) else 0), board)
    if combat["drm"] != drm:
        problems.append(f"{name} shows a DRM of {combat['drm']:+d}, but the terrain of {target} on the map"
                        + (" and a failed Retreat Before Combat" if _rbc_failed(combat, seen, board) else "")
                        + f" give {drm:+d} (9C, 9J)")
    elif not 1 <= combat["die"] <= 6:
        problems.append(f"{name} shows die {combat['die']}, which no die shows")
    elif (expected := _fire_losses(attack, combat["die"], drm, board)) != combat["inflicted"]:
        problems.append(f"{name}: firing strength {combat['attack']}, die {combat['die']}, DRM {drm:+d} inflicts {expected} "
                        f"Combat Loss(es) on the Fire Combat Results Table (9A.1, 9D.2), but the record shows {combat['inflicted']}")
    back_drm = capped(best_fire_drm(board, into), board)
    back_die, rolled = combat.get("return_die"), seen.returns.get(index)
    if combat["return_drm"] != back_drm:
        problems.append(f"{name} shows a return-fire DRM of {combat['return_drm']:+d}, but the terrain of {into} on the map "
                        f"gives {back_drm:+d} (9C)")
    elif strength_back == 0:
        if back_die is not None or combat["suffered"] or rolled is not None:
            problems.append(f"{name}: no defender fires back with Defense Strength 0, yet the record shows return fire (9A.1)")
    elif not _int(back_die) or not 1 <= back_die <= 6:
        problems.append(f"{name}: the defenders fire back with strength {combat['defense']}, but the record shows return die {back_die!r} (9A.1)")
    else:
        if rolled is None or rolled[1]["value"] != back_die or rolled[0] != into:
            said = "no roll was made for it" if rolled is None else f"roll {rolled[1]['n']} is {rolled[1]['value']} into {rolled[0]}"
            problems.append(f"{name} shows return die {back_die} into {into}, but {said} (9A.1)")
        expected = _fire_losses(strength_back, back_die, back_drm, board)
        if expected != combat["suffered"]:
            problems.append(f"{name}: return fire of strength {combat['defense']}, die {back_die}, DRM {back_drm:+d} inflicts "
                            f"{expected} Combat Loss(es) on the Fire Combat Results Table (9A.1, 9D.2), but the record shows {combat['suffered']}")
    said = seen.combat.get(index)
    if said is not None and said["f_target"] != target:
        problems.append(f"{name}: the roll made for it says '{said.string}' (9A.1)")
    return problems


def _check_overrun(combat: dict, seen: _Rolls, board) -> list[str]:
    """6B.2a: 8:1 or more after the column shifts succeeds and rolls nothing; less becomes an Assault at -2 (6B.2c)."""
    name = _name(combat)
    if combat.get("rule") == "9G":
        if combat.get("result") != "success":
            return [f"{name}: defenders with no Defense Strength are overrun outright (9G, 6B.2), but the record shows {combat.get('result')!r}"]
        return []
    attack, defense, shifts = _number(combat.get("attack")), _number(combat.get("defense")), combat.get("shifts")
    if attack is None or defense is None or defense == 0 or not _int(shifts):
        return [f"{name}: its record lacks the strengths or column shifts the Overrun is decided with (6B.2a)"]
    step = odds.step(attack, defense)
    problems = []
    if combat.get("odds") != odds.label(step):
        problems.append(f"{name} shows attack {combat['attack']} against defense {combat['defense']} at {combat.get('odds')}, "
                        f"but those are {odds.label(step)}, rounded down (6B.2a, 9A.2)")
    elif combat.get("final") != odds.label(step + shifts):
        problems.append(f"{name} shows {combat.get('final')} after {shifts:+d} column shift(s) from {odds.label(step)}, "
                        f"not {odds.label(step + shifts)} (6B.2a)")
    else:
        expected = "success" if step + shifts >= odds.OVERRUN_STEP else "failed"
        if combat.get("result") != expected:
            problems.append(f"{name} at {combat['final']} after its shifts {'reaches' if expected == 'success' else 'falls short of'} "
                            f"8:1: it is {expected} (6B.2a), but the record shows {combat.get('result')!r}")
    return problems
