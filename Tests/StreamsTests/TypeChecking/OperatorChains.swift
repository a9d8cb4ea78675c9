// Operator chains as application code writes them: 4 to 6 operators, closures without type
// annotations, over each kind of upstream (Deferred, sequences, Just, Optional and Result
// publishers, subjects, AnyPublisher). Each chain is one expression the type checker solves as a
// whole, so an overload Streams adds next to Combine's can make it exponential: before the fix,
// chain 1 (`Deferred { (0..<n).publisher }…`) failed to compile ("unable to type-check this
// expression in reasonable time").
//
// This file is compiled with the tests (the compiler's default limits: a chain the solver gives
// up on fails the build), and `OperatorChainsTests` type-checks it again on its own with
// `swiftc -typecheck -solver-expression-time-threshold`, so that a chain that got merely slow
// fails too. It imports Streams only, so that it can be type-checked on its own.
import Streams

/// Runs every chain synchronously and returns what each one produced, in order.
func runOperatorChains() -> [String] {
    let subject = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<String, Never>("ab")
    let erased = [1, 2, 3].publisher.setFailureType(to: Error.self).eraseToAnyPublisher()
    let n = 1000
    var sum = 0
    var results: [String] = []
    var cancellables: [AnyCancellable] = []
    func record() {
        results.append(String(sum))
        sum = 0
    }

    // 1. The chain of the issue: Deferred over a range, map, compactMap, filter, sink.
    cancellables.append(Deferred { (0..<n).publisher }.map { $0 &* 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.filter { $0 % 3 == 0 }.sink { sum &+= $0 })
    record()
    // 2. Deferred over an array literal.
    cancellables.append(Deferred { [1, 2, 3].publisher }.map { $0 &* 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.filter { $0 % 3 == 0 }.sink { sum &+= $0 })
    record()
    // 3. Deferred over an erased sequence publisher.
    cancellables.append(Deferred { (0..<n).publisher.eraseToAnyPublisher() }.map { $0 &* 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.filter { $0 % 3 == 0 }.sink { sum &+= $0 })
    record()
    // 4. Deferred over Just.
    cancellables.append(Deferred { Just(n) }.map { $0 &* 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.filter { $0 % 3 == 0 }.sink { sum &+= $0 })
    record()
    // 5. A sequence publisher, where Combine's specializations keep it a Publishers.Sequence.
    cancellables.append((0..<n).publisher.map { $0 &* 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.filter { $0 % 3 == 0 }.sink { sum &+= $0 })
    record()
    // 6. A sequence publisher with scan and removeDuplicates.
    cancellables.append([1, 2, 3, 4].publisher.filter { $0 % 2 == 0 }.map { $0 * 10 }.scan(0) { $0 + $1 }.removeDuplicates().sink { sum += $0 })
    record()
    // 7. Just, through flatMap.
    cancellables.append(Just("a").map { $0 + "b" }.flatMap { s in Just(s.count) }.map { $0 * 2 }.filter { $0 > 0 }.sink { sum += $0 })
    record()
    // 8. Just, through compactMap (Optional.Publisher from then on).
    cancellables.append(Just(5).map { $0 + 1 }.filter { $0 > 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.sink { sum += $0 })
    record()
    // 9. A Result publisher.
    cancellables.append(Result<Int, Error>.success(1).publisher.map { $0 + 1 }.filter { $0 > 0 }.map { $0 * 3 }.replaceError(with: 0).sink { sum += $0 })
    record()
    // 10. A subject, five operators.
    cancellables.append(subject.map { $0 * 2 }.compactMap { $0 % 3 == 0 ? nil : $0 }.filter { $0 > 1 }.removeDuplicates().sink { sum += $0 })
    // 11. A subject with scan and prefix.
    cancellables.append(subject.filter { $0 > 0 }.map { $0 % 7 }.scan(0, +).prefix(10).sink { sum += $0 })
    // 12. A subject merged with Just.
    cancellables.append(subject.merge(with: Just(1)).map { $0 * 2 }.filter { $0 > 0 }.compactMap { $0 % 5 == 0 ? nil : $0 }.sink { sum += $0 })
    for value in 1...4 { subject.send(value) }
    record()
    // 13. A current-value subject.
    cancellables.append(current.map { $0.count }.filter { $0 > 0 }.map { $0 * 2 }.removeDuplicates().sink { sum += $0 })
    record()
    // 14. An AnyPublisher that can fail.
    cancellables.append(erased.map { $0 * 2 }.compactMap { $0 % 3 == 0 ? nil : $0 }.filter { $0 > 1 }.replaceError(with: 0).map { $0 + 1 }.sink { sum += $0 })
    record()
    // 15. An AnyPublisher through tryMap and catch.
    cancellables.append(erased.tryMap { $0 * 2 }.filter { $0 > 1 }.map { $0 + 1 }.catch { _ in Just(0) }.sink { sum += $0 })
    record()
    _ = cancellables
    return results
}
