import PrimeTimeCore
import Testing

@Suite("Terminal keys")
struct TerminalKeyInputTests {
    @Test func keysAreCommands() {
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array("+".utf8)) == [.command(.increment)])
        #expect(keys.receive(Array("pq".utf8)) == [.command(.isThisPrime), .command(.quit)])
        #expect(keys.receive([4]) == [.command(.quit)])
        #expect(keys.receive(Array("\r".utf8)) == [])
        #expect(keys.receive(Array("z".utf8)) == [.invalid(message: "Unknown key \"z\". Press \"h\" for help.")])
        #expect(keys.receive([0x1B, 0x5B, 0x41])
                == [.invalid(message: "Unknown key (an arrow or function key). Press \"h\" for help.")])
    }

    @Test func colonTypesACommand() {
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array(":del 2".utf8)) == [])
        #expect(keys.prompt == "del 2")
        #expect(keys.receive([0x7F]) == [])
        #expect(keys.prompt == "del ")
        #expect(keys.receive(Array("3\r".utf8)) == [.command(.deleteFavorite(number: 3))])
        #expect(keys.prompt == nil)
        // Escape cancels; keys are commands again. An Escape at the end of a read may be the
        // start of a sequence: it cancels once no more input came (`flush`).
        #expect(keys.receive(Array(":save-fi".utf8) + [0x1B]) == [])
        #expect(keys.prompt == "save-fi")
        #expect(keys.flushDelay == .milliseconds(50))
        #expect(keys.flush() == [])
        #expect(keys.prompt == nil)
        #expect(keys.flushDelay == nil)
        // In interactive mode the message says which key to press.
        #expect(keys.receive(Array(":nope\n".utf8)) == [.invalid(message: "Unknown command \"nope\". Press \"h\" for the list.")])
    }

    @Test func anArrowWhileTypingDoesNothing() {
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array(":del".utf8)) == [])
        // Up arrow: not Escape (cancel), "[" and "A" (unknown keys).
        #expect(keys.receive([0x1B, 0x5B, 0x41]) == [])
        #expect(keys.prompt == "del")
        #expect(keys.receive(Array(" 1\r".utf8)) == [.command(.deleteFavorite(number: 1))])
    }

    @Test func escapeThenKeysInOneReadKeepsTheKeys() {
        // Issue 24: a read starting with Escape was thrown away whole.
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array("\u{1B}+".utf8)) == [.command(.increment)])
        #expect(keys.receive(Array(":de\u{1B}+".utf8)) == [.command(.increment)])
        #expect(keys.prompt == nil)
    }

    @Test func aCharacterTypedAcrossTwoReadsIsOneCharacter() {
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array(":del ".utf8) + [0xC3]) == [])
        #expect(keys.receive([0xA9]) == [])
        #expect(keys.prompt == "del é")
        // Outside a command: one unknown key, not two.
        var other = TerminalKeyInput()
        #expect(other.receive([0xC3]) == [])
        #expect(other.receive([0xA9]) == [.invalid(message: "Unknown key \"é\". Press \"h\" for help.")])
    }

    @Test func pastedTextIsNeverKeys() {
        var keys = TerminalKeyInput()
        // Pasted outside a command, it starts one; nothing runs, not even the "q" or the Return.
        #expect(keys.receive(Array("\u{1B}[200~q\r\ndel\t1\u{7}\u{1B}[201~".utf8)) == [])
        #expect(keys.prompt == "q del 1")
        #expect(keys.receive([0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F]) == [])
        // Pasted while typing, it goes after what is typed; Return runs it.
        #expect(keys.receive(Array("del\u{1B}[200~ 2\u{1B}[201~\r".utf8)) == [.command(.deleteFavorite(number: 2))])
        // A paste's length is bounded.
        _ = keys.receive(Array("\u{1B}[200~".utf8) + Array(repeating: 0x39, count: 5_000) + Array("\u{1B}[201~".utf8))
        #expect(keys.prompt?.count == TerminalKeyInput.longestPrompt)
    }
}
