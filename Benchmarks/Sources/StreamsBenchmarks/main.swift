import Workloads

// StreamsBenchmarks: the quick front end to the workloads. It times Streams against the plain
// loop doing the same work, in thread CPU time, best of several passes: what an engineer changing
// the library's engines runs before and after a change (Docs/Performance.md). The whole
// comparison, OpenCombine and AsyncSequence included, is the SideBySide suite:
// `swift package benchmark`.
//
//   swift run -c release StreamsBenchmarks            all workloads
//   swift run -c release StreamsBenchmarks W1 W3mem   only these
//   swift run -c release StreamsBenchmarks --n 200000 a smaller base size
//   StreamsBenchmarks --once --n 20000 B1            each side once, untimed (for valgrind:
//                                                    Docs/Performance.md, "Counting instructions")
//
// The ratio streams/loop is the number to watch: it does not depend on how fast this machine is.
// The last line sums everything up for scripts:
//   bench: W1 ns=6.61 baseline_ns=8.02 ratio=0.82; W2x1 ...
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
var baseN = 1_000_000
if let index = arguments.firstIndex(of: "--n"), index + 1 < arguments.count, let n = Int(arguments[index + 1]) {
    baseN = n
    arguments.removeSubrange(index...(index + 1))
}
if let index = arguments.firstIndex(of: "--once") {
    singlePass = true
    arguments.remove(at: index)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: StreamsBenchmarks [--n BASE] [--once] [ID ...]")
    print("ids: \(allWorkloads.map(\.id).joined(separator: " "))")
    exit(0)
}
let selected = Set(arguments)
for id in selected where !allWorkloads.contains(where: { $0.id == id }) {
    print("unknown workload \(id); known: \(allWorkloads.map(\.id).joined(separator: " "))")
    exit(2)
}

print("Streams benchmarks (release build; thread CPU time, best of several passes)")
print("id      unit                 n          streams    baseline   ratio   what")
var summary: [String] = []
for workload in allWorkloads where selected.isEmpty || selected.contains(workload.id) {
    guard let streams = workload.version(.streams), let loop = workload.version(.loop) else { continue }
    let n = max(1, baseN * workload.scale.0 / workload.scale.1)
    let result = measure(streams.body, against: loop.body, n: n)
    if result.streamsChecksum != result.baselineChecksum {
        print("MISMATCH \(workload.id): streams \(result.streamsChecksum) vs baseline \(result.baselineChecksum)")
        exit(1)
    }
    let ratio = result.streams / result.baseline
    print(
        pad(workload.id, 8) + pad(workload.unit, 21) + pad("\(n)", 11)
            + pad(format(result.streams), 11) + pad(format(result.baseline), 11)
            + pad(format(ratio) + "x", 8) + workload.what)
    summary.append(
        "\(workload.id) ns=\(format(result.streams)) baseline_ns=\(format(result.baseline)) ratio=\(format(ratio))")
}
print("bench: " + summary.joined(separator: "; "))

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func format(_ x: Double) -> String {
    guard x.isFinite else { return "nan" }
    let scaled = Int((x * 100).rounded())
    let fraction = scaled % 100
    return "\(scaled / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}
