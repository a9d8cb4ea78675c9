#!/usr/bin/env python3
"""Makes every contract rule ID in the docs a link to its rule.

    Scripts/link-rules.py           rewrite the doc comments and articles that cite a rule
    Scripts/link-rules.py --check   exit 1, naming each file, if one is not what the script writes

The rules are headings of the two articles of the contract's catalog, Docs/Contract.docc, each
heading the rule's ID alone (`### S7`), so a rule's anchor is its ID:
    S1, S2, ...   Docs/Contract.docc/StreamContract.md      <doc:/Contract/StreamContract#S7>
    A1, A2, ...   Docs/Contract.docc/StoreContract.md       <doc:/Contract/StoreContract#A4>

The contract is a catalog of its own, not an article of the Streams module, because DocC cannot
link to another archive's page from a module that extends that archive's module: the extended
module (StreamsTesting's and ComposableArchitecture's extensions to Streams' `Publisher`) is a
local page named `Streams`, which hides the Streams archive from `doc:/Streams/...` links.
Scripts/build-docs converts the contract first, so that every module links to it.

What is read: the `///` doc comments of the library modules' Swift files (Sources/<Module>/, not the
`*.generated.swift` files: Scripts/templates/*.template are read instead, whose files go to
Sources/Streams), the articles of their catalogs (Sources/<Module>/<Module>.docc/*.md, but not the
generated OperatorIndex.md and MarbleDiagrams.md), and the articles of the catalogs in Docs
(Docs/*.docc/*.md). Code (fenced blocks, `code spans`), HTML comments, headings and text already
inside a link are left alone.

What it writes: each rule ID becomes a reference-style link, `(S7)` -> `([S7])`, and the comment (or
article) ends with the definitions of the links it uses, after an empty line:

    /// Cancelling releases the closure ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7

(the contract's own articles link to each other by name: `doc:StreamContract#S7`).
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The library modules.
MODULES = ['Streams', 'StreamsTesting', 'StreamsFoundation', 'ComposableArchitecture', 'ComposableArchitectureTesting']
# The contract's catalog, and the article of each rule set (by ID letter).
CONTRACT = 'Docs/Contract.docc'
RULES = {'S': 'StreamContract', 'A': 'StoreContract'}
GENERATED_ARTICLES = {'OperatorIndex.md', 'MarbleDiagrams.md'}

ID = re.compile(r'(?<![\w\[])([SA])(\d{1,2})(?![\w\]])')
# A link or reference already written: `[text](destination)`, `[text][label]`, `[label]`; an
# autolink or HTML tag: `<doc:Contract#S7>`.
LINK = re.compile(r'\[[^\]\n]*\](?:\([^)\n]*\)|\[[^\]\n]*\])?|<[^>\n]*>')
SHORTCUT = re.compile(r'^\[([SA]\d{1,2})\]$')
DEFINITION = re.compile(r'^\[([SA]\d{1,2})\]: doc:\S+$')
# A line Markdown would read as a link definition (`- [S5]: word`), which would vanish.
LOOKS_LIKE_DEFINITION = re.compile(r'^(?:[-*+]\s+|\d+\.\s+)?\[[SA]\d{1,2}\]:\s*\S+\s*$')


def rule_ids():
    """The IDs each article defines, from its `### ID` headings."""
    ids = set()
    for letter, article in RULES.items():
        path = os.path.join(ROOT, CONTRACT, article + '.md')
        found = re.findall(r'^### (%s\d+)$' % letter, open(path, encoding='utf-8').read(), re.M)
        if not found:
            sys.exit('link-rules.py: %s has no rule headings (### %s1)' % (os.path.relpath(path, ROOT), letter))
        ids.update(found)
    return ids


def destination(rule, catalog):
    if catalog == CONTRACT:
        return 'doc:%s#%s' % (RULES[rule[0]], rule)
    return 'doc:/Contract/%s#%s' % (RULES[rule[0]], rule)


def order(rule):
    return ('SA'.index(rule[0]), int(rule[1:]))


class Rewriter:
    def __init__(self, catalog, ids, where):
        self.catalog, self.ids, self.where = catalog, ids, where
        self.errors = []

    def text(self, segment, used):
        """Links the IDs of plain text (no code), keeping links already written."""
        out, last = [], 0
        for link in LINK.finditer(segment):
            out.append(self.ids_in(segment[last:link.start()], used))
            shortcut = SHORTCUT.match(link.group(0))
            if shortcut:
                used.add(shortcut.group(1))
            out.append(link.group(0))
            last = link.end()
        out.append(self.ids_in(segment[last:], used))
        return ''.join(out)

    def ids_in(self, segment, used):
        def replace(match):
            rule = match.group(1) + str(int(match.group(2)))
            if rule != match.group(0) or rule not in self.ids:
                self.errors.append('%s: %s is not a rule of the contract' % (self.where, match.group(0)))
                return match.group(0)
            used.add(rule)
            return '[%s]' % rule
        return ID.sub(replace, segment)

    def lines(self, lines):
        """The rewritten lines of one document (a doc comment's text, an article), each with the
        index of the line it was, without the document's old definitions; and the rules it
        links to."""
        used = set()
        out = []
        fence = None
        in_comment = False
        in_span = False
        for number, line in enumerate(lines):
            stripped = line.strip()
            if DEFINITION.match(stripped) and not fence:
                continue
            if fence:
                if stripped.startswith(fence):
                    fence = None
            elif stripped.startswith('```') or stripped.startswith('~~~'):
                fence = stripped[:3]
            elif in_comment or stripped.startswith('<!--') or stripped.startswith('#'):
                if '<!--' in stripped:
                    in_comment = True
                if '-->' in stripped:
                    in_comment = False
            else:
                if not stripped:
                    in_span = False
                # Code spans: the text between backticks (a span may go on to the next line).
                parts = line.split('`')
                for index in range(len(parts)):
                    if (index % 2 == 1) == in_span:
                        parts[index] = self.text(parts[index], used)
                if len(parts) % 2 == 0:
                    in_span = not in_span
                line = '`'.join(parts)
                if LOOKS_LIKE_DEFINITION.match(line.strip()):
                    self.errors.append('%s: Markdown would read this line as a link definition: %s'
                                       % (self.where, line.strip()))
            out.append((number, line))
        if len(out) != len(lines) or used:
            while out and not out[-1][1].strip():
                out.pop()
        if used:
            out += [(None, '')] + [(None, line) for line in self.definitions(used)]
        return out

    def definitions(self, used):
        return ['[%s]: %s' % (rule, destination(rule, self.catalog)) for rule in sorted(used, key=order)]


def rewrite_swift(path, catalog, ids, errors):
    lines = open(path, encoding='utf-8').read().split('\n')
    out = []
    index = 0
    while index < len(lines):
        if not lines[index].lstrip().startswith('///'):
            out.append(lines[index])
            index += 1
            continue
        end = index
        while end < len(lines) and lines[end].lstrip().startswith('///'):
            end += 1
        block = lines[index:end]
        indent = block[0][:len(block[0]) - len(block[0].lstrip())]
        texts = []
        for line in block:
            text = line.lstrip()[3:]
            texts.append(text[1:] if text.startswith(' ') else text)
        rewriter = Rewriter(catalog, ids, '%s:%d' % (os.path.relpath(path, ROOT), index + 1))
        for number, text in rewriter.lines(texts):
            if number is not None and text == texts[number]:
                out.append(block[number])
            else:
                out.append(indent + ('/// ' + text if text else '///'))
        errors += rewriter.errors
        index = end
    return '\n'.join(out)


def rewrite_article(path, catalog, ids, errors):
    text = open(path, encoding='utf-8').read()
    rewriter = Rewriter(catalog, ids, os.path.relpath(path, ROOT))
    lines = [line for _, line in rewriter.lines(text.rstrip('\n').split('\n'))]
    errors += rewriter.errors
    return '\n'.join(lines) + '\n'


def files():
    """(path, catalog the file's links resolve in, kind) of every file read."""
    found = []
    for module in MODULES:
        catalog = 'Sources/%s/%s.docc' % (module, module)
        for path in sorted(glob.glob(os.path.join(ROOT, 'Sources', module, '**', '*.swift'), recursive=True)):
            if not path.endswith('.generated.swift'):
                found.append((path, catalog, 'swift'))
        for path in sorted(glob.glob(os.path.join(ROOT, catalog, '*.md'))):
            if os.path.basename(path) not in GENERATED_ARTICLES:
                found.append((path, catalog, 'article'))
    for catalog in sorted(glob.glob(os.path.join(ROOT, 'Docs', '*.docc'))):
        for path in sorted(glob.glob(os.path.join(catalog, '*.md'))):
            found.append((path, os.path.relpath(catalog, ROOT), 'article'))
    for path in sorted(glob.glob(os.path.join(ROOT, 'Scripts', 'templates', '*.template'))):
        found.append((path, 'Sources/Streams/Streams.docc', 'swift'))
    return found


def main(arguments):
    ids = rule_ids()
    errors = []
    changed = []
    for path, catalog, kind in files():
        current = open(path, encoding='utf-8').read()
        new = (rewrite_swift if kind == 'swift' else rewrite_article)(path, catalog, ids, errors)
        if new != current:
            changed.append((path, new))
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        return 1
    if '--check' in arguments:
        for path, _ in changed:
            print('%s: a rule ID is not linked to its rule: run Scripts/link-rules.py'
                  % os.path.relpath(path, ROOT), file=sys.stderr)
        return 1 if changed else 0
    for path, new in changed:
        with open(path, 'w', encoding='utf-8') as file:
            file.write(new)
        print('linked the rules in %s' % os.path.relpath(path, ROOT))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
