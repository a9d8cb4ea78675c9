import Foundation
import StreamsTesting
import Testing

@testable import MarblesLab

/// Several subscribers (`--subscribe-at`) for `share` and `multicast`, and cold rows (`--cold`)
/// that each subscription plays from its start, so `retry` starts over.
@Suite("Marbles: several subscribers, and cold rows")
struct SubscribersAndColdRowsTests {
    static func oneShot(_ arguments: String...) -> OperatorCoverageTests.OneShot {
        OperatorCoverageTests.oneShot(arguments)
    }

    // MARK: Several subscribers

    @Test func shareGivesALateSubscriberOnlyWhatComesAfterIt() throws {
        let run = Self.oneShot("share", "-1-2-3-4-|", "--subscribe-at", "0,4")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                upstream:     -1-2-3-4-|
                              share
                subscriber 1: -1-2-3-4-|
                subscriber 2:     -3-4-|   (subscribes at tick 4; missed 1, 2)

                subscribers: each subscribes at its tick, before that tick's events; its row is blank
                before. "missed": what the others got before it subscribed, and it never did.

                """)
        // The same rows as the operator's doc diagram (its subscriber 2 comes "after 2").
        let doc = try #require(LabDocs.diagram(named: "share"))
        let rows = doc.block.diagramRows
        for (label, row) in [("subscriber 1:", rows[1]), ("subscriber 2:", rows[2])] {
            let printed = try OperatorCoverageTests.outputTicks(run.output, label: label)
            #expect(
                OperatorCoverageTests.trimmed(printed) == OperatorCoverageTests.trimmed(try doc.block.ticks(of: row)))
        }
    }

    @Test func theLastSubscribersCancelCancelsTheSharedUpstream() {
        let run = Self.oneShot("share | map(x*10)", "-1-2-3-4-|", "--subscribe-at", "0,4", "--cancel-at", "6")
        #expect(
            run.output.hasPrefix(
                """
                upstream:           -1-2-3-4-|
                                    share | map(x*10)
                subscriber 1:       -a-b-c----   (a = 10, b = 20, c = 30)
                subscriber 2:           -c----   (subscribes at tick 4; missed 10, 20)
                subscriber 1 asked: ∞-----;---
                subscriber 2 asked:     ∞-;---
                asked of upstream:  ∞-----;---
                """))
    }

    @Test func eachSubscriberMayCancelAtATickOfItsOwn() {
        // The upstream is cancelled with the last subscriber, not the first.
        let run = Self.oneShot("share", "-1-2-3-4-5-|", "--subscribe-at", "0,2", "--cancel-at", "5,8")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasPrefix(
                """
                upstream:           -1-2-3-4-5-|
                                    share
                subscriber 1:       -1-2--------
                subscriber 2:         -2-3-4----   (subscribes at tick 2; missed 1)
                subscriber 1 asked: ∞----;------
                subscriber 2 asked:   ∞-----;---
                asked of upstream:  ∞-------;---
                """))
    }

    @Test func multicastConnectsWhenTold() {
        // A cold row starts at connect(): both subscribers, attached before, get every value.
        let cold = Self.oneShot("multicast", "-1-2-3-|", "--cold", "--subscribe-at", "0,2", "--connect-at", "2")
        #expect(
            cold.output.hasPrefix(
                """
                upstream (cold): -1-2-3-|
                                 multicast
                subscriber 1:    ---1-2-3-|
                subscriber 2:      -1-2-3-|   (subscribes at tick 2)
                """))
        let run = Self.oneShot(
            "multicast", "-1-2-3-|", "--subscribe-at", "0,2", "--connect-at", "2", "--demand", "unlimited")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasPrefix(
                """
                upstream:           -1-2-3-|
                                    multicast
                subscriber 1:       ---2-3-|
                subscriber 2:         -2-3-|   (subscribes at tick 2)
                subscriber 1 asked: ∞-------
                subscriber 2 asked:   ∞-----
                asked of upstream:  --∞-----
                """))
        let auto = Self.oneShot("multicast | autoconnect", "-1-2-3-4-|", "--subscribe-at", "0,4")
        #expect(
            auto.output.contains(
                "subscriber 1: -1-2-3-4-|\nsubscriber 2:     -3-4-|   (subscribes at tick 4; missed 1, 2)"))
    }

    @Test func withoutShareEachSubscriberSubscribesOnItsOwn() {
        // A cold row plays again for the second subscriber: it misses nothing.
        let run = Self.oneShot("map(x*10)", "-1-2-3-|", "--cold", "--subscribe-at", "0,2", "--demand", "unlimited")
        #expect(
            run.output.hasPrefix(
                """
                upstream (cold):        -1-2-3-|
                                        map(x*10)
                subscriber 1:           -a-b-c-|--   (a = 10, b = 20, c = 30)
                subscriber 2:             -a-b-c-|   (subscribes at tick 2)
                subscriber 1 asked:     ∞---------
                subscriber 2 asked:       ∞-------
                asked of upstream:      ∞-∞-------
                subscribed to upstream: 1-2-------
                """))
    }

    @Test func oneLateSubscriberIsStillTheOutputRow() {
        let run = Self.oneShot("map(x*10)", "-1-2-3-|", "--subscribe-at", "3")
        #expect(run.output.contains("output:      a-b-|   (a = 20, b = 30) (subscribes at tick 3)"), "\(run.output)")
    }

    @Test(
        "option errors: a message, the column where there is one, and exit status 2",
        arguments: [
            (
                ["share", "-1-2-|", "--subscribe-at", "0,x"],
                "error: --subscribe-at: expected a tick, a whole number from 0 to 1000; found 'x'\n  0,x\n    ^ column 3\n"
            ),
            (
                ["share", "-1-2-|", "--subscribe-at", "0,1,2,3,4,5,6,7,8,9"],
                "error: --subscribe-at: at most 9 subscribers, 10 given\n"
            ),
            (
                ["map(x)", "-1-|", "--connect-at", "3"],
                "error: --connect-at is for a multicast the lab connects: the operator has none (multicast)\n"
            ),
            (
                ["share", "-1-|", "--subscribe-at", "0,2", "--cancel-at", "5,8,9"],
                "error: --cancel-at: 3 ticks for 2 subscribers: give one tick for all, or one for each subscriber\n"
            ),
            (
                ["share", "-1-|", "--subscribe-at", "0,4", "--cancel-at", "5,3"],
                "error: --cancel-at: subscriber 2 would cancel at tick 3, before it subscribes at tick 4\n"
            ),
            (
                ["share", "-1-|", "--cancel-at", "5,x"],
                "error: --cancel-at: expected a tick, a whole number from 0 to 1000; found 'x'\n  5,x\n    ^ column 3\n"
            ),
            (["map(x)", "-1-|", "--cold=q"], "error: --cold=q: there is no row named q (rows: upstream)\n"),
            (
                ["map(x)", "-1-|", "--cold="],
                "error: --cold=: a row's name is missing (--cold alone makes every row cold)\n"
            ),
            (
                ["share | autoconnect", "-1-|"],
                "error: autoconnect connects a connectable publisher: write it right after multicast\n  share | autoconnect\n          ^ column 9\n"
            ),
        ])
    func optionErrors(arguments: [String], message: String) {
        let run = OperatorCoverageTests.oneShot(arguments)
        #expect(run.status == 2)
        #expect(run.output == "")
        #expect(run.errors == message)
    }

    // MARK: Cold rows

    @Test func retryStartsAColdRowOverAsCombineRetriesADeferredPublisher() {
        let run = Self.oneShot("retry(2)", "-1-2-#", "--cold")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                upstream (cold): -1-2-^
                                 retry(2)
                output:          -1-2--1-2--1-2-^

                """)
        // A hot row that failed fails again at once.
        #expect(Self.oneShot("retry(2)", "-1-2-#").output.contains("output:   -1-2-^\n"))
    }

    @Test func theDemandRowsShowEachNewSubscription() {
        let run = Self.oneShot("retry(2)", "-1-2-#", "--cold", "--demand", "max(1)@0,max(5)@2")
        #expect(
            run.output == """
                upstream (cold):        -1-2-^
                                        retry(2)
                output:                 -1-2--1-2--1-2-^
                you asked:              1-5-------------
                asked of upstream:      1-5--4----2-----
                subscribed to upstream: 1----2----3-----

                demand: "you asked" is what the subscriber at the end asked for; "asked of ROW" is what
                the operator asked that row for. 1 = .max(1), ∞ = .unlimited, ; = cancel.
                subscribed: "subscribed to ROW" counts the subscriptions to that row (2 = the second); a
                cold row plays its diagram again for each, from the tick of that subscription.

                """)
        // A hot row subscribed again is counted too.
        let hot = Self.oneShot("retry(1)", "-1-2-#", "--demand", "unlimited")
        #expect(hot.output.contains("asked of upstream:      ∞----∞\nsubscribed to upstream: 1----2\n"))
    }

    @Test func aColdRunWaitsForScheduledWorkAWhileAtMostAsAHotOneDoes() {
        // collect(byTime:) schedules work for ever; the run stops 30 ticks after the last replay.
        let run = Self.oneShot("collect(byTime: 3)", "-1-2-", "--cold")
        #expect(
            run.output.contains(
                "output:          ---a--b" + String(repeating: "-", count: 28) + "   (a = [1], b = [2])\n"))
    }

    @Test func thePictureOfSeveralSubscribersHasTheirRows() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = Self.oneShot("share", "-1-2-3-4-|", "--subscribe-at", "0,4", "--svg", file.path)
        #expect(run.status == 0, "\(run.errors)")
        let rows = """
            upstream:     -1-2-3-4-|
                          share
            subscriber 1: -1-2-3-4-|
            subscriber 2: -----3-4-|
            """
        #expect(try String(contentsOf: file, encoding: .utf8) == MarbleSVG.render(MarbleBlock(rows), title: "share"))
    }

    @Test func onlyTheRowsNamedAreCold() {
        let run = Self.oneShot("flatMap", "-a--a---|", "--input", "a=-1-2|", "--cold=a")
        #expect(
            run.output == """
                upstream: -a--a---|
                a (cold): -1-2|
                          flatMap
                output:   --1-21-2|

                """)
    }

    @Test func theSessionKeepsTheNewSettings() {
        var written = ""
        var session = LabSession { written += $0 }
        _ = session.handle(":cold")
        #expect(session.setup.allRowsCold)
        _ = session.handle(":cold b")
        #expect(!session.setup.allRowsCold && session.setup.coldRows == ["b"])
        _ = session.handle(":cold off")
        #expect(!session.setup.allRowsCold && session.setup.coldRows.isEmpty)
        _ = session.handle(":subscribe-at 0,4")
        #expect(session.setup.subscribeAt == [0, 4])
        _ = session.handle(":connect-at 2")
        #expect(session.setup.connectAt == 2)
        _ = session.handle(":connect-at off")
        #expect(session.setup.connectAt == nil)
        _ = session.handle("-1-2-3-4-|")
        _ = session.handle("share")
        #expect(written.contains("subscriber 2:     -3-4-|   (subscribes at tick 4; missed 1, 2)"))
    }
}
