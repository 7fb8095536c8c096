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
    """The declarations of a Struct class (looked up once per class)."""
    found = _SECRECY.get(cls)
    if found is None:
        found = _SECRECY[cls] = _declared(cls)
    return found


_SECRECY: dict[type, Secrecy] = {}


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
