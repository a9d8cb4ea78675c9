/// Decodes UTF-8 that arrives in pieces, such as the reads of a terminal: a character whose bytes
/// are split between two pieces is decoded whole once its last byte arrives, instead of becoming
/// two replacement characters. Bytes that are not UTF-8 become U+FFFD, as `String(decoding:as:)`
/// makes them: decoding the pieces one after the other, then ``finish()``, gives the same scalars
/// as decoding all the bytes at once.
///
/// ```swift
/// var decoder = UTF8StreamDecoder()
/// let first = decoder.decode([0x61, 0xC3])   // "a" (0xC3 waits for the rest of "é")
/// let second = decoder.decode([0xA9])        // "é"
/// ```
public struct UTF8StreamDecoder: Sendable {
    /// The start of a character whose other bytes have not arrived (at most 3 bytes).
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether the last piece ended inside a character.
    public var hasPendingBytes: Bool { !pending.isEmpty }

    /// The text in `bytes`, after what was pending; the start of a character at the end is kept
    /// for the next piece.
    ///
    /// - Parameter bytes: The next piece of the bytes.
    /// - Returns: The text that can be decoded now.
    public mutating func decode(_ bytes: [UInt8]) -> String {
        let input = pending + bytes
        let split = Self.completeLength(input)
        pending = Array(input[split...])
        return String(decoding: input[..<split], as: UTF8.self)
    }

    /// What is pending, as replacement characters (input ended inside a character).
    ///
    /// - Returns: What was pending, as a replacement character; empty when nothing was.
    public mutating func finish() -> String {
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    /// How many of `bytes` can be decoded now: all of them, unless they end with a valid but
    /// incomplete start of a character, which waits.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        // The last lead byte, behind at most 3 continuation bytes.
        var start = bytes.count
        var continuations = 0
        while start > 0, continuations < 3, (0x80...0xBF).contains(bytes[start - 1]) {
            start -= 1
            continuations += 1
        }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length: Int
        // The range the byte after the lead must be in (the first continuation byte).
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return bytes.count  // ASCII, or a byte that never starts a character.
        }
        let available = 1 + continuations
        guard available < length else { return bytes.count }  // Complete (or too long: invalid).
        if continuations > 0, !second.contains(bytes[start]) { return bytes.count }  // Invalid already.
        return start - 1
    }
}

/// What a terminal's input means, before it means a command: a character typed, Escape, a key
/// that sends an escape sequence, or pasted text.
public enum TerminalInputEvent: Equatable, Sendable {
    /// A character typed: a key, or a control character (Return, Backspace, Ctrl-D, ...).
    case character(Character)
    /// The Escape key on its own.
    case escape
    /// A key that sends an escape sequence (an arrow, a function key, Alt with `[`), as sent.
    case escapeSequence(String)
    /// Text pasted with the terminal's bracketed paste (between `ESC[200~` and `ESC[201~`). A
    /// long paste may come as several events, in order.
    case paste(String)
}

/// Turns the bytes a raw-mode terminal sends into ``TerminalInputEvent``s, across reads.
///
/// - Text is UTF-8, decoded across reads (``UTF8StreamDecoder``).
/// - An escape sequence (`ESC [` parameters and a final character, or `ESC O` and a character)
///   is one event, even when split between reads. Escape followed by anything else is Escape,
///   then that: nothing after an Escape is lost.
/// - An Escape at the very end of a read may be the Escape key or the start of a sequence whose
///   rest is on its way: it waits. ``flushDelay`` says how long the caller should wait for more
///   input before calling ``flush()``, which makes it the Escape key.
/// - Bracketed paste: everything between `ESC[200~` and `ESC[201~` is ``TerminalInputEvent/paste(_:)``
///   text, whatever it holds (Return, `q`, escape sequences), and never keys. The markers may be
///   split between reads. A paste whose end never comes ends after ``pasteTimeout`` without input.
///
/// ```swift
/// var parser = TerminalInputParser()
/// let events = parser.receive(Array("+\u{1B}[A\u{1B}[200~q\r\u{1B}[201~".utf8))
/// // [.character("+"), .escapeSequence("\u{1B}[A"), .paste("q\r")]
/// ```
public struct TerminalInputParser: Sendable {
    /// How long an Escape at the end of a read waits for the rest of a sequence.
    public static let escapeTimeout: Duration = .milliseconds(50)
    /// How long a paste whose end marker has not come waits for more input before it ends.
    public static let pasteTimeout: Duration = .seconds(1)
    /// The longest escape sequence kept whole; a longer one is cut there.
    static let longestSequence = 32

    private static let escape: Unicode.Scalar = "\u{1B}"
    private static let pasteStart = "\u{1B}[200~"
    private static let pasteEnd = Array("\u{1B}[201~".unicodeScalars)

    private enum State: Sendable {
        /// Characters are keys.
        case ground
        /// An escape sequence has started: what arrived of it (from the Escape).
        case sequence(String.UnicodeScalarView)
        /// Inside a bracketed paste: the text not yet sent, and how much of the end marker
        /// arrived last.
        case paste(text: String.UnicodeScalarView, matched: Int)
    }

    private var decoder = UTF8StreamDecoder()
    private var state = State.ground

    /// Nothing received yet.
    public init() {}

    /// How long to wait for more input before calling ``flush()``: ``escapeTimeout`` after a read
    /// that ended inside an escape sequence (or with the Escape key), ``pasteTimeout`` inside a
    /// paste, and `nil` when nothing waits.
    public var flushDelay: Duration? {
        switch state {
        case .ground: nil
        case .sequence: Self.escapeTimeout
        case .paste: Self.pasteTimeout
        }
    }

    /// The events in `bytes`, one read's worth, in order.
    ///
    /// - Parameter bytes: The bytes one read from the terminal returned.
    /// - Returns: The events the bytes complete, in order; what waits for more input is kept.
    public mutating func receive(_ bytes: [UInt8]) -> [TerminalInputEvent] {
        var events: [TerminalInputEvent] = []
        for scalar in decoder.decode(bytes).unicodeScalars {
            receive(scalar, into: &events)
        }
        // What a paste brought in this read is sent now, so that it shows while the rest arrives.
        if case .paste(let text, let matched) = state, !text.isEmpty {
            events.append(.paste(String(text)))
            state = .paste(text: String.UnicodeScalarView(), matched: matched)
        }
        return events
    }

    /// No more input came: what waits becomes events. An Escape on its own is the Escape key; the
    /// start of a sequence is an unknown sequence; an unfinished paste ends (with the part of an
    /// end marker it held, as text).
    ///
    /// - Returns: The events of what was waiting, in order.
    public mutating func flush() -> [TerminalInputEvent] {
        var events: [TerminalInputEvent] = []
        let pending = decoder.finish()
        for scalar in pending.unicodeScalars { receive(scalar, into: &events) }
        switch state {
        case .ground:
            break
        case let .sequence(sequence):
            events.append(sequence.count == 1 ? .escape : .escapeSequence(String(sequence)))
        case let .paste(text, matched):
            var all = text
            all.append(contentsOf: Self.pasteEnd.prefix(matched))
            if !all.isEmpty { events.append(.paste(String(all))) }
        }
        state = .ground
        return events
    }

    private mutating func receive(_ scalar: Unicode.Scalar, into events: inout [TerminalInputEvent]) {
        switch state {
        case .ground:
            if scalar == Self.escape {
                state = .sequence(String.UnicodeScalarView([scalar]))
            } else {
                events.append(.character(Character(scalar)))
            }

        case var .sequence(sequence):
            if sequence.count == 1 {
                // Just the Escape so far: "[" and "O" start a sequence; anything else means the
                // Escape was the key, and this is what came next.
                if scalar == "[" || scalar == "O" {
                    sequence.append(scalar)
                    state = .sequence(sequence)
                } else {
                    events.append(.escape)
                    state = .ground
                    receive(scalar, into: &events)
                }
                return
            }
            let isCSI = sequence[sequence.index(after: sequence.startIndex)] == "["
            if isCSI, (0x20...0x3F).contains(scalar.value) {
                // A parameter or intermediate byte.
                sequence.append(scalar)
                if sequence.count >= Self.longestSequence {
                    events.append(.escapeSequence(String(sequence)))
                    state = .ground
                } else {
                    state = .sequence(sequence)
                }
            } else if (0x40...0x7E).contains(scalar.value) || (!isCSI && (0x20...0x7E).contains(scalar.value)) {
                // The final character.
                sequence.append(scalar)
                let text = String(sequence)
                if text == Self.pasteStart {
                    state = .paste(text: String.UnicodeScalarView(), matched: 0)
                } else {
                    state = .ground
                    // A paste end without a start is dropped: it is the terminal's, not a key.
                    if text != String(String.UnicodeScalarView(Self.pasteEnd)) {
                        events.append(.escapeSequence(text))
                    }
                }
            } else {
                // Not part of a sequence (a control character, another Escape, a letter beyond
                // ASCII): what came is an unknown sequence, and this is read afresh.
                events.append(.escapeSequence(String(sequence)))
                state = .ground
                receive(scalar, into: &events)
            }

        case .paste(var text, var matched):
            if scalar == Self.pasteEnd[matched] {
                matched += 1
                if matched == Self.pasteEnd.count {
                    if !text.isEmpty { events.append(.paste(String(text))) }
                    state = .ground
                    return
                }
            } else {
                // What looked like the end marker was text; this scalar may start the marker.
                text.append(contentsOf: Self.pasteEnd.prefix(matched))
                if scalar == Self.escape {
                    matched = 1
                } else {
                    matched = 0
                    text.append(scalar)
                }
            }
            state = .paste(text: text, matched: matched)
        }
    }
}
