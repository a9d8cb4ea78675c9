import Streams
import StreamsTesting
import Testing

@Suite("Subscribers.Demand")
struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func constructionAndMax() {
        #expect(Demand.max(3).max == 3)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(0) == .none)
        #expect(Demand.max(Int.max).max == Int.max)
        #expect(Demand.max(Int.max) != .unlimited)
        #expect("\(Demand.max(2))" == "max(2)")
        #expect("\(Demand.unlimited)" == "unlimited")
    }

    @Test func additionSaturates() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .unlimited == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(2) + (-5) == .none)
        var d = Demand.max(1)
        d += .max(1)
        d += 1
        #expect(d == .max(3))
    }

    @Test func subtractionNeverGoesBelowZero() {
        #expect(Demand.max(5) - .max(2) == .max(3))
        #expect(Demand.max(2) - .max(5) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 2 == .max(3))
        #expect(Demand.max(2) - 7 == .none)
        #expect(Demand.max(2) - (-3) == .max(5))
        #expect(Demand.unlimited - 1 == .unlimited)
        var d = Demand.max(3)
        d -= .max(1)
        d -= 1
        #expect(d == .max(1))
        d -= 10
        #expect(d == .none)
    }

    @Test func multiplicationSaturates() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.max(Int.max) * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.max(3) * -1 == .none)
        var d = Demand.max(2)
        d *= 3
        #expect(d == .max(6))
    }

    @Test func comparisons() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(Demand.none < .max(1))
        #expect(Demand.max(2) == 2)
        #expect(2 == Demand.max(2))
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.max(2) != 3)
        #expect(Demand.max(2) > 1)
        #expect(Demand.max(2) >= 2)
        #expect(Demand.max(2) < 3)
        #expect(Demand.max(2) <= 2)
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.none > -1)
        #expect(3 > Demand.max(2))
        #expect(2 >= Demand.max(2))
        #expect(1 < Demand.max(2))
        #expect(2 <= Demand.max(2))
        #expect(!(Int.max >= Demand.unlimited))
    }

    @Test func codableRoundTrip() throws {
        for demand in [Demand.none, .max(7), .unlimited] {
            let data = try JSONEncoder().encode([demand])
            #expect(try JSONDecoder().decode([Demand].self, from: data) == [demand])
        }
    }

    @Test func negativeMaxIsAnAPIViolationNamingS9() {
        let messages = recordingAPIViolations { #expect(Demand.max(-1) == .none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
    }

    @Test func negativeMaxStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(-1)
        }
    }
}

import Foundation
