import Streams
import StreamsTesting
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
    final class Counter: @unchecked Sendable { var count = 0 }
    struct StructCancellable: Cancellable {
        let counter: Counter
        func cancel() { counter.count += 1 }
    }

    @Test func runsOnceWhenCancelledTwiceOrDeallocated() {
        let counter = Counter()
        do {
            let cancellable = AnyCancellable { counter.count += 1 }
            cancellable.cancel()
            cancellable.cancel()
        }
        #expect(counter.count == 1)
    }

    @Test func cancelsOnDeinit() {
        let counter = Counter()
        do {
            _ = AnyCancellable { counter.count += 1 }
        }
        #expect(counter.count == 1)
    }

    @Test func wrapsStructsAndClasses() {
        let counter = Counter()
        AnyCancellable(StructCancellable(counter: counter)).cancel()
        #expect(counter.count == 1)
        let inner = AnyCancellable { counter.count += 10 }
        AnyCancellable(inner).cancel()
        #expect(counter.count == 11)
    }

    @Test func releasesTheActionAfterRunning() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let cancellable: AnyCancellable
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = AnyCancellable { _ = captured }
        }
        #expect(weakCaptured != nil)
        cancellable.cancel()
        #expect(weakCaptured == nil)
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        var set = Set<AnyCancellable>()
        a.store(in: &set)
        a.store(in: &set)
        b.store(in: &set)
        #expect(set.count == 2)
    }

    @Test func storeInAnyRangeReplaceableCollection() {
        let counter = Counter()
        var array: [AnyCancellable] = []
        AnyCancellable { counter.count += 1 }.store(in: &array)
        StructCancellable(counter: counter).store(in: &array)
        var set = Set<AnyCancellable>()
        StructCancellable(counter: counter).store(in: &set)
        #expect(array.count == 2)
        array.removeAll()
        set.removeAll()
        #expect(counter.count == 3)
    }
}
