// The floor: each workload's closures called through opaque function values in a plain loop,
// with no publisher, subscription, lock or demand object. Any library that holds user closures
// pays at least this.
import WorkloadSupport

// MARK: W1

public func pipeline(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 3 }
    let compactMap = opaque { (x: Int) -> Int? in x % 2 == 0 ? x : nil }
    let filter = opaque { (x: Int) -> Bool in x % 3 == 0 }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    for i in 0..<n {
        if let v = compactMap(map(i)), filter(v) { sink(v) }
    }
    return checksum(sum)
}

// MARK: W2, B1, R1

/// Each value handed to one handler: W2x1's floor, and B1's and R1's.
public func oneHandler(_ n: Int) -> UInt64 { handlers(n, count: 1) }
/// Each value handed to ten handlers: W2x10's floor.
public func tenHandlers(_ n: Int) -> UInt64 { handlers(n, count: 10) }

func handlers(_ n: Int, count: Int) -> UInt64 {
    var sum = 0
    var handlers: [(Int) -> Void] = []
    for _ in 0..<count { handlers.append { sum &+= $0 } }
    handlers = opaque(handlers)
    for i in 0..<n {
        for handler in handlers { handler(i) }
    }
    return checksum(sum)
}

// MARK: W3

public func churn(_ n: Int) -> UInt64 {
    var total = 0
    let map = opaque { (x: Int) -> Int in x + 1 }
    var bag: [Token] = []
    bag.reserveCapacity(1024)
    for i in 0..<n {
        let token = Token { total &+= $0 }
        token.onValue?(map(i))
        bag.append(token)
        if bag.count == 1024 {
            for token in bag { token.cancel() }
            bag.removeAll(keepingCapacity: true)
        }
    }
    for token in bag { token.cancel() }
    return checksum(total)
}

// MARK: W3mem

public func liveMemory(_ n: Int) -> MemoryReading {
    var total = 0
    let map = opaque { (x: Int) -> Int in x + 1 }
    var tokens = [Token?](repeating: nil, count: n)
    let start = heapBytesInUse()
    for i in 0..<n {
        let token = Token { total &+= $0 }
        token.onValue?(map(i))
        tokens[i] = token
    }
    let bytes = Double(heapBytesInUse() - start) / Double(max(1, n))
    withExtendedLifetime(tokens) {}
    return MemoryReading(bytesPerPipeline: bytes, checksum: checksum(total))
}

// MARK: W4

public func currentValue(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 2 }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    var last = 0
    sink(map(last))
    for i in 0..<n {
        let value = i >> 1
        if value != last {
            last = value
            sink(map(value))
        }
    }
    return checksum(sum)
}

// MARK: W5

public func demand(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 3 }
    let receive = opaque { (x: Int) -> Int in
        sum &+= x
        return 1
    }
    var demand = 1
    var i = 0
    while i < n && demand > 0 {
        demand -= 1
        demand += receive(map(i))
        i += 1
    }
    return checksum(sum)
}

// MARK: W6

public func flatMap(_ n: Int) -> UInt64 {
    var sum = 0
    let transform = opaque { (x: Int) -> Int in x }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    for i in 0..<n { sink(transform(i)) }
    return checksum(sum)
}

// MARK: W7

public func zip(_ n: Int) -> UInt64 {
    var sum = 0
    let sink = opaque { (pair: (Int, Int)) -> Void in sum &+= pair.0 &* 3 &+ pair.1 }
    var first = (0..<n).makeIterator()
    var second = (0..<n).makeIterator()
    while let a = first.next(), let b = second.next() { sink((a, b)) }
    return checksum(sum)
}

// MARK: M1

public func merge(_ n: Int) -> UInt64 {
    var sum = 0
    let half = n / 2
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    var first = (0..<half).makeIterator()
    var second = (half..<(2 * half)).makeIterator()
    while let value = first.next() { sink(value) }
    while let value = second.next() { sink(value) }
    return checksum(sum)
}

// MARK: M2, A1, F2, C2, K1, T1

/// A subscription that delivers two values: one token object holding the closure.
public func twoValueChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        let token = opaque(Token { sum &+= $0 })
        token.onValue?(opaque(i))
        token.onValue?(opaque(i))
        token.cancel()
    }
    return checksum(sum)
}

/// A subscription that delivers one value: one token object holding the closure.
public func oneValueChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        let token = opaque(Token { sum &+= $0 })
        token.onValue?(opaque(i) &* 2 / 2)
        token.cancel()
    }
    return checksum(sum)
}

// MARK: C1

public func combineLatest(_ n: Int) -> UInt64 {
    var sum = 0
    let sink = opaque { (pair: (Int, Int)) -> Void in sum &+= pair.0 &+ pair.1 }
    var latestA: Int?
    var latestB: Int?
    for i in 0..<n {
        if i & 1 == 0 { latestA = opaque(i) } else { latestB = opaque(i) }
        if let a = latestA, let b = latestB { sink((a, b)) }
    }
    return checksum(sum)
}
