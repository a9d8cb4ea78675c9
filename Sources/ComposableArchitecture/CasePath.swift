/// A path to one case of an enum: how to put a value into that case (``embed(_:)``) and how to get
/// it back out when a value is that case (``extract(from:)``).
///
/// It is to enum cases what a `WritableKeyPath` is to struct properties, and `pullback` uses one
/// to pick a child feature's actions out of the app's actions. Make one from a case with the
/// `/` prefix operator:
///
/// ```swift
/// enum AppAction: Equatable {
///     case counter(CounterAction)
///     case move(from: Int, to: Int)
///     case reset
/// }
/// let counter = /AppAction.counter                             // CasePath<AppAction, CounterAction>
/// let increment = counter.extract(from: .counter(.increment))  // .increment
/// let none = counter.extract(from: .reset)                     // nil
/// let move = /AppAction.move                                   // CasePath<AppAction, (Int, Int)>
/// let reset = /AppAction.reset                                 // CasePath<AppAction, Void>
/// ```
///
/// Cases with one value, several values (a tuple, labelled or not) and no value all work;
/// `indirect` cases, generic enums and cases that share a base name (`move(by:)`,
/// `move(from:to:)`) too. Extraction reads the case with `Mirror`, so it costs a little more than
/// a `switch`; write a `CasePath(embed:extract:)` by hand where that matters.
///
/// A case without a value needs an `Equatable` enum (see `/(case:)`).
public struct CasePath<Root, Value> {
    private let embedBody: (Value) -> Root
    private let extractBody: (Root) -> Value?

    /// A case path from the two directions, written by hand.
    ///
    /// - Parameters:
    ///   - embed: A closure that puts a value into the case.
    ///   - extract: A closure that returns the case's value, or `nil` for any other case.
    public init(embed: @escaping (Value) -> Root, extract: @escaping (Root) -> Value?) {
        embedBody = embed
        extractBody = extract
    }

    /// Puts `value` into the case.
    ///
    /// - Parameter value: The value to put into the case.
    /// - Returns: The enum value of this case holding `value`.
    public func embed(_ value: Value) -> Root {
        embedBody(value)
    }

    /// The case's value, when `root` is this case; `nil` otherwise.
    ///
    /// - Parameter root: The enum value to look into.
    /// - Returns: The case's value, or `nil` if `root` is another case.
    public func extract(from root: Root) -> Value? {
        extractBody(root)
    }

    /// A case path through this one and then `path` (for nested enums).
    ///
    /// - Parameter path: A case path into this case's value.
    /// - Returns: A case path from this one's root to `path`'s value.
    public func appending<AppendedValue>(path: CasePath<Value, AppendedValue>) -> CasePath<Root, AppendedValue> {
        CasePath<Root, AppendedValue>(
            embed: { self.embed(path.embed($0)) },
            extract: { self.extract(from: $0).flatMap(path.extract(from:)) })
    }
}

extension CasePath where Root == Value {
    /// The path from a value to itself.
    public static var `self`: CasePath {
        CasePath(embed: { $0 }, extract: { $0 })
    }
}

prefix operator /

/// The case path of an enum case that holds a value (or a tuple of values):
/// `/AppAction.counter`.
///
/// In Swift 6 a case's constructor is a `@Sendable` function, and this takes it as it is.
///
/// - Parameter embed: The case's constructor, such as `AppAction.counter`.
/// - Returns: The case path of that case.
public prefix func / <Root, Value>(embed: @escaping @Sendable (Value) -> Root) -> CasePath<Root, Value> {
    CasePath(embed: embed, extract: { root in extractCase(embed, from: root) })
}

/// The case path of an enum case without a value: `/AppAction.reset`.
///
/// The enum must be `Equatable`: `==` is what tells such a case apart from the others. (An
/// unconstrained version would also accept a case constructor, `/AppAction.counter`, and make a
/// useless path of the function itself: Swift prefers it to the conversion of the constructor.)
/// For an enum that is not `Equatable`, write the path by hand:
/// `CasePath(embed: { .reset }, extract: { if case .reset = $0 { () } else { nil } })`.
///
/// - Parameter case: The case, such as `AppAction.reset`.
/// - Returns: The case path of that case, whose value is `()`.
public prefix func / <Root: Equatable>(case: Root) -> CasePath<Root, Void> {
    CasePath(embed: { `case` }, extract: { root in root == `case` ? () : nil })
}

/// The identity case path: `/AppAction.self`.
///
/// - Parameter type: The enum type, such as `AppAction.self`.
/// - Returns: The case path that embeds and extracts the whole value.
public prefix func / <Root>(type: Root.Type) -> CasePath<Root, Root> {
    .self
}

/// The value of `root` if `root` is the case `embed` makes.
private func extractCase<Root, Value>(_ embed: (Value) -> Root, from root: Root) -> Value? {
    let mirror = Mirror(reflecting: root)
    guard mirror.displayStyle == .enum || mirror.displayStyle == .optional, let child = mirror.children.first,
        let value = child.value as? Value ?? (Mirror(reflecting: child.value).children.first?.value as? Value)
    else { return nil }
    // Same payload type is not enough (two cases may hold an Int): the case must match too —
    // its name, and its payload's type, which tells `move(by:)` from `move(from:to:)`.
    guard let embedded = Mirror(reflecting: embed(value)).children.first,
        embedded.label == child.label, type(of: embedded.value) == type(of: child.value)
    else { return nil }
    return value
}
