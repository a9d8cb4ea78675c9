import Dispatch

/// What a store gives the effects it runs: the cancellation identifiers of its store tree, and
/// the throttle windows of `throttle(id:)`.
///
/// A root store makes one; its scopes share it (their actions run on the root). Effects
/// subscribed to outside any store use ``shared``.
@usableFromInline
package final class EffectContext: Sendable {
    /// The cancellable effects running under each identifier.
    package let cancellations = CancellationRegistry()
    /// The throttle window of each identifier ([A8]).
    ///
    /// [A8]: doc:/Contract/StoreContract#A8
    package let throttles = ThrottleRegistry()

    /// A new, independent set of identifiers.
    package init() {}

    /// The identifiers of effects subscribed to outside any store.
    package static let shared = EffectContext()
}

/// Tells whether the current code runs on the main dispatch queue, which is where the main
/// actor runs on every platform. Unlike `Thread.isMainThread`, it stays right after
/// `dispatchMain()`, when the main queue is drained on another thread.
@usableFromInline
package enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller is on the main queue (and so on the main actor).
    @usableFromInline
    package static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }
}
