"""One self-contained offline page of the event for the organiser: no network, no script, no build step.

The table of games with their verdicts, the findings (file and reason),
the dice histograms (SVG drawn by :mod:`pbem.render.histogram`, as the map
page draws its map) and the table of tests.  Elements carry ``id``,
``class`` and ``data-`` hooks (``#games``, ``tr.game[data-verdict]``,
``#findings``, ``#dice``, ``svg.histogram``, ``#tests``) for scripts and tests.
"""

from __future__ import annotations

import html
import re

from pbem.event.dice import CORRECTION
from pbem.event.event import Event
from pbem.event.report import DICE_NOTE, _p
from pbem.render.histogram import histogram_svg

STYLE = """
body { font: 14px/1.4 sans-serif; margin: 0; color: #222; background: #f4f2ea; }
header { padding: 10px 16px; background: #2c3e50; color: #fff; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header .verdict { font-weight: bold; }
section { background: #fff; border: 1px solid #ccc; margin: 10px; padding: 8px 12px; }
h2 { font-size: 15px; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
td, th { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
th { background: #f0eee6; }
td.num, th.num { text-align: right; }
.badge { display: inline-block; padding: 1px 6px; border-radius: 3px; font-weight: bold; color: #fff; }
.verdict-holds .badge, .verdict-verified .badge { background: #1e8449; }
.verdict-failed .badge { background: #c0392b; }
.verdict-not-audited .badge { background: #b9770e; }
.verdict-unreadable .badge { background: #6c3483; }
tr.game:not(.verdict-holds):not(.verdict-verified) { background: #fdf2e9; }
.histograms { display: flex; flex-wrap: wrap; gap: 8px; }
.histograms figure { margin: 0; border: 1px solid #eee; padding: 4px; }
.histograms figcaption { font-size: 11px; max-width: 260px; }
code { font-size: 12px; word-break: break-all; }
.note { font-size: 12px; color: #555; }
"""


def _e(value) -> str:
    return html.escape("" if value is None else str(value))


def _verdict_class(verdict: str) -> str:
    return "verdict-" + verdict.replace(" ", "-")


def _games(event: Event) -> str:
    rows = []
    for g in event.games:
        rows.append(
            f'<tr class="game {_verdict_class(g.verdict)}" data-verdict="{_e(g.verdict)}" data-game="{_e(g.game)}">'
            f'<td><code>{_e(g.folder)}</code></td><td><code>{_e(g.game or "-")}</code></td><td>{_e(g.mode or "-")}</td>'
            f'<td>{_e(g.parties or "-")}</td><td><span class="badge">{_e(g.verdict)}</span> {_e(g.reason)}</td>'
            f'<td class="num">{g.replayed}</td><td class="num">{len(g.rolls)}</td><td class="num">{len(g.findings)}</td></tr>'
        )
    return ('<table><thead><tr><th>folder</th><th>game</th><th>mode</th><th>referee / players</th><th>verdict</th>'
            '<th class="num">replayed</th><th class="num">rolls</th><th class="num">findings</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _findings(event: Event) -> str:
    rows = [
        f'<tr class="finding" data-game="{_e(g.game)}"><td><code>{_e(g.folder)}</code></td><td><code>{_e(f.file)}</code></td>'
        f'<td class="num">{_e(f.seq)}</td><td>{_e(f.problem)}</td><td>{_e(g.finding_signer(f))}</td></tr>'
        for g in event.games for f in g.findings
    ]
    rows += [f'<tr class="finding unreadable"><td>-</td><td><code>{_e(f.file)}</code></td><td></td><td>{_e(f.problem)}</td><td></td></tr>'
             for f in event.unreadable]
    if not rows:
        return "<p>No findings.</p>"
    return ('<table><thead><tr><th>game folder</th><th>file</th><th class="num">seq</th><th>reason</th><th>signed by</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _short(label: str) -> str:
    """A sample's label short enough for a histogram's title (the caption beneath holds it whole)."""
    return re.sub(r"\(fingerprint (\w{8})\w*\)", r"\1…", label)[:40]


def _dice(event: Event) -> str:
    dice = event.dice
    figures = "".join(
        f'<figure>{histogram_svg(s.counts, _short(s.label), sample=s.label)}<figcaption>{_e(s.label)}: {s.rolls} roll(s)</figcaption></figure>'
        for s in dice.samples if s.rolls
    )
    rows = []
    for s in dice.samples:
        t = s.test
        rows.append(
            f'<tr class="test" data-sample="{_e(s.label)}" data-test="{_e(t.test if t else "")}"><td>{_e(s.label)}</td>'
            f'<td class="num">{s.rolls}</td><td>{" ".join(str(s.counts[f]) for f in sorted(s.counts))}</td>'
            f'<td>{_e(t.test if t else "no rolls")}{_e(f" ({t.degrees_of_freedom} df)" if t and t.degrees_of_freedom else "")}</td>'
            f'<td class="num">{"-" if not t or t.statistic is None else f"{t.statistic:.2f}"}</td>'
            f'<td class="num">{_p(t.p_value if t else None)}</td><td class="num">{_p(s.p_holm)}</td></tr>'
        )
    tested = sum(1 for s in dice.samples if s.test)
    return (f'<div class="histograms">{figures}</div>'
            '<table id="tests"><thead><tr><th>sample</th><th class="num">rolls</th><th>counts 1-6</th><th>test</th>'
            f'<th class="num">statistic</th><th class="num">p</th><th class="num">p ({CORRECTION})</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="note">Chi-square on 5 degrees of freedom where every expected count is at least 5 (30 rolls or more); '
            f'below that the exact multinomial test (the probability of every outcome no more likely than the one seen, '
            f'computed exactly: no random numbers). The p-values are adjusted for the {tested} tests made by {CORRECTION}\'s '
            f'step-down method. {_e(DICE_NOTE)}.</p>')


def render_event_page(event: Event) -> str:
    t = event.totals()
    status = {0: "every game holds", 1: f"{len(event.not_holding)} game(s) do not hold", 2: "some input could not be read"}[event.exit_status]
    if event.command == "audit":
        summary = (f"{t['games']} game(s): {t['holds']} hold, {t['failed']} failed, {t['not_audited']} not audited, "
                   f"{t['stalled']} stalled, {t['unreadable']} unreadable; {t['adjudications_replayed']} adjudication(s) replayed; {t['rolls']} roll(s)")
    else:
        summary = f"{t['games']} game(s): {t['holds']} verified, {t['failed']} failed, {t['unreadable']} unreadable; {t['rolls']} roll(s)"
    by_referee = "".join(f"<li>{_e(who)}: {n}</li>" for who, n in event.findings_by_referee().items()) or "<li>none</li>"
    notes = "".join(f"<li>{_e(n)}</li>" for n in event.notes)
    title = f"pbem {event.command}: the event"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<header><h1>{_e(title)}</h1><div id="summary">{_e(summary)}</div>
<div class="verdict" id="status" data-exit="{event.exit_status}">{_e(status)} (exit status {event.exit_status})</div></header>
<section id="games"><h2>Games</h2>{_games(event)}</section>
<section id="findings"><h2>Findings</h2>{_findings(event)}
<h2>Findings by referee</h2><ul>{by_referee}</ul>{f"<h2>Notes</h2><ul>{notes}</ul>" if notes else ""}</section>
<section id="dice"><h2>Dice</h2>{_dice(event)}</section>
</body>
</html>
"""
