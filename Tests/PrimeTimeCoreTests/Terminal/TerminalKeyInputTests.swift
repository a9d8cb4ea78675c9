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
        // Escape cancels; keys are commands again.
        #expect(keys.receive(Array(":save-fi".utf8) + [0x1B]) == [])
        #expect(keys.prompt == nil)
        #expect(keys.receive(Array(":nope\n".utf8)) == [.invalid(message: "Unknown command \"nope\". Type \"help\" for the list.")])
    }

    @Test func anArrowWhileTypingDoesNothing() {
        var keys = TerminalKeyInput()
        #expect(keys.receive(Array(":del".utf8)) == [])
        // Up arrow: not Escape (cancel), "[" and "A" (unknown keys).
        #expect(keys.receive([0x1B, 0x5B, 0x41]) == [])
        #expect(keys.prompt == "del")
        #expect(keys.receive(Array(" 1\r".utf8)) == [.command(.deleteFavorite(number: 1))])
    }
}
