// swift-tools-version:6.2
// The benchmarks: Streams side by side with OpenCombine, AsyncSequence (with
// swift-async-algorithms) and a plain loop, on the workloads W1…S4 (Docs/Performance.md).
//
//   swift package benchmark                          the whole suite (package-benchmark)
//   swift run -c release StreamsBenchmarks W3 W3mem  Streams against the plain loop, quickly
//
// A package of its own, so that the library's package names no dependency.
import PackageDescription

// SwiftPM names a path dependency after its folder: the checkout's name, whatever it is.
let library = String(#filePath.split(separator: "/").dropLast(2).last ?? "Streams")

let package = Package(
    name: "StreamsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // The workloads, one module per engine (Streams and OpenCombine declare the same names).
        .target(name: "CHeapStats"),
        .target(name: "WorkloadSupport", dependencies: ["CHeapStats"]),
        .target(name: "LoopWorkloads", dependencies: ["WorkloadSupport"]),
        .target(
            name: "StreamsWorkloads",
            dependencies: [
                "WorkloadSupport",
                .product(name: "Streams", package: library),
                .product(name: "ComposableArchitecture", package: library),
            ]),
        .target(
            name: "OpenCombineWorkloads",
            dependencies: [
                "WorkloadSupport",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]),
        .target(
            name: "AsyncWorkloads",
            dependencies: [
                "WorkloadSupport",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        // The table of workloads: ids, units, and each engine's version.
        .target(
            name: "Workloads",
            dependencies: [
                "WorkloadSupport", "LoopWorkloads", "StreamsWorkloads", "OpenCombineWorkloads", "AsyncWorkloads",
            ]),
        // The package-benchmark suite: every workload, every engine.
        .executableTarget(
            name: "SideBySide",
            dependencies: ["Workloads", "WorkloadSupport", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/SideBySide",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The quick front end: Streams against the plain loop in thread CPU time, or each once
        // for valgrind.
        .executableTarget(name: "StreamsBenchmarks", dependencies: ["Workloads"]),
    ],
    swiftLanguageModes: [.v6]
)
