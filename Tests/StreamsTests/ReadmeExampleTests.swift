import Streams
import StreamsTesting
import Testing

@Suite("README quick start")
struct ReadmeQuickStartTests {
    @Test func quickStart() {
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        let log = Log()
        let searches = PassthroughSubject<String, Never>()
        let cancellable = searches
            .map { $0.lowercased() }
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .sink { log.lines.append("search: \($0)") }

        searches.send("Swift")
        searches.send("SWIFT")
        searches.send("")
        #expect(log.lines == ["search: swift"])
        _ = cancellable
    }
}
