"""Convert command-line parameters without pydantic.

typer 0.29 converts every parameter through a pydantic ``TypeAdapter``; the
imports and schema building behind it cost about 150 ms on every start, more
than the rest of a lookup. ddref's parameters are all plain types (str, bool,
int with bounds, Path, Enum choices, lists of these), which typer's own
pydantic-free helpers convert just as well, with typer's own messages. Any
other annotation, or a typer whose internals differ, keeps typer's way.
"""

from __future__ import annotations

from engine.names import typed
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, get_args, get_origin


def _leaf(annotation: Any, info: Any):
    """A converter ``(value, param, ctx) -> value`` for one plain annotation, or None."""
    from typer._click.exceptions import BadParameter
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    if info.parser is not None or getattr(info, "click_type", None) is not None:
        return None
    if annotation is bool:
        return _boolean
    if annotation is str:
        return lambda v, p, c: v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        def choice(v, p, c):
            try:
                return coerce_cli_choice(v, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=c)
            except ValueError as exc:
                raise BadParameter(str(exc), ctx=c, param=p) from None
        return choice
    if annotation is int and not info.clamp:
        def integer(v, p, c):
            try:
                n = v if isinstance(v, int) else int(str(v).strip())
            except ValueError:
                raise BadParameter(f"{typed(v)} is not a valid integer.", ctx=c, param=p) from None
            if (info.min is not None and n < info.min) or (info.max is not None and n > info.max):
                bounds = " and ".join(b for b in (info.min is not None and f">= {info.min}",
                                                  info.max is not None and f"<= {info.max}") if b)
                raise BadParameter(f"{n} is not {bounds}.", ctx=c, param=p)
            return n
        return integer
    if annotation is Path and info.path_type is None:
        return lambda v, p, c: coerce_cli_path(v if isinstance(v, Path) else Path(os.fsdecode(v)), info,
                                               path_type=Path, param=p, ctx=c)
    return None


_BOOLS = {"1": True, "true": True, "t": True, "yes": True, "y": True, "on": True,
          "0": False, "false": False, "f": False, "no": False, "n": False, "off": False, "": False}


def _boolean(value, param, ctx):
    from typer._click.exceptions import BadParameter

    if value is None or isinstance(value, bool):
        return value
    try:
        return _BOOLS[str(value).strip().lower()]
    except KeyError:
        raise BadParameter(f"{typed(value)} is not a valid boolean.", ctx=ctx, param=param) from None


def _converter(annotation: Any, info: Any):
    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (None,)
        leaf = _leaf(item, info)
        return leaf and (lambda v, p, c: [leaf(x, p, c) for x in v])
    return _leaf(annotation, info)


def install() -> None:
    """Make typer convert ddref's plain parameters itself (a no-op on other typer versions)."""
    try:
        from typer._coercion import RuntimeParam
        from typer.core import _TyperParameter
    except ImportError:
        return
    original = getattr(_TyperParameter, "get_runtime_param", None)
    if original is None or getattr(original, "_ddref", False):
        return

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        convert: Callable[[Any, Any, Any], Any] = None  # type: ignore[assignment]

        def _coerce_value(self, value, param, ctx):
            return self.convert(value, param, ctx)

    def get_runtime_param(self):
        if self._runtime_param is None:
            desc = self.type_descriptor
            convert = desc.file_annotation is None and _converter(desc.annotation, desc.parameter_info)
            if convert:
                self._runtime_param = Plain(desc.parameter_info, desc.annotation, convert)
        return original(self)

    get_runtime_param._ddref = True
    _TyperParameter.get_runtime_param = get_runtime_param

    # --help: a flag takes no value, so its row shows no type (typer would print ``<bool>`` beside --json)
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is not None:
        def display_type_rich(self, ctx):
            return None if getattr(self, "is_flag", False) else shown(self, ctx)

        TyperOption.display_type_rich = display_type_rich
