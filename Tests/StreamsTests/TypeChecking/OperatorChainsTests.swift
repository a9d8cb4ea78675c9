import Foundation
import Streams
import Testing

/// Long operator chains type-check quickly (see `OperatorChains.swift`).
@Suite("Operator chains type-check in reasonable time")
struct OperatorChainsTests {
    /// The longest the type checker may spend on one chain. A chain takes at most about 0.3 s on
    /// a 2-core machine (the slowest, a subject merged with `Just`); one whose overloads made the
    /// solver exponential took 7 s and more before the compiler gave up.
    static let secondsPerExpression = 3

    @Test func theChainsRun() {
        #expect(runOperatorChains() == ["748500", "6", "748500", "3000", "748500", "80", "4", "6", "6",
                                        "56", "4", "8", "15"])
    }

    /// Type-checks `OperatorChains.swift` on its own against the built Streams module, with the
    /// solver's time limit lowered to ``secondsPerExpression``: a chain that takes longer is an
    /// error. (The test targets' own build uses the compiler's default limits, which only catch a
    /// chain the solver gives up on.)
    @Test func eachChainTypeChecksWithinTheLimit() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("OperatorChains.swift")
        let modules = try #require(Self.modulesDirectory(), "the built Streams module was not found next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, source.path,
            "-Xfrontend", "-solver-expression-time-threshold=\(Self.secondsPerExpression)",
            "-Xfrontend", "-warn-long-expression-type-checking=\(Self.secondsPerExpression * 1000)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swiftc -typecheck failed:\n\(text)")
        #expect(!text.contains("error:") && !text.contains("to type-check"), "\(text)")
    }

    /// The build products' `Modules` folder (next to the test bundle), which holds
    /// `Streams.swiftmodule`.
    static func modulesDirectory() -> URL? {
        var candidates: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let path = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            candidates += [runner.deletingLastPathComponent(), runner.deletingLastPathComponent().deletingLastPathComponent()]
        }
        for directory in candidates {
            for modules in [directory.appendingPathComponent("Modules"), directory] {
                let module = modules.appendingPathComponent("Streams.swiftmodule")
                if FileManager.default.fileExists(atPath: module.path) { return modules }
            }
        }
        return nil
    }
}
