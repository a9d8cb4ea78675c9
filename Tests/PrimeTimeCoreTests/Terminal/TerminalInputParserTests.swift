import Foundation
import PrimeTimeCore
import StreamsTesting
import Testing

@Suite("Terminal input: UTF-8 across reads, escape sequences, bracketed paste")
struct TerminalInputParserTests {
    // MARK: - UTF-8 across reads

    @Test func aCharacterSplitBetweenTwoReadsIsDecodedWhole() {
        // Issue 24: each read was decoded on its own, so "é" split in two became "��".
        var decoder = UTF8StreamDecoder()
        #expect(decoder.decode([0x61, 0xC3]) == "a")
        #expect(decoder.hasPendingBytes)
        #expect(decoder.decode([0xA9, 0x62]) == "éb")
        // A four-byte character in four reads.
        let bytes = Array("🧮".utf8)
        #expect(decoder.decode([bytes[0]]) == "")
        #expect(decoder.decode([bytes[1]]) == "")
        #expect(decoder.decode([bytes[2]]) == "")
        #expect(decoder.decode([bytes[3]]) == "🧮")
        #expect(!decoder.hasPendingBytes)
    }

    @Test func bytesThatAreNotUTF8AreReplacedAndNeverHeldBack() {
        var decoder = UTF8StreamDecoder()
        // A continuation byte alone, an impossible byte, an overlong start: replaced at once.
        #expect(decoder.decode([0x80]) == "\u{FFFD}")
        #expect(decoder.decode([0xFF, 0x41]) == "\u{FFFD}A")
        #expect(decoder.decode([0xE0, 0x80]) == "\u{FFFD}\u{FFFD}")
        #expect(!decoder.hasPendingBytes)
        // Input ending inside a character: finish() replaces what is left.
        #expect(decoder.decode([0xE2, 0x82]) == "")
        #expect(decoder.finish() == "\u{FFFD}")
        #expect(decoder.finish() == "")
    }

    /// Random bytes in random pieces decode exactly as all the bytes at once.
    @Test func piecesDecodeAsTheWhole() {
        let seed = fuzzSeed("piecesDecodeAsTheWhole")
        var random = SplitMix64(seed: seed)
        let alphabet: [[UInt8]] = ["a", "é", "日", "🧮", "\u{1B}", "\r"].map { Array($0.utf8) }
            + [[0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F], [0xFF], [0xED, 0xA0, 0x80], [0xF4, 0x90]]
        for index in 0..<2_000 {
            let bytes = (0..<random.int(0...12)).flatMap { _ in
                random.int(0...3) == 0 ? random.bytes(random.int(1...3)) : random.pick(alphabet)
            }
            var decoder = UTF8StreamDecoder()
            var decoded = ""
            var rest = bytes[...]
            while !rest.isEmpty {
                let count = random.int(1...rest.count)
                decoded += decoder.decode(Array(rest.prefix(count)))
                rest = rest.dropFirst(count)
            }
            decoded += decoder.finish()
            #expect(Array(decoded.unicodeScalars) == Array(String(decoding: bytes, as: UTF8.self).unicodeScalars),
                    "seed \(seed), case \(index): \(bytes)")
        }
    }

    // MARK: - Escape sequences

    @Test func keysSequencesAndEscape() {
        var parser = TerminalInputParser()
        #expect(parser.receive(Array("+\u{1B}[A\u{1B}OP\u{1B}[15~x".utf8)) == [
            .character("+"), .escapeSequence("\u{1B}[A"), .escapeSequence("\u{1B}OP"), .escapeSequence("\u{1B}[15~"),
            .character("x"),
        ])
        #expect(parser.flushDelay == nil)
    }

    @Test func escapeFollowedByAKeyIsEscapeThenTheKey() {
        // Issue 24: a read starting with Escape was thrown away whole ("Escape, then +" lost the +).
        var parser = TerminalInputParser()
        #expect(parser.receive(Array("\u{1B}+".utf8)) == [.escape, .character("+")])
        #expect(parser.receive([0x1B, 0x1B, 0x71]) == [.escape, .escape, .character("q")])
        // A sequence interrupted by a control character: the sequence is unknown, the rest is read.
        #expect(parser.receive(Array("\u{1B}[1\r".utf8)) == [.escapeSequence("\u{1B}[1"), .character("\r")])
    }

    @Test func anEscapeAtTheEndOfAReadWaitsForTheRestOfItsSequence() {
        var parser = TerminalInputParser()
        #expect(parser.receive([0x1B]) == [])
        #expect(parser.flushDelay == TerminalInputParser.escapeTimeout)
        // The rest came: one sequence, not Escape and two keys.
        #expect(parser.receive(Array("[A".utf8)) == [.escapeSequence("\u{1B}[A")])
        // Split anywhere.
        #expect(parser.receive(Array("\u{1B}[1".utf8)) == [])
        #expect(parser.receive(Array("5~".utf8)) == [.escapeSequence("\u{1B}[15~")])
        // Nothing came: it was the Escape key.
        #expect(parser.receive([0x1B]) == [])
        #expect(parser.flush() == [.escape])
        #expect(parser.flushDelay == nil)
        #expect(parser.flush() == [])
        // An unfinished sequence, flushed, is an unknown one.
        #expect(parser.receive(Array("\u{1B}[".utf8)) == [])
        #expect(parser.flush() == [.escapeSequence("\u{1B}[")])
    }

    @Test func aRunawaySequenceIsCut() {
        var parser = TerminalInputParser()
        let events = parser.receive([0x1B, 0x5B] + Array(repeating: 0x31, count: 100) + [0x41])
        #expect(events.count > 2)
        #expect(events.first.map { if case .escapeSequence = $0 { true } else { false } } == true)
        #expect(parser.flushDelay == nil)
    }

    // MARK: - Bracketed paste

    @Test func pastedTextIsOneEventWhateverItHolds() {
        var parser = TerminalInputParser()
        #expect(parser.receive(Array("p\u{1B}[200~q\r\u{1B}[Aé\u{1B}[201~+".utf8))
                == [.character("p"), .paste("q\r\u{1B}[Aé"), .character("+")])
    }

    @Test func aPasteSplitAcrossReadsIsSentAsItComesAndItsMarkersMaySplitAnywhere() {
        var parser = TerminalInputParser()
        #expect(parser.receive(Array("\u{1B}[20".utf8)) == [])
        #expect(parser.receive(Array("0~del".utf8)) == [.paste("del")])
        #expect(parser.flushDelay == TerminalInputParser.pasteTimeout)
        #expect(parser.receive(Array(" 1\u{1B}[2".utf8)) == [.paste(" 1")])
        #expect(parser.receive(Array("01".utf8)) == [])
        #expect(parser.receive(Array("~q".utf8)) == [.character("q")])
        #expect(parser.flushDelay == nil)
        // Something that only looked like the end marker is text.
        #expect(parser.receive(Array("\u{1B}[200~a\u{1B}[20x\u{1B}\u{1B}[201~".utf8)) == [.paste("a\u{1B}[20x\u{1B}")])
        // A stray end marker is the terminal's: dropped.
        #expect(parser.receive(Array("\u{1B}[201~z".utf8)) == [.character("z")])
    }

    @Test func aPasteWhoseEndNeverComesEndsWhenFlushed() {
        var parser = TerminalInputParser()
        #expect(parser.receive(Array("\u{1B}[200~abc\u{1B}[2".utf8)) == [.paste("abc")])
        #expect(parser.flush() == [.paste("\u{1B}[2")])
        #expect(parser.receive(Array("q".utf8)) == [.character("q")])
    }
}
