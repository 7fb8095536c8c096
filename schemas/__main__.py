"""Regenerate the published JSON Schemas: ``python -m schemas`` (``--check`` fails if stale)."""

from __future__ import annotations

import json
import os
import sys

import msgspec

from schemas import MatchExport

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = {"match-export.schema.json": MatchExport}


def render(cls: type) -> str:
    schema = msgspec.json.schema(cls)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = cls.__name__
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, cls in SCHEMAS.items():
        path = os.path.join(HERE, name)
        text = render(cls)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if current != text:
            stale.append(name)
            if not check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    if check and stale:
        print(f"stale: {', '.join(stale)}; run python -m schemas", file=sys.stderr)
        return 1
    print("written: " + ", ".join(stale) if stale and not check else "schemas are current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
