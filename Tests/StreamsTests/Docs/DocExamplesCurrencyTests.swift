import Foundation
import Testing

/// The repository's root, found from this file's path (Tests/StreamsTests/Docs/<file>).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as `Scripts/extract-examples` computes it.
private func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
}

/// One ```` ```swift ```` block of the docs, read as `Scripts/extract-examples` reads it.
private struct ExampleBlock {
    let file: String
    let annotations: [String]
    let text: String

    /// What the generated list holds for the block: the hash of its file, annotations and text.
    var fnv1a: UInt64 { DocExamplesCurrencyTests.hash(file, annotations, text) }
}

/// Every ```` ```swift ```` block: of a doc comment in a `.swift` file in `Sources` (a line
/// `/// ```swift`), or of README.md, `Docs/*.md`, the articles of the catalogs in `Docs`
/// (`Docs/*.docc/*.md`) and the modules' catalogs' articles `Sources/<Module>/<Module>.docc/*.md`
/// (a line ```` ```swift ````), in the order of the files' paths (as UTF-8 bytes) and of the lines.
private func blocksInSources() throws -> [ExampleBlock] {
    let files = FileManager.default
    var paths: [String] = []
    func walk(_ folder: String) throws {
        let url = repositoryRoot.appendingPathComponent(folder)
        for name in try files.contentsOfDirectory(atPath: url.path) {
            var isFolder: ObjCBool = false
            _ = files.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
            if isFolder.boolValue {
                try walk(folder + "/" + name)
            } else if name.hasSuffix(".swift") {
                paths.append(folder + "/" + name)
            }
        }
    }
    try walk("Sources")
    if files.fileExists(atPath: repositoryRoot.appendingPathComponent("README.md").path) {
        paths.append("README.md")
    }
    for name in (try? files.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Docs").path)) ?? []
    where name.hasSuffix(".md") {
        paths.append("Docs/" + name)
    }
    for catalog in (try? files.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Docs").path)) ?? []
    where catalog.hasSuffix(".docc") {
        for name in (try? files.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Docs/" + catalog).path)) ?? []
        where name.hasSuffix(".md") {
            paths.append("Docs/\(catalog)/\(name)")
        }
    }
    for module in try files.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Sources").path) {
        let catalog = "Sources/\(module)/\(module).docc"
        for name in (try? files.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(catalog).path)) ?? []
        where name.hasSuffix(".md") {
            paths.append(catalog + "/" + name)
        }
    }
    var found: [ExampleBlock] = []
    for path in paths.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
        let contents = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let markdown = path.hasSuffix(".md")
        let prefix = markdown ? "" : "/// "
        let raw = contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func text(_ index: Int) -> String {
            if markdown { return raw[index] }
            var text = lines[index].dropFirst(3)
            if text.first == " " { text = text.dropFirst() }
            return String(text)
        }
        // An article whose examples run in tests (GuideSnippetTests): the line counts as an
        // annotation of each of its blocks.
        let inTests = markdown && lines.contains("<!-- examples in tests -->") ? ["<!-- examples in tests -->"] : []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == prefix + "```swift" else { continue }
            var annotations: [String] = []
            var back = index - 1
            while back >= 0, lines[back].hasPrefix(prefix + "<!--") {
                annotations.insert(markdown ? lines[back] : text(back), at: 0)
                back -= 1
            }
            var end = index + 1
            while end < lines.count, lines[end] != prefix + "```" { end += 1 }
            let body = ((index + 1)..<min(end, lines.count)).map(text).joined(separator: "\n")
            found.append(ExampleBlock(file: path, annotations: inTests + annotations, text: body))
            index = end
        }
    }
    return found
}

/// The ```` ```swift ```` examples of the docs are compiled: `Scripts/extract-examples` writes
/// each into a generated test file (`DocExamples.generated.swift` of the module's test target),
/// and these tests fail when a generated file is not what the sources make now.
@Suite("Doc comment Swift examples are current")
struct DocExamplesCurrencyTests {
    static func hash(_ file: String, _ annotations: [String], _ text: String) -> UInt64 {
        fnv1a(([file] + annotations + [text]).joined(separator: "\n"))
    }

    /// A changed, added or removed example or annotation fails here until
    /// `Scripts/extract-examples` is run.
    @Test func theGeneratedExamplesAreWhatTheSourcesMakeNow() throws {
        let current = try blocksInSources()
        let markdown = current.filter { $0.file.hasSuffix(".md") }.count
        print("doc examples: \(current.count) ```swift blocks (\(current.count - markdown) in doc comments, \(markdown) in README, Docs and articles)")
        #expect(current.count == docExampleSources.count,
                "Tests/StreamsTests/Docs/DocExamples.generated.swift is stale: run Scripts/extract-examples")
        for (now, generated) in zip(current, docExampleSources) where now.file != generated.file || now.fnv1a != generated.fnv1a {
            Issue.record("""
                stale (run Scripts/extract-examples): a ```swift block of \(now.file) (the generated file has one of \
                \(generated.file) here) is now
                \(now.annotations.joined(separator: "\n"))
                \(now.text)
                """)
            break
        }
    }

    /// The examples of the modules StreamsTests does not import are compiled in their own test
    /// targets' generated files; each is what the script wrote with this file (same FNV-1a hash).
    @Test func theOtherModulesGeneratedExamplesAreCurrent() throws {
        for file in docExampleModuleFiles {
            let contents = try? String(contentsOf: repositoryRoot.appendingPathComponent(file.path), encoding: .utf8)
            #expect(contents.map(fnv1a) == file.fnv1a, "\(file.path) is stale or missing: run Scripts/extract-examples")
        }
    }
}
