import Dispatch
import Foundation
import Streams
import Testing

@Suite("DispatchQueue scheduler: time and stride")
struct DispatchQueueSchedulerTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    static func time(_ nanoseconds: UInt64) -> Time { Time(DispatchTime(uptimeNanoseconds: nanoseconds)) }

    // MARK: Time arithmetic saturates

    @Test func distanceSaturatesInsteadOfWrapping() {
        // The values Combine gives (OpenCombine's DispatchQueueSchedulerTests pin them): a
        // distance longer than Int.max nanoseconds is .max, also backwards.
        let time1 = Self.time(10_000)
        let time2 = Self.time(10_431)
        let distantFuture = Time(.distantFuture)
        let notSoDistantFuture = Self.time(DispatchTime.distantFuture.uptimeNanoseconds - 1024)
        let int64Max = Self.time(UInt64(Int.max))

        #expect(time1.distance(to: time2) == .nanoseconds(431))
        #expect(time2.distance(to: time1) == .nanoseconds(-431))
        #expect(time1.distance(to: distantFuture) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: time1) == .nanoseconds(.max))
        #expect(time2.distance(to: notSoDistantFuture) == .nanoseconds(.max))
        #expect(notSoDistantFuture.distance(to: time2) == .nanoseconds(.max))
        #expect(time1.distance(to: int64Max) == .nanoseconds(.max - 10_000))
        #expect(int64Max.distance(to: time1) == .nanoseconds(-(.max - 10_000)))
        #expect(distantFuture.distance(to: distantFuture) == .nanoseconds(0))
        #expect(int64Max.distance(to: int64Max) == .nanoseconds(0))
    }

    @Test func advancedSaturatesInsteadOfWrapping() {
        let time = Self.time(10_000)
        #expect(time.advanced(by: .nanoseconds(431)) == Self.time(10_431))
        #expect(time.advanced(by: .nanoseconds(-220)) == Self.time(9_780))
        // As Combine and dispatch: past Int64.max nanoseconds is the distant future...
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .seconds(Int.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .nanoseconds(.max - 5_000)).dispatchTime == .distantFuture)
        #expect(Self.time(UInt64(Int64.max) - 10).advanced(by: .nanoseconds(10)) == Self.time(UInt64(Int64.max)))
        #expect(Self.time(UInt64(Int64.max) - 10).advanced(by: .nanoseconds(11)).dispatchTime == .distantFuture)
        // ... which stays there ...
        #expect(Time(.distantFuture).advanced(by: .seconds(-1)).dispatchTime == .distantFuture)
        // ... and before the start of uptime is its first nanosecond.
        #expect(Self.time(1).advanced(by: .nanoseconds(-1_000)) == Self.time(1))
        #expect(Self.time(500).advanced(by: .nanoseconds(.min)) == Self.time(1))
    }

    @Test func farFutureWorkDoesNotRunAtOnce() {
        let queue = DispatchQueue(label: "far future")
        let ran = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .seconds(Int.max))) { ran.signal() }
        queue.schedule(after: queue.now.advanced(by: .nanoseconds(.max))) { ran.signal() }
        queue.schedule(after: queue.now.advanced(by: .seconds(1_000_000_000))) { ran.signal() }
        queue.sync {}
        #expect(ran.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
    }

    @Test func farFutureRepeatingWorkDoesNotRunAtOnce() {
        let queue = DispatchQueue(label: "far future, repeating")
        let ran = DispatchSemaphore(value: 0)
        let cancellable = queue.schedule(after: queue.now.advanced(by: .seconds(Int.max)), interval: .seconds(1)) {
            ran.signal()
        }
        queue.sync {}
        #expect(ran.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
        cancellable.cancel()
    }

    // MARK: Stride arithmetic never traps

    @Test func sumsAndDifferencesStopAtTheEnds() {
        #expect(Stride.nanoseconds(.max) + .nanoseconds(1) == .nanoseconds(.max))
        #expect(Stride.nanoseconds(.min) + .nanoseconds(-1) == .nanoseconds(.min))
        #expect(Stride.nanoseconds(.min) - .nanoseconds(1) == .nanoseconds(.min))
        #expect(Stride.nanoseconds(.max) - .nanoseconds(-1) == .nanoseconds(.max))
        #expect(-Stride.nanoseconds(.min) == .nanoseconds(.max))
        var stride = Stride.seconds(Int.max)
        stride += .seconds(1)
        #expect(stride == .nanoseconds(.max))
        stride -= .nanoseconds(.max)
        #expect(stride == .zero)
        #expect(Stride.nanoseconds(7) + .nanoseconds(-12) == .nanoseconds(-5))
        #expect(Stride.nanoseconds(-12) - .nanoseconds(7) == .nanoseconds(-19))
    }

    @Test func productIsZeroAsInCombine() {
        // Combine's stride multiplication gives zero (OpenCombine's testStrideMultiplication).
        #expect((Stride.nanoseconds(15) * .nanoseconds(2)).magnitude == 0)
        #expect((Stride.seconds(Int.max) * .seconds(Int.max)).magnitude == 0)
        var stride = Stride.microseconds(-3)
        stride *= .nanoseconds(10)
        #expect(stride.magnitude == 0)
    }

    @Test func constructorsClamp() {
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.milliseconds(.min).magnitude == .min)
        #expect(Stride.microseconds(.max).magnitude == .max)
        #expect(Stride.seconds(Double.infinity).magnitude == .max)
        #expect(Stride.seconds(-Double.infinity).magnitude == .min)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(1.2).magnitude == 1_200_000_000)
        #expect(Stride(.never).magnitude == .max)
        #expect(Stride(.seconds(.min)).magnitude == .min)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
    }
}

@Suite("DispatchQueue scheduler: Combine's coding")
struct DispatchQueueSchedulerCodingTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    struct Keyed<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
    }

    @Test func strideIsEncodedAsCombineEncodesIt() throws {
        // Combine's form (OpenCombine's testStrideCodable): the nanoseconds under "_nanoseconds".
        let encoded = try JSONEncoder().encode(Keyed(value: Stride.nanoseconds(419_872)))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
    }

    @Test func strideWrittenByCombineIsRead() throws {
        let json = #"{"value":{"_nanoseconds":-1500000000}}"#
        let decoded = try JSONDecoder().decode(Keyed<Stride>.self, from: Data(json.utf8))
        #expect(decoded.value == .milliseconds(-1_500))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Stride.self, from: Data(#"{"magnitude":1}"#.utf8))
        }
    }

    @Test func timeIsItsUptimeInNanoseconds() throws {
        let time = Time(DispatchTime(uptimeNanoseconds: 42))
        let encoded = try JSONEncoder().encode(Keyed(value: time))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":42}"#)
        #expect(try JSONDecoder().decode(Keyed<Time>.self, from: Data(#"{"value":42}"#.utf8)).value == time)
    }

    @Test func roundTrips() throws {
        for stride in [Stride.nanoseconds(0), .seconds(3), .nanoseconds(.max), .nanoseconds(.min), .milliseconds(-7)] {
            let data = try JSONEncoder().encode(stride)
            #expect(try JSONDecoder().decode(Stride.self, from: data) == stride)
        }
        let far = Time(.distantFuture)
        #expect(try JSONDecoder().decode(Time.self, from: try JSONEncoder().encode(far)) == far)
    }
}
