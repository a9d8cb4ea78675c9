#!/usr/bin/env python3
"""The JSON steps of Scripts/build-docs, which runs them (one subcommand per step).

    docs-site.py extended-modules GRAPHS_DIR
        Folds the symbol graph of extensions to a standard-library implementation module
        (`M@_Concurrency.symbols.json`: `extension AsyncSequence`) into the graph of extensions to
        `Swift` (`M@Swift.symbols.json`). DocC lists extended modules in the sidebar under their
        module names; `_Concurrency` is an underscored implementation module that readers never
        import, and Swift re-exports it: `AsyncSequence` is the standard library's. Any other
        underscored extended module fails the build until it is added to UNDERSCORED.
"""
import glob
import json
import os
import sys

# Underscored modules the standard library re-exports, and the module readers know them by.
UNDERSCORED = {'_Concurrency': 'Swift', '_StringProcessing': 'Swift'}


def fail(message):
    print('docs-site.py: ' + message, file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path, encoding='utf-8') as file:
        return json.load(file)


def save(path, value):
    with open(path, 'w', encoding='utf-8') as file:
        json.dump(value, file, ensure_ascii=False, separators=(',', ':'))


def extended_modules(graphs):
    for path in sorted(glob.glob(os.path.join(graphs, '*@_*.symbols.json'))):
        module, extended = os.path.basename(path)[:-len('.symbols.json')].split('@', 1)
        if extended not in UNDERSCORED:
            fail('%s extends the underscored module %s: add the module readers know it by to '
                 'UNDERSCORED in Scripts/docs-site.py' % (module, extended))
        public = UNDERSCORED[extended]
        graph = load(path)
        for symbol in graph['symbols']:
            if symbol.get('swiftExtension', {}).get('extendedModule') == extended:
                symbol['swiftExtension']['extendedModule'] = public
        for relationship in graph['relationships']:
            fallback = relationship.get('targetFallback', '')
            if fallback.startswith(extended + '.'):
                relationship['targetFallback'] = public + fallback[len(extended):]
        target = os.path.join(graphs, '%s@%s.symbols.json' % (module, public))
        if os.path.exists(target):
            merged = load(target)
            merged['symbols'] += graph['symbols']
            merged['relationships'] += graph['relationships']
            graph = merged
        save(target, graph)
        os.remove(path)
        print('  %s: extensions to %s listed under %s' % (module, extended, public))


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == 'extended-modules':
        extended_modules(arguments[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
