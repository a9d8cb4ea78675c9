import Streams
import StreamsTesting
import Testing

@Suite("Optional.Publisher")
struct OptionalPublisherTests {
    @Test func someAndNone() {
        assertMarbles(Optional(3).publisher, "[3|]")
        assertMarbles(Optional<Int>.none.publisher, "|", demand: .none)
    }

    @Test func valueWaitsForDemand_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Optional(1).publisher.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func contract() {
        checkContract { Optional(1).publisher }
        checkContract { Optional<Int>.none.publisher }
    }
}
