#!/usr/bin/env python3
"""Checks the doc comments of the public API in Sources/.

Usage:
    python3 Scripts/check-docs.py [DIR_OR_FILE ...]     (default: Sources)

Prints `path:line: message` for each problem and exits 1 if there is one:
  - a public or open declaration without a doc comment (`///`) right above it (attributes such as
    `@inlinable` may stand between them);
  - a public or open `func`, `init` or `subscript`, or a `func`, `init` or `subscript` requirement
    of a public protocol, that leaves a parameter undocumented. Document the parameters with
        /// - Parameters:
        ///   - first: ...
        ///   - second: ...
    or, for one, `/// - Parameter name: ...`. The name is the parameter's internal name: `for
    dueTime: Stride` is documented as `dueTime`, `_ transform: ...` as `transform`; an unnamed
    parameter (`_: Int`) needs none;
  - a documented parameter the declaration does not have;
  - a `func` or `subscript` that returns a value (anything but `Void`, `()` and `Never`) without
    `/// - Returns: ...`, or one that returns nothing with it;
  - a `- Parameter(s)` or `- Returns` nested under another list item, or without text: DocC
    renders these sections only from the top level of the comment.
"""
import pathlib
import re
import sys

MODIFIERS = (r'(?:(?:final|static|class|override|mutating|nonmutating|consuming|borrowing|'
             r'convenience|required|indirect|prefix|postfix|infix|nonisolated|dynamic)\s+)*')
ATTRIBUTES = r'(?:@[\w()., :"*]+\s+)*'
KINDS = 'func|var|let|init|subscript|struct|class|enum|protocol|typealias|associatedtype|case|actor|extension'
# A public declaration (the line it starts on).
DECL = re.compile(rf'^\s*{ATTRIBUTES}(?:public|open)\s+{MODIFIERS}(?:{KINDS})\b')
# A func, init or subscript: public or open, or (no access level) a protocol requirement.
FUNCTION = re.compile(rf'^\s*{ATTRIBUTES}(?P<access>(?:public|open)\s+)?{MODIFIERS}(?P<kind>func|init|subscript)\b')
ATTRIBUTE = re.compile(r'^\s*@\w+(\(.*\))?\s*$')
PUBLIC_PROTOCOL = re.compile(rf'^\s*{ATTRIBUTES}public\s+protocol\b')
NOTHING = {'', 'Void', '()', 'Never', 'Swift.Void', 'Swift.Never'}
OPENING, CLOSING = '([{<', ')]}>'


def code_only(text):
    """`text` with its comments and string literals blanked out (same length, newlines kept), so
    brackets and keywords can be found by position."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        if text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end == -1 else end
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end == -1 else end + 2
        elif text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end == -1 else end + 3
        elif text[i] == '"':
            end = i + 1
            while end < n and text[end] not in '"\n':
                end += 2 if text[end] == '\\' else 1
            end += 1
        else:
            i += 1
            continue
        for j in range(i, min(end, n)):
            if out[j] != '\n':
                out[j] = ' '
        i = end
    return ''.join(out)


def matching(code, start):
    """The index just past the bracket that closes the one at `code[start]`. `<`/`>` count as
    brackets (for generic arguments), except in `->`."""
    depth = 0
    for i in range(start, len(code)):
        char = code[i]
        if char in OPENING:
            depth += 1
        elif char in CLOSING and not (char == '>' and code[i - 1] == '-'):
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def split_top_level(code, separator=','):
    """`code` split at each `separator` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(code):
        if char in OPENING:
            depth += 1
        elif char in CLOSING and not (char == '>' and code[i - 1] == '-'):
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(code[start:i])
            start = i + 1
    parts.append(code[start:])
    return parts


def signature(code, offset, kind):
    """The internal parameter names and the return type (None for an init) of the declaration
    of `kind` that starts at `offset`."""
    name_end = re.compile(rf'{kind}\b').search(code, offset).end()
    name = r'`?\w+`?|[-+*/%<>=!&|^~.?]+' if kind == 'func' else r'[?!]?'   # a func's name, init?
    rest = re.match(rf'\s*(?:{name})\s*', code[name_end:])
    position = name_end + rest.end()
    if code[position] == '<':                                         # generic parameters
        position = matching(code, position)
        position += len(code[position:]) - len(code[position:].lstrip())
    close = matching(code, position)
    names = []
    for parameter in split_top_level(code[position + 1:close - 1]):
        if not parameter.strip():
            continue
        words = split_top_level(parameter, ':')[0].split()
        if words and words[-1] != '_':                                 # `_: T` has no name
            names.append(words[-1].strip('`'))
    if kind == 'init':
        return names, None
    # After the parameters: effects, then `-> Type`, up to `where`, a body or the line's end.
    effects = r'\s*(?:async\s*)?(?:(?:throws|rethrows)(?:\s*\([^)]*\))?\s*)?'
    tail = re.match(effects + r'(->)?', code[close:])
    if not tail.group(1):
        return names, ''
    start = close + tail.end()
    end = start
    depth = 0
    while end < len(code):
        char = code[end]
        if depth == 0 and (char in '{\n' or (re.match(r'where\b', code[end:end + 6])
                                                      and not re.match(r'\w', code[end - 1]))):
            break
        if char in OPENING:
            depth += 1
        elif char in CLOSING and not (char == '>' and code[end - 1] == '-'):
            depth -= 1
        end += 1
    return names, ' '.join(code[start:end].split())


def doc_comment(lines, number):
    """The `///` lines right above line `number` (skipping attributes) and the index of the
    first, or ([], None)."""
    previous = number - 1
    while previous >= 0 and ATTRIBUTE.match(lines[previous]):
        previous -= 1
    end = previous + 1
    while previous >= 0 and lines[previous].strip().startswith('///'):
        previous -= 1
    return [re.sub(r'^\s*///', '', line) for line in lines[previous + 1:end]], previous + 1


PARAMETER = re.compile(r'-\s+Parameter\s+`?(\w+)`?\s*:(.*)$')
PARAMETERS = re.compile(r'-\s+Parameters\s*:(.*)$')
RETURNS = re.compile(r'-\s+Returns\s*:(.*)$')
ITEM = re.compile(r'-\s+`?(\w+)`?\s*:(.*)$')


def documented(comment):
    """What `comment` (its lines without `///`) documents: the parameter names with the index of
    their line, whether it has a Returns section, and its problems as (line index, message)."""
    parameters, returns, problems = [], False, []
    in_code = in_parameters = False
    for index, line in enumerate(comment):
        text = line[1:] if line.startswith(' ') else line
        item, indent = text.lstrip(), len(text) - len(text.lstrip())
        if item.startswith('```'):
            in_code = not in_code
        if in_code or item.startswith('```'):
            continue
        parameter, parameters_list = PARAMETER.match(item), PARAMETERS.match(item)
        returns_item = RETURNS.match(item)
        if in_parameters and indent > 0 and not (parameter or parameters_list or returns_item):
            named = ITEM.match(item)
            if named and indent <= 4:
                parameters.append((named.group(1), index))
                if not named.group(2).strip():
                    problems.append((index, f'parameter `{named.group(1)}` has no text'))
            continue
        in_parameters = False
        if not (parameter or parameters_list or returns_item):
            continue
        tag = 'Parameter' if parameter else 'Parameters' if parameters_list else 'Returns'
        if indent > 0:
            problems.append((index, f'`- {tag}` is nested under another list item: '
                                    'DocC shows it only at the top level'))
        if parameter:
            parameters.append((parameter.group(1), index))
            if not parameter.group(2).strip():
                problems.append((index, f'parameter `{parameter.group(1)}` has no text'))
        elif parameters_list:
            in_parameters = True
        else:
            returns = True
            if not returns_item.group(1).strip():
                problems.append((index, '`- Returns:` has no text'))
    return parameters, returns, problems


def protocol_bodies(code):
    """The (start, end) offsets of the bodies of the public protocols in `code`."""
    for match in re.finditer(r'^[^\n]*\n?', code, re.M):
        if PUBLIC_PROTOCOL.match(match.group(0)):
            brace = code.find('{', match.start())
            if brace != -1:
                yield brace, matching(code, brace)


def problems(path):
    """The (line number, message) of each problem of the doc comments in the file at `path`."""
    text = path.read_text()
    lines = text.splitlines()
    code = code_only(text)
    code_lines = code.splitlines()
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    bodies = list(protocol_bodies(code))

    for number, line in enumerate(code_lines):
        public = DECL.match(line) and not re.match(r'^\s*public\s+extension\b', line)
        function = FUNCTION.match(line)
        requirement = (function and not function.group('access')
                       and any(start < starts[number] < end for start, end in bodies))
        if not (public or requirement):
            continue
        comment, first = doc_comment(lines, number)
        if not comment:
            yield number + 1, f'no doc comment: {lines[number].strip()}'
            continue
        if not function:
            continue
        kind = function.group('kind')
        names, returned = signature(code, starts[number] + function.start('kind'), kind)
        given, returns, issues = documented(comment)
        for offset, message in issues:
            yield first + offset + 1, message
        given_names = {name for name, _ in given}
        missing = [name for name in names if name not in given_names]
        if missing:
            listed = ', '.join(f'`{name}`' for name in missing)
            yield number + 1, (f'parameter{"s" if len(missing) > 1 else ""} {listed} not documented '
                               '(`- Parameter name:` / `- Parameters:`)')
        for name, offset in given:
            if name not in names:
                yield first + offset + 1, f'documents parameter `{name}`, which the declaration does not have'
        if returned is not None and returned not in NOTHING and not returns:
            yield number + 1, f'returns `{returned}` but has no `- Returns:`'
        if returns and (returned is None or returned in NOTHING):
            yield number + 1, '`- Returns:` on a declaration that returns nothing'


def main():
    roots = [pathlib.Path(p) for p in (sys.argv[1:] or ['Sources'])]
    paths = [path for root in roots
             for path in ([root] if root.is_file() else sorted(root.rglob('*.swift')))]
    found = [(path, number, message) for path in paths for number, message in problems(path)]
    for path, number, message in found:
        print(f'{path}:{number}: {message}')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
