#!/usr/bin/env python3
"""Checks the rules of the source tree that keep Streams readable and on public API only:

1. No file in Sources/Streams is over 600 lines, except the generated arity files
   (`*.generated.swift`, which Scripts/generate-sources writes).
2. Every operator file (Sources/Streams, outside Core/, Engines/, Schedulers/, Observable/,
   Subscribers/ and the DocC catalog) names its engine in a line `// Engine: ...` near its top
   (the engine file it runs on, or `none` and why).
3. No underscored standard-library or runtime declaration is used anywhere in Sources or in the
   Benchmarks package's code: an identifier that starts with `_` must be declared there itself (a stored property, a
   property wrapper's storage), be a C constant (`_SC_PAGESIZE`), or be one of the language
   features below that have no public spelling in Swift 6.3, each allowed only where it is used
   and for the reason given (EXCEPTIONS).

    python3 Scripts/check-sources.py     exit 1, naming each file and rule broken
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 600
NO_ENGINE_LINE = ('Core', 'Engines', 'Schedulers', 'Observable', 'Subscribers', 'Streams.docc')
# Where rule 3 looks: the library and its programs, and the benchmarks (the tests may spell
# `#_sourceLocation` for their helpers, and quote Combine's `_nanoseconds` key in JSON).
CHECKED = ('Sources', 'Benchmarks/Sources', 'Benchmarks/Benchmarks')
ALLOWED = re.compile(r'^_SC_[A-Z_]+$')
# (file, name): why. Nothing in Sources/Streams' engines is here.
EXCEPTIONS = {
    ('Sources/ComposableArchitecture/Exports.swift', '_exported'):
        'the store module re-exports Streams, as TCA re-exported Combine; `public import` does not re-export',
    ('Sources/StreamsTesting/Exports.swift', '_exported'): 'StreamsTesting re-exports Streams',
    ('Sources/ComposableArchitectureTesting/Exports.swift', '_exported'):
        'ComposableArchitectureTesting re-exports ComposableArchitecture',
    ('Sources/Streams/Observable/Published.swift', '_enclosingInstance'):
        "how `@Published` reaches its object's `objectWillChange`, as Combine's does; no public spelling",
    ('Sources/ComposableArchitecture/IdentifiedArray+Collection.swift', '_modify'):
        'in-place mutation without copying the element, and the trap on a changed id, as '
        'swift-identified-collections has; `yielding mutate` (SE-0474) is not in Swift 6.3',
}


def swift_files(folder):
    for directory, _, names in os.walk(os.path.join(ROOT, folder)):
        if '.docc' in directory:
            continue
        for name in sorted(names):
            if name.endswith('.swift'):
                yield os.path.join(directory, name)


def code_only(text):
    """The text without comments and string literals (roughly: enough for identifiers)."""
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


def main():
    errors = []
    for path in swift_files('Sources/Streams'):
        rel = os.path.relpath(path, ROOT)
        lines = open(path, encoding='utf-8').read().split('\n')
        if not rel.endswith('.generated.swift') and len(lines) - 1 > MAX_LINES:
            errors.append(f'{rel}: {len(lines) - 1} lines; at most {MAX_LINES} (split it, or move a trick to an engine of its own)')
        folder = rel.split('/')[2]
        if rel.endswith('Subjects/SubjectCore.swift'):
            continue  # the subjects' engine itself
        if folder not in NO_ENGINE_LINE and not rel.endswith('.generated.swift') and folder != rel.split('/')[-1]:
            if not any(line.startswith('// Engine:') for line in lines[:15]):
                errors.append(f'{rel}: no `// Engine: ...` line near the top naming the engine it runs on (or `none`)')

    declared, used = set(), {}
    for path in (p for folder in CHECKED for p in swift_files(folder)):
        rel = os.path.relpath(path, ROOT)
        code = code_only(open(path, encoding='utf-8').read())
        declared |= set(re.findall(r'\b(?:var|let|func|class|struct|enum|case|typealias|protocol)\s+(_\w+)', code))
        # a property wrapper's storage: `@Wrapper var name` declares `_name`
        declared |= {'_' + n for n in re.findall(r'@[A-Z]\w*(?:\([^)]*\))?\s+(?:(?:public|private|package|internal|fileprivate|static)\s+)*var\s+(\w+)', code)}
        for name in re.findall(r'(?<![\w$])_[A-Za-z]\w*', code):
            used.setdefault(name, set()).add(rel)
    for name, files in sorted(used.items()):
        if name in declared or ALLOWED.match(name):
            continue
        for rel in sorted(files):
            if (rel, name) in EXCEPTIONS:
                continue
            if name == '_sourceLocation' and rel.split('/')[1] in ('StreamsTesting', 'ComposableArchitectureTesting'):
                continue  # `#_sourceLocation`: Swift Testing's default source location for a test helper
            errors.append(f'{rel}: uses `{name}`, an underscored declaration not declared in this repository (public API only)')

    for error in errors:
        print(error)
    if errors:
        print(f'check-sources: {len(errors)} problem(s)')
        return 1
    print('check-sources: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
