"""The files of a game with hidden units and no referee, as models: the one source of their ``schemas/`` (issue 24).

What travels is a signed envelope (:mod:`pbem.protocol.blindfile`); these
models describe its **body**, one model per kind of message, picked by its
number (``n``: 0 the Japanese genesis, even the Japanese publications, odd
the American answers, -1 the secret at the end), and the files each player
keeps (``blind-private-SIDE.json``) or that travel sealed (the escrow part's
plaintext).  Every incoming body is checked against its schema
(:mod:`pbem.game.modes.blind.schema`) before anything reads it, so a malformed
file is refused naming the field, never half-read.  The game layer keeps
reading the plain JSON; nothing here is built into a model on the hot path.

Bytes travel as base64 text; digests as ``sha256:<64 hex>``.  The American
view and the public record inside a publication are the refereed mode's
(their checks are the American player's, :mod:`pbem.game.modes.blind.run`), so
they are objects here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from pbem.model.common import Edition, HexId
from pbem.model.orders import Orders
from pbem.model.scenario import GroundSupport

GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$", description="The game id: 32 hex digits, in every file of the game.")]
Digest = Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$", description="A SHA-256 digest, written sha256:<hex>.")]
B64 = Annotated[str, Field(pattern=r"^[A-Za-z0-9+/]*={0,2}$", max_length=8_000_000,
                           description="Bytes in base64 (RFC 4648, with padding).")]
IdentityLine = Annotated[str, Field(pattern=r"^pbem-id-1 ", max_length=400,
                                    description="A public identity, as pbem keygen writes it: pbem-id-1 NAME SIGN ENC.")]
Step = Annotated[int, Field(ge=-1, description="A step of the game (-1: the set-up's root, 0: the empty root before it).")]

StepKey = Annotated[str, Field(pattern=r"^[1-9][0-9]*$")]
MarkerId = Annotated[str, Field(pattern=r"^[0-9]{4}(\.[1-9][0-9]{0,2})?$",
                                description="A marker: its hex (CCRR), and for a counter of a stack its number there (CCRR.N).")]
OrdersByStep = Annotated[dict[StepKey, Orders], Field(json_schema_extra={"additionalProperties": False},
                                                      description="The Japanese orders of each of his steps, keyed by step.")]

_CONFIG = ConfigDict(frozen=True, extra="forbid", defer_build=True, populate_by_name=True)


class _Body(BaseModel):
    """What every message's body holds: the format, the game, its place in the chain and its writer."""

    model_config = _CONFIG
    format: Literal["pbem-blind-1"]
    mode: Literal["hidden-no-referee"]
    game: GameId
    n: int = Field(description="The file's number in the game (blind-NNNN-SIDE.pbem); -1 for the secret at the end, -2 for an opened escrow share.")
    from_: Literal["US", "JP"] = Field(alias="from", description="Who wrote and signed it.")
    prev: Optional[Digest] = Field(description="The digest of the previous file's payload (null in the genesis).")
    sent: Optional[str] = Field(None, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
                                description="When its writer wrote it (UTC), signed: a stall is dated from the file "
                                            "left unanswered (issue 36).")


class ScenarioRef(BaseModel):
    model_config = _CONFIG
    id: str = Field(max_length=200)
    hash: Digest


class Identities(BaseModel):
    model_config = _CONFIG
    US: IdentityLine
    JP: IdentityLine


class SetupRoot(BaseModel):
    """The root over the deployed markers, sent before the dice of the intelligence roll exist (19B.7)."""

    model_config = _CONFIG
    root: Digest
    markers: list[MarkerId]


class OrdersCommitment(BaseModel):
    """The Japanese orders of step ``seq`` and the salt of their dice, committed before the dice exist."""

    model_config = _CONFIG
    seq: int = Field(ge=1)
    orders: Digest
    salt: Digest


class Overrides(BaseModel):
    """What the genesis replaces of the scenario, as a referee's genesis records it: today the Ground Support track."""

    model_config = _CONFIG
    ground_support: list[GroundSupport]


class PvssShare(BaseModel):
    """One participant's encrypted share ``Y_i`` and the Chaum–Pedersen proof that it is ``p(i)`` times his key."""

    model_config = _CONFIG
    share: B64 = Field(description="Y_i, a 32-byte Ed25519 group element.")
    proof: B64 = Field(description="DLEQ(g, X_i, y_i, Y_i): challenge and response, 64 bytes.")


class Pvss(BaseModel):
    """Schoenmakers' PVSS dealing of the per-game secret (pbem/protocol/pvss.py): participant 1 the holder,
    participant 2 the American player, both needed (threshold 2)."""

    model_config = _CONFIG
    threshold: Literal[2]
    commitments: list[B64] = Field(min_length=2, max_length=2, description="C_j = a_j·g, 32 bytes each.")
    shares: list[PvssShare] = Field(min_length=2, max_length=2, description="The holder's, then the American's.")


class Escrow(BaseModel):
    """Who holds the escrow (the genesis names him, signed), the hash of the secret, and its PVSS dealing."""

    model_config = _CONFIG
    holder: IdentityLine
    secret: Digest
    pvss: Pvss


class Opening(BaseModel):
    """One leaf opened: its marker, index and the tree's size, the piece, the salt and the RFC 6962 audit path."""

    model_config = _CONFIG
    marker: MarkerId
    index: int = Field(ge=0)
    size: int = Field(ge=1)
    piece: dict[str, Any]
    salt: B64
    path: list[B64]


class Publication(BaseModel):
    """What the Japanese player publishes after a step: the American view, the new root, openings and dice."""

    model_config = _CONFIG
    seq: int = Field(ge=1)
    side: Literal["setup", "US", "JP"]
    view: dict[str, Any]
    root: Digest
    before: list[Opening]
    after: list[Opening]
    rolls: list[dict[str, Any]]
    seed: Optional[B64]
    salt: B64
    next_seed: Digest
    public: dict[str, Any]


class AckBody(BaseModel):
    model_config = _CONFIG
    game: GameId
    seq: Step
    root: Digest
    next_seed: Digest


class Ack(BaseModel):
    """The American player's acknowledgement of a root (its own signed envelope, context marker-ack)."""

    model_config = _CONFIG
    body: AckBody
    signer: str = Field(max_length=64)
    sig: B64


class BlindGenesis(_Body):
    """``blind-0000-JP.pbem``: the scenario, both identities, the set-up root and the first commitments."""

    scenario: ScenarioRef
    options: list[Literal["hidden-units", "fog-iph", "fog-formosa"]] = Field(max_length=1)
    identities: Identities
    setup: SetupRoot = Field(description="The root over the Japanese counters as the game begins: his secret set-up's, "
                                         "or, in a scenario with none, the opening's (step 0).")
    commit: Optional[OrdersCommitment] = Field(None, description="His orders and salt for step 1, when it is his.")
    next_seed: Optional[Digest] = Field(None, description="When step 1 is American: the commitment to his seed for it.")
    edition: Optional[Edition] = Field(None, description="The edition both players play by (pbem new --edition; dg-2009 when absent).")
    overrides: Optional[Overrides] = Field(None, description="A Ground Support track in place of the scenario's (pbem new --gsp).")
    escrow: Optional[Escrow] = Field(None, description="Present only in a game with an escrow (pbem new --escrow).")
    escrow_part: Optional[B64] = Field(None, description="The orders committed here, encrypted under a key derived from the secret.")
    stall_days: Optional[int] = Field(None, ge=1, le=365, description="After how many days without an answer the game is stalled (pbem new --stall-days; 14 when absent, as in games written before the field).")


class BlindPublication(_Body):
    """``blind-2k-JP.pbem``: the publication of step k, with the commitment to his next orders when he moves next."""

    publication: Publication
    commit: Optional[OrdersCommitment] = None
    escrow_part: Optional[B64] = None


class BlindAnswer(_Body):
    """``blind-2k+1-US.pbem``: his acknowledgements, with his orders and salt, or his seed for the Japanese step."""

    acks: list[Ack]
    orders: Optional[Orders] = None
    salt: Optional[B64] = None
    seed: Optional[B64] = None


class BlindSecret(_Body):
    """``blind-secret-JP.pbem`` (the Japanese player's) or ``blind-secret-escrow.pbem`` (recovered by the escrow
    holder, who names himself): the per-game secret and the Japanese orders of every step, keyed by step."""

    from_: Literal["JP", "escrow"] = Field(alias="from", description="JP, or escrow when the holder recovered it.")
    secret: B64
    orders: OrdersByStep
    holder: Optional[IdentityLine] = Field(None, description="The escrow holder (only in blind-secret-escrow.pbem).")


class BlindPrivate(BaseModel):
    """``blind-private-SIDE.json``, kept in the player's own folder and never sent: his per-game secret, and the
    Japanese player's orders committed so far."""

    model_config = _CONFIG
    secret: B64
    orders: Optional[OrdersByStep] = None


class BlindShare(_Body):
    """``blind-share-holder.pbem`` or ``blind-share-US.pbem``: one participant's PVSS share of the Japanese secret,
    opened with his key, and its proof (written by ``pbem blind recover`` once the game has stalled or ended)."""

    from_: Literal["escrow", "US"] = Field(alias="from", description="escrow (the holder) or US.")
    index: Literal[1, 2] = Field(description="1 the holder, 2 the American player (the genesis's dealing).")
    share: B64 = Field(description="S_i = x_i^-1·Y_i, 32 bytes.")
    proof: B64 = Field(description="DLEQ(G, y_i, S_i, Y_i): challenge and response, 64 bytes.")


class EscrowPart(BaseModel):
    """What a Japanese file's escrow part holds, encrypted under the key its file number derives from the secret:
    the file it belongs to and the orders that file commits (``seq``, or null when it commits none)."""

    model_config = _CONFIG
    game: GameId
    n: int = Field(ge=0)
    seq: Optional[int] = Field(ge=1)
    orders: Optional[Orders]


# -- a rules system that brings its own orders (pbem/systems/base.py): its orders are checked by the system when read ---

AnyOrders = dict[str, Any]
"""Orders of another rules system than SPI's: an object here, checked by that system's own orders schema when read
(:meth:`pbem.systems.base.RulesSystem.read_orders`, naming the file)."""


class BlindAnswerAnyOrders(BlindAnswer):
    """:class:`BlindAnswer` of a game of another rules system."""

    orders: Optional[AnyOrders] = None


class BlindSecretAnyOrders(BlindSecret):
    orders: dict[StepKey, AnyOrders]


class BlindPrivateAnyOrders(BlindPrivate):
    orders: Optional[dict[StepKey, AnyOrders]] = None


class EscrowPartAnyOrders(EscrowPart):
    orders: Optional[AnyOrders]


ANY_ORDERS = {BlindAnswer: BlindAnswerAnyOrders, BlindSecret: BlindSecretAnyOrders, BlindPrivate: BlindPrivateAnyOrders,
              EscrowPart: EscrowPartAnyOrders}
"""The model a body of a game of another rules system is checked against, for each that holds orders."""

