"""How long a turn file's sealed parts are: chosen from public data only (issue 19 item 5, docs/PROTOCOL.md).

A sealed part's length must not tell what it holds.  Padding each part to
the bucket of its own compressed size (as pbem did) told the bucket: twin
games that differ only in which unit stands under a marker, or where the
dummies are, gave files of different lengths.  So the referee pads the two
views and his own state to one size that every party can work out from what
is public:

- a size fixed per game from the scenario: a bucket of at least
  ``BASE + PER_UNIT`` bytes for each unit of its order of battle (every
  reinforcement included) and each dummy the hidden-units option allows —
  about twice the largest compressed part seen in 200 bot games of every
  scenario (docs/hidden-units.md);
- plus room for the note of the last player-turn (issue 37 item 3): its
  length in canonical JSON, counted whole (a note is at most 2,000
  characters).  The note is shown in both views and kept in the referee
  state; without this room a long note pushed the compressed parts near the
  bucket's edge, and whether they crossed it depended on the sealed
  Japanese content — one weak bit a game.  The note is the players' own
  (its writer and his opponent both read it), so counting it tells neither
  anything about hidden units;
- growing only in public steps: never below the size of the previous turn
  file's sealed parts (their length is in clear).  Should a part ever need
  more than the size, all three parts grow to the bucket that holds it and
  later files keep that size; the leak benchmark counts such growths (none
  in its 200 games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.protocol.sealing import ENC_LENGTH, TAG_LENGTH, bucket_size

if TYPE_CHECKING:
    from pbem.model.scenario import Scenario
    from pbem.protocol.turnfile import TurnFile

BASE = 1024
PER_UNIT = 64
_LENGTH_PREFIX = 4


def sealed_bucket(scenario: Scenario, *, hidden: bool, previous: TurnFile | None, note: str | None = None) -> int:
    """The bucket every sealed part of the next turn file is padded to (``hidden``: the hidden-units option is on;
    ``note``: the note the orders it carries out wrote to the opponent, counted whole, issue 37)."""
    extra = getattr(scenario, "hidden_units", None)  # the dummies a scenario adds under hidden units (a Legion one lists its own)
    pieces = len(scenario.units) + (extra.dummies if hidden and extra is not None else 0)
    size = bucket_size(BASE + PER_UNIT * pieces + note_room(note) - _LENGTH_PREFIX)
    if previous is not None and previous.views:  # a file with sealed parts: never a smaller bucket than it
        size = max(size, previous_bucket(previous))
    return size


def previous_bucket(turn: TurnFile) -> int:
    """The bucket ``turn``'s sealed parts were padded to, read from their (public) lengths."""
    return max(len(part) for part in (*turn.views.values(), turn.referee_state)) - ENC_LENGTH - TAG_LENGTH


def note_room(note: str | None) -> int:
    """The room a note takes in the size: its canonical JSON length, which bounds what it adds compressed (zlib never
    adds more than a stored block's few bytes beyond the data), plus the key that holds it."""
    if not isinstance(note, str):
        return 0
    from pbem.protocol.canonical import canonical_bytes

    return len(canonical_bytes(note)) + len(b',"note":')
