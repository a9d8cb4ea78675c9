#!/usr/bin/env python3
"""Lists public declarations in Sources/ that have no doc comment (`///`) right above them.

Usage: Scripts/check-docs.py [Sources/Dir ...]   (exit 1 when something is undocumented)
Attributes (`@inlinable`, ...) between the comment and the declaration are fine.
"""
import pathlib
import re
import sys

DECL = re.compile(r'^\s*(?:@[\w()., ]+\s+)*(?:(?:public|open)\s+)(?:(?:final|static|class|override|mutating|nonmutating|convenience|required|indirect)\s+)*'
                  r'(?:func|var|let|init|subscript|struct|class|enum|protocol|typealias|associatedtype|case|actor|extension)\b')
ATTRIBUTE = re.compile(r'^\s*@[\w]+(\(.*\))?\s*$')

def undocumented(path):
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines):
        if not DECL.match(line) or re.match(r'^\s*public\s+extension\b', line):
            continue
        previous = number - 1
        while previous >= 0 and ATTRIBUTE.match(lines[previous]):
            previous -= 1
        if previous < 0 or not lines[previous].strip().startswith('///'):
            yield number + 1, line.strip()

def main():
    roots = [pathlib.Path(p) for p in (sys.argv[1:] or ['Sources'])]
    missing = [(path, n, text) for root in roots for path in sorted(root.rglob('*.swift'))
               for n, text in undocumented(path)]
    for path, n, text in missing:
        print(f'{path}:{n}: no doc comment: {text}')
    return 1 if missing else 0

if __name__ == '__main__':
    sys.exit(main())
