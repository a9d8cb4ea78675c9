#!/usr/bin/env python3
"""Generates the operator index article (operator -> publisher -> source -> tests -> guide).

Every operator is a symbol link. Overloads of one name are told apart as DocC asks: by return type
(``Publisher/map(_:)->Publishers.Map<Self,T>``) where that is unique, else by DocC's hash of the
symbol (HASHES below).

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
# DocC's hash of the symbol, for the overloads whose return types do not tell them apart, by
# signature (see `declarations`). A declaration whose signature changes gets a new hash: the script
# then fails and asks for it. DocC prints the hash in its warning about an ambiguous link.
HASHES = {
    'extension Publisher | public func flatMap<T, P: Publisher>(maxPublishers: Subscribers.Demand = '
    '.unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<P, Self> where T == '
    'P.Output, Failure == P.Failure': '-60vvr',
    'extension Publisher where Failure == Never | public func flatMap<P: Publisher>(maxPublishers: '
    'Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<P, '
    'Self> where P.Failure == Never': '-6wpbd',
    'extension Publisher where Output: Publisher, Output.Failure == Failure | public func '
    'switchToLatest() -> Publishers.SwitchToLatest<Output, Self>': '-7j10o',
    'extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never | public '
    'func switchToLatest() -> Publishers.SwitchToLatest<Output, Self>': '-z434',
    'extension Publisher where Failure == Never | public var values: AsyncPublisher<Self>': '-2iy2q',
    'extension Publisher | public var values: AsyncThrowingPublisher<Self>': '-156lz',
}
EXTENSION = re.compile(r'^extension\s+(\S+?)(\s*\{|\s+where\b)')
MEMBER = re.compile(r'^    public\s+(?:func|var)\s+(`?\w+`?)')


def declarations(path):
    """Yields (extended protocol, name, labels or None for a property, return type or None,
    signature) of each operator in `path`. The signature is the extension's header and the
    declaration up to its body, with runs of spaces made one: what tells overloads apart."""
    lines = path.read_text().splitlines()
    extended = None
    header_line = ''
    for number, line in enumerate(lines):
        header = EXTENSION.match(line)
        if header:
            extended = header.group(1) if header.group(1) in ('Publisher', 'ConnectablePublisher') else None
            header_line = line.rstrip(' {')
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
        key = ' '.join((header_line + ' | ' + signature[:signature.index('{')]).split())
        key = key.replace('( ', '(').replace(' )', ')')
        if re.match(r'^\s*public\s+var\b', line):
            returned = re.search(r':\s*([^{]+?)\s*\{', signature).group(1)
            yield extended, name, None, returned, key
            continue
        labels, rest = parameter_labels(signature[signature.index(name) + len(name):])
        returned = re.match(r'\s*->\s*(.+?)\s*(?:\bwhere\b.*)?\{', rest)
        yield extended, name, labels, returned.group(1) if returned else None, key


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
    """(family, file stem, file name, [(title, return type, signature)]) in family and file order,
    and how many operators (in all files) have each title.

    A generated file (`<File>.generated.swift`, made by Scripts/generate-sources) belongs to its
    hand-written `<File>.swift`: it comes right after it and shares its stem (tests, guides)."""
    found = []
    all_titles = {}
    for family, _ in FAMILIES:
        def order(path):
            return (path.name.removesuffix('.generated.swift').removesuffix('.swift'),
                    path.name.endswith('.generated.swift'))
        for path in sorted((SOURCES / family).glob('*.swift'), key=order):
            rows = []
            for extended, name, labels, returned, signature in declarations(path):
                title = f'{extended}/{operator_title(name, labels)}'
                all_titles[title] = all_titles.get(title, 0) + 1
                rows.append((title, returned, signature))
            if rows:
                found.append((family, order(path)[0], path.name, rows))
    return found, all_titles


def docc_type(returned):
    """A return type as DocC spells it in a disambiguation (`->Publishers.Map<Self,T>`): no
    spaces, and the protocol's associated types qualified (`Output` is `Self.Output`)."""
    if returned is None:
        return '()'
    return re.sub(r'(?<![\w.])(Output|Failure)\b', r'Self.\1', re.sub(r'\s+', '', returned))


def symbol_links(found, all_titles):
    """{signature: the symbol link of that operator}: the title alone when no other operator has
    it, else the title and what tells it apart from the others for DocC: its return type
    (`->Publishers.Map<Self,T>`), or, when that does not (a property, or overloads that return
    the same type), DocC's hash of the symbol (HASHES)."""
    links, errors = {}, []
    groups = {}
    for _, _, name, rows in found:
        for title, returned, signature in rows:
            groups.setdefault(title, []).append((name, returned, signature))
    for title, members in groups.items():
        if all_titles[title] == 1:
            links[members[0][2]] = f'``{title}``'
            continue
        by_type = {}
        for _, returned, signature in members:
            is_property = '(' not in title
            if not is_property:
                by_type.setdefault(docc_type(returned), []).append(signature)
        for name, returned, signature in members:
            if signature in HASHES:
                suffix = HASHES[signature]
            elif '(' in title and len(by_type[docc_type(returned)]) == 1:
                suffix = '->' + docc_type(returned)
            else:
                errors.append(f'{name}: {title} has overloads DocC tells apart only by a hash; add '
                              f'the hash DocC suggests for it (build the docs with the link without '
                              f'one) to HASHES, under the key {signature!r}')
                continue
            links[signature] = f'``{title}{suffix}``'
    if errors:
        sys.exit('\n'.join(errors))
    return links


def guides_cell(family, stem):
    names = GUIDES_BY_FILE.get(stem, GUIDES_BY_FAMILY.get(family, []))
    return ', '.join(f'<doc:{name}>' for name in names)


def generate():
    found, all_titles = operators()
    links = symbol_links(found, all_titles)
    unused = set(HASHES) - set(links)
    if unused:
        sys.exit('operator-index.py: HASHES has keys no operator has now (remove them, and add the '
                 'hashes DocC suggests for the new declarations):\n' + '\n'.join(sorted(unused)))
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
        'page is not what the script generates from the sources now.',
        '',
        'Each entry is one source file: its operators, each with the publisher it returns, then the '
        'file, its tests and its guides. Source paths are relative to the repository root; each '
        'operator file has one test file, mirroring its folder under `Tests/StreamsTests/`. '
        'Overloads of one name (for example `combineLatest(_:_:)` with and without a transform) '
        'are listed one by one, each linking to its own page; ``Publisher`` lists them all too.',
        '',
    ]
    for family, heading in FAMILIES:
        sections = [(stem, name, rows) for f, stem, name, rows in found if f == family]
        if not sections:
            continue
        out += [f'### {heading}', '']
        for stem, name, rows in sections:
            entries = [f'{links[signature]} → {return_type_cell(returned)}' for _, returned, signature in rows]
            test_path = TESTS / family / f'{stem}Tests.swift'
            where = [f'Source: `Sources/Streams/{family}/{name}`.']
            if test_path.exists():
                where.append(f'Tests: `Tests/StreamsTests/{family}/{stem}Tests.swift`.')
            guides = guides_cell(family, stem)
            if guides:
                where.append(f'Guides: {guides}.')
            out += [f"- {', '.join(entries)}", '', f"  {' '.join(where)}", '']
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
