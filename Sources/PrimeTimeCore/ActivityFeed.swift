import ComposableArchitecture
import Foundation

// The activity feed: a log, for the user, of the favorites added and removed, by any feature.

/// One entry of the activity feed: a favorite prime added or removed, and when.
public struct Activity: Equatable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Sendable {
        /// The prime became a favorite (saved on the "is this prime?" screen).
        case addedFavoritePrime(Int)
        /// The prime stopped being a favorite (removed, or deleted from the list).
        case removedFavoritePrime(Int)
    }

    /// When it happened (the environment's clock).
    public var timestamp: Date
    /// What happened.
    public var kind: Kind

    /// An entry saying `kind` happened at `timestamp`.
    ///
    /// - Parameters:
    ///   - timestamp: When it happened.
    ///   - kind: What happened.
    public init(timestamp: Date, kind: Kind) {
        self.timestamp = timestamp
        self.kind = kind
    }

    /// How many entries a feed keeps by default: the most recent ones.
    public static let feedLimit = 100
}

extension Reducer {
    /// A reducer that runs this one and records, in the activity feed, every favorite prime that
    /// an action added or removed — whichever feature did it.
    ///
    /// It compares the favorites before and after each action that `records` (all by default;
    /// the app leaves out the file's load, which is not something the user did): each prime no
    /// longer there is
    /// recorded as ``Activity/Kind/removedFavoritePrime(_:)``, then each new one as
    /// ``Activity/Kind/addedFavoritePrime(_:)``, in list order, all stamped with one reading of
    /// the clock `now`. The feed is oldest first and bounded: once it holds `limit` entries, the
    /// oldest are dropped.
    ///
    /// ```swift
    /// let reducer = appReducer.activityFeed(favoritePrimes: \.favoritePrimes, activityFeed: \.activityFeed,
    ///                                       now: { $0.now() }, records: { !$0.isFileAnswer })
    /// ```
    ///
    /// - Parameters:
    ///   - toFavoritePrimes: The key path of the favorite primes in the state.
    ///   - toActivityFeed: The key path of the activity feed in the state.
    ///   - limit: The most entries the feed keeps; ``Activity/feedLimit`` by default.
    ///   - now: A closure that takes the environment and returns the time to stamp entries with.
    ///   - records: A closure that takes an action and returns whether its changes are recorded;
    ///     every action by default.
    /// - Returns: A reducer that runs this one and keeps the activity feed.
    /// - Complexity: O(n) in the number of favorites per action that changed them; O(1) otherwise.
    public func activityFeed(
        favoritePrimes toFavoritePrimes: KeyPath<State, [Int]>,
        activityFeed toActivityFeed: WritableKeyPath<State, [Activity]>,
        limit: Int = Activity.feedLimit,
        now: @escaping (Environment) -> Date,
        records: @escaping (Action) -> Bool = { _ in true }
    ) -> Reducer {
        Reducer { state, action, environment in
            guard records(action) else { return self.run(&state, action, environment) }
            let before = state[keyPath: toFavoritePrimes]
            let effect = self.run(&state, action, environment)
            let after = state[keyPath: toFavoritePrimes]
            guard before != after else { return effect }
            let kept = Set(after)
            let previous = Set(before)
            let kinds =
                before.filter { !kept.contains($0) }.map(Activity.Kind.removedFavoritePrime)
                + after.filter { !previous.contains($0) }.map(Activity.Kind.addedFavoritePrime)
            guard !kinds.isEmpty else { return effect }
            let timestamp = now(environment)
            state[keyPath: toActivityFeed] += kinds.map { Activity(timestamp: timestamp, kind: $0) }
            let overflow = state[keyPath: toActivityFeed].count - max(limit, 0)
            if overflow > 0 { state[keyPath: toActivityFeed].removeFirst(overflow) }
            return effect
        }
    }
}
