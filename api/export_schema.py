"""Write the schema to `schema.graphql`, or with `--check` fail when the file has drifted.

python -m api.export_schema [--check]
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema.graphql"


def render() -> str:
    from api.schema import schema

    return schema.as_str() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if schema.graphql differs from the code")
    args = parser.parse_args(argv)
    current = render()
    if args.check:
        checked_in = SCHEMA_FILE.read_text() if SCHEMA_FILE.exists() else ""
        if checked_in != current:
            sys.stdout.writelines(
                difflib.unified_diff(checked_in.splitlines(True), current.splitlines(True), "schema.graphql", "code")
            )
            print("\nschema.graphql is out of date: run `python -m api.export_schema`", file=sys.stderr)
            return 1
        print("schema.graphql is up to date")
        return 0
    SCHEMA_FILE.write_text(current)
    print(f"wrote {SCHEMA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
