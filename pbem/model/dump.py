"""Models written out as JSON data without pydantic's serializers.

``model.model_dump(mode="json")`` builds the model's pydantic serializer the
first time it is asked (pbem's models defer building it, see
:mod:`pbem.model.construct`), and building it costs the referee's ``adjudicate``
more than writing out the position does.  :func:`dump` writes a model out
with plain code that follows the model's own fields, in their order — so a
field added later is written with no change here — and gives exactly what
``model_dump(mode="json")`` gives for the values pbem's models hold (other
models, lists, tuples, dicts, strings, numbers, booleans, None).  A model
with serializers of its own, or a value of any other type, is left to
pydantic.  A test dumps every shipped scenario and random positions both
ways and compares.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel


class _Unfit(Exception):
    """A value :func:`dump` does not write exactly as pydantic would."""


def dump(model: BaseModel, *, exclude_none: bool = False) -> dict[str, Any]:
    """``model.model_dump(mode="json", exclude_none=exclude_none)``, without building a serializer."""
    try:
        return _model(model, exclude_none)
    except _Unfit:
        return model.model_dump(mode="json", exclude_none=exclude_none)


_SCALARS = (str, int, float, bool, type(None))


#: The fields of each model class dump writes out plainly; None for a class it leaves to pydantic.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type[BaseModel]) -> tuple[str, ...] | None:
    if cls not in _FIELDS:
        decorators = cls.__pydantic_decorators__
        plain = not (decorators.field_serializers or decorators.model_serializers or decorators.computed_fields)
        _FIELDS[cls] = tuple(cls.__pydantic_fields__) if plain else None
    return _FIELDS[cls]


def _model(model: BaseModel, exclude_none: bool) -> dict[str, Any]:
    fields = _fields_of(type(model))
    if fields is None or model.__pydantic_extra__:
        raise _Unfit
    values = model.__dict__
    out = {}
    for name in fields:
        value = values[name]
        if value is None and exclude_none:
            continue
        out[name] = _value(value, exclude_none)
    return out


def _value(value: Any, exclude_none: bool) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        if kind is float and not math.isfinite(value):
            raise _Unfit
        return value
    if kind in (list, tuple):
        return [_value(item, exclude_none) for item in value]
    if kind is dict:
        out = {}
        for key, item in value.items():  # None in a dict is kept: exclude_none is for fields
            if type(key) is not str:
                raise _Unfit
            out[key] = _value(item, exclude_none)
        return out
    if isinstance(value, BaseModel):
        return _model(value, exclude_none)
    raise _Unfit  # sets (whose order pydantic would keep), dates, enums, …
