import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("MarbleBlock")
struct MarbleBlockTests {
    @Test func readsRowsOperatorLinesAndTheLegend() throws {
        let block = MarbleBlock("""
            upstream: -1-2-|
                      map { $0 * 10 }   (a label-like ': b' in an operator line is not a row)
            output:   -a-b-|      (a = 10, b = "20")
            """)
        #expect(block.rows.map(\.label) == ["upstream", nil, "output"])
        #expect(block.diagramRows.map(\.diagram) == ["-1-2-|", "-a-b-|"])
        #expect(block.legend == ["a": "10", "b": "20"])
        #expect(try block.resolvedDiagram(of: block.diagramRows[1]) == "-'10'-'20'-|")
    }

    @Test func aLabelMayHoldColonsAndTheDiagramIsTheFirstTokenThatParses() {
        let block = MarbleBlock("Record(output: [1, 2], completion: .failure(e)):  [12^]")
        #expect(block.rows.first?.label == "Record(output: [1, 2], completion: .failure(e))")
        #expect(block.rows.first?.diagram == "[12^]")
    }

    @Test func legendEntriesAreSplitAtTopLevelOnly() {
        let block = MarbleBlock("output: -w-x-|   (w = (1, a), x = [2, 3]; `;`: cancelled)")
        #expect(block.legend == ["w": "(1, a)", "x": "[2, 3]"])
    }

    @Test func runsTheOutputRowAgainstTheInputRowBeforeIt() {
        MarbleBlock("""
            upstream: -1-2-3-4-|
                      filter
            output:   ---2---4-|
            """).check { $0.filter { Int($0)!.isMultiple(of: 2) } }
    }

    @Test func aDiagramThatDoesNotMatchFails() {
        expectFailures {
            MarbleBlock("upstream: -1-|\noutput:   --1|").check { $0 }
        }
    }

    @Test func subscriptionTimeEventsFallInTickZero() {
        MarbleBlock("upstream: -3-|\noutput:   [12]3-|").check { $0.prepend("1", "2") }
    }

    @Test func aLaterSubscriberSeesOnlyWhatComesAfterItsTick() {
        let block = MarbleBlock("upstream: -1-2-3-|\noutput:   -----3-|")
        block.check(subscribeAt: 4) { $0.share() }
        expectFailures { block.check(subscribeAt: 2) { $0.share() } }  // would see 2 too
    }

    @Test func laterDemandIsAskedForAtItsTick() {
        let block = MarbleBlock("upstream: -1-2-|\noutput:   -------[2|]")
        block.check(demand: .none, later: [7: .max(1)]) { $0.last() }
        expectFailures { block.check(demand: .none, later: [6: .max(1)]) { $0.last() } }  // would answer at 6
    }

    @Test func theAsyncDriverAwaitsRealTimeWorkAtItsTick() async {
        let scheduler = DispatchQueue.test
        let block = MarbleBlock("output: ---a")
        await block.checkAsync(
            on: scheduler, source: recordingAwait { [reached = scheduler.waitForTick(3)] in await reached(); return "a" })
        // A wrong value at the right tick fails once it arrived; an event the row shows before
        // the work can send it fails after the timeout.
        await expectFailures {
            await MarbleBlock("output: ---b").checkAsync(
                on: scheduler, source: recordingAwait { [reached = scheduler.waitForTick(3)] in await reached(); return "a" })
        }
        await expectFailures {
            await MarbleBlock("output: --a").checkAsync(
                on: scheduler, source: recordingAwait { [reached = scheduler.waitForTick(3)] in await reached(); return "a" },
                timeout: .milliseconds(300))
        }
    }

    @Test func theAsyncDriverPlaysAnInputRowIntoRealThreads() async {
        let scheduler = DispatchQueue.test
        let block = MarbleBlock("upstream: -1-2-|\noutput:   -1-2-|")
        await block.checkAsync(on: scheduler) { $0.receive(on: DispatchQueue.global()) }
        await expectFailures {
            await MarbleBlock("upstream: -1-2-|\noutput:   -1-3-|").checkAsync(on: scheduler) {
                $0.receive(on: DispatchQueue.global())
            }
        }
    }

    @Test func recordingAwaitRecordsAThrowAsTheFailure() async {
        let scheduler = DispatchQueue.test
        let future = Future<String, MarbleFailure> { promise in scheduler.atTick(2) { promise(.failure(MarbleFailure())) } }
        await MarbleBlock("value: --^").checkAsync(on: scheduler, source: recordingAwait { try await future.value })
    }

    @Test func recordingLoopRecordsWhatTheLoopRunsWith() async {
        let scheduler = DispatchQueue.test
        // A stream is iterated once: a new one for each check.
        func numbers() -> AsyncStream<String> {
            AsyncStream { continuation in
                continuation.yield("1")
                continuation.yield("2")
                continuation.finish()
            }
        }
        await MarbleBlock("loop: [12|]").checkAsync(on: scheduler, source: recordingLoop(over: numbers()))
        await expectFailures {
            await MarbleBlock("loop: [13|]").checkAsync(on: scheduler, source: recordingLoop(over: numbers()))
        }
    }

    @Test func turningRunLoopFiresARunLoopTimerOncePerTurn() async {
        let scheduler = DispatchQueue.test
        func dates() -> some Publisher<String, Never> {
            scheduler.turningRunLoop(first: 1, every: 2) { runLoop in
                Timer.publish(every: 0.05, on: runLoop, in: .default).autoconnect()
            }
            .namedInOrder()
        }
        await MarbleBlock("output: -a-b-c").checkAsync(on: scheduler, source: dates())
        await expectFailures {
            await MarbleBlock("output: -a-b-d").checkAsync(on: scheduler, source: dates())
        }
    }

    @Test func turningRunLoopFoldsTheFiresATimerMissedBetweenTurnsIntoOne() async {
        // A 1 ms timer usually misses intervals between two turns, and between the harness's
        // passes (it sleeps 1 ms after a pass that fired nothing); the run loop folds the missed
        // fires into one: still one date per turn.
        let scheduler = DispatchQueue.test
        let dates = scheduler.turningRunLoop(first: 2, every: 1) { runLoop in
            Timer.publish(every: 0.001, on: runLoop, in: .default).autoconnect()
        }
        await MarbleBlock("output: --abcd").checkAsync(on: scheduler, source: dates.namedInOrder())
    }

    @Test func anInputValueWaitsUntilTheAsyncWorkAsksForIt() async {
        let scheduler = DispatchQueue.test
        await MarbleBlock("upstream: -1-2-|\noutput:   -1-2-|").checkAsync(on: scheduler) {
            recordingLoop(over: $0.assertNoFailure().values)
        }
        await expectFailures {
            await MarbleBlock("upstream: -1-2-|\noutput:   -1-3-|").checkAsync(on: scheduler) {
                recordingLoop(over: $0.assertNoFailure().values)
            }
        }
    }

    @Test func aColdRowPlaysFromItsSubscription() {
        let scheduler = DispatchQueue.test
        MarbleBlock("""
            a:      -1|
            b:        -2|
            output: -1-2|
            """).checkCold(on: scheduler) { $0[0].append($0[1]) }
    }

    @Test func outsideWorkRunsAtItsTick() {
        let scheduler = DispatchQueue.test
        MarbleBlock("output: --[a|]").check(
            on: scheduler, source: Future<String, Never> { promise in scheduler.atTick(2) { promise(.success("a")) } })
    }

    @Test func aSubscribersCallsAreTheOutputRow() {
        MarbleBlock("upstream: -a-b-^\nsink:     -a-b-^").check { upstream in
            recordingCalls(of: upstream) { $0.sink(receiveCompletion: $1.send(completion:), receiveValue: $1.send(_:)) }
        }
    }
}
