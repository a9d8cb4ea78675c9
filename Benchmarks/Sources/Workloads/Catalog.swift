// The table of workloads: each id with its unit, what it does, and its version for each engine.
// The ids are the ones Docs/Performance.md has always used; the SideBySide suite
// (package-benchmark) and the StreamsBenchmarks front end both read this table.
import AsyncWorkloads
import LoopWorkloads
import OpenCombineWorkloads
import StreamsWorkloads
import WorkloadSupport

/// Who runs a workload.
public enum Engine: String, Sendable, CaseIterable {
    case streams = "Streams"
    case openCombine = "OpenCombine"
    case asyncSequence = "AsyncSequence"
    /// The plain loop: the same closures with no library around them.
    case loop = "loop"
}

/// A version's body: given n, it does n operations and returns the checksum.
public enum Body: Sendable {
    case sync(@Sendable (Int) -> UInt64)
    case async(@Sendable (Int) async -> UInt64)
    /// The store's workloads: on the main actor, where a store lives.
    case mainActor(@MainActor @Sendable (Int) -> UInt64)
    /// Bytes per live pipeline, for n pipelines kept alive at once.
    case memory(@Sendable (Int) -> MemoryReading)
    case asyncMemory(@Sendable (Int) async -> MemoryReading)
}

/// One engine's version of a workload.
public struct Version: Sendable {
    public let engine: Engine
    /// The benchmark's name after the id: the engine's name, or what sets this version apart
    /// ("AsyncChannel").
    public let label: String
    public let body: Body

    init(_ engine: Engine, _ label: String, _ body: Body) {
        self.engine = engine
        self.label = label
        self.body = body
    }

    init(_ engine: Engine, _ body: Body) {
        self.init(engine, engine.rawValue, body)
    }
}

public struct Workload: Sendable {
    public let id: String
    public let unit: String
    public let what: String
    /// The front end's n: its base size * scale.0 / scale.1.
    public let scale: (Int, Int)
    public let versions: [Version]

    public var isMemory: Bool {
        versions.contains { if case .memory = $0.body { true } else { false } }
    }

    public func version(_ engine: Engine) -> Version? { versions.first { $0.engine == engine } }
}

public let allWorkloads: [Workload] = streamingWorkloads + churnWorkloads + storeWorkloads

let streamingWorkloads: [Workload] = [
    Workload(
        id: "W1", unit: "ns/element", what: "(0..<n).publisher.map.compactMap.filter.sink", scale: (1, 1),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.pipeline(_:))),
            Version(.openCombine, .sync(OpenCombineWorkloads.pipeline(_:))),
            Version(.asyncSequence, .async(AsyncWorkloads.pipeline(_:))),
            Version(.loop, .sync(LoopWorkloads.pipeline(_:))),
        ]),
    Workload(
        id: "W2x1", unit: "ns/send", what: "PassthroughSubject.send to 1 sink (a hot source, one consumer)",
        scale: (1, 1),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.sendsToOneSink)),
            Version(.openCombine, .sync(OpenCombineWorkloads.sendsToOneSink)),
            Version(.asyncSequence, "AsyncStream", .async(AsyncWorkloads.streamSends)),
            Version(.asyncSequence, "AsyncChannel", .async(AsyncWorkloads.channelSends)),
            Version(.loop, .sync(LoopWorkloads.oneHandler)),
        ]),
    Workload(
        id: "W2x10", unit: "ns/send", what: "PassthroughSubject.send to 10 sinks", scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.sendsToTenSinks)),
            Version(.openCombine, .sync(OpenCombineWorkloads.sendsToTenSinks)),
            Version(.asyncSequence, "AsyncStream", .async(AsyncWorkloads.streamSendsToTen)),
            Version(.loop, .sync(LoopWorkloads.tenHandlers)),
        ]),
    Workload(
        id: "W3", unit: "ns/subscription",
        what: "Just(i).map.sink subscribe, then cancel in batches (a one-value pipeline made and run n times)",
        scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.churn)),
            Version(.openCombine, .sync(OpenCombineWorkloads.churn)),
            Version(.asyncSequence, .async(AsyncWorkloads.churn)),
            Version(.loop, .sync(LoopWorkloads.churn)),
        ]),
    Workload(
        id: "W3mem", unit: "bytes/subscription", what: "Just(i).map.sink kept alive: heap bytes per live pipeline",
        scale: (1, 1),
        versions: [
            Version(.streams, .memory(StreamsWorkloads.liveMemory)),
            Version(.openCombine, .memory(OpenCombineWorkloads.liveMemory)),
            Version(.asyncSequence, .asyncMemory(AsyncWorkloads.liveMemory)),
            Version(.loop, .memory(LoopWorkloads.liveMemory)),
        ]),
    Workload(
        id: "W4", unit: "ns/send", what: "CurrentValueSubject.removeDuplicates.map.sink, every other value repeats",
        scale: (1, 4),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.currentValue)),
            Version(.openCombine, .sync(OpenCombineWorkloads.currentValue)),
            Version(.asyncSequence, "AsyncStream", .async(AsyncWorkloads.currentValue)),
            Version(.loop, .sync(LoopWorkloads.currentValue)),
        ]),
    Workload(
        id: "W5ret", unit: "ns/element", what: "one at a time: receive(_:) returns .max(1)", scale: (1, 2),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.demandReturned)),
            Version(.openCombine, .sync(OpenCombineWorkloads.demandReturned)),
            Version(.loop, .sync(LoopWorkloads.demand)),
        ]),
    Workload(
        id: "W5req", unit: "ns/element", what: "one at a time: request(.max(1)) inside receive(_:)", scale: (1, 4),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.demandRequested)),
            Version(.openCombine, .sync(OpenCombineWorkloads.demandRequested)),
            Version(.loop, .sync(LoopWorkloads.demand)),
        ]),
    Workload(
        id: "W5ext", unit: "ns/element", what: "one at a time: request(.max(1)) after receive(_:) returns",
        scale: (1, 4),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.demandFromOutside)),
            Version(.openCombine, .sync(OpenCombineWorkloads.demandFromOutside)),
            Version(.loop, .sync(LoopWorkloads.demand)),
        ]),
    Workload(
        id: "W6", unit: "ns/inner", what: "(0..<n).publisher.flatMap { Just($0) }.sink", scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.flatMapInners)),
            Version(.openCombine, .sync(OpenCombineWorkloads.flatMapInners)),
            Version(.asyncSequence, .async(AsyncWorkloads.flatMapInners)),
            Version(.loop, .sync(LoopWorkloads.flatMap)),
        ]),
    Workload(
        id: "W7", unit: "ns/pair", what: "(0..<n).publisher.zip((0..<n).publisher).sink", scale: (1, 2),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.zip)),
            Version(.openCombine, .sync(OpenCombineWorkloads.zip)),
            Version(.asyncSequence, .async(AsyncWorkloads.zip)),
            Version(.loop, .sync(LoopWorkloads.zip)),
        ]),
    Workload(
        id: "M1", unit: "ns/element", what: "merge of two (0..<n/2).publishers into a sink", scale: (1, 1),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.mergeElements)),
            Version(.asyncSequence, .async(AsyncWorkloads.mergeElements)),
            Version(.loop, .sync(LoopWorkloads.merge)),
        ]),
    Workload(
        id: "C1", unit: "ns/send", what: "combineLatest of two PassthroughSubjects, sent to alternately", scale: (1, 2),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.combineLatestSends)),
            Version(.loop, .sync(LoopWorkloads.combineLatest)),
        ]),
    Workload(
        id: "B1", unit: "ns/send", what: "PassthroughSubject.buffer(size: 16, .byRequest, .dropNewest).sink",
        scale: (1, 2),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.bufferSends)),
            Version(.openCombine, .sync(OpenCombineWorkloads.bufferSends)),
            Version(.loop, .sync(LoopWorkloads.oneHandler)),
        ]),
    Workload(
        id: "R1", unit: "ns/send", what: "PassthroughSubject.receive(on: ImmediateScheduler).sink", scale: (1, 2),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.receiveOnSends)),
            Version(.openCombine, .sync(OpenCombineWorkloads.receiveOnSends)),
            Version(.loop, .sync(LoopWorkloads.oneHandler)),
        ]),
]

let churnWorkloads: [Workload] = [
    Workload(
        id: "M2", unit: "ns/subscription", what: "Just(i).merge(with: Just(i)).sink, subscribe and finish",
        scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.mergeChurn)),
            Version(.asyncSequence, .async(AsyncWorkloads.mergeChurn)),
            Version(.loop, .sync(LoopWorkloads.twoValueChurn)),
        ]),
    Workload(
        id: "F2", unit: "ns/subscription", what: "Just(i).flatMap { Just($0) }.sink, subscribe and finish",
        scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.flatMapChurn)),
            Version(.openCombine, .sync(OpenCombineWorkloads.flatMapChurn)),
            Version(.asyncSequence, .async(AsyncWorkloads.flatMapChurn)),
            Version(.loop, .sync(LoopWorkloads.oneValueChurn)),
        ]),
    Workload(
        id: "C2", unit: "ns/subscription", what: "Just(i).combineLatest(Just(i)).sink, subscribe and finish",
        scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.combineLatestChurn)),
            Version(.asyncSequence, .async(AsyncWorkloads.combineLatestChurn)),
            Version(.loop, .sync(LoopWorkloads.oneValueChurn)),
        ]),
    Workload(
        id: "K1", unit: "ns/subscription", what: "Fail.catch { Just(i) }.sink, subscribe and finish", scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.catchChurn)),
            Version(.openCombine, .sync(OpenCombineWorkloads.catchChurn)),
            Version(.loop, .sync(LoopWorkloads.oneValueChurn)),
        ]),
    Workload(
        id: "A1", unit: "ns/subscription", what: "Just(i).append(Just(i)).sink, subscribe and finish", scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.appendChurn)),
            Version(.openCombine, .sync(OpenCombineWorkloads.appendChurn)),
            Version(.asyncSequence, "chain", .async(AsyncWorkloads.appendChurn)),
            Version(.loop, .sync(LoopWorkloads.twoValueChurn)),
        ]),
    Workload(
        id: "T1", unit: "ns/subscription", what: "Fail.retry(2).replaceError(with: i).sink, three attempts",
        scale: (1, 8),
        versions: [
            Version(.streams, .sync(StreamsWorkloads.retryChurn)),
            Version(.openCombine, .sync(OpenCombineWorkloads.retryChurn)),
            Version(.loop, .sync(LoopWorkloads.oneValueChurn)),
        ]),
]

/// The store's workloads: Streams' ComposableArchitecture against calling the reducer directly.
let storeWorkloads: [Workload] =
    [
        Workload(
            id: "S1", unit: "ns/send", what: "Store.send, reducer returns .none (loop: the reducer called directly)",
            scale: (1, 2),
            versions: [
                Version(.streams, .mainActor(StreamsWorkloads.storeSends)),
                Version(.loop, .mainActor(StreamsWorkloads.reducerCalls)),
            ]),
        Workload(
            id: "S2", unit: "ns/action", what: "n actions chained through synchronous effects, per action",
            scale: (1, 10),
            versions: [
                Version(.streams, .mainActor(StreamsWorkloads.chainedActions)),
                Version(.loop, .mainActor(StreamsWorkloads.reducerCalls)),
            ]),
    ]
    + (1...5).map { depth in
        Workload(
            id: "S3d\(depth)", unit: "ns/send", what: "send through \(depth) nested scope(s)", scale: (1, 4),
            versions: [
                Version(.streams, .mainActor({ StreamsWorkloads.scopedSends($0, depth: depth) })),
                Version(.loop, .mainActor(StreamsWorkloads.reducerCalls)),
            ])
    } + [
        Workload(
            id: "S4", unit: "ns/send",
            what: "send with 1,000 observed scoped children, one changing (loop: the reducer)", scale: (1, 20),
            versions: [
                Version(.streams, .mainActor({ StreamsWorkloads.rowSends($0, observed: true) })),
                Version(.loop, .mainActor(StreamsWorkloads.rowReducerCalls)),
            ]),
        Workload(
            id: "S4idle", unit: "ns/send", what: "send with 1,000 scoped children nobody observes", scale: (1, 4),
            versions: [
                Version(.streams, .mainActor({ StreamsWorkloads.rowSends($0, observed: false) })),
                Version(.loop, .mainActor(StreamsWorkloads.rowReducerCalls)),
            ]),
    ]
