/// Interactive mode's keyboard: turns the bytes a raw-mode terminal sends into inputs.
///
/// The bytes are read by a ``TerminalInputParser`` (UTF-8 decoded across reads, escape sequences
/// kept whole, bracketed paste). A key is a command (``TerminalCommands/parse(key:)``). `:` starts
/// typing a whole command (``prompt``), ended by Return and cancelled by Escape; Backspace deletes.
/// Ctrl-D quits. A key that sends an escape sequence (an arrow, a function key) is an unknown key,
/// and does nothing while a command is being typed. Pasted text is text, never keys: it goes into
/// the command being typed, or starts one (line ends and other control characters become
/// spaces), and nothing runs until Return is pressed.
public struct TerminalKeyInput: Sendable {
    /// The longest command that can be typed after `:`; typing or pasting more is ignored.
    public static let longestPrompt = 1_000

    /// The command being typed after `:`, or `nil` when keys are commands.
    public private(set) var prompt: String?
    private var parser = TerminalInputParser()

    /// Keys are commands.
    public init() {}

    /// How long to wait for more input before calling ``flush()`` (an Escape at the end of a
    /// read, an unfinished paste), or `nil` when nothing waits (``TerminalInputParser/flushDelay``).
    public var flushDelay: Duration? { parser.flushDelay }

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
        parser.receive(bytes).compactMap { receive($0) }
    }

    /// The inputs of what was waiting for more input that did not come: an Escape on its own is
    /// the Escape key (it cancels the command being typed).
    ///
    /// - Returns: The inputs of what was waiting, in order.
    public mutating func flush() -> [ParsedInput] {
        parser.flush().compactMap { receive($0) }
    }

    private mutating func receive(_ event: TerminalInputEvent) -> ParsedInput? {
        switch event {
        case let .character(character):
            return receive(character)
        case .escape:
            prompt = nil  // Cancels what is being typed; does nothing otherwise.
            return nil
        case .escapeSequence:
            if prompt != nil { return nil }
            return .invalid(message: "Unknown key (an arrow or function key). Press \"h\" for help.")
        case let .paste(text):
            var typed = prompt ?? ""
            for character in text where typed.count < Self.longestPrompt {
                if character.isNewline || character == "\t" {
                    typed.append(" ")
                } else if !Self.isControl(character) {
                    typed.append(character)
                }
            }
            prompt = typed
            return nil
        }
    }

    private mutating func receive(_ character: Character) -> ParsedInput? {
        if var typed = prompt {
            switch character {
            case "\r", "\n", "\r\n":
                prompt = nil
                return TerminalCommands.parse(typed, mode: .interactive)
            case "\u{7F}", "\u{8}":
                if !typed.isEmpty { typed.removeLast() }
                prompt = typed
            default:
                if !Self.isControl(character), typed.count < Self.longestPrompt {
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
        case "\r", "\n", "\r\n", " ":
            return nil
        case "\u{4}":
            return .command(.quit)
        default:
            return TerminalCommands.parse(key: character)
        }
    }

    /// Whether `character` is a control character (C0, DEL or C1), which typing and pasting leave out.
    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
    }
}
