import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing

// The examples of the article "The store's loop"
// (Sources/ComposableArchitecture/ComposableArchitecture.docc/StoreLoop.md), run as written;
// `GuideSnippetTests` checks that the article's blocks are the same as here.

@MainActor
@Suite("The store's loop (guide)")
struct StoreLoopGuideTests {
    @Test func breadthFirstAndOnePublication() {
        let reducer = Reducer<[String], String, Void> { log, action, _ in
            log.append(action)
            switch action {
            case "tap": return .merge(Effect(value: "a"), Effect(value: "b"))
            case "a": return Effect(value: "a1")
            case "b": return Effect(value: "b1")
            default: return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        var published: [[String]] = []
        let observation = store.publisher.sink { published.append($0) }
        store.send("tap")
        #expect(store.state == ["tap", "a", "b", "a1", "b1"])
        #expect(published == [[], ["tap", "a", "b", "a1", "b1"]])
        _ = observation
    }

    @Test func aSendFromAnObserverRunsBeforeTheOutermostSendReturns() {
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            state += action
            return .none
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        var published: [Int] = []
        let observation = store.publisher.sink { value in
            published.append(value)
            if value == 1 { store.send(10) }
        }
        store.send(1)
        #expect(store.state == 11)
        #expect(published == [0, 1, 11])
        _ = observation
    }

    enum TimerID: Hashable, Sendable { case tick }

    @Test func aStoreTaskCancelsWhatItsActionStarted() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<Int, String, Void> { ticks, action, _ in
            switch action {
            case "start":
                return Effect.timer(id: TimerID.tick, every: .seconds(1), on: scheduler).map { _ in "tick" }
            case "tick":
                ticks += 1
                return .none
            default:
                return .none
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        let task = store.send("start")
        scheduler.advance(by: .seconds(3))
        #expect(store.state == 3)
        task.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(store.state == 3)
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
    }

    @Test func awaitingAStoreTaskWaitsForWorkOnAnotherThread() async {
        let reducer = Reducer<Int?, String, Void> { answer, action, _ in
            switch action {
            case "ask":
                return .future { callback in
                    DispatchQueue.global().async { callback("42") }
                }
            default:
                answer = Int(action)
                return .none
            }
        }
        let store = Store(initialState: nil, reducer: reducer, environment: ())
        await store.send("ask").finish()
        #expect(store.state == 42)
    }

    enum SearchID: Hashable, Sendable { case search }

    @Test func aNewSearchCancelsTheOneInFlight() {
        let answers = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
        let reducer = Reducer<[String], Int, Void> { results, action, _ in
            switch action {
            case 0, 1:
                return answers[action].map { _ in 100 + action }.eraseToEffect()
                    .cancellable(id: SearchID.search, cancelInFlight: true)
            default:
                results.append("answer \(action - 100)")
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        store.send(1)  // cancels search 0
        answers[0].send("late")
        answers[1].send("fresh")
        #expect(store.state == ["answer 1"])
    }
}
