#!/usr/bin/env python3
"""CONTRIBUTING.md's size rule: no Swift file over 400 lines, no function over 80.

Usage: scripts/source-sizes.py [PATH ...]   (default: the Swift files git knows)
Prints each file or function over its limit as FILE:LINE: what; exits 1 when there is one.
A function is measured from the line of its `func` or `init` to the line of its closing
brace (braces in strings and comments are skipped).
"""
import re
import subprocess
import sys

FILE_LIMIT, FUNC_LIMIT = 400, 80
START = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|class|final|override|mutating|nonisolated|convenience|required|@inline\(__always\))\s+)*(func\s+[^\s(<]+|init[?!]?)\s*[(<]')


def code(line, state):
    """The line without string literals and comments; state carries a block comment or a
    multi-line string across lines."""
    out, i = [], 0
    while i < len(line):
        if state['block']:
            j = line.find('*/', i)
            if j < 0:
                return ''.join(out)
            state['block'], i = False, j + 2
        elif state['multi']:
            j = line.find('"""', i)
            if j < 0:
                return ''.join(out)
            state['multi'], i = False, j + 3
        elif line.startswith('//', i):
            break
        elif line.startswith('/*', i):
            state['block'], i = True, i + 2
        elif line.startswith('"""', i):
            state['multi'], i = True, i + 3
        elif line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == '\\' else 1
            i += 1
        else:
            out.append(line[i])
            i += 1
    return ''.join(out)


def check(path):
    problems = []
    lines = open(path, encoding='utf-8').read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) > FILE_LIMIT:
        problems.append(f'{path}:1: {len(lines)} lines (at most {FILE_LIMIT})')
    state = {'block': False, 'multi': False}
    open_funcs, depth = [], 0  # (name, first line, depth before its body)
    for n, raw in enumerate(lines, 1):
        text = code(raw, state)
        m = START.match(text)
        if m:
            open_funcs.append((m.group(1), n, depth, False))
        for ch in text:
            if ch == '{':
                if open_funcs and not open_funcs[-1][3] and depth == open_funcs[-1][2]:
                    name, first, d, _ = open_funcs[-1]
                    open_funcs[-1] = (name, first, d, True)
                depth += 1
            elif ch == '}':
                depth -= 1
                if open_funcs and open_funcs[-1][3] and depth == open_funcs[-1][2]:
                    name, first, _, _ = open_funcs.pop()
                    if n - first + 1 > FUNC_LIMIT:
                        problems.append(f'{path}:{first}: {name} is {n - first + 1} lines (at most {FUNC_LIMIT})')
    return problems


def main():
    paths = sys.argv[1:] or [
        p for p in subprocess.check_output(['git', 'ls-files', '*.swift'], text=True).split()
        if not p.startswith('Examples/consumer/.build')
    ]
    problems = [p for path in paths for p in check(path)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
