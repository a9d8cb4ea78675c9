import Streams
import StreamsTesting
import Testing

/// The examples on the DocC landing pages (`Sources/Streams/Streams.docc/Streams.md`,
/// `Sources/StreamsTesting/StreamsTesting.docc/StreamsTesting.md`), run as written.
@Suite struct LandingPageExamplesTests {
    @Test func streamsOverviewPrintsTwenty() {
        var printed: [Int] = []
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject
            .filter { $0.isMultiple(of: 2) }
            .map { $0 * 10 }
            .sink { printed.append($0) }
        subject.send(1)
        subject.send(2)
        #expect(printed == [20])
        cancellable.cancel()
    }

    @Test func streamsTestingOverviewFilterKeepsTheEvenValues() {
        // A filter ignores request(.none), as Combine's does (rule S9).
        checkContract({ (1...10).publisher.filter { $0.isMultiple(of: 2) } }, requestingNone: .isIgnored)
        assertMarbles("-1-2-3-4-|", { $0.filter { Int($0)!.isMultiple(of: 2) } }, "---2---4-|")
    }
}
