import Foundation
import Testing

// The Swift examples of the guides that walk through one feature are compiled and run: each
// ```swift block of an article that says `<!-- examples in tests -->` must appear, line for line,
// in a test source file (indented by any amount: a block may sit inside a type or a test function
// there). Edit an example in both places, or this test fails and names the block that drifted.
// The ```swift blocks of the other articles, and of the doc comments, are compiled by
// Scripts/extract-examples, into the DocExamples.generated.swift files (not read here).

@Suite("Guide articles: every Swift block is compiled in a test")
struct GuideSnippetTests {
    /// The repository's root: this file is Tests/ComposableArchitectureTests/Guides/<file>.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The articles of the catalogs (`Sources/<Module>/<Module>.docc`) and of `Docs` that say
    /// `<!-- examples in tests -->`.
    static let articles: [String] = {
        let files = FileManager.default
        var paths = ((try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
        for module in (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [] {
            let catalog = "Sources/\(module)/\(module).docc"
            paths += ((try? files.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? [])
                .filter { $0.hasSuffix(".md") }.map { catalog + "/" + $0 }
        }
        return paths.sorted().filter { path in
            let text = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == inTests }
        }
    }()

    /// The line that says an article's examples run in tests.
    static let inTests = "<!-- examples in tests -->"

    /// Where the examples are compiled.
    static let testFolders = ["Tests/CombineEraTests", "Tests/ComposableArchitectureTests", "Tests/StreamsTests"]

    @Test func theGuidesThatWalkThroughAFeatureRunInTests() {
        #expect(Set(GuideSnippetTests.articles).isSuperset(of: [
            "Sources/ComposableArchitecture/ComposableArchitecture.docc/FromTheEpisodes.md",
            "Sources/ComposableArchitecture/ComposableArchitecture.docc/StoreLoop.md",
            "Sources/StreamsTesting/StreamsTesting.docc/Testing.md",
        ]))
    }

    @Test(arguments: articles)
    func everySwiftBlockIsInATest(_ article: String) throws {
        let text = try String(contentsOf: GuideSnippetTests.root.appendingPathComponent(article), encoding: .utf8)
        let blocks = swiftBlocks(in: text)
        #expect(!blocks.isEmpty, "\(article) has no ```swift block")
        let sources = try testSources()
        for block in blocks where !sources.contains(where: { contains($0, block) }) {
            Issue.record("""
                This block of \(article) is in no file under \(GuideSnippetTests.testFolders.joined(separator: " or ")); \
                copy it from the test that compiles it:
                \(block.joined(separator: "\n"))
                """)
        }
    }

    @Test func theCheckFindsIndentedBlocksAndRejectsChangedOnes() {
        let source = ["struct S {", "    func f() {", "        let x = 1", "            + 2", "    }", "}"]
        #expect(contains(source, ["func f() {", "    let x = 1", "        + 2", "}"]))
        #expect(!contains(source, ["func f() {", "    let x = 2"]))
        #expect(!contains(source, ["func f() {", "let x = 1"]))  // relative indentation counts
        #expect(swiftBlocks(in: "a\n```swift\nlet a = 1\n```\n```text\nx\n```\n") == [["let a = 1"]])
    }

    /// The lines of each ```swift block, without their common indentation.
    func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(dedented(current!))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The lines of every Swift file in the test folders.
    func testSources() throws -> [[String]] {
        var files: [[String]] = []
        for folder in GuideSnippetTests.testFolders {
            let url = GuideSnippetTests.root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in enumerator
            where file.pathExtension == "swift" && !file.lastPathComponent.hasSuffix(".generated.swift") {
                files.append(try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n"))
            }
        }
        return files
    }

    /// Whether `block` appears in `source` as consecutive lines, all indented by the same extra amount.
    func contains(_ source: [String], _ block: [String]) -> Bool {
        guard let first = block.first, block.count <= source.count else { return block.isEmpty }
        for start in 0...(source.count - block.count) where source[start].hasSuffix(first) {
            let indent = String(source[start].dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }) else { continue }
            if zip(block, source[start..<(start + block.count)]).allSatisfy({ wanted, line in
                wanted.isEmpty ? line.trimmingCharacters(in: .whitespaces).isEmpty : line == indent + wanted
            }) {
                return true
            }
        }
        return false
    }

    func dedented(_ lines: [String]) -> [String] {
        let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }
        let common = indents.min() ?? 0
        return lines.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(common)) }
    }
}
