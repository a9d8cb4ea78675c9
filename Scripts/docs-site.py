#!/usr/bin/env python3
"""The JSON steps of Scripts/build-docs, which runs them (one subcommand per step).

    docs-site.py extended-modules GRAPHS_DIR
        Folds the symbol graph of extensions to a standard-library implementation module
        (`M@_Concurrency.symbols.json`: `extension AsyncSequence`) into the graph of extensions to
        `Swift` (`M@Swift.symbols.json`). DocC lists extended modules in the sidebar under their
        module names; `_Concurrency` is an underscored implementation module that readers never
        import, and Swift re-exports it: `AsyncSequence` is the standard library's. Any other
        underscored extended module fails the build until it is added to UNDERSCORED.

    docs-site.py link-sections ARCHIVE ARTICLE...
        Adds each heading of the given articles of ARCHIVE to the archive's linkable-entities.json,
        the file DocC reads to resolve links into an archive given as `--dependency`. DocC finds
        a link to a heading of another archive's article (`<doc:/Contract/StreamContract#S7>`) in
        that archive's link hierarchy, but writes only the article itself to
        linkable-entities.json, so the link fails ("Resolved ... but don't have any content to
        display for it"). With the headings added, a rule ID cited in a module's doc comment
        links to its rule.

    docs-site.py landing SITE LANDING_ARCHIVE
        Makes the landing article of LANDING_ARCHIVE (the one page of Docs/Landing.docc) the
        site's /documentation page: replaces the content, topics and references of the page that
        `docc merge` synthesized (a grid of the modules in alphabetical order) with the article's,
        and copies the article's images into the site. Then checks the result (as `check` does).

    docs-site.py check SITE
        Fails unless the site's /documentation page is the landing article (its title, its first
        topic is Streams), every reference it uses is in its `references`, each image it shows
        is in the site, and no page of the sidebar is an underscored module.
"""
import glob
import json
import os
import shutil
import sys

# Underscored modules the standard library re-exports, and the module readers know them by.
UNDERSCORED = {'_Concurrency': 'Swift', '_StringProcessing': 'Swift'}
# What the landing page must start with (Docs/Landing.docc/Landing.md).
LANDING_TITLE = 'Streams'
FIRST_MODULE = 'doc://org.streams.Streams/documentation/Streams'


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


def headings(page):
    """(anchor, title) of each heading of a render JSON page."""
    found = []

    def walk(content):
        for block in content:
            if block.get('type') == 'heading' and block.get('anchor'):
                found.append((block['anchor'], block['text']))
            for key in ('content', 'items'):
                if isinstance(block.get(key), list):
                    walk(block[key])
    for section in page.get('primaryContentSections', []):
        walk(section.get('content', []))
    return found


def link_sections(archive, articles):
    entities_path = os.path.join(archive, 'linkable-entities.json')
    entities = load(entities_path)
    known = {entity['referenceURL'] for entity in entities}
    for name in articles:
        article = next((entity for entity in entities
                        if entity['kind'] in ('org.swift.docc.kind.article', 'org.swift.docc.kind.collection')
                        and 'usr' not in entity
                        and entity['referenceURL'].rsplit('/', 1)[-1] == name), None)
        if article is None:
            fail('%s has no article %s' % (archive, name))
        page = load(os.path.join(archive, 'data', article['path'].strip('/') + '.json'))
        sections = headings(page)
        if not sections:
            fail('the article %s of %s has no headings' % (name, archive))
        for anchor, title in sections:
            reference = '%s#%s' % (article['referenceURL'], anchor)
            if reference in known:
                continue
            entities.append({
                'kind': 'org.swift.docc.kind.article',  # DocC reads no kind of its own for a section
                'language': article['language'],
                'availableLanguages': article['availableLanguages'],
                'path': '%s#%s' % (article['path'], anchor),
                'referenceURL': reference,
                'title': title,
                'abstract': [],
            })
        print('  %s: %d headings linkable from other modules' % (name, len(sections)))
    save(entities_path, entities)


def references_used(value, found):
    """Every `identifier` a page's content or topics points at."""
    if isinstance(value, dict):
        if value.get('type') in ('reference', 'image') and 'identifier' in value:
            found.add(value['identifier'])
        for key, item in value.items():
            if key in ('identifiers',) and isinstance(item, list):
                found.update(item)
            else:
                references_used(item, found)
    elif isinstance(value, list):
        for item in value:
            references_used(item, found)
    return found


def landing(site, landing_archive):
    pages = glob.glob(os.path.join(landing_archive, 'data', 'documentation', '*.json'))
    if len(pages) != 1:
        fail('%s should have one page (the landing article), has %d' % (landing_archive, len(pages)))
    article = load(pages[0])
    root_path = os.path.join(site, 'data', 'documentation.json')
    root = load(root_path)
    # Keep what makes it the site's root (its identifier, kind, hierarchy); take the rest.
    for key in ('abstract', 'primaryContentSections', 'topicSections', 'topicSectionsStyle',
                'seeAlsoSections', 'references'):
        if key in article:
            root[key] = article[key]
        else:
            root.pop(key, None)
    root['metadata']['title'] = article['metadata']['title']
    save(root_path, root)
    # The images the article shows (DocC puts them in images/<bundle identifier>/).
    for folder in glob.glob(os.path.join(landing_archive, 'images', '*')):
        destination = os.path.join(site, 'images', os.path.basename(folder))
        shutil.rmtree(destination, ignore_errors=True)
        shutil.copytree(folder, destination)
    check(site)


def check(site):
    root = load(os.path.join(site, 'data', 'documentation.json'))
    if root['metadata'].get('title') != LANDING_TITLE or not root.get('primaryContentSections'):
        fail('the site\'s landing page is not Docs/Landing.docc\'s article')
    topics = [identifier for section in root.get('topicSections', []) for identifier in section['identifiers']]
    if not topics or topics[0] != FIRST_MODULE:
        fail('the landing page\'s first topic is not the Streams module: %s' % topics[:1])
    references = root.get('references', {})
    missing = references_used({key: root[key] for key in root if key != 'references'}, set()) - set(references)
    if missing:
        fail('the landing page uses references it does not define: %s' % sorted(missing))
    for identifier, reference in references.items():
        if reference.get('type') == 'image':
            for variant in reference['variants']:
                if not os.path.exists(os.path.join(site, variant['url'].lstrip('/'))):
                    fail('the landing page shows %s, which is not in the site' % variant['url'])
    index = load(os.path.join(site, 'index', 'index.json'))

    def walk(node):
        title = node.get('title') or ''
        if node.get('type') in ('module', 'extension') and title.startswith('_'):
            fail('the sidebar lists the underscored module %s (%s)' % (title, node.get('path')))
        for child in node.get('children', []):
            walk(child)
    for nodes in index['interfaceLanguages'].values():
        for node in nodes:
            walk(node)
    print('  the landing page is Docs/Landing.docc\'s, with %d references; no underscored module in the sidebar'
          % len(references))


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == 'extended-modules':
        extended_modules(arguments[1])
    elif len(arguments) >= 3 and arguments[0] == 'link-sections':
        link_sections(arguments[1], arguments[2:])
    elif len(arguments) == 3 and arguments[0] == 'landing':
        landing(arguments[1], arguments[2])
    elif len(arguments) == 2 and arguments[0] == 'check':
        check(arguments[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
