/// A class whose instances announce, through ``objectWillChange``, that they are about to
/// change.
///
/// A class that conforms and does not declare `objectWillChange` gets one for free: an
/// ``ObservableObjectPublisher`` that fires before any of the object's `@Published` properties
/// changes, including those declared in subclasses and in non-observable superclasses. Each
/// instance has one such publisher, created the first time `objectWillChange` is read, and
/// reading it again returns the same publisher. Call its `send()` to announce changes of other
/// properties.
///
/// <!-- marble observableObject: driving(PublishedModel("24"), by: $0) { $0.value = $1 }.objectWillChange -->
/// ```text
/// contact.age = :     ---a---b---   (a = 25, b = 26; it was 24)
/// objectWillChange:   ---w---w---   (w = (), each before the change)
/// ```
///
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var name: String
///     @Published var age: Int
///     init(name: String, age: Int) {
///         self.name = name
///         self.age = age
///     }
/// }
/// let john = Contact(name: "John", age: 24)
/// let c = john.objectWillChange.sink { print("\(john.age) will change") }
/// john.age += 1   // Prints: 24 will change
/// print(john.age) // Prints: 25
/// ```
///
/// A class that declares its own `objectWillChange` (of any publisher type whose failure is
/// `Never`) gets no automatic signals: its `@Published` properties then publish only through
/// their own `$` publishers.
///
/// - Threading: the default `objectWillChange` may be read from any thread; reading it for the
///   first time installs the publisher in every `@Published` property at once.
/// - Combine compatibility: as Combine. The default publisher finds the `@Published` properties
///   by reflection (`Mirror`), like Combine's; a class that customizes its mirror
///   (`CustomReflectable`) hides them, and then gets a publisher that fires only on `send()`.
public protocol ObservableObject: AnyObject {
    /// The type of ``objectWillChange``; ``ObservableObjectPublisher`` unless the class declares
    /// its own.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's own ``ObservableObjectPublisher``: the same publisher every time, which
    /// fires before any of the object's `@Published` properties changes.
    public var objectWillChange: ObservableObjectPublisher {
        // Every `@Published` property, in the same order on every walk: the first property's
        // publisher (installed once, under that property's lock) is the object's, and is then
        // installed in all the others. So concurrent first reads agree on one publisher.
        var installed: ObservableObjectPublisher?
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any PublishedProperty {
                    installed = property.installObjectWillChange(installed)
                }
            }
            mirror = current.superclassMirror
        }
        return installed ?? ObjectWillChangeTable.shared.publisher(for: self)
    }
}

/// A `@Published` property as the default `objectWillChange` finds it.
protocol PublishedProperty {
    /// The `objectWillChange` publisher installed in the property, installing `candidate` (or a
    /// new publisher) when there is none yet.
    func installObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher
}

extension Published: PublishedProperty {
    func installObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher {
        storage.installObjectWillChange(candidate)
    }
}

/// The default `objectWillChange` of objects that have no `@Published` property, so that
/// reading it twice gives the same publisher and a manual `send()` reaches the subscribers.
/// Entries hold their object weakly; the entries of objects that are gone are dropped as the
/// table grows.
final class ObjectWillChangeTable: @unchecked Sendable {  // `entries` and `pruneAt` are guarded by `lock`
    static let shared = ObjectWillChangeTable()

    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var pruneAt = 64

    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = ObjectIdentifier(object)
        return lock.withLock {
            // An identifier can be reused by a new object once the old one is gone: the weak
            // reference tells them apart.
            if let entry = entries[id], entry.object === object {
                return entry.publisher
            }
            if entries.count >= pruneAt {
                entries = entries.filter { $0.value.object != nil }
                pruneAt = max(64, entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            entries[id] = Entry(object: object, publisher: publisher)
            return publisher
        }
    }
}
