import Foundation
import Streams
import Testing

@Suite("ImmediateScheduler: time and stride")
struct ImmediateSchedulerTests {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride

    @Test func theClockNeverMoves() {
        // As Combine (OpenCombine's ImmediateSchedulerTests): advancing gives the same instant
        // and every distance is zero.
        let scheduler = ImmediateScheduler.shared
        let now = scheduler.now
        #expect(now == scheduler.now)
        #expect(now.advanced(by: 100) == now)
        #expect(now.distance(to: now.advanced(by: 5)) == 0)
        #expect(now.distance(to: now.advanced(by: -1)) == 0)
        #expect(!(now < now.advanced(by: 1_000)))
    }

    @Test func durationConstructorsAreZero() {
        #expect(Stride.seconds(1.2) == 0)
        #expect(Stride.seconds(1_100) == 0)
        #expect(Stride.milliseconds(123) == 0)
        #expect(Stride.microseconds(51) == 0)
        #expect(Stride.nanoseconds(23) == 0)
        #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    }

    @Test func strideArithmeticOnItsCount() {
        #expect(Stride(14) == 14)
        #expect(Stride(14) == 14.6)
        #expect(Stride(-4) == -4.1)
        #expect(Stride(-4) * Stride(5) == Stride(-20))
        #expect(Stride(-4) + Stride(5) == Stride(1))
        #expect(Stride(10) - Stride(3) == Stride(7))
        var stride = Stride(-4)
        stride += 5
        stride -= -10
        stride *= 2
        #expect(stride == 22)
        #expect(Stride(-10) < Stride(2))
    }

    @Test func strideCodableForm() throws {
        let encoded = try JSONEncoder().encode(["value": Stride(-42)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"magnitude":-42}}"#)
        let decoded = try JSONDecoder().decode([String: Stride].self, from: encoded)
        #expect(decoded["value"] == -42)
    }

    @Test func runsEverythingAtOnce() {
        final class Counter: @unchecked Sendable { var count = 0 }  // one thread
        let counter = Counter()
        let scheduler = ImmediateScheduler.shared
        scheduler.schedule { counter.count += 1 }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1_000))) { counter.count += 1 }
        let cancellable = scheduler.schedule(after: scheduler.now, interval: 10) { counter.count += 1 }
        #expect(counter.count == 3)
        #expect(String(describing: cancellable) == "Empty")
    }
}
