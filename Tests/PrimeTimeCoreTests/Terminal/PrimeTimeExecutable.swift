import Foundation

/// The built `PrimeTime` executable, for the tests that run it (the test target depends on it,
/// so `swift test` builds it next to the test bundle), and a directory for each test's files.
enum PrimeTimeExecutable {
    /// The `PrimeTime` executable in the build products directory, next to the test bundle.
    static var url: URL? {
        var candidates: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let path = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            candidates += [runner.deletingLastPathComponent(), runner.deletingLastPathComponent().deletingLastPathComponent()]
        }
        for directory in candidates {
            let url = directory.appendingPathComponent("PrimeTime")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// A new empty directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PrimeTimeE2E-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
