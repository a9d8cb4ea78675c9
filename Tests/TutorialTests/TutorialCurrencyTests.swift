import Foundation
import Testing

// The PrimeTime tutorial's projects are compiled here from files Scripts/extract-tutorial wrote:
// Steps.generated.swift (the project after each step, each in an enum of its own) and Finished/
// (the finished project, as it is). These tests fail when the tutorial or one of its code files
// changed, or a code file was added or removed, without running the script again.

/// The repository's root, found from this file's path (Tests/TutorialTests/<file>).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as `Scripts/extract-tutorial` computes it.
private func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
}

/// The files in `folder` (relative to the repository's root) whose names end with `suffix`, as
/// paths relative to the root.
private func files(in folder: String, endingWith suffix: String) throws -> Set<String> {
    let names = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(folder).path)
    return Set(names.filter { $0.hasSuffix(suffix) }.map { folder + "/" + $0 })
}

@Suite("The tutorial's generated files are current (Scripts/extract-tutorial)")
struct TutorialCurrencyTests {
    static let catalog = "Sources/ComposableArchitecture/ComposableArchitecture.docc"

    @Test func everyFileTheStepsWereMadeFromIsUnchanged() throws {
        #expect(tutorialSources.count > 40)
        for source in tutorialSources {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(source.path), encoding: .utf8)
            #expect(fnv1a(text) == source.fnv1a, "\(source.path) changed: run Scripts/extract-tutorial")
        }
    }

    @Test func noTutorialOrCodeFileWasAddedOrRemoved() throws {
        let listed = Set(tutorialSources.map(\.path))
        let present = try files(in: Self.catalog + "/Tutorials", endingWith: ".tutorial")
            .union(files(in: Self.catalog + "/Resources/PrimeTimeTutorial", endingWith: ""))
            .union(files(in: "Tests/TutorialTests/Finished", endingWith: ".swift"))
        #expect(present.subtracting(listed).sorted() == [], "run Scripts/extract-tutorial")
        #expect(listed.subtracting(present).sorted() == [], "run Scripts/extract-tutorial")
    }
}
