import Streams
import StreamsTesting
import Testing

@Suite("Fail")
struct FailTests {
    struct Oops: Error, Equatable {}

    @Test func failsAtOnceWithoutDemand_S5() {
        assertMarbles(Fail<Int, Oops>(error: Oops()), "^", demand: .none)
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        Fail<Int, Oops>(error: Oops()).subscribe(subscriber)
        #expect(subscriber.completion == .failure(Oops()))
        #expect(subscriber.events.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func outputTypeInitializer() {
        let fail = Fail(outputType: String.self, failure: Oops())
        #expect(fail.error == Oops())
        #expect(fail == Fail<String, Oops>(error: Oops()))
    }

    @Test func requestingNoneIsIgnored_S9() {
        // As in Combine: its subscription is `Subscriptions.empty`, which ignores every request.
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        Fail<Int, Oops>(error: Oops()).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.completion == .failure(Oops()))
    }

    @Test func contract() {
        checkContract { Fail<Int, Oops>(error: Oops()) }
    }
}
