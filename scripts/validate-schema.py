#!/usr/bin/env python3
"""Validates profile files against profiles/profile.schema.json (an independent check of
the built-in profiles, next to cardscan's own loader). Usage: validate-schema.py [FILE…]"""
import datetime, glob, json, os, sys
import jsonschema, yaml

root = os.path.join(os.path.dirname(__file__), "..")
schema = json.load(open(os.path.join(root, "profiles", "profile.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "profiles", "*.yaml")))
failed = 0


def dates_as_text(node):
    """safe_load makes 2024-01-01 a date; the schema has no date type, only strings."""
    if isinstance(node, dict):
        return {k: dates_as_text(v) for k, v in node.items()}
    if isinstance(node, list):
        return [dates_as_text(v) for v in node]
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    return node


for f in files:
    doc = yaml.load(open(f), Loader=yaml.BaseLoader)   # every scalar as text, as cardscan reads it
    # BaseLoader keeps booleans and numbers as strings: convert the ones the schema types.
    def fix(node, key=None):
        if isinstance(node, dict):
            return {k: fix(v, k) for k, v in node.items()}
        if isinstance(node, list):
            return [fix(v) for v in node]
        if node in ("true", "false") and key in ("optional", "try-all-first", "skip-empty", "strip-zeros", "fci", "records", "personal", "reverse-bytes", "utc", "absent-is-zero", "zero-means-none"):
            return node == "true"
        return node
    errors = sorted(validator.iter_errors(fix(doc)), key=lambda e: list(e.path))
    # An editor checks the schema against the file as a typed YAML reader sees it (61 is a
    # number there, and to PyYAML's YAML 1.1 NO is false): the schema must accept that too.
    typed = sorted(validator.iter_errors(dates_as_text(yaml.safe_load(open(f)))), key=lambda e: list(e.path))
    seen = {(tuple(e.path), e.message) for e in errors}
    typed = [e for e in typed if (tuple(e.path), e.message) not in seen]   # said once, not twice
    for e in errors + typed:
        kind = "" if e in errors else " (as a typed YAML reader sees it)"
        print(f"{f}: {'/'.join(map(str, e.path)) or '(top)'}{kind}: {e.message}")
    errors += typed
    failed += bool(errors)
print(f"{len(files) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
