"""The intent notation, generated from a game's intent Structs (one rule set for every game).

``verb key=value key=value ...``

* the verb is the intent's tag; keys are the field names as the game's spec writes them
  (a field may be renamed for Python, e.g. ``from_`` is written ``from``);
* lists are comma-separated (``hand=TR3,GF1``); an omitted list is empty;
* a nested record's fields are dotted keys (``effect.primitive=relocate_agent``);
* a list of small records is colon-joined items in the record's field order
  (``placements=lion_1:2,lion_2:1``); a list of a tagged union of records starts each item with
  the record's tag (``deltas=banners:bear_1:bear:+1,note``);
* a mapping (``dict[str, X]``) is written as dotted keys, one per entry
  (``assignments.raven=lion assignments.rat=bear``);
* a field that is either a fixed word or a record (``Literal["manual"] | Effect``) is written either
  bare (``effect=manual``) or as the record's dotted keys (``effect.primitive=relocate_agent``);
* a value with spaces is double-quoted (``note="Burner Phone"``);
* a game may name positional shorthands (``__positional__ = ("card",)`` on the Struct): bare words
  after the verb fill those fields in order.

Parsing never adjudicates: it only checks shape and types, and says which argument is wrong and
what was expected. The formatter writes the canonical notation back (round-trips with the parser).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi

from . import suggest
from .codes import InputCode
from .messages import fitting
from .protocol import InputError
from .speech import N_, Said

#: how many verbs an unknown verb's refusal lists (the closest ones), not the game's 25-40
VERBS_LISTED = 5

_PRIMS = (mi.StrType, mi.IntType, mi.BoolType, mi.LiteralType)


class ParamInfo(msgspec.Struct, frozen=True):
    """One parameter of a verb, as the notation (and ``referee games GAME``) shows it."""

    key: str  # as written (dotted for nested records)
    attr: tuple[str, ...]  # attribute path in the Struct
    kind: str  # "str", "int", "bool", "choice", "list", "records", "dict"
    required: bool
    default: Any
    choices: tuple[Any, ...] = ()
    item: str = ""  # list item kind / record field order / mapping value kind
    item_choices: tuple[Any, ...] = ()
    #: for a word-or-record field: the key of the field (its bare word and its dotted keys share it)
    group: str = ""
    #: records of a tagged union: each item starts with its record's tag
    tagged: bool = False
    #: a record that nests itself (``then: EffectArgs | None`` inside ``EffectArgs``): its fields are
    #: dotted keys below this one, to any depth (``args.then.drawn``, ``args.then.then.choice``)
    nest: Any = None

    def expected(self) -> str:
        if self.kind == "choice":
            return "one of " + "|".join(_fmt_scalar(c) for c in self.choices)
        if self.kind == "int":
            return "a whole number"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "list":
            if self.item_choices:
                return "a comma-separated list of " + "|".join(str(c) for c in self.item_choices)
            return f"a comma-separated list ({self.item}s)"
        if self.kind == "records":
            return f"comma-separated items {self.item}"
        if self.kind == "dict":
            what = "|".join(_fmt_scalar(c) for c in self.item_choices) if self.item_choices else self.item
            return f"one {self.key}.NAME={what} per entry"
        if self.kind == "nest":
            return f"the fields of {self.item} again, as {self.key}.FIELD=..."
        return "a value"

    def signature(self) -> str:
        shown = {
            "choice": "|".join(_fmt_scalar(c) for c in self.choices),
            "int": "N",
            "bool": "true|false",
            "list": f"{self.item},...",
            "records": f"{self.item},...",
            "str": "TEXT",
            "dict": "|".join(_fmt_scalar(c) for c in self.item_choices) if self.item_choices else self.item.upper(),
            "nest": "...",
        }[self.kind]
        text = f"{self.key}.NAME={shown}" if self.kind in ("dict", "nest") else f"{self.key}={shown}"
        return text if self.required else f"[{text}]"


class VerbInfo(msgspec.Struct, frozen=True):
    verb: str
    cls: type
    params: tuple[ParamInfo, ...]
    positional: tuple[str, ...]
    doc: str

    def signature(self) -> str:
        return " ".join([self.verb, *(p.signature() for p in self.params)])

    def param(self, key: str) -> ParamInfo | None:
        for p in self.params:
            if p.key == key:
                return p
        return None


def _fmt_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _unwrap_optional(t: mi.Type) -> tuple[mi.Type, bool]:
    if isinstance(t, mi.UnionType):
        inner = [x for x in t.types if not isinstance(x, mi.NoneType)]
        if len(inner) == 1:
            return inner[0], True
    return t, False


def _word_or_record(t: mi.Type) -> tuple[mi.LiteralType, mi.StructType] | None:
    """``Literal[...] | SomeStruct`` (optionally ``| None``): a fixed word or a record."""
    if not isinstance(t, mi.UnionType):
        return None
    inner = [x for x in t.types if not isinstance(x, mi.NoneType)]
    lits = [x for x in inner if isinstance(x, mi.LiteralType)]
    structs = [x for x in inner if isinstance(x, mi.StructType)]
    if len(inner) == 2 and len(lits) == 1 and len(structs) == 1:
        return lits[0], structs[0]
    return None


def _tagged_members(t: mi.Type) -> tuple[mi.StructType, ...] | None:
    """The members of a union of tagged Structs (a list item that names its record type first)."""
    if isinstance(t, mi.UnionType) and t.types and all(
        isinstance(x, mi.StructType) and x.tag is not None for x in t.types
    ):
        return tuple(x for x in t.types if isinstance(x, mi.StructType))
    return None


def _record_order(st: mi.StructType) -> str:
    return ":".join(sf.encode_name for sf in st.fields)


def _tagged_order(members: tuple[mi.StructType, ...]) -> str:
    return "|".join(":".join([str(m.tag), *(sf.encode_name for sf in m.fields)]) for m in members)


def _scalar_kind(t: mi.Type) -> tuple[str, tuple[Any, ...]]:
    if isinstance(t, mi.LiteralType):
        return "choice", tuple(t.values)
    if isinstance(t, mi.IntType):
        return "int", ()
    if isinstance(t, mi.BoolType):
        return "bool", ()
    if isinstance(t, mi.StrType):
        return "str", ()
    raise TypeError(f"unsupported notation type {t!r}")


def _params_of(
    st: mi.StructType, prefix: str = "", attr_prefix: tuple[str, ...] = (), optional_parent: bool = False,
    path: tuple[type, ...] = (),
) -> list[ParamInfo]:
    out: list[ParamInfo] = []
    path = (*path, st.cls)
    for f in st.fields:
        t, optional = _unwrap_optional(f.type)
        key = prefix + f.encode_name
        attr = (*attr_prefix, f.name)
        # a field of an optional record is required only once the record is given (msgspec checks)
        required = f.required and not optional_parent
        default = None if f.default is msgspec.NODEFAULT else f.default
        if isinstance(t, mi.StructType):
            if t.cls in path:  # the record nests itself: its fields continue the dotted path, to any depth
                out.append(ParamInfo(key, attr, "nest", False, default, item=t.cls.__name__, nest=t.cls))
                continue
            out.extend(_params_of(t, key + ".", attr, optional_parent or optional or not f.required, path))
            continue
        alt = _word_or_record(f.type)
        if alt is not None:
            lit, st_alt = alt
            out.append(ParamInfo(key, attr, "choice", required, default, choices=tuple(lit.values), group=key))
            out.extend(
                msgspec.structs.replace(p, group=key) for p in _params_of(st_alt, key + ".", attr, True, path)
            )
            continue
        if isinstance(t, mi.DictType):
            vt, _ = _unwrap_optional(t.value_type)
            kind, choices = _scalar_kind(vt)
            out.append(ParamInfo(key, attr, "dict", required, default, item=kind, item_choices=choices))
            continue
        if isinstance(t, (mi.ListType, mi.VarTupleType)):
            it, _ = _unwrap_optional(t.item_type)
            members = _tagged_members(it)
            if members is not None:
                out.append(ParamInfo(key, attr, "records", required, default, item=_tagged_order(members), tagged=True))
            elif isinstance(it, mi.StructType):
                out.append(ParamInfo(key, attr, "records", required, default, item=_record_order(it)))
            else:
                kind, choices = _scalar_kind(it)
                out.append(ParamInfo(key, attr, "list", required, default, item=kind, item_choices=choices))
            continue
        kind, choices = _scalar_kind(t)
        out.append(ParamInfo(key, attr, kind, required and not optional, default, choices=choices))
    return out


@cache
def verbs_of(intent_type: Any) -> dict[str, VerbInfo]:
    """Every verb of a tagged union of intent Structs, in declaration order."""
    info = mi.type_info(intent_type)
    members = info.types if isinstance(info, mi.UnionType) else (info,)
    verbs: dict[str, VerbInfo] = {}
    for member in members:
        if not isinstance(member, mi.StructType) or member.tag is None:
            raise TypeError("intents must be tagged msgspec Structs")
        positional = tuple(getattr(member.cls, "__positional__", ()))
        doc = (member.cls.__doc__ or "").strip()
        verbs[str(member.tag)] = VerbInfo(
            str(member.tag), member.cls, tuple(_params_of(member)), positional, doc
        )
    return verbs


def _argument(key: str) -> Said:
    return Said(N_("argument {key}"), key=key)


def _convert_scalar(p: ParamInfo, kind: str, choices: tuple[Any, ...], raw: str, what: str) -> Any:
    if kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise InputError.said(InputCode.INVALID, N_("{what}: expected a whole number, got {raw}"),
                                  what=what, raw=repr(raw)) from None
    if kind == "bool":
        low = raw.lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise InputError.said(InputCode.INVALID, N_("{what}: expected true or false, got {raw}"), what=what,
                              raw=repr(raw))
    if kind == "choice":
        for c in choices:
            if _fmt_scalar(c) == raw:
                return c
        allowed = "|".join(_fmt_scalar(c) for c in choices)
        raise InputError.said(InputCode.INVALID, N_("{what}: expected one of {allowed}, got {raw}"), what=what,
                              allowed=allowed, raw=repr(raw))
    return raw


def _list_expected(p: ParamInfo) -> Said:
    """What a list parameter takes (:meth:`ParamInfo.expected` of a list), as a phrase."""
    if p.item_choices:
        return Said(N_("a comma-separated list of {choices}"), choices="|".join(str(c) for c in p.item_choices))
    return Said(N_("a comma-separated list ({item}s)"), item=p.item)


def _convert(p: ParamInfo, raw: str, cls: type) -> Any:
    what = _argument(p.key)
    if p.kind == "list":
        items = [x for x in raw.split(",")] if raw != "" else []
        if any(x == "" for x in items):
            raise InputError.said(InputCode.INVALID, N_("{what}: empty item in {raw}; expected {expected}"),
                                  what=what, raw=repr(raw), expected=_list_expected(p))
        return [_convert_scalar(p, p.item, p.item_choices, x, what) for x in items]
    if p.kind == "records":
        st_or_members = _record_type(cls, p.attr)
        records = []
        for item in (raw.split(",") if raw else []):
            parts = item.split(":")
            rec: dict[str, Any] = {}
            if isinstance(st_or_members, tuple):
                by_tag = {str(m.tag): m for m in st_or_members}
                st = by_tag.get(parts[0])
                if st is None:
                    raise InputError.said(
                        InputCode.INVALID, N_("{what}: item {item} starts with {tag}; expected one of {tags} (items: "
                                              "{shape})"),
                        what=what, item=repr(item), tag=repr(parts[0]), tags=", ".join(by_tag), shape=p.item)
                rec[str(st.tag_field)] = parts[0]
                parts = parts[1:]
                shape = ":".join([str(st.tag), *(f.encode_name for f in st.fields)])
            else:
                st = st_or_members
                shape = p.item
            order = [f for f in st.fields]
            need = len(order)
            while need > 0 and not order[need - 1].required:
                need -= 1  # trailing fields with defaults may be left off
            if not need <= len(parts) <= len(order):
                expected = shape if need == len(order) else Said(N_("{shape} (the last {n} may be left off)"),
                                                                 shape=shape, n=len(order) - need)
                raise InputError.said(InputCode.INVALID, N_("{what}: item {item} has {parts} part(s); expected "
                                                            "{expected}"),
                                      what=what, item=repr(item), parts=item.count(":") + 1, expected=expected)
            for f, part in zip(order, parts):
                ft, _ = _unwrap_optional(f.type)
                kind, choices = _scalar_kind(ft)
                rec[f.encode_name] = _convert_scalar(p, kind, choices, part,
                                                     Said(N_("argument {key} ({field})"), key=p.key, field=f.encode_name))
            records.append(rec)
        return records
    return _convert_scalar(p, p.kind, p.choices, raw, what)


@cache
def _record_type(cls: type, attr: tuple[str, ...]) -> mi.StructType | tuple[mi.StructType, ...]:
    """The record type of a list-of-records parameter (a tuple of members for a tagged union); kept per
    intent type and path (``type_info`` walks the whole intent type: milliseconds, once per value else)."""
    st = mi.type_info(cls)
    assert isinstance(st, mi.StructType)
    for name in attr:
        f = next(f for f in st.fields if f.name == name)
        alt = _word_or_record(f.type)
        t, _ = _unwrap_optional(f.type) if alt is None else (alt[1], True)
        if isinstance(t, (mi.ListType, mi.VarTupleType)):
            t, _ = _unwrap_optional(t.item_type)
            members = _tagged_members(t)
            if members is not None:
                return members
        assert isinstance(t, mi.StructType)
        st = t
    return st


#: what separates words, as :mod:`shlex` has it (not every Unicode space: a no-break space is in a word)
_SPACES = re.compile("[ \t\r\n]+")


def split_words(text: str) -> list[str]:
    """Split a notation line into words, honouring double quotes and backslash escapes; a clear error
    if a quote is unbalanced. The words are :func:`shlex_words`'s (POSIX rules, double quotes only), found
    without its character-by-character lexer: a line with neither quote nor escape (nearly every line)
    is split on whitespace; any other by :data:`_PIECES`, a run of pieces at a time."""
    if '"' in text or "\\" in text:
        return _quoted_words(text)
    if "\t" in text or "\r" in text or "\n" in text:
        return [w for w in _SPACES.split(text) if w]
    return [w for w in text.split(" ") if w]


#: the pieces of a line, as shlex reads them (POSIX, whitespace-split, ``"`` the only quote, ``\`` the
#: escape): a run of whitespace; a run of other characters; a double-quoted span (in which a backslash
#: escapes only ``"`` and ``\``, any other is kept); a backslash and the character it escapes
_PIECES = r'([ \t\r\n]+)|([^ \t\r\n"\\]+)|"((?:[^"\\]|\\.)*)"|\\(.)'
_QUOTED_ESCAPE = r'\\(["\\])'


@cache
def _pieces() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:data:`_PIECES` and :data:`_QUOTED_ESCAPE` compiled, on the first line that needs them (not at start-up)."""
    return re.compile(_PIECES, re.DOTALL), re.compile(_QUOTED_ESCAPE)


def _quoted_words(text: str) -> list[str]:
    """:func:`split_words` of a line with a quote or an escape: shlex's words, or its refusal (an
    unclosed quote, an escape with nothing after it) as an :class:`InputError`."""
    words: list[str] = []
    word: list[str] | None = None  # the word being read (a quoted empty span makes an empty word)
    pieces, quoted_escape = _pieces()
    pos, end = 0, len(text)
    while pos < end:
        piece = pieces.match(text, pos)
        if piece is None:  # a quote never closed, or a backslash at the end
            raise InputError.said(InputCode.INVALID, N_("unbalanced double quote in {text}"), text=repr(text))
        space, plain, quoted, escaped = piece.groups()
        if space is not None:
            if word is not None:
                words.append("".join(word))
                word = None
        else:
            if word is None:
                word = []
            if plain is not None:
                word.append(plain)
            elif quoted is not None:
                word.append(quoted_escape.sub(r"\1", quoted) if "\\" in quoted else quoted)
            else:
                word.append(escaped)
        pos = piece.end()
    if word is not None:
        words.append("".join(word))
    return words


def shlex_words(text: str) -> list[str]:
    """:func:`split_words` by :mod:`shlex` (POSIX rules, double quotes only, no comments): the reference
    the tests hold :func:`split_words` to."""
    import shlex

    try:
        lexer = shlex.shlex(text, posix=True)
        lexer.whitespace_split = True
        lexer.commenters = ""
        lexer.quotes = '"'
        lexer.escape = "\\"
        lexer.escapedquotes = '"'
        return list(lexer)
    except ValueError:
        raise InputError.said(InputCode.INVALID, N_("unbalanced double quote in {text}"), text=repr(text)) from None


def parse_intent(intent_type: Any, text: str | list[str]) -> Any:
    """Parse one line of notation into the game's intent Struct, or raise :class:`InputError`."""
    words = split_words(text) if isinstance(text, str) else list(text)
    if not words:
        raise InputError.said(InputCode.INVALID, N_("empty intent: expected a verb, e.g. 'draw_main card=TR6'"))
    verbs = verbs_of(intent_type)
    verb = words[0]
    info = verbs.get(verb)
    if info is None:
        if len(verbs) <= VERBS_LISTED:
            listed = Said(N_("expected one of: {verbs}"), verbs=", ".join(verbs))
        else:
            near = suggest.closest(verb, verbs, n=VERBS_LISTED, cutoff=0.0)
            listed = Said(N_("the closest of the {n} verbs: {verbs}"), n=len(verbs), verbs=", ".join(near))
        close = suggest.close_names(verb, verbs, n=3)
        said = (N_("unknown verb {verb} (did you mean {names}?); {listed}") if close
                else N_("unknown verb {verb}; {listed}"))
        raise InputError.said(InputCode.UNKNOWN_VERB, said, verb=repr(verb), names=close, listed=listed)
    data: dict[str, Any] = {}
    seen: set[str] = set()
    positional = list(info.positional)
    for word in words[1:]:
        key, sep, raw = word.partition("=")
        if not sep:
            if not positional:
                raise InputError.said(
                    InputCode.BAD_ARGUMENT, N_("{verb}: argument {word} is not key=value; expected one of: {keys}"),
                    verb=verb, word=repr(word), keys=", ".join(p.key for p in info.params))
            key, raw = positional.pop(0), word
        p = info.param(key)
        if p is None:
            p = _dict_param(info.params, key)
        if p is None:
            p = _nested_param(info.params, key)
        if p is None:
            close = suggest.close_names(key, [q.key for q in info.params], n=2)
            said = (N_("{verb}: unknown argument {key} (did you mean {names}?); {verb} takes: {keys}") if close
                    else N_("{verb}: unknown argument {key}; {verb} takes: {keys}"))
            raise InputError.said(InputCode.UNKNOWN_ARGUMENT, said, verb=verb, key=repr(key), names=close,
                                  keys=", ".join(q.key for q in info.params) or Said(N_("no arguments")))
        if key in seen:
            raise InputError.said(InputCode.BAD_ARGUMENT, N_("{verb}: argument {key} given twice"), verb=verb, key=key)
        if p.group:
            bare = key == p.group
            if (bare and any(k.startswith(p.group + ".") for k in seen)) or (not bare and p.group in seen):
                raise InputError.said(
                    InputCode.BAD_ARGUMENT, N_("{verb}: argument {group}: give either {group}=WORD or its dotted fields "
                                               "({group}.NAME=...), not both"), verb=verb, group=p.group)
        seen.add(key)
        if key in positional:
            positional.remove(key)
        if p.kind == "dict":
            value = _convert_scalar(p, p.item, p.item_choices, raw, _argument(key))
        else:
            value = _convert(p, raw, info.cls)
        node = data
        names = key.split(".")
        for name in names[:-1]:
            node = node.setdefault(name, {})
        node[names[-1]] = value
    missing = [
        p.key for p in info.params
        if p.required and p.key not in seen
        and not (p.kind == "dict" and any(k.startswith(p.key + ".") for k in seen))
        and not (p.group and any(k.startswith(p.group + ".") for k in seen))
    ]
    if missing:
        raise InputError.said(InputCode.MISSING_ARGUMENT, N_("{verb}: missing argument {names}; usage: {usage}"),
                              verb=verb, names=", ".join(missing), usage=info.signature())
    try:
        return msgspec.convert(data, type=info.cls)
    except msgspec.ValidationError as exc:
        # msgspec says what does not fit in its own (English) words
        raise InputError.said(InputCode.BAD_ARGUMENT, N_("{verb}: {problem}; usage: {usage}"), verb=verb,
                              problem=fitting(str(exc)), usage=info.signature()) from None


_RECORDS: dict[type, tuple[ParamInfo, ...]] = {}


def _record_params(cls: type) -> tuple[ParamInfo, ...]:
    """The parameters of a record that nests itself, keyed from the record (``then.drawn``...)."""
    found = _RECORDS.get(cls)
    if found is None:
        st = mi.type_info(cls)
        assert isinstance(st, mi.StructType)
        found = _RECORDS[cls] = tuple(_params_of(st, "", (), True))
    return found


def _nested_param(params: tuple[ParamInfo, ...], key: str) -> ParamInfo | None:
    """The parameter a dotted key names below a record that nests itself (``args.then.then.drawn``),
    with its full key and attribute path; None if there is none."""
    for p in params:
        if p.kind == "nest" and key.startswith(p.key + "."):
            rest = key[len(p.key) + 1:]
            sub = _record_params(p.nest)
            q = next((x for x in sub if x.key == rest), None) or _dict_param(sub, rest) or _nested_param(sub, rest)
            if q is not None:
                return msgspec.structs.replace(q, key=key, attr=(*p.attr, *q.attr),
                                               group=f"{p.key}.{q.group}" if q.group else "")
    return None


def _dict_param(params: tuple[ParamInfo, ...], key: str) -> ParamInfo | None:
    """The mapping parameter a dotted key ``name.entry`` belongs to (None if there is none)."""
    for p in params:
        if p.kind == "dict" and key.startswith(p.key + ".") and len(key) > len(p.key) + 1:
            rest = key[len(p.key) + 1 :]
            if "." not in rest:
                return p
    return None


def _quote(text: str) -> str:
    if text == "" or any(ch in text for ch in ' \t"\\=#') :
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def _record_parts(r: Any) -> list[str]:
    """A record's parts in field order, without trailing parts that hold their field's default."""
    values = list(msgspec.structs.astuple(r))
    fields = msgspec.structs.fields(r)
    while values and fields[len(values) - 1].default is not msgspec.NODEFAULT \
            and values[-1] == fields[len(values) - 1].default:
        values.pop()
    return [_fmt_scalar(v) for v in values]


def _format_value(p: ParamInfo, value: Any) -> str:
    if p.kind == "list":
        return ",".join(_fmt_scalar(v) for v in value)
    if p.kind == "records":
        items = []
        for r in value:
            fields = _record_parts(r)
            items.append(":".join([str(type(r).__struct_config__.tag), *fields]) if p.tagged else ":".join(fields))
        return ",".join(items)
    return _fmt_scalar(value)


def format_intent(intent: Any) -> str:
    """The canonical notation of an intent Struct (omits values equal to their defaults)."""
    cls = type(intent)
    tag = cls.__struct_config__.tag
    verbs = verbs_of_cls(cls)
    words = [str(tag)]
    _format_params(verbs.params, intent, "", words)
    return " ".join(words)


def _format_params(params: tuple[ParamInfo, ...], obj: Any, prefix: str, words: list[str]) -> None:
    for p in params:
        value: Any = obj
        for name in p.attr:
            value = getattr(value, name, None) if isinstance(value, msgspec.Struct) else None
        if value is None:
            continue
        if p.kind == "nest":
            if isinstance(value, msgspec.Struct):
                _format_params(_record_params(type(value)), value, f"{prefix}{p.key}.", words)
            continue
        if p.group and p.key == p.group:
            if isinstance(value, msgspec.Struct):
                continue  # written as its dotted fields
            words.append(f"{prefix}{p.key}={_quote(_fmt_scalar(value))}")
            continue
        if p.kind == "dict":
            for k, v in value.items():
                words.append(f"{prefix}{p.key}.{k}={_quote(_fmt_scalar(v))}")
            continue
        if p.kind in ("list", "records"):
            if not value:
                continue
        elif not p.required and value == p.default:
            continue
        words.append(f"{prefix}{p.key}={_quote(_format_value(p, value))}")


_VERBS: dict[type, VerbInfo] = {}


def verbs_of_cls(cls: type) -> VerbInfo:
    """The verb of one intent Struct class (worked out once per class)."""
    found = _VERBS.get(cls)
    if found is None:
        st = mi.type_info(cls)
        assert isinstance(st, mi.StructType)
        found = _VERBS[cls] = VerbInfo(str(st.tag), cls, tuple(_params_of(st)),
                                       tuple(getattr(cls, "__positional__", ())), "")
    return found


def describe(intent_type: Any) -> Mapping[str, VerbInfo]:
    return verbs_of(intent_type)
