/// Interactive mode's keyboard: turns the bytes a raw-mode terminal sends into inputs.
///
/// A key is a command (``TerminalCommands/parse(key:)``). `:` starts typing a whole command
/// (``prompt``), ended by Return and cancelled by Escape; Backspace deletes. Ctrl-D quits. An
/// escape sequence (an arrow or function key, which arrives as one read) is an unknown key, and
/// is ignored while a command is being typed.
public struct TerminalKeyInput: Sendable {
    /// The command being typed after `:`, or `nil` when keys are commands.
    public private(set) var prompt: String?

    /// Keys are commands.
    public init() {}

    /// The inputs in `bytes`, one read's worth from the terminal, in order.
    ///
    /// ```swift
    /// var keys = TerminalKeyInput()
    /// let plus = keys.receive(Array("+".utf8))            // [.command(.increment)]
    /// let delete = keys.receive(Array(":del 2\r".utf8))   // [.command(.deleteFavorite(number: 2))]
    /// ```
    ///
    /// - Parameter bytes: The bytes one read from the terminal returned.
    /// - Returns: The inputs they make, in order.
    public mutating func receive(_ bytes: [UInt8]) -> [ParsedInput] {
        if bytes.count > 1, bytes[0] == 0x1B {
            // While typing, it is not an Escape that cancels followed by keys: it does nothing.
            if prompt != nil { return [] }
            return [.invalid(message: "Unknown key (an arrow or function key). Press \"h\" for help.")]
        }
        var inputs: [ParsedInput] = []
        for character in String(decoding: bytes, as: UTF8.self) {
            if let input = receive(character) { inputs.append(input) }
        }
        return inputs
    }

    private mutating func receive(_ character: Character) -> ParsedInput? {
        if var typed = prompt {
            switch character {
            case "\r", "\n", "\r\n":
                prompt = nil
                return TerminalCommands.parse(typed)
            case "\u{1B}":
                prompt = nil
            case "\u{7F}", "\u{8}":
                if !typed.isEmpty { typed.removeLast() }
                prompt = typed
            default:
                if !character.isNewline, character.asciiValue.map({ $0 >= 0x20 }) ?? true {
                    typed.append(character)
                }
                prompt = typed
            }
            return nil
        }
        switch character {
        case ":":
            prompt = ""
            return nil
        case "\r", "\n", "\r\n", " ", "\u{1B}":
            return nil
        case "\u{4}":
            return .command(.quit)
        default:
            return TerminalCommands.parse(key: character)
        }
    }
}
