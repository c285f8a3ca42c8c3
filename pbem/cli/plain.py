"""Command-line values turned into ``Path``, ``str``, ``bool`` and numbers without pydantic.

Recent typer releases coerce every parameter through a pydantic
``TypeAdapter``, which costs a player's ``pbem view`` or ``pbem verify`` the
import of pydantic and a schema build per parameter although neither
command reads a pydantic model.  pbem's parameters are only paths, strings,
lists of paths, flags and numbers (within the ``min``/``max`` an option
declares), which need no validation beyond what the command itself does,
so :func:`install` gives each such parameter a plain coercion.
A typer without adapters (before 0.20) is left as it is, and any parameter
of another type keeps typer's own coercion.
"""

from __future__ import annotations

import math
import typing
from pathlib import Path
from typing import Any

PLAIN = (Path, str, bool, int, float)


class _Plain:
    """The coercion typer's parameter asks for: ``coerce(value, param=, ctx=)``."""

    def __init__(self, kind: type, name: str | None = None, low: float | None = None, high: float | None = None) -> None:
        self.kind, self.name, self.low, self.high = kind, name, low, high

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        if isinstance(value, (list, tuple)):
            return [self._one(v) for v in value]
        return self._one(value)

    def _one(self, value: Any) -> Any:
        if self.kind is Path and not isinstance(value, Path):
            return Path(value)
        if self.kind is int and not isinstance(value, int):
            try:
                value = int(value)
            except ValueError:
                from pbem.errors import BadInput

                raise BadInput(f"{value!r} is not a whole number", field=self.name, hint="give a number such as 2") from None
        if self.kind is float and not isinstance(value, float):
            try:
                number = float(value)
            except (TypeError, ValueError):
                number = math.nan
            if not math.isfinite(number):
                from pbem.errors import BadInput

                raise BadInput(f"{value!r} is not a number", field=self.name, hint="give a number such as 2.5")
            value = number
        if self.kind in (int, float):
            self._in_range(value)
        return value

    def _in_range(self, value: float) -> None:
        low, high = self.low, self.high
        if (low is not None and value < low) or (high is not None and value > high):
            from pbem.errors import BadInput

            bounds = (f"from {low} to {high}" if low is not None and high is not None
                      else f"at least {low}" if low is not None else f"at most {high}")
            raise BadInput(f"{value} is out of range", field=self.name, hint=f"give a number {bounds}")


def _plain_type(annotation: Any) -> type | None:
    """``Path``, ``str``, ``bool`` or ``int`` for those, their ``Optional`` and ``list`` forms; None for anything else."""
    if annotation in PLAIN:
        return annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if len(args) == 1 and (origin is list or origin is typing.Union) and args[0] in PLAIN:
        return args[0]
    return None


def _make_plain(param: Any) -> Any:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and hasattr(param, "_runtime_param"):
        kind = _plain_type(descriptor.annotation)
        info = getattr(descriptor, "parameter_info", None)
        if kind is not None and not getattr(info, "clamp", False):  # a clamped number keeps typer's coercion
            param._runtime_param = _Plain(kind, (getattr(param, "opts", None) or [getattr(param, "name", None)])[0],
                                          getattr(info, "min", None), getattr(info, "max", None))
    return param


def _make_plain_or_none(param: Any) -> Any:
    return None if param is None else _make_plain(param)


def install(command: Any) -> None:
    """Give every plain parameter of ``command`` and its subcommands, ``--help`` included, the plain coercion."""
    for param in getattr(command, "params", ()):
        _make_plain(param)
    if hasattr(command, "get_help_option"):
        made = command.get_help_option
        command.get_help_option = lambda ctx: _make_plain_or_none(made(ctx))
    for sub in getattr(command, "commands", {}).values():
        install(sub)
