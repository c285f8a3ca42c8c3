"""Every file of a game with hidden units and no referee is checked against its schema before it is read (issue 24).

The schemas are ``schemas/blind-*.schema.json``, generated from
:mod:`pbem.model.blind`; the check is :mod:`pbem.loading.jsonfile`'s, so a malformed
file is refused (exit 2) naming the file and the field, every violation
listed, as an orders or scenario file is.  Which schema a message's body
answers to follows from its number: 0 the genesis, even the Japanese
publications, odd the American answers, -1 the secret at the end.
"""

from __future__ import annotations

from typing import Any


def _model_for(body: Any):
    from pbem.model import blind

    n = body.get("n") if isinstance(body, dict) else None
    if n == -2:
        return blind.BlindShare
    if not isinstance(n, int) or isinstance(n, bool) or n < -1:
        return blind.BlindGenesis  # whatever it is, the genesis schema names what is wrong with it
    if n == -1:
        return blind.BlindSecret
    if n == 0:
        return blind.BlindGenesis
    return blind.BlindAnswer if n % 2 else blind.BlindPublication


def check(document: Any, source: str, model, own_orders: bool = False) -> None:
    """BadInput (exit 2) naming ``source`` and the field when ``document`` is not a valid ``model`` (``own_orders``: a
    game of a rules system that checks its own orders, where the model holds any orders object)."""
    from pbem.loading.jsonfile import SchemaErrors, check_against, validator_for
    from pbem.loading.schema_files import schema_name

    name = schema_name(model)
    if own_orders:
        from pbem.model.blind import ANY_ORDERS

        model = ANY_ORDERS.get(model, model)
    try:
        check_against(validator_for(model), document, source, f"schemas/{name}")
    except SchemaErrors as problem:
        problem.hint = f"{problem.hint}; the file was made by another program or altered: ask its writer for it again"
        raise


def check_body(body: Any, source: str, own_orders: bool = False) -> None:
    """The body of a ``blind-NNNN-SIDE.pbem`` message or of a published secret, against its schema."""
    check(body, source, _model_for(body), own_orders)


def check_private(document: Any, source: str, own_orders: bool = False) -> None:
    from pbem.model.blind import BlindPrivate

    check(document, source, BlindPrivate, own_orders)


def check_escrow_part(document: Any, source: str, own_orders: bool = False) -> None:
    from pbem.model.blind import EscrowPart

    check(document, source, EscrowPart, own_orders)
