import Streams
#if canImport(Glibc)
import Glibc
#endif

@inline(never) func opaque<T>(_ x: T) -> T { x }

func w1(_ n: Int) -> Int {
    var sum = 0
    let c = (0..<n).publisher
        .map { $0 &* 3 }
        .compactMap { $0 % 2 == 0 ? $0 : nil }
        .filter { $0 % 3 == 0 }
        .sink { sum &+= $0 }
    c.cancel()
    return sum
}
func w2(_ n: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let c = subject.sink { sum &+= $0 }
    for i in 0..<n { subject.send(i) }
    c.cancel()
    return sum
}
let n = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 10_000_000
let which = CommandLine.arguments.dropFirst(2).first ?? "w1"
var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)
let t0 = Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
let r = which == "w1" ? w1(n) : w2(n)
clock_gettime(CLOCK_MONOTONIC, &ts)
let t1 = Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
print(which, r, (t1 - t0) / Double(n), "ns")
