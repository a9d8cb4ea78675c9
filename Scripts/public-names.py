#!/usr/bin/env python3
"""Lists the public names we add inside Combine's namespaces, and checks they were reviewed.

A client's code declares its own names in the namespaces it shares with Combine: `Publishers`,
`Subscribers`, `Subscriptions`, and extensions of Combine's protocols and types (`Publisher`,
`Scheduler`, `Just`...) and of the standard library's and Foundation's (`Sequence`, `Optional`,
`DispatchQueue`, `Timer`...). A name Combine has there, the client cannot have declared (it would
clash with Combine too); a name Combine lacks, it may have, and then our public one makes its own
ambiguous ("ambiguous type name", "ambiguous use of"). So every such name must be Combine's or
one we reviewed.

Usage:
  Scripts/public-names.py            list the unreviewed names (exit 1 when there is one, or when a
                                     reviewed addition is no longer declared)
  Scripts/public-names.py --all      list every public name in those namespaces, with its status
  Scripts/public-names.py --scan DIR ...
                                     print the names declared under DIR (used once to make
                                     Scripts/public-names/combine-api.txt from OpenCombine)

Names: `Context.name` for a type, property, typealias or case, `Context.name(label:label:)` for a
function, `Context.init(label:)`, `Context.subscript(label:)`. The context is the extended or
enclosing type as written (`Publishers.Map`, `Publisher`); `where` clauses and generic parameters
are not part of it, so overloads that differ only in constraints or types share one name.

Allow-lists (one name a line; `#` starts a comment):
  Scripts/public-names/combine-api.txt  Combine's public API: OpenCombine 0.14.0's (its
                                        `X.OCombine` scheduler wrappers read as `X`), and below
                                        it the names of Apple's Combine that OpenCombine lacks.
  Scripts/public-names/additions.txt    the names we add, each with the reason it is kept.

Scanned: the library modules (Sources/Streams, StreamsFoundation, StreamsTesting,
ComposableArchitecture, ComposableArchitectureTesting).
In scope: members of `Publishers`, `Subscribers`, `Subscriptions`, of Combine's top-level types and
protocols, and of every type the module extends but does not declare (the standard library's and
Foundation's). Members of our own top-level types (`AnyScheduler`, `SchedulerTimer`...) are ours.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTS = ROOT / 'Scripts' / 'public-names'
MODULES = ['Streams', 'StreamsFoundation', 'StreamsTesting', 'ComposableArchitecture', 'ComposableArchitectureTesting']

# Combine's namespaces and its top-level types and protocols: their members are shared with clients.
COMBINE_TYPES = {
    'Publishers', 'Subscribers', 'Subscriptions',
    'Publisher', 'Subscriber', 'Subscription', 'Subject', 'Cancellable', 'ConnectablePublisher',
    'Scheduler', 'SchedulerTimeIntervalConvertible', 'ObservableObject', 'TopLevelEncoder',
    'TopLevelDecoder', 'CustomCombineIdentifierConvertible',
    'AnyPublisher', 'AnySubscriber', 'AnyCancellable', 'Just', 'Future', 'Deferred', 'Empty',
    'Fail', 'Record', 'CurrentValueSubject', 'PassthroughSubject', 'Published',
    'ObservableObjectPublisher', 'ImmediateScheduler', 'CombineIdentifier', 'AsyncPublisher',
    'AsyncThrowingPublisher',
}

MODIFIERS = {
    'public', 'open', 'internal', 'private', 'fileprivate', 'package', 'static', 'final',
    'override', 'mutating', 'nonmutating', 'convenience', 'required', 'nonisolated', 'lazy',
    'dynamic', 'indirect', 'optional', 'weak', 'unowned', 'prefix', 'postfix', 'infix',
    'consuming', 'borrowing', '__consuming',
}
TYPE_KEYWORDS = {'struct', 'class', 'enum', 'protocol', 'actor', 'extension'}
MEMBER_KEYWORDS = {'func', 'var', 'let', 'init', 'subscript', 'typealias', 'associatedtype', 'case'}
TOKEN = re.compile(r'\n|[A-Za-z_][A-Za-z0-9_]*|`[^`]*`|->|\.\.\.|[0-9][0-9_.a-zA-Z]*|[^\s\w]|\S')


def strip(text):
    """The source without comments and string literal contents (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith('/*', i):
                    depth, i = depth + 1, i + 2
                elif text.startswith('*/', i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == '\n':
                        out.append('\n')
                    i += 1
        elif c == '"' or (c == '#' and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group())
            i += hashes
            multi = text.startswith('"""', i)
            quote = '"""' if multi else '"'
            close = quote + '#' * hashes
            i += len(quote)
            while i < n and not text.startswith(close, i):
                if text[i] == '\\' and hashes == 0:
                    if text.startswith('\\(', i):   # interpolation: skip the balanced parentheses
                        depth, i = 1, i + 2
                        while i < n and depth:
                            depth += {'(': 1, ')': -1}.get(text[i], 0)
                            i += 1
                        continue
                    i += 2
                    continue
                if text[i] == '\n':
                    out.append('\n')
                i += 1
            i += len(close)
            out.append('""')
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def skip_balanced(tokens, i, open_, close):
    """Index after the group that opens at tokens[i]."""
    depth = 0
    while i < len(tokens):
        if tokens[i] == open_:
            depth += 1
        elif tokens[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def skip_generics(tokens, i):
    """Index after `<...>` at tokens[i] (if any); `->` is one token, so `>` only closes."""
    if i < len(tokens) and tokens[i] == '<':
        return skip_balanced(tokens, i, '<', '>')
    return i


def labels(tokens, i):
    """The argument labels of the parameter clause at tokens[i] (`(`), and the index after it."""
    end = skip_balanced(tokens, i, '(', ')')
    params, current, depth = [], [], 0
    for t in tokens[i + 1:end - 1]:
        if t in '([{<':
            depth += 1
        elif t in ')]}>':
            depth -= 1
        if t == ',' and depth == 0:
            params.append(current)
            current = []
        elif t != '\n':
            current.append(t)
    if current:
        params.append(current)
    names = []
    for p in params:
        while p and (p[0] == '@' or p[0] in ('inout', 'borrowing', 'consuming')):
            p = p[2:] if p[0] == '@' else p[1:]
        names.append((p[0].strip('`') if p and p[0] != '_' else '_') + ':')
    return '(' + ''.join(names) + ')', end


def declarations(path):
    """(context, name, public) for every declaration in the file at a type's or extension's level."""
    tokens = TOKEN.findall(strip(path.read_text()))
    stack = [('', True)]            # (context name, collects declarations), innermost last
    pending = None                  # a type or extension header waiting for its `{`
    mods, i, paren = [], 0, 0
    found = []
    while i < len(tokens):
        t = tokens[i]
        context, named = stack[-1]
        if t == '{':
            stack.append(pending if pending else ('', False))
            pending, mods = None, []
            i += 1
            continue
        if t == '}':
            stack.pop()
            mods = []
            i += 1
            continue
        if not named:
            i += 1
            continue
        if t in '([':
            paren += 1
        elif t in ')]':
            paren -= 1
        if paren or t == '\n' or t.startswith('#'):
            i += 1
            continue
        if t == '@':
            mods.append('@' + tokens[i + 1])
            i += 2
            if i < len(tokens) and tokens[i] == '(':
                i = skip_balanced(tokens, i, '(', ')')
            continue
        if t == 'class' and i + 1 < len(tokens) and tokens[i + 1] in MEMBER_KEYWORDS | {'final'}:
            mods.append(t)
            i += 1
            continue
        if t in MODIFIERS and not (i > 0 and tokens[i - 1] == '.'):
            mods.append(t)
            if i + 1 < len(tokens) and tokens[i + 1] == '(':   # private(set), unowned(unsafe)
                i = skip_balanced(tokens, i + 1, '(', ')')
            else:
                i += 1
            continue
        if i > 0 and tokens[i - 1] == '.':
            mods = []
            i += 1
            continue
        public = 'public' in mods or 'open' in mods
        if t in TYPE_KEYWORDS:
            j = i + 1
            name = tokens[j].strip('`')
            j += 1
            while j + 1 < len(tokens) and tokens[j] == '.' and re.match(r'[A-Za-z_`]', tokens[j + 1]):
                name += '.' + tokens[j + 1].strip('`')
                j += 2
            if t == 'extension':
                pending = (name, True)
            else:
                full = f'{context}.{name}' if context else name
                found.append((context, name, public, t))
                pending = (full, True)
                if t == 'enum' and public:
                    PUBLIC_ENUMS.add(full)
            mods = []
            i = j
            continue
        if t in MEMBER_KEYWORDS:
            j = i + 1
            if t in ('init', 'subscript'):
                if j < len(tokens) and tokens[j] in ('?', '!'):
                    j += 1
                j = skip_generics(tokens, j)
                label, j = labels(tokens, j) if j < len(tokens) and tokens[j] == '(' else ('()', j)
                found.append((context, t + label, public, t))
            elif t == 'func':
                name = tokens[j].strip('`')
                j += 1
                while re.match(r'[^\w(<\s]', tokens[j]) and tokens[j] != '(':   # operators
                    name += tokens[j]
                    j += 1
                j = skip_generics(tokens, j)
                label, j = labels(tokens, j)
                found.append((context, name + label, public, t))
            else:
                public = public or (t == 'case' and context in PUBLIC_ENUMS)
                # var/let/case may declare several names: `case a, b`, `let (x, y)` is not used.
                while j < len(tokens):
                    if re.match(r'[A-Za-z_`]', tokens[j]):
                        found.append((context, tokens[j].strip('`'), public, t))
                    j += 1
                    if t != 'case':
                        break
                    # skip associated values and raw values up to `,` or end of line
                    while j < len(tokens) and tokens[j] not in (',', '\n', '{', '}'):
                        if tokens[j] == '(':
                            j = skip_balanced(tokens, j, '(', ')')
                        else:
                            j += 1
                    if j < len(tokens) and tokens[j] == ',':
                        j += 1
                    else:
                        break
            mods = []
            i = j
            continue
        mods = []
        i += 1
    return found


PUBLIC_EXTENSIONS = {}
PUBLIC_ENUMS = set()           # cases of a public enum are public


def scan(dirs, own_types=None):
    """{qualified name: (file, kind)} of the public names declared in the given folders.

    Members of a protocol are public with the protocol; members of a `public extension` are public.
    """
    result = {}
    for root in dirs:
        for path in sorted(pathlib.Path(root).rglob('*.swift')):
            text = strip(path.read_text())
            PUBLIC_EXTENSIONS[path] = set(re.findall(r'public\s+extension\s+([\w.]+)', text))
            protocols = set(re.findall(r'public\s+protocol\s+(\w+)', text))
            for context, name, public, kind in declarations(path):
                if not (public or context in PUBLIC_EXTENSIONS[path] or context in protocols
                        or (kind == 'case' and context in PUBLIC_ENUMS)):
                    continue
                result.setdefault(f'{context}.{name}' if context else name, (path, kind))
    return result


def in_scope(qualified, own_types):
    """Whether a name lives in a namespace a client shares: not top level, not in a type of ours."""
    if '.' not in qualified.split('(')[0]:
        return False
    root = qualified.split('.')[0]
    return root in COMBINE_TYPES or root not in own_types


def read_list(path):
    names = {}
    for line in path.read_text().splitlines():
        entry, _, reason = line.partition('#')
        entry = entry.strip()
        if entry:
            names[entry] = reason.strip()
    return names


def opencombine_name(name):
    """OpenCombine's scheduler wrappers `DispatchQueue.OCombine...` read as Combine's `DispatchQueue...`."""
    return re.sub(r'^Foundation\.', '', re.sub(r'\.OCombine\b', '', name))


def main(argv):
    if argv and argv[0] == '--scan':
        for name in sorted({opencombine_name(n) for n in scan(argv[1:])}):
            if not re.search(r'(^|\.)_|OCombine|ocombine', name):
                print(name)
        return 0
    names = scan([ROOT / 'Sources' / m for m in MODULES])
    own_types = {n for n in names if '.' not in n.split('(')[0]} - COMBINE_TYPES
    combine = read_list(LISTS / 'combine-api.txt')
    additions = read_list(LISTS / 'additions.txt')
    listed = {n: v for n, v in names.items() if in_scope(n, own_types)}
    if argv and argv[0] == '--all':
        for name in sorted(listed):
            status = 'combine' if name in combine else ('reviewed' if name in additions else 'UNREVIEWED')
            print(f'{status:10}  {name}  ({listed[name][0].relative_to(ROOT)})')
        return 0
    status = 0
    for name in sorted(listed):
        if name not in combine and name not in additions:
            path = listed[name][0].relative_to(ROOT)
            print(f'{path}: public name not in Combine and not reviewed: {name}')
            status = 1
    for name in sorted(set(additions) - set(listed)):
        print(f'Scripts/public-names/additions.txt: reviewed name no longer declared: {name}')
        status = 1
    if status:
        print('A client may declare a name Combine lacks in these namespaces; ours would make it '
              'ambiguous. Rename or move it (see Scripts/public-names.py), or add it with a reason '
              'to Scripts/public-names/additions.txt.')
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
