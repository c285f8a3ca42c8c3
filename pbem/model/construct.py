"""Models built from JSON that was checked already, without pydantic's validators.

pbem's models defer building their pydantic validators until one is first
needed (``defer_build``): building them, and loading the parts of pydantic
that build them, costs a command more than everything else it does.  Most
documents a command reads were checked before: a verified scenario was
schema-checked when the game began and its hash is checked since, a
position was written by the engine and signed by the referee, and a
player's orders have just passed their JSON Schema (generated from the same
models, ``schemas/``).  :func:`construct` builds such a document into its
model with plain code that follows the model's own field annotations — so a
field or model added later is built the same way with no change here.

It builds only what it can build exactly as validation would (same values,
same types: a JSON list becomes the field's tuple or frozenset, an integer
in a ``float`` field a float).  Anything else — a value of an unexpected
type, a key the model lacks, a required field missing, or (unless
``trusted``) a model with validators of its own — is handed to pydantic's
``model_validate``, which builds it or raises its usual ``ValidationError``.
A test builds every shipped scenario, case and state both ways and compares.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


class _Unfit(Exception):
    """The document is not one :func:`construct` builds exactly; pydantic must."""


def construct(model: type[M], document: Any, *, trusted: bool = False) -> M:
    """``model`` built from ``document`` as ``model.model_validate`` would build it.

    ``trusted``: the document was validated by these models before (a signed
    scenario, a position the engine wrote), so the models' own validators
    were run then and are not run again.  Otherwise a model with validators
    is left to pydantic.
    """
    try:
        return _builder(model, trusted)(document)
    except _Unfit:
        return model.model_validate(document)


Build = Callable[[Any], Any]

#: One builder per (annotation, trusted), made from the annotation once per process.
_BUILDERS: dict[tuple[int, bool], tuple[Any, Build]] = {}


def _builder(annotation: Any, trusted: bool) -> Build:
    key = (id(annotation), trusted)
    known = _BUILDERS.get(key)
    if known is None or known[0] is not annotation:
        known = _BUILDERS[key] = (annotation, _make(annotation, trusted))
    return known[1]


def _unfit(value: Any) -> Any:
    raise _Unfit


def _make(annotation: Any, trusted: bool) -> Build:  # noqa: C901 - one branch per kind of annotation
    if annotation is Any:
        return lambda value: value
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_builder(annotation, trusted)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _builder(args[0], trusted)
    if origin is typing.Union or origin is types.UnionType:
        options = [a for a in args if a is not type(None)]
        if len(options) != 1:
            return _unfit
        inner = _builder(options[0], trusted)
        if len(options) == len(args):
            return inner
        return lambda value: None if value is None else inner(value)
    if origin is typing.Literal:
        choices = {(type(choice), choice) for choice in args}
        kinds = {type(choice) for choice in args}  # hashable, all of them: a list or an object is never a choice
        return lambda value: value if type(value) in kinds and (type(value), value) in choices else _unfit(value)
    if origin is list:
        item = _builder(args[0], trusted)
        return lambda value: [item(v) for v in value] if type(value) is list else _unfit(value)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _builder(args[0], trusted)
        return lambda value: tuple(item(v) for v in value) if type(value) in (list, tuple) else _unfit(value)
    if origin is frozenset:
        item = _builder(args[0], trusted)
        return lambda value: frozenset(item(v) for v in value) if type(value) in (list, tuple, set, frozenset) else _unfit(value)
    if origin is dict:
        key, item = _builder(args[0], trusted), _builder(args[1], trusted)
        return lambda value: {key(k): item(v) for k, v in value.items()} if type(value) is dict else _unfit(value)
    if annotation in (str, bool, int):
        return lambda value: value if type(value) is annotation else _unfit(value)
    if annotation is float:
        return lambda value: float(value) if type(value) in (int, float) else _unfit(value)
    return _unfit


def _model_builder(model: type[M], trusted: bool) -> Build:
    if not trusted and _has_validators(model):
        return _unfit
    fields = model.__pydantic_fields__
    if any(field.alias is not None for field in fields.values()):
        return _unfit
    plan: dict[str, Build] = {}  # filled on first use: a model may contain itself
    required = frozenset(name for name, field in fields.items() if field.is_required())
    new = _instance_maker(model)

    def build(document: Any) -> M:
        if type(document) is not dict:
            return document if isinstance(document, model) else _unfit(document)
        if not plan:
            plan.update({name: _builder(field.annotation, trusted) for name, field in fields.items()})
        values = {}
        for name, value in document.items():
            make = plan.get(name)
            if make is None:
                raise _Unfit
            values[name] = make(value)
        if not required <= values.keys():
            raise _Unfit
        return new(values)

    return build


#: Defaults ``model_construct`` gives as they are (pydantic copies only containers and models).
_IMMUTABLE = (type(None), bool, int, float, str)


def _instance_maker(model: type[M]) -> Callable[[dict], M]:
    """``model.model_construct(**values)`` for values already built, without its per-field alias search.

    Sets what ``model_construct`` sets (the fields in their order, defaults
    for those not given, the fields set, no extra, no private attributes);
    a model with anything more to it (a post-init hook, extra allowed, a
    root model) is left to ``model_construct`` itself.
    """
    if model.__pydantic_post_init__ or model.__pydantic_root_model__ or model.model_config.get("extra") == "allow":
        return lambda values: model.model_construct(**values)
    fields = model.__pydantic_fields__
    defaults: dict[str, Callable[[dict], Any]] = {}
    for name, field in fields.items():
        if field.is_required():
            continue
        if field.default_factory is None and type(field.default) in _IMMUTABLE:
            defaults[name] = lambda made, value=field.default: value
        elif field.default_factory is not None and getattr(field, "default_factory_takes_validated_data", True) is False:
            # What get_default does, without its reading the factory's signature again at every call.
            defaults[name] = lambda made, factory=field.default_factory: factory()
        else:
            defaults[name] = lambda made, field=field: field.get_default(call_default_factory=True, validated_data=made)
    set_attribute = object.__setattr__

    def new(values: dict) -> M:
        made = {}
        for name in fields:
            if name in values:
                made[name] = values[name]
            else:
                made[name] = defaults[name](made)
        instance = model.__new__(model)
        set_attribute(instance, "__dict__", made)
        set_attribute(instance, "__pydantic_fields_set__", set(values))
        set_attribute(instance, "__pydantic_extra__", None)
        set_attribute(instance, "__pydantic_private__", None)
        return instance

    return new


def _has_validators(model: type[BaseModel]) -> bool:
    decorators = model.__pydantic_decorators__
    return bool(decorators.validators or decorators.field_validators or decorators.root_validators or decorators.model_validators)
