#!/usr/bin/env python3
"""Validates profile files against profiles/profile.schema.json, as an editor does (an
independent check of the built-in profiles, beside cardscan's own loader, with another YAML
reader and another schema validator). The schema is written from cardscan's list of the
language's keys (`make schema`): this script holds no list of its own.
Usage: validate-schema.py [FILE…]"""
import datetime, glob, json, os, sys
import jsonschema, yaml

root = os.path.join(os.path.dirname(__file__), "..")
schema = json.load(open(os.path.join(root, "profiles", "profile.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "profiles", "*.yaml")))
failed = 0


def typed_as_an_editor_sees_it(node):
    """safe_load types values as YAML 1.1 does (0x15 a number, NO false); a date it makes a
    date object, which JSON has no type for: written back as text."""
    if isinstance(node, dict):
        return {(str(k) if not isinstance(k, str) else k): typed_as_an_editor_sees_it(v) for k, v in node.items()}
    if isinstance(node, list):
        return [typed_as_an_editor_sees_it(v) for v in node]
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node.isoformat()
    return node


for f in files:
    doc = typed_as_an_editor_sees_it(yaml.safe_load(open(f)))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path)))
    for e in errors:
        print(f"{f}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message}")
    failed += bool(errors)
print(f"{len(files) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
