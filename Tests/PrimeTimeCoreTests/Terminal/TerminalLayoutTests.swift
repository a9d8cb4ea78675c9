import Foundation
import PrimeTimeCore
import Testing

@Suite("Terminal layout: wrapping at a width, fitting a height")
struct TerminalLayoutTests {
    @Test func wrapBreaksAtSpacesWithAHangingIndent() {
        #expect(TerminalLayout.wrap("Keys: + inc  - dec  p prime", width: 12, indent: 2)
                == ["Keys: + inc", "  - dec  p", "  prime"])
        #expect(TerminalLayout.wrap("short", width: 80) == ["short"])
        #expect(TerminalLayout.wrap("", width: 10) == [""])
        // A word longer than a line is cut, as it must be.
        #expect(TerminalLayout.wrap("abcdefghij kl", width: 4) == ["abcd", "efgh", "ij", "kl"])
        // Exactly the width: no break.
        #expect(TerminalLayout.wrap("abc def", width: 7) == ["abc def"])
        #expect(TerminalLayout.wrap("abc def", width: 6) == ["abc", "def"])
    }

    @Test func flowNeverSplitsAnItem() {
        #expect(TerminalLayout.flow(["Keys: + inc", "- dec", "p prime", "n nth"], width: 20, indent: 6)
                == ["Keys: + inc  - dec", "      p prime  n nth"])
    }

    @Test func fitKeepsTheBottomAndSaysWhatIsLeftOut() {
        let body = (1...10).map { "line \($0)" }
        #expect(TerminalLayout.fit(body: body, bottom: ["keys"], size: TerminalSize(width: 20, height: 20))
                == body + ["", "keys"])
        #expect(TerminalLayout.fit(body: body, bottom: ["keys"], size: TerminalSize(width: 20, height: 6))
                == ["line 1", "line 2", "line 3", "… 7 more lines", "", "keys"])
        #expect(TerminalLayout.fit(body: body, bottom: ["k1", "k2", "k3"], size: TerminalSize(width: 20, height: 3))
                == ["k1", "k2", "… 12 more lines"])
        #expect(TerminalLayout.fit(body: body, bottom: ["keys"], size: TerminalSize(width: 5, height: 1)) == ["… 12 "])
    }

    /// Issue 24: the key bar and the help were single lines of up to 107 characters, which an
    /// 80-column terminal wrapped mid-word.
    @Test func theHelpAndTheKeysFit80ColumnsWithoutSplittingAWord() {
        let help = TerminalCommands.helpLines(width: 80)
        #expect(help.allSatisfy { $0.count <= 80 }, "\(help)")
        let text = help.joined(separator: " ").split(separator: " ")
        for spec in TerminalCommands.table {
            // Every word of every summary is whole.
            for word in spec.summary.split(separator: " ") { #expect(text.contains(word), "\(word)") }
            #expect(help.contains { $0.hasPrefix("  \(spec.usage)") })
        }
        #expect(TerminalHelp.lines.allSatisfy { $0.count <= 80 }, "\(TerminalHelp.lines.filter { $0.count > 80 })")
        for state in [AppState(), AppState(count: 2, isPrimeModalShown: true), AppState(screen: .favoritePrimes)] {
            let keys = TerminalScreen.keyLines(state, width: 80)
            #expect(keys.allSatisfy { $0.count <= 80 })
            #expect(keys.joined(separator: "  ").hasPrefix("Keys: "))
            for item in TerminalScreen.keyLine(state).dropFirst("Keys: ".count).components(separatedBy: "  ") {
                #expect(keys.contains { $0.contains(item) }, "\(item) is split")
            }
        }
    }

    @Test func theHelpGoesUnderEachCommandWhenTheColumnsDoNotFit() {
        let help = TerminalCommands.helpLines(width: 40)
        #expect(help.allSatisfy { $0.count <= 40 }, "\(help)")
        #expect(help.prefix(2) == ["  +  inc  [counter]", "      Add one to the count."])
    }

    @Test func theInteractiveScreenFitsItsSize() {
        let long = "The favorites file /a/very/long/path/to/the/favorites/file/favorite-primes.json is not valid JSON: "
            + "Unexpected character. It was left untouched; saving overwrites it."
        let state = AppState(favoritePrimes: Array(repeating: 2, count: 40), screen: .favoritePrimes, message: long)
        for size in [TerminalSize.standard, TerminalSize(width: 40, height: 12), TerminalSize(width: 20, height: 5)] {
            for (prompt, help) in [(nil, false), ("del 1", false), (nil, true)] {
                let lines = TerminalScreen.interactiveLines(state, notice: "Unknown key \"x\".", prompt: prompt,
                                                            showsHelp: help, size: size)
                #expect(lines.count <= size.height, "\(size): \(lines)")
                #expect(lines.allSatisfy { $0.count <= size.width }, "\(size): \(lines)")
            }
        }
        // Tall enough: the keys are at the bottom, and the long message is wrapped under itself.
        let lines = TerminalScreen.interactiveLines(AppState(message: long), notice: nil, prompt: nil, showsHelp: false,
                                                    size: .standard)
        #expect(lines == [
            "== Counter ==",
            "Count: 0",
            "Message: The favorites file",
            "  /a/very/long/path/to/the/favorites/file/favorite-primes.json is not valid",
            "  JSON: Unexpected character. It was left untouched; saving overwrites it.",
            "  (press d to dismiss)",
            "Favorites: 0 | Log: off",
            "",
            "Keys: + inc  - dec  p prime  n nth  d dismiss  f favorites  l log  h help",
            "      q quit  : command  (h: all commands)",
        ])
    }
}
