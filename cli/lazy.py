"""Start-up: the ``referee`` command builds and imports only what the command it runs needs.

typer turns every command of an app into a click command (signatures, annotations, help) before it
runs one, and coerces every word of the command line through a pydantic ``TypeAdapter`` (importing
pydantic, the largest import of a ``referee play``). Here, for :func:`cli.main.run`:

* :func:`lean` gives a copy of the app whose click group builds a command the first time it is asked
  for: ``referee play`` builds ``play`` alone; ``referee --help`` and a mistyped command (for the
  suggestion) build them all, in the order they were declared. The commands, their help and their
  errors are typer's own: only *when* they are built changes.
* each built parameter coerces a plain word (the text of a ``str``, the digits of an ``int``, the
  words of a ``list[str]``) to the value typer would give, and hands any other word back to typer's
  coercion, built then: the same value or the same error, without pydantic for a command typed as
  documented. ``tests/test_startup.py`` holds both to typer's own on every parameter. (A parameter
  of another type, an ``Enum`` or a ``Literal``, would bring pydantic back: the test then asks for
  samples of it, and the import-list test says so if ``referee play`` is concerned.)
* help, when asked for, is in the reader's language (:mod:`cli.helptext`), and is typer's rich help,
  imported without the markdown and traceback modules
  of rich that it never uses here (:func:`rich_help`).

``app(...)`` itself (typer's testing runner, a test calling it) stays typer's eager group. New
global options go on the app's callback and new commands on the app, as before: nothing here lists
them.
"""

from __future__ import annotations

import copy
import importlib
import sys
import types
from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo, TyperInfo


class LateTyper(typer.Typer):
    """A sub-app whose commands are declared in another module (``commands_from``), imported the first
    time anything asks for its commands or groups: when the group is built (its own command line, or the
    top help listing it), by the lazy group or by typer's eager one alike. Until then the command line
    of every other command imports nothing of it."""

    def __init__(self, commands_from: str, **kwargs: Any) -> None:
        self._late: str | None = commands_from
        super().__init__(**kwargs)

    def _declare(self) -> None:
        module, self._late = self._late, None
        if module is not None:
            importlib.import_module(module)

    @property
    def registered_commands(self) -> list[CommandInfo]:
        self._declare()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list[CommandInfo]) -> None:
        self._commands = value

    @property
    def registered_groups(self) -> list[TyperInfo]:
        self._declare()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list[TyperInfo]) -> None:
        self._groups = value


def lean(app: typer.Typer, top: typer.Typer | None = None) -> typer.Typer:
    """A copy of ``app`` whose group builds its commands lazily (``app`` itself is left as it is);
    ``top`` is the app whose settings a sub-app's commands are built with (as typer does)."""
    if not hasattr(app, "suggest_commands"):  # a typer older than this module knows: its eager group
        return app
    group = type("LazyGroup", (LazyGroup,), {"source": app, "top": top or app})
    copied = copy.copy(app)
    copied.info = copy.copy(app.info)
    copied.info.cls = group
    copied.registered_commands = []
    copied.registered_groups = []
    return copied


class LazyGroup(TyperGroup):
    """typer's group over the commands of :attr:`source`, each built when first asked for."""

    source: typer.Typer
    top: typer.Typer

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = Commands(self.source, self.top)

    def get_params(self, ctx: Any) -> list[Any]:
        return plain(super().get_params(ctx))

    def get_usage(self, ctx: Any) -> str:
        from cli.helptext import usage

        return usage(super().get_usage(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from cli.helptext import translate

        rich_help()
        translate(self, ctx)
        commands = self.commands
        if isinstance(commands, Commands):
            commands.listing = True  # the help lists the commands: their names and help, no parameters
        try:
            for name in self.list_commands(ctx):
                translate(self.get_command(ctx, name))
            super().format_help(ctx, formatter)
        finally:
            if isinstance(commands, Commands):
                commands.listing = False


class PlainCommand(TyperCommand):
    """typer's command, its parameters (the help option too, made when first needed) coerced by
    :class:`Plain`."""

    def get_params(self, ctx: Any) -> list[Any]:
        return plain(super().get_params(ctx))

    def get_usage(self, ctx: Any) -> str:
        from cli.helptext import usage

        return usage(super().get_usage(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from cli.helptext import translate

        rich_help()
        translate(self, ctx)
        super().format_help(ctx, formatter)


class Commands(MutableMapping[str, Any]):
    """The click commands of a typer app by name, built by typer on first use. The names (listing,
    suggestions) need nothing built; iterating over the items builds them all, in declared order."""

    def __init__(self, app: typer.Typer, top: typer.Typer) -> None:
        self.top = top
        self.declared: dict[str, CommandInfo | TyperInfo | None] = {}
        self.built: dict[str, Any] = {}
        #: while a group's help is made: commands as the help lists them (:meth:`_listed`)
        self.listing = False
        self.listed: dict[str, Any] = {}
        for info in app.registered_commands:
            self.declared[info.name or typer.main.get_command_name(info.callback.__name__)] = info  # type: ignore[union-attr]
        for group in app.registered_groups:
            if isinstance(group.name, str):
                self.declared[group.name] = group
            else:  # a group without a name lends its commands to this one: built now, as typer does
                for name, command in self._build(group).commands.items():
                    self.declared[name] = None
                    self.built[name] = command

    def _build(self, info: CommandInfo | TyperInfo) -> Any:
        top = self.top
        info = copy.copy(info)
        if isinstance(info, TyperInfo):
            assert isinstance(info.typer_instance, typer.Typer)
            info.typer_instance = lean(info.typer_instance, top)
            return typer.main.get_group_from_info(
                info, pretty_exceptions_short=top.pretty_exceptions_short,
                rich_markup_mode=top.rich_markup_mode, suggest_commands=top.suggest_commands)
        if info.cls in (None, TyperCommand):  # a command class of the app's own is left as it is
            info.cls = PlainCommand
        return typer.main.get_command_from_info(
            info, pretty_exceptions_short=top.pretty_exceptions_short, rich_markup_mode=top.rich_markup_mode)

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            info = self.declared[name]
            assert info is not None  # a command added as built is in self.built
            if self.listing and isinstance(info, CommandInfo):
                return self._listed(name, info)
            self.built[name] = self._build(info)
        return self.built[name]

    def _listed(self, name: str, info: CommandInfo) -> Any:
        """The command as a group's help lists it (name, help, panel, hidden, deprecated), built by
        typer from a callback with the same name and docstring and no parameters: reading a command's
        parameters (its annotations) is most of what building it costs."""
        if name not in self.listed:
            callback = info.callback
            assert callback is not None

            def listed() -> None:
                """A stand-in: listed, never run."""

            listed.__name__, listed.__doc__ = callback.__name__, callback.__doc__
            stand_in = copy.copy(info)
            stand_in.callback = listed
            self.listed[name] = self._build(stand_in)
        return self.listed[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.declared.setdefault(name, None)
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.declared[name]
        self.built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.declared))

    def __len__(self) -> int:
        return len(self.declared)


def plain(params: list[Any]) -> list[Any]:
    """Give the parameters typer would build its coercion for on first use the plain one below."""
    for param in params:
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = Plain(param.type_descriptor.annotation)
    return params


def rich_help() -> None:
    """Import typer's rich help (its panels) without the two rich modules it imports at its top for
    what this app's help never shows: ``rich.markdown`` (with markdown-it, for
    ``rich_markup_mode="markdown"``) and ``rich.traceback`` (pretty tracebacks), about a third of the
    time ``referee --help`` took. While typer's module is imported they are stand-ins (:class:`Deferred`)
    that become the real classes if ever used; the real modules stay importable as ever."""
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins: dict[str, types.ModuleType] = {}
    for module, name in (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback")):
        if module not in sys.modules:
            stand_in = types.ModuleType(module)
            setattr(stand_in, name, Deferred(name, (), {"module": module}))
            stand_ins[module] = sys.modules[module] = stand_in
    try:
        importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


class Deferred(type):
    """A rich class that stands in for itself until used: called or asked for an attribute, it
    imports its module and hands over to the real class."""

    module: str

    def real(cls) -> Any:
        return getattr(importlib.import_module(cls.module), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls.real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls.real(), name)


_NOT_PLAIN = object()


class Plain:
    """typer's coercion of one parameter's words, for the plain ones: ``str`` stays the text, ``int``
    takes ASCII digits (with a leading ``-``), ``list[str]`` takes the words as a list, a ``bool``
    stays itself; nothing (``None``) stays nothing. Any other word (``1.0``, ``+3``, a type that is
    not one of these) goes to typer's own coercion, which the parameter builds then and keeps."""

    def __init__(self, annotation: Any) -> None:
        self.annotation = annotation

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        plain = self.plain(value)
        if plain is not _NOT_PLAIN:
            return plain
        param._runtime_param = None  # typer builds its own coercion (pydantic) from here on
        return param.get_runtime_param().coerce(value, param=param, ctx=ctx)

    def plain(self, value: Any) -> Any:
        kind = self.annotation
        if (kind is str and type(value) is str) or (kind is bool and type(value) is bool):
            return value
        if kind is int:
            if type(value) is int:
                return value
            if type(value) is str and len(value) <= 18:
                digits = value[1:] if value.startswith("-") else value
                if digits.isascii() and digits.isdigit():
                    return int(value)
        if kind == list[str] and isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
            return list(value)
        return _NOT_PLAIN
