#!/usr/bin/env python3
"""Generates the operator index article (operator -> publisher -> source -> tests -> guide).

Usage:
  Scripts/operator-index.py           rewrite Sources/Streams/Streams.docc/OperatorIndex.md
  Scripts/operator-index.py --check   exit 1 (and show a diff) when the committed article is not
                                      what this script generates from the sources now
  Scripts/operator-index.py --stdout  print the article

An operator is a `public func` or `public var` declared directly in an `extension Publisher`
(with or without a `where` clause) in `Sources/Streams/<Family>/<File>.swift`. Its tests are the
mirrored file `Tests/StreamsTests/<Family>/<File>Tests.swift`. Its guides come from GUIDES below
(by file, then by family); a guide is an article in `Sources/Streams/Streams.docc/`.
"""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / 'Sources' / 'Streams'
TESTS = ROOT / 'Tests' / 'StreamsTests'
ARTICLE = SOURCES / 'Streams.docc' / 'OperatorIndex.md'

# Families in the order of the landing page (Apple's order for Combine's operators).
FAMILIES = [
    ('Core', 'Essentials'),
    ('Transforming', 'Transforming elements'),
    ('Filtering', 'Filtering elements'),
    ('Reducing', 'Reducing elements'),
    ('Matching', 'Applying matching criteria to elements'),
    ('Combining', 'Combining, sequencing and sharing publishers'),
    ('Timing', 'Controlling timing and threads'),
    ('Debugging', 'Debugging'),
    ('Async', 'Async/await'),
    ('Subscribers', 'Subscribing'),
    ('Observable', 'Observable objects'),
]

# Guides by source file (without `.swift`), then by family. Article names in Streams.docc.
GUIDES_BY_FILE = {
    'Publishers.Merge': ['MergeZipCombineLatest', 'SerializedDelivery'],
    'Publishers.Zip': ['MergeZipCombineLatest', 'SerializedDelivery'],
    'Publishers.CombineLatest': ['MergeZipCombineLatest', 'SerializedDelivery'],
    'Publishers.FlatMap': ['FlatMapAndSwitchToLatest', 'SerializedDelivery'],
    'Publishers.SwitchToLatest': ['FlatMapAndSwitchToLatest', 'SerializedDelivery'],
    'Publishers.Share': ['ShareAndMulticast'],
    'Publishers.Multicast': ['ShareAndMulticast'],
    'Publishers.MakeConnectable': ['ShareAndMulticast'],
    'ConnectablePublisher': ['ShareAndMulticast'],
    'Publishers.Buffer': ['DemandAndBackpressure'],
    'Publishers.PrefixUntilOutput': ['Cancellation'],
    'Publishers.DropUntilOutput': ['Cancellation'],
    'Publishers.Output': ['DemandAndBackpressure', 'Cancellation'],
    'Publishers.First': ['DemandAndBackpressure', 'Cancellation'],
    'Publishers.PrefixWhile': ['DemandAndBackpressure', 'Cancellation'],
    'Publishers.ReceiveOn': ['ThreadingAndSchedulers', 'SerializedDelivery'],
    'Publishers.SubscribeOn': ['ThreadingAndSchedulers'],
    'Publishers.Print': ['DemandAndBackpressure'],
    'Subscribers.Sink': ['DemandAndBackpressure', 'Cancellation'],
    'Subscribers.Assign': ['DemandAndBackpressure', 'Cancellation'],
    'AsyncPublisher': ['DemandAndBackpressure', 'Cancellation'],
}
GUIDES_BY_FAMILY = {
    'Filtering': ['DemandAndBackpressure'],
    'Reducing': ['DemandAndBackpressure'],
    'Matching': ['DemandAndBackpressure'],
    'Timing': ['Time'],
}

# Return types that are types of the Streams module (linked); anything else is code voice.
LINKABLE_TYPE = re.compile(r'^(Publishers\.\w+|AnyCancellable|AsyncPublisher|AsyncThrowingPublisher|'
                           r'Just|Empty|Fail|Future|Deferred|Record|AnyPublisher)$')
EXTENSION = re.compile(r'^extension\s+(\S+?)(\s*\{|\s+where\b)')
MEMBER = re.compile(r'^    public\s+(?:func|var)\s+(`?\w+`?)')


def declarations(path):
    """Yields (extended protocol, name, labels or None for a property, return type or None) of each
    operator in `path`."""
    lines = path.read_text().splitlines()
    extended = None
    for number, line in enumerate(lines):
        header = EXTENSION.match(line)
        if header:
            extended = header.group(1) if header.group(1) in ('Publisher', 'ConnectablePublisher') else None
            continue
        if line.startswith('}'):
            extended = None
            continue
        member = MEMBER.match(line)
        if not extended or not member:
            continue
        name = member.group(1).strip('`')
        signature = line
        end = number
        while '{' not in signature and end + 1 < len(lines):
            end += 1
            signature += ' ' + lines[end].strip()
        if re.match(r'^\s*public\s+var\b', line):
            returned = re.search(r':\s*([^{]+?)\s*\{', signature).group(1)
            yield extended, name, None, returned
            continue
        labels, rest = parameter_labels(signature[signature.index(name) + len(name):])
        returned = re.match(r'\s*->\s*(.+?)\s*(?:\bwhere\b.*)?\{', rest)
        yield extended, name, labels, returned.group(1) if returned else None


def parameter_labels(text):
    """The argument labels of the parameter list starting in `text` (after generic parameters),
    and the text after the list."""
    index = 0
    if text.startswith('<'):
        depth = 0
        for index, character in enumerate(text):
            depth += {'<': 1, '>': -1}.get(character, 0)
            if depth == 0:
                break
        index += 1
    start = text.index('(', index)
    depth, parameters, current = 0, [], ''
    for end in range(start, len(text)):
        character = text[end]
        if character in '([<':
            depth += 1
            if depth == 1:
                continue
        elif character in ')]>' and not (character == '>' and text[end - 1] == '-'):
            depth -= 1
            if depth == 0:
                break
        if character == ',' and depth == 1:
            parameters.append(current)
            current = ''
        else:
            current += character
    if current.strip():
        parameters.append(current)
    labels = [parameter.split(':')[0].split()[0] for parameter in parameters]
    return labels, text[end + 1:]


def operator_title(name, labels):
    if labels is None:
        return name
    return f"{name}({''.join(label + ':' for label in labels)})"


def return_type_cell(returned):
    if returned is None:
        return '`Void`'
    base = re.sub(r'<.*', '', returned).strip()
    if LINKABLE_TYPE.match(base):
        return f"``{base.replace('.', '/')}``"
    return f'`{returned}`'


def operators():
    """(family, file stem, file name, [(title, [return cells])]) in family and file order.

    A generated file (`<File>.generated.swift`, made by Scripts/generate-sources) belongs to its
    hand-written `<File>.swift`: it comes right after it and shares its stem (tests, guides)."""
    found = []
    all_titles = {}
    for family, _ in FAMILIES:
        def order(path):
            return (path.name.removesuffix('.generated.swift').removesuffix('.swift'),
                    path.name.endswith('.generated.swift'))
        for path in sorted((SOURCES / family).glob('*.swift'), key=order):
            rows = {}
            for extended, name, labels, returned in declarations(path):
                title = f'{extended}/{operator_title(name, labels)}'
                all_titles[title] = all_titles.get(title, 0) + 1
                cell = return_type_cell(returned)
                cells = rows.setdefault(title, [])
                if cell not in cells:
                    cells.append(cell)
            if rows:
                found.append((family, order(path)[0], path.name, list(rows.items())))
    return found, all_titles


def guides_cell(family, stem):
    names = GUIDES_BY_FILE.get(stem, GUIDES_BY_FAMILY.get(family, []))
    return ', '.join(f'<doc:{name}>' for name in names) or '—'


def generate():
    found, all_titles = operators()
    out = [
        '# Operator index',
        '',
        'Every operator, what it returns, the file that implements it, the tests that pin '
        'its behaviour, and the guides that explain the machinery it is built on.',
        '',
        '## Overview',
        '',
        'This page is generated from the sources by `Scripts/operator-index.py`; do not edit it by '
        'hand. `Scripts/operator-index.py --check`, which `Scripts/build-docs` runs first, fails when this '
        'page is not what the script generates from the sources now. Source paths are relative to the repository root. Each '
        'operator file has one test file, mirroring its folder under `Tests/StreamsTests/`. An operator '
        'with several overloads under one name (for example `combineLatest(_:_:)` with and without a '
        'transform) is listed once, with what each overload returns; ``Publisher`` lists every overload.',
        '',
    ]
    for family, heading in FAMILIES:
        sections = [(stem, name, rows) for f, stem, name, rows in found if f == family]
        if not sections:
            continue
        out += [f'### {heading}', '',
                '| Operator | Returns | Source | Tests | Guides |',
                '| --- | --- | --- | --- | --- |']
        for stem, name, rows in sections:
            source = f'`Sources/Streams/{family}/{name}`'
            test_path = TESTS / family / f'{stem}Tests.swift'
            tests = f'`Tests/StreamsTests/{family}/{stem}Tests.swift`' if test_path.exists() else '—'
            guides = guides_cell(family, stem)
            for title, cells in rows:
                operator = f'``{title}``' if all_titles[title] == 1 else f"`{title.split('/')[1]}`"
                out.append(f"| {operator} | {', '.join(cells)} | {source} | {tests} | {guides} |")
        out.append('')
    out += [
        '## See Also',
        '',
        '- <doc:Streams>',
        '',
    ]
    return '\n'.join(out)


def main(arguments):
    text = generate()
    if '--stdout' in arguments:
        sys.stdout.write(text)
        return 0
    if '--check' in arguments:
        current = ARTICLE.read_text() if ARTICLE.exists() else ''
        if current == text:
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            current.splitlines(True), text.splitlines(True),
            'committed ' + str(ARTICLE.relative_to(ROOT)), 'generated now'))
        print(f'\n{ARTICLE.relative_to(ROOT)} is stale: run Scripts/operator-index.py and commit it.')
        return 1
    ARTICLE.parent.mkdir(parents=True, exist_ok=True)
    ARTICLE.write_text(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
