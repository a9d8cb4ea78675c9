import Streams
import StreamsTesting
import Testing

@Suite("Marble diagrams with several inputs")
struct MultiInputMarblesTests {
    @Test func eachInputDrivesItsOwnUpstream() {
        // An operator that uses only the second input sees only its events.
        assertMarbles(["-1-2-|",
                       "--a-b-c-|"], { $0[1].map { $0 } }, "--a-b-c-|")
        assertMarbles(["-1-2-|"], { $0[0].map { $0 } }, "-1-2-|")
    }

    @Test func withinATickTheInputsGoInOrder() {
        assertMarbles(["-1-", "-a-", "-x-"], { Publishers.MergeMany($0) }, "-[1ax]-")
        assertMarbles(["-[12]-", "-a-"], { Publishers.MergeMany($0) }, "-[12a]-")
    }

    @Test func inputsOfDifferentLengthsRunToTheLongest() {
        assertMarbles(["-1|", "-----a|"], { Publishers.MergeMany($0) }, "-1---a|")
    }

    @Test func everyCancelledUpstreamShowsAsASemicolon() {
        assertMarbles(["-1-", "-a-", "--^"], { Publishers.MergeMany($0) }, "-[1a][;;^]")
        // `;` in an input cancels that upstream's subscription by hand.
        assertMarbles(["-1;2-", "-a---"], { $0[0].merge(with: $0[1]) }, "-[1a];--")
    }

    @Test func theDemandIsTheSubscribers() {
        assertMarbles(["-1-2-3-|"], { $0[0].merge(with: Empty()) }, "-1------", demand: .max(1))
    }

    @Test func aFailingAssertionRecordsAnIssue() {
        expectFailures {
            assertMarbles(["-1-|", "--a|"], { $0[0].merge(with: $0[1]) }, "-1-a|")
        } matching: { $0.description.contains("differ at tick 2") }
    }

    @Test func aBadInputDiagramRecordsAnIssue() {
        expectFailures {
            assertMarbles(["-1-|", "-[a"], { $0[0].merge(with: $0[1]) }, "-1-|")
        } matching: { $0.description.contains("input diagram 1") }
    }
}
