import Foundation
import Streams
import StreamsTesting
import Testing

/// One ```` ```text ```` block of a doc comment in `Sources`: where it is, the annotation lines
/// before it, and its text (see `MarbleBlock` for the annotation format).
struct DocMarbleSource: Equatable, CustomStringConvertible {
    let file: String
    let annotations: [String]
    let text: String

    var block: MarbleBlock { MarbleBlock(text) }

    /// The first annotation's name (the picture's), `nil` for a skipped block.
    var name: String? {
        for annotation in annotations {
            let spec = annotation.replacingOccurrences(of: "<!--", with: "")
                .trimmingCharacters(in: .whitespaces)
            guard spec.hasPrefix("marble "), !spec.hasPrefix("marble skip:") else { continue }
            let rest = spec.dropFirst("marble ".count)
            return String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        }
        return nil
    }

    var description: String { "\(file): \(annotations.joined(separator: " ")) \(text)" }
}

/// The repository's root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Reads every ```` ```text ```` block as `Scripts/extract-marbles` does: of a doc comment in a
/// `.swift` file in `Sources` (a line `/// ```text`), or of `Docs/*.md`, the articles of the
/// catalogs in `Docs` (`Docs/*.docc/*.md`) and the modules' catalogs' articles
/// `Sources/<Module>/<Module>.docc/*.md` (a line ```` ```text ````). Other fences are
/// not marble diagrams.
private func blocksInSources() throws -> [DocMarbleSource] {
    var paths: [String] = []
    func walk(_ folder: String) throws {
        let url = repositoryRoot.appendingPathComponent(folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
            if isFolder.boolValue {
                try walk(folder + "/" + name)
            } else if name.hasSuffix(".swift") {
                paths.append(folder + "/" + name)
            }
        }
    }
    try walk("Sources")
    let files = FileManager.default
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
    func docText(_ line: Substring) -> String {
        var text = line.trimmingCharacters(in: .whitespaces).dropFirst(3)
        if text.first == " " { text = text.dropFirst() }
        return String(text)
    }
    var found: [DocMarbleSource] = []
    for path in paths.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
        let contents = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
        let markdown = path.hasSuffix(".md")
        let prefix = markdown ? "" : "/// "
        func text(_ line: Substring) -> String {
            markdown ? String(line) : docText(line)
        }
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == prefix + "```text" else { continue }
            var annotations: [String] = []
            var back = index - 1
            while back >= 0, lines[back].trimmingCharacters(in: .whitespaces).hasPrefix(prefix + "<!--") {
                annotations.insert(text(Substring(lines[back].trimmingCharacters(in: .whitespaces))), at: 0)
                back -= 1
            }
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != prefix + "```" { end += 1 }
            let text = lines[(index + 1)..<min(end, lines.count)].map(text).joined(separator: "\n")
            found.append(DocMarbleSource(file: path, annotations: annotations, text: text))
            index = end
        }
    }
    return found
}

@Suite("Doc comment marble diagrams are current")
struct DocMarblesCurrencyTests {
    /// A changed diagram or annotation fails here until `Scripts/extract-marbles` is run.
    @Test func theGeneratedTestsAreWhatTheSourcesMakeNow() throws {
        let current = try blocksInSources()
        let annotated = current.filter { !$0.annotations.isEmpty }
        let skipped = current.filter { $0.annotations.contains { $0.contains("marble skip:") } }
        let runs = current.flatMap(\.annotations).filter { !$0.contains("marble skip:") }.count
        let markdown = current.filter { $0.file.hasSuffix(".md") }
        print("doc marbles: \(current.count) ```text blocks (\(current.count - markdown.count) in doc comments, \(markdown.count) in Docs and guides); \(annotated.count - skipped.count) run as \(runs) tests, \(skipped.count) skipped")
        for block in skipped {
            let reason = block.annotations.first { $0.contains("marble skip:") } ?? ""
            print("doc marbles: skipped in \(block.file): \(reason)")
        }
        for block in current where block.annotations.isEmpty {
            Issue.record("\(block.file): a ```text block has no <!-- marble ... --> annotation:\n\(block.text)")
        }
        #expect(current.count == docMarbleSources.count,
                "Tests/StreamsTests/Testing/DocMarbles.generated.swift is stale: run Scripts/extract-marbles")
        for (now, generated) in zip(current, docMarbleSources) where now != generated {
            Issue.record("stale (run Scripts/extract-marbles): \(generated.file) now has\n\(now)\nbut the generated tests have\n\(generated)")
        }
    }

    /// The blocks of ComposableArchitecture and StreamsFoundation run in their own test targets'
    /// generated files; each is what the script wrote with this file (same FNV-1a hash).
    @Test func theOtherModulesGeneratedTestsAreCurrent() throws {
        for file in docMarbleModuleFiles {
            let contents = try? String(contentsOf: repositoryRoot.appendingPathComponent(file.path), encoding: .utf8)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (contents ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            #expect(contents != nil && hash == file.fnv1a, "\(file.path) is stale or missing: run Scripts/extract-marbles")
        }
        print("doc marbles: \(docMarbleModuleFiles.count) other generated files: \(docMarbleModuleFiles.map(\.path))")
    }

    /// Each picture in the Resources of `Sources/Streams/Streams.docc`,
    /// `Sources/ComposableArchitecture/ComposableArchitecture.docc` and `Docs/Contract.docc` is
    /// what ``MarbleSVG`` draws from its diagram now (the diagrams of the doc comments and
    /// articles under the catalog's `folder`). `MARBLES_RECORD=1` writes them instead
    /// (`Scripts/extract-marbles` does).
    @Test(arguments: [
        (folder: "Sources/Streams/", catalog: "Sources/Streams/Streams.docc"),
        (folder: "Sources/ComposableArchitecture/", catalog: "Sources/ComposableArchitecture/ComposableArchitecture.docc"),
        (folder: "Docs/Contract.docc/", catalog: "Docs/Contract.docc"),
    ])
    func thePicturesAreWhatTheDiagramsDrawNow(folder: String, catalog: String) throws {
        let resources = repositoryRoot.appendingPathComponent(catalog + "/Resources")
        let record = ProcessInfo.processInfo.environment["MARBLES_RECORD"] == "1"
        if record { try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true) }
        var expected: Set<String> = []
        for source in docMarbleSources where source.file.hasPrefix(folder) {
            guard let name = source.name else { continue }
            let file = "marble-\(name).svg"
            expected.insert(file)
            let svg = MarbleSVG.render(source.block)
            let url = resources.appendingPathComponent(file)
            if record {
                try svg.write(to: url, atomically: true, encoding: .utf8)
            } else {
                let committed = try? String(contentsOf: url, encoding: .utf8)
                #expect(committed == svg, "\(file) is not what \(source.file)'s diagram draws now: run Scripts/extract-marbles")
            }
        }
        let present = (try? FileManager.default.contentsOfDirectory(atPath: resources.path)) ?? []
        for file in present where file.hasPrefix("marble-") && !expected.contains(file) {
            if record {
                try FileManager.default.removeItem(at: resources.appendingPathComponent(file))
            } else {
                Issue.record("\(file) draws no diagram in \(folder) any more: run Scripts/extract-marbles")
            }
        }
        print("doc marbles: \(expected.count) pictures in \(catalog)/Resources")
        if catalog == "Sources/Streams/Streams.docc" {
            // The article that shows them (Scripts/extract-marbles writes it) shows each one.
            let article = try String(
                contentsOf: repositoryRoot.appendingPathComponent("Sources/Streams/Streams.docc/MarbleDiagrams.md"), encoding: .utf8)
            let shown = Set(article.split(separator: "(").compactMap { part -> String? in
                guard part.hasPrefix("marble-"), let end = part.firstIndex(of: ")") else { return nil }
                return String(part[..<end])
            })
            #expect(shown == expected, "Sources/Streams/Streams.docc/MarbleDiagrams.md is stale: run Scripts/extract-marbles")
        }
    }
}
