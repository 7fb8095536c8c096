"""What of an intent or event a role may see, declared on the Structs themselves.

Redaction goes by what is hidden from whom, never by what a value happens to be: the same field of
the same kind of entry is hidden from the same roles whatever it holds, so what a role sees of an
entry never depends on the hidden truth (a card in an opponent's hand and a card in a deck redact
alike). A game declares, on each Struct class (intents, events and the records nested in them):

* ``__secret__``: fields nobody but the arbiter sees (an archive's order);
* ``__private__``: fields only their owners (and the arbiter) see (the cards a seat drew);
* ``__owner__``: the field, or fields, naming the owners (a seat, or None for the entry's actor);
  without it the owner is the entry's actor;
* ``__private_by_key__``: mappings keyed by seat, each seat seeing only its own entry (the fanatic
  empire dealt to each seat).

Nested records (a Struct, or a tuple of them, in a field) are redacted by their own declarations, with
the same actor. A hidden value becomes ``"?"`` (a list keeps its length, a record its fields, a mapping
its keys: what is public about it). :func:`redact` is the default of the protocol's ``redact`` hook; a
game adds cases that depend on public facts of the entry itself (a card moving into a hand).

A declaration must name fields the class has, in a tuple of names (``__owner__`` may be one name), a
``__private_by_key__`` field must be a mapping and an ``__owner__`` field a seat's name (text or None):
:func:`misdeclared` lists what is not so, a test runs it over every game's Structs, and
:func:`secrecy_of` refuses such a class rather than protect nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

HIDDEN = "?"


class Secrecy(msgspec.Struct, frozen=True):
    secret: tuple[str, ...]
    private: tuple[str, ...]
    owners: tuple[str, ...]
    by_key: tuple[str, ...]
    #: fields that may hold nested records (redacted by their own declarations)
    nested: tuple[str, ...]


def secrecy_of(cls: type) -> Secrecy:
    """The declarations of a Struct class (looked up once per class). A class whose declarations
    are wrong (:func:`misdeclared`) raises TypeError: a misspelt name would protect nothing."""
    found = _SECRECY.get(cls)
    if found is None:
        problems = misdeclared(cls)
        if problems:
            raise TypeError("; ".join(problems))
        found = _SECRECY[cls] = _declared(cls)
    return found


_SECRECY: dict[type, Secrecy] = {}

#: the declarations naming fields, each a tuple of field names
DECLARATIONS = ("__secret__", "__private__", "__private_by_key__", "__owner__")


def misdeclared(cls: type) -> list[str]:
    """What is wrong with the secrecy declarations of ``cls``, one sentence a problem naming the
    class, the declaration and the name (empty when they are right or there are none)."""
    where = f"{cls.__module__}.{cls.__qualname__}"
    present = [d for d in DECLARATIONS if d in _own_and_inherited(cls)]
    if not present:
        return []
    fields = getattr(cls, "__struct_fields__", None)
    if fields is None:
        return [f"{where} declares {', '.join(present)} but is not a msgspec Struct"]
    problems: list[str] = []
    types = _field_types(cls)
    for decl in present:
        value = getattr(cls, decl)
        if decl == "__owner__" and isinstance(value, str):
            value = (value,)
        if not isinstance(value, tuple) or not all(isinstance(n, str) for n in value):
            problems.append(f"{where}.{decl} is {value!r}; expected a tuple of field names, e.g. ('cards',)")
            continue
        for name in value:
            if name not in fields:
                problems.append(f"{where}.{decl} names {name!r}, which is not one of its fields "
                                f"({', '.join(fields)})")
            elif decl == "__private_by_key__" and not _is_mapping(types.get(name)):
                problems.append(f"{where}.{decl} names {name!r}, which is not a mapping keyed by seat")
            elif decl == "__owner__" and not _is_seat(types.get(name)):
                problems.append(f"{where}.{decl} names {name!r}, which is not a seat's name (str or None)")
    hidden = [*getattr(cls, "__secret__", ()), *getattr(cls, "__private__", ())]
    for name in sorted({n for n in hidden if isinstance(n, str) and hidden.count(n) > 1}):
        problems.append(f"{where} declares {name!r} both __secret__ and __private__ (or twice)")
    return problems


def _own_and_inherited(cls: type) -> set[str]:
    return {name for klass in cls.__mro__ for name in vars(klass)}


def _field_types(cls: type) -> dict[str, Any]:
    import msgspec.inspect as mi

    try:
        info = mi.type_info(cls)
    except (TypeError, ValueError):
        return {}
    return {f.name: f.type for f in info.fields} if isinstance(info, mi.StructType) else {}


def _alternatives(t: Any) -> tuple[Any, ...]:
    import msgspec.inspect as mi

    return tuple(t.types) if isinstance(t, mi.UnionType) else (t,)


def _is_mapping(t: Any) -> bool:
    import msgspec.inspect as mi

    kinds = [x for x in _alternatives(t) if not isinstance(x, mi.NoneType)]
    return bool(kinds) and all(isinstance(x, mi.DictType) for x in kinds)


def _is_seat(t: Any) -> bool:
    import msgspec.inspect as mi

    def text(x: Any) -> bool:
        return isinstance(x, (mi.StrType, mi.NoneType)) or (
            isinstance(x, mi.LiteralType) and all(isinstance(v, str) for v in x.values))

    return t is not None and all(text(x) for x in _alternatives(t))


def _declared(cls: type) -> Secrecy:
    owner = getattr(cls, "__owner__", ())
    owners = (owner,) if isinstance(owner, str) else tuple(owner)
    declared = {*getattr(cls, "__secret__", ()), *getattr(cls, "__private__", ()), *getattr(cls, "__private_by_key__", ())}
    nested = tuple(f for f in getattr(cls, "__struct_fields__", ()) if f not in declared and _may_nest(cls, f))
    return Secrecy(tuple(getattr(cls, "__secret__", ())), tuple(getattr(cls, "__private__", ())), owners,
                   tuple(getattr(cls, "__private_by_key__", ())), nested)


def _may_nest(cls: type, name: str) -> bool:
    """Whether a field's type can hold a Struct (then its records are redacted by their own rules)."""
    import msgspec.inspect as mi

    try:
        info = mi.type_info(cls)
    except (TypeError, ValueError):
        return True
    if not isinstance(info, mi.StructType):
        return False
    for f in info.fields:
        if f.name == name:
            return _holds_struct(f.type, set())
    return False


def _holds_struct(t: Any, seen: set[int]) -> bool:
    import msgspec.inspect as mi

    if isinstance(t, mi.StructType):
        return True
    if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        return _holds_struct(t.item_type, seen)
    if isinstance(t, mi.TupleType):
        return any(_holds_struct(x, seen) for x in t.item_types)
    if isinstance(t, mi.DictType):
        return _holds_struct(t.value_type, seen)
    if isinstance(t, mi.UnionType):
        return any(_holds_struct(x, seen) for x in t.types)
    return isinstance(t, mi.AnyType)


def blank(value: Any) -> Any:
    """A hidden value: ``"?"``, keeping what its shape makes public (a list's length, a record's
    fields, a mapping's keys); None stays None (there was nothing)."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return tuple(HIDDEN for _ in value)
    if isinstance(value, dict):
        return {k: HIDDEN for k in value}
    if isinstance(value, msgspec.Struct):
        fields = {f: blank(getattr(value, f)) for f in value.__struct_fields__}
        return msgspec.structs.replace(value, **{k: v for k, v in fields.items() if v is not None})
    return HIDDEN


def owners(item: Any, actor: str | None) -> frozenset[str | None]:
    """Who owns ``item``'s private fields: the seats its ``__owner__`` fields name (a field that is
    None names the actor), or the actor."""
    names = secrecy_of(type(item)).owners
    if not names:
        return frozenset([actor])
    out: set[str | None] = set()
    for name in names:
        value = getattr(item, name, None)
        out.add(actor if value is None else str(value))
    return frozenset(out)


def redact(item: Any, actor: str | None, seat: str | None) -> Any:
    """``item`` (an intent, an event or a record in one) as ``seat`` may see it (None: the arbiter,
    who sees everything), by the declarations of its class and of the records nested in it."""
    if seat is None or not isinstance(item, msgspec.Struct):
        return item
    decl = secrecy_of(type(item))
    changes: dict[str, Any] = {}
    for name in decl.secret:
        changes[name] = blank(getattr(item, name))
    if decl.private and seat not in owners(item, actor):
        for name in decl.private:
            changes[name] = blank(getattr(item, name))
    for name in decl.by_key:
        value = getattr(item, name)
        if isinstance(value, dict):
            changes[name] = {k: (v if k == seat else HIDDEN) for k, v in value.items()}
    for name in decl.nested:
        value = getattr(item, name)
        if isinstance(value, msgspec.Struct):
            shown = redact(value, actor, seat)
            if shown is not value:
                changes[name] = shown
        elif isinstance(value, tuple) and value and any(isinstance(v, msgspec.Struct) for v in value):
            items = tuple(redact(v, actor, seat) for v in value)
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changes[name] = items
    return msgspec.structs.replace(item, **changes) if changes else item
