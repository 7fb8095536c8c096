"""The fold of vocabulary 1 (issue 28 item 5): an event recorded with the state paths it changed, as every
X-Files log written before its events became facts, and as a declared effect still is. Writing those
values back is the upcast: an old event keeps meaning exactly what it meant (:mod:`.fold`'s note)."""

from __future__ import annotations

from typing import Any

import msgspec

from .model import Change, State


def _field_types(cls: type) -> dict[str, Any]:
    import msgspec.inspect as mi

    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {f.encode_name: f.type for f in info.fields}


#: the type of each top-level field of the state, and of each field of its records
_TOP = _field_types(State)


def _as(tp: Any) -> Any:
    """The Python type of an inspected type (to convert a change's value to)."""
    import msgspec.inspect as mi

    if isinstance(tp, mi.StructType):
        return tp.cls
    if isinstance(tp, mi.DictType):
        return dict[str, _as(tp.value_type)]  # type: ignore[misc]
    if isinstance(tp, mi.ListType):
        return list[_as(tp.item_type)]  # type: ignore[misc]
    if isinstance(tp, mi.UnionType):
        return Any
    if isinstance(tp, mi.StrType):
        return str
    if isinstance(tp, mi.IntType):
        return int
    if isinstance(tp, mi.BoolType):
        return bool
    return Any


def apply_changes(state: State, changes: tuple[Change, ...]) -> State:
    """The state with each change written (the fold of one event)."""
    import msgspec.inspect as mi

    updates: dict[str, Any] = {}
    for ch in changes:
        top, _, sub = ch.path.partition(".")
        tp = _TOP[top]
        if not sub:
            updates[top] = msgspec.convert(ch.value, _as(tp))
            continue
        current = updates[top] if top in updates else getattr(state, top)
        if isinstance(tp, mi.DictType):
            updates[top] = {**current, sub: msgspec.convert(ch.value, _as(tp.value_type))}
        else:
            inner = {f.encode_name: f for f in tp.fields}[sub]
            updates[top] = msgspec.structs.replace(current, **{inner.name: msgspec.convert(ch.value, _as(inner.type))})
    return msgspec.structs.replace(state, **updates) if updates else state
