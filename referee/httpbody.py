"""Request bodies of the HTTP app, read strictly and once: a value of the wrong JSON type is refused
instead of converted, and the route is handed the body as read here (see :func:`strict_body`)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException
from litestar.utils.scope.state import ScopeState

from schemas.http import LINE_PATTERN

#: the largest request body the server reads (a card set of 1 MB, JSON-escaped, fits)
MAX_BODY = 2_000_000

_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


async def strict_body(request: Request[Any, Any, Any]) -> None:
    """Every JSON body is read strictly against its route's Struct before Litestar reads it (Litestar
    converts leniently, for query strings' sake: ``"rounds": "3"`` and ``1.0`` would pass as integers,
    ``"true"`` as a boolean). A value of the wrong JSON type is a 400 in the one error shape, naming the
    field and the type expected; malformed JSON is left to Litestar's own answer. A body read here is
    the route's: it is kept as the request's decoded JSON, which Litestar's reading of ``data`` takes
    as it is (its conversion hands a Struct of the route's type through unchanged), so that the body is
    decoded once."""
    field = request.route_handler.parsed_fn_signature.parameters.get("data")
    if field is None:
        return
    body = await request.body()
    if not body:
        return
    decoder = _DECODERS.get(field.annotation)
    if decoder is None:
        decoder = _DECODERS.setdefault(field.annotation, msgspec.json.Decoder(field.annotation))
    try:
        value = decoder.decode(body)
    except msgspec.ValidationError as exc:
        what, _, where = str(exc).rpartition(" - at `$")
        key = where.rstrip("`").lstrip(".") if what else ""
        what, key = what or str(exc), key or "data"
        if what == f"Expected `str` matching regex '{LINE_PATTERN}'":  # a string where an entry (EntryRef) goes
            what = ("Expected `int` (an entry number) or a `str` line:N (the entry read from line N of the imported "
                    "transcript)")
        raise ValidationException(detail=f"{key if key != 'data' else 'the body'}: {what}",
                                  extra=[{"message": what, "key": key, "source": "body"}]) from None
    except msgspec.DecodeError:
        return  # not JSON at all: Litestar's own reading answers it
    ScopeState.from_scope(request.scope).json = value

