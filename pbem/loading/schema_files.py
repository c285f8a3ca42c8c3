"""Which model each schema file in ``schemas/`` is generated from, named without importing the models.

A command that checks a file against its committed schema looks the file
up here: :mod:`pbem.loading.schemas` imports every model (the hidden-units ones
and the scenario among them), a start-up cost ``validate`` or ``submit``
would pay for models it never uses (issue 26).
"""

from __future__ import annotations

#: Schema file name -> the model it is generated from, as ``module.Class``.
SCHEMA_MODELS: dict[str, str] = {
    "orders.schema.json": "pbem.model.orders.Orders",
    "map.schema.json": "pbem.model.map.MapSpec",
    "scenario.schema.json": "pbem.model.scenario.Scenario",
    # hidden units with no referee (issue 24): the body of each kind of blind-NNNN-SIDE.pbem, the secret at the
    # end, each player's private file and the plaintext of an escrow part
    "blind-genesis.schema.json": "pbem.model.blind.BlindGenesis",
    "blind-publication.schema.json": "pbem.model.blind.BlindPublication",
    "blind-answer.schema.json": "pbem.model.blind.BlindAnswer",
    "blind-secret.schema.json": "pbem.model.blind.BlindSecret",
    "blind-private.schema.json": "pbem.model.blind.BlindPrivate",
    "blind-escrow-part.schema.json": "pbem.model.blind.EscrowPart",
    "blind-share.schema.json": "pbem.model.blind.BlindShare",
}

_NAME_OF = {model: name for name, model in SCHEMA_MODELS.items()}


def schema_name(model: type) -> str | None:
    """The schema file generated from ``model``, or None when it has none."""
    return _NAME_OF.get(f"{model.__module__}.{model.__qualname__}")
