import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("OperationQueue scheduler: time and stride")
struct OperationQueueSchedulerTests {
    typealias Time = OperationQueue.SchedulerTimeType
    typealias Stride = OperationQueue.SchedulerTimeType.Stride

    @Test func itsTimeIsATypeOfItsOwn() {
        #expect(ObjectIdentifier(Time.self) != ObjectIdentifier(RunLoop.SchedulerTimeType.self))
        #expect(ObjectIdentifier(Stride.self) != ObjectIdentifier(RunLoop.SchedulerTimeType.Stride.self))
    }

    @Test func distanceAndAdvanceInSeconds() {
        let time1 = Time(Date(timeIntervalSince1970: 10_000))
        let time2 = Time(Date(timeIntervalSince1970: 10_431))
        #expect(time1.distance(to: time2).timeInterval == 431)
        #expect(time2.distance(to: time1).timeInterval == -431)
        let time = Time(Date(timeIntervalSinceReferenceDate: 10_000))
        #expect(time.advanced(by: .seconds(431)) == Time(Date(timeIntervalSinceReferenceDate: 10_431)))
        #expect(time.advanced(by: .seconds(-220)) == Time(Date(timeIntervalSinceReferenceDate: 9_780)))
        #expect(time < time.advanced(by: .milliseconds(1)))
        #expect(Set([time, time.advanced(by: 0), time2]).count == 2)
    }

    @Test func strideConstructorsAndArithmetic() {
        #expect(Stride.seconds(2).timeInterval == 2)
        #expect(Stride.seconds(2.2).timeInterval == 2.2)
        #expect(Stride.milliseconds(2).timeInterval == 0.002)
        #expect(Stride.microseconds(2).timeInterval == 2E-06)
        #expect(Stride.nanoseconds(2).timeInterval == 2E-09)
        #expect((1.2 as Stride).magnitude == 1.2)
        #expect((2 as Stride).magnitude == 2)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: 871 as UInt64)?.magnitude == 871)
        #expect(Stride.seconds(1) + .milliseconds(500) == .seconds(1.5))
        #expect(Stride.seconds(1) - .seconds(3) == -2)
        #expect(Stride.seconds(2) * .seconds(3) == 6)
        #expect(Stride.nanoseconds(1) < .microseconds(1))
    }

    @Test func codableFormIsCombines() throws {
        // The forms Combine writes (OpenCombine's RunLoopSchedulerTests, run for OperationQueue).
        let time = Time(Date(timeIntervalSinceReferenceDate: 1024.75))
        let encodedTime = try JSONEncoder().encode(time)
        #expect(String(decoding: encodedTime, as: UTF8.self) == #"{"date":1024.75}"#)
        #expect(try JSONDecoder().decode(Time.self, from: Data(#"{"date":1024.75}"#.utf8)) == time)

        let stride = Stride.seconds(1024.5)
        let encodedStride = try JSONEncoder().encode(stride)
        #expect(String(decoding: encodedStride, as: UTF8.self) == #"{"magnitude":1024.5}"#)
        #expect(try JSONDecoder().decode(Stride.self, from: Data(#"{"magnitude":1024.5}"#.utf8)) == stride)
    }

    @Test func runLoopCodableFormIsCombinesToo() throws {
        let time = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1024.75))
        #expect(String(decoding: try JSONEncoder().encode(time), as: UTF8.self) == #"{"date":1024.75}"#)
        let stride = RunLoop.SchedulerTimeType.Stride.seconds(1024.5)
        #expect(String(decoding: try JSONEncoder().encode(stride), as: UTF8.self) == #"{"magnitude":1024.5}"#)
    }

    @Test func testSchedulerUsesTheOperationQueueTypes() {
        let scheduler = OperationQueue.test
        let start: OperationQueue.SchedulerTimeType = scheduler.now
        let log = LockedLog()
        scheduler.schedule(after: start.advanced(by: .milliseconds(1_500))) { log.append("ran") }
        scheduler.advance(by: .seconds(1))
        #expect(log.entries.isEmpty)
        scheduler.advance(by: .milliseconds(500))
        #expect(log.entries == ["ran"])
    }
}

@Suite("OperationQueue scheduler: far-future work")
struct OperationQueueFarFutureTests {
    @Test func farFutureWorkNeitherTrapsNorRunsAtOnce() {
        let queue = OperationQueue()
        let ran = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .seconds(Int.max))) { ran.signal() }
        queue.schedule(after: queue.now.advanced(by: .seconds(.infinity))) { ran.signal() }
        let repeating = queue.schedule(after: queue.now.advanced(by: .seconds(9.3e18)), interval: .seconds(9.3e18)) {
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
        repeating.cancel()
        queue.cancelAllOperations()
    }
}

@Suite("OperationQueue scheduler: work scheduled for later is in the queue")
struct OperationQueuePendingWorkTests {
    final class Flag: @unchecked Sendable {  // `value` guarded by `lock`
        private let lock = NSLock()
        private var raised = false
        func raise() { lock.lock(); raised = true; lock.unlock() }
        var value: Bool { lock.lock(); defer { lock.unlock() }; return raised }
    }

    @Test func itIsCountedAndCancelledWithTheQueuesOperations() {
        let queue = OperationQueue()
        let ran = Flag()
        queue.schedule(after: queue.now.advanced(by: .seconds(3600))) { ran.raise() }
        #expect(queue.operationCount == 1)
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
        #expect(queue.operationCount == 0)
        #expect(!ran.value)
    }

    @Test func waitUntilAllOperationsAreFinishedWaitsForIt() {
        let queue = OperationQueue()
        let ran = Flag()
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { ran.raise() }
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.value)
        #expect(queue.operationCount == 0)
    }

    @Test func aSuspendedQueueHoldsItWhenItIsDue() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let ran = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now) { ran.signal() }
        #expect(queue.operationCount == 1)
        #expect(ran.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.wait(timeout: .now()) == .success)
    }
}
