"""The event as lines for a terminal and as JSON for scripts."""

from __future__ import annotations

from pbem.event.dice import CORRECTION, DiceReport
from pbem.event.event import Event
from pbem.event.games import GameResult
from pbem.game.dice_report import FACES

DICE_NOTE = ("A small adjusted p-value fails no game: every roll was recomputed from the committed seed and the player's salt; "
             "it is a reason to look, not a verdict")


def _finding(f) -> dict:
    return {"file": f.file, "seq": f.seq, "problem": f.problem}


def game_dict(g: GameResult) -> dict:
    return {
        "folder": str(g.folder), "game": g.game, "mode": g.mode, "referee": g.referee, "parties": g.parties,
        "verdict": g.verdict, "reason": g.reason, "adjudications_replayed": g.replayed, "views_checked": g.views_checked,
        "not_replayed": g.not_replayed, "reveals": g.reveals, "rolls": len(g.rolls), "details": g.details,
        "findings": [_finding(f) | {"signer": g.finding_signer(f)} for f in g.findings],
    }


def event_dict(event: Event) -> dict:
    return {
        "command": event.command,
        "ok": event.exit_status == 0,
        "exit_status": event.exit_status,
        "totals": event.totals(),
        "games": [game_dict(g) for g in event.games],
        "not_holding": [str(g.folder) for g in event.not_holding],
        "findings_by_referee": event.findings_by_referee(),
        "unreadable": [_finding(f) for f in event.unreadable],
        "notes": event.notes,
        "dice": event.dice.as_dict() | {"note": DICE_NOTE},
    }


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value >= 0.001 else f"{value:.1e}"


def dice_lines(dice: DiceReport) -> list[str]:
    lines = [f"{dice.all.rolls} roll(s) across the event: " + "  ".join(f"{f}: {dice.all.counts[f]}" for f in FACES)]
    lines.append(f"  {'sample':<58} {'rolls':>5}  {'test':<18} {'statistic':>9} {'p':>8} {'p (' + CORRECTION + ')':>9}")
    for s in dice.samples:
        test = s.test
        statistic = "-" if test is None or test.statistic is None else f"{test.statistic:.2f}"
        name = "-" if test is None else test.test + (f" {test.degrees_of_freedom} df" if test.degrees_of_freedom else "")
        lines.append(f"  {s.label[:58]:<58} {s.rolls:>5}  {name:<18} {statistic:>9} {_p(test and test.p_value):>8} {_p(s.p_holm):>9}")
    lines.append(f"  chi-square where every expected count is at least 5 (30 rolls or more), else the exact multinomial test; "
                 f"p-values adjusted for {sum(1 for s in dice.samples if s.test)} tests by {CORRECTION}'s method")
    lines.append(f"  {DICE_NOTE}")
    return lines


def event_lines(event: Event) -> list[str]:
    lines = [f"pbem {event.command}: {len(event.games)} game(s)"]
    width = max((len(str(g.folder)) for g in event.games), default=0)
    for g in event.games:
        facts = [f"game {g.game}" if g.game else "", g.mode or ""]
        if event.command == "audit" and g.verdict in ("holds", "failed"):
            facts.append(f"{g.replayed} adjudication(s) replayed")
        facts.append(f"{len(g.rolls)} roll(s)")
        if g.reason:
            facts.append(g.reason)
        lines.append(f"  {g.verdict.upper():<12} {str(g.folder):<{width}}  " + "; ".join(f for f in facts if f))
        for f in g.findings:
            lines.append(f"      {f.render()}")
        for detail in g.details:
            lines.append(f"      {detail}")
    for f in event.unreadable:
        lines.append(f"  {'UNREADABLE':<12} {f.render()}")
    for note in event.notes:
        lines.append(f"  note: {note}")
    t = event.totals()
    if event.command == "audit":
        lines.append(f"totals: {t['games']} game(s): {t['holds']} hold, {t['failed']} failed, {t['not_audited']} not audited, {t['stalled']} stalled, "
                     f"{t['unreadable']} unreadable; {t['adjudications_replayed']} adjudication(s) replayed, "
                     f"{t['views_checked']} sealed view(s) confirmed, {t['rolls']} roll(s), {t['findings']} finding(s)")
    else:
        lines.append(f"totals: {t['games']} game(s): {t['holds']} verified, {t['failed']} failed, {t['unreadable']} unreadable; "
                     f"{t['rolls']} roll(s)")
    by_referee = event.findings_by_referee()
    if by_referee:
        lines.append("findings by referee: " + "; ".join(f"{who}: {n}" for who, n in by_referee.items()))
    lines += dice_lines(event.dice)
    bad = event.not_holding
    if bad:
        lines.append(f"{len(bad)} game(s) do not hold: " + ", ".join(f"{g.folder} ({g.verdict})" for g in bad))
    elif event.unreadable:
        lines.append("some input could not be read: see UNREADABLE above")
    else:
        lines.append("every game holds" if event.command == "audit" else "every game verifies")
    return lines
