#if !canImport(Combine)  // where Combine exists, Foundation already declares these names for it
    import Foundation
    import Streams

    extension NotificationCenter {
        /// A publisher of the notifications a center posts with one name (and, optionally, from one
        /// object), made by ``NotificationCenter/publisher(for:object:)``.
        ///
        /// <!-- marble notificationCenter-publisher: notifications(posting: $0) -->
        /// ```text
        /// posted:      -a-b----c-
        /// subscriber:  -a-b----c-   (unlimited demand; a, b, c: notifications)
        /// ```
        ///
        /// - Demand: a notification posted while the subscriber has no outstanding demand is
        ///   dropped, as in Combine. `request(.none)` is accepted and does nothing.
        /// - Threading: a notification is delivered on the thread that posts it. Notifications
        ///   posted on several threads at once, or from inside the subscriber, are delivered one at
        ///   a time ([S3]): the later ones are handed to the thread that is delivering, which delivers
        ///   them in order after the current one, without recursion ([S11]).
        /// - Completion: never completes.
        /// - Cancellation: removes the observer from the center and releases the subscriber ([S7]).
        /// - Combine compatibility: as Combine, except that a notification posted while another is
        ///   being delivered to the same subscriber is delivered after it rather than recursively or
        ///   in parallel.
        ///
        /// [S3]: doc:/Contract/StreamContract#S3
        /// [S7]: doc:/Contract/StreamContract#S7
        /// [S11]: doc:/Contract/StreamContract#S11
        public struct Publisher: Streams.Publisher, Equatable {
            /// A notification.
            public typealias Output = Notification
            /// Never fails.
            public typealias Failure = Never

            /// The center that posts the notifications.
            public let center: NotificationCenter
            /// The name of the notifications.
            public let name: Notification.Name
            /// The object whose notifications are published, or `nil` for every sender.
            public let object: AnyObject?

            /// A publisher of `center`'s notifications named `name` posted by `object` (by anyone,
            /// when `object` is `nil`).
            ///
            /// - Parameters:
            ///   - center: The notification center to observe.
            ///   - name: The name of the notifications to publish.
            ///   - object: The object whose notifications to publish, or `nil` for any poster's.
            public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
                self.center = center
                self.name = name
                self.object = object
            }

            /// Starts observing the center for `subscriber`. Notifications posted before its first
            /// request are dropped.
            ///
            /// - Parameter subscriber: The subscriber that receives the notifications posted after its
            ///   first request.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
                let subscription = NotificationSubscription(downstream: subscriber)
                subscription.observe(center: center, name: name, object: object)
                subscriber.receive(subscription: subscription)
            }

            /// Whether both publish the same center's notifications of the same name from the same
            /// object.
            ///
            /// - Parameters:
            ///   - lhs: A notification publisher.
            ///   - rhs: Another notification publisher.
            /// - Returns: `true` if both observe the same center, name and object.
            public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
                lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
            }
        }

        /// A publisher of the notifications this center posts with `name` (and from `object`, when
        /// it is not `nil`).
        ///
        /// <!-- marble notificationCenter: notifications(posting: $0) -->
        /// ```text
        /// posted:      -a-b----c-
        /// publisher:   -a-b----c-
        /// ```
        ///
        /// ```swift
        /// let c = NotificationCenter.default
        ///     .publisher(for: .NSCalendarDayChanged)
        ///     .sink { print("new day:", $0.name) }
        /// ```
        ///
        /// - Parameters:
        ///   - name: The name of the notifications to publish.
        ///   - object: The object whose notifications to publish, or `nil` for any poster's.
        /// - Returns: A publisher of those notifications.
        /// - Demand, Threading, Cancellation: see ``Publisher``.
        /// - Combine compatibility: as Combine.
        public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
            Publisher(center: self, name: name, object: object)
        }
    }

    /// What a notification center's observer block calls: the subscription, seen through a
    /// non-generic protocol, so that the block (made by `observerBlock(for:)`) captures no generic
    /// type.
    protocol NotificationReceiver: AnyObject, Sendable {
        func post(_ notification: Notification)
    }

    /// The observer block of `receiver`; it holds the receiver weakly.
    private func observerBlock(for receiver: any NotificationReceiver) -> @Sendable (Notification) -> Void {
        { [weak receiver] notification in receiver?.post(notification) }
    }

    /// One subscriber's observation of a notification center.
    ///
    /// The observer block (any posting thread) takes one unit of demand, or drops the notification.
    /// The first poster to find no delivery running becomes the deliverer and delivers, outside the
    /// lock, its notification and then every notification others queued meanwhile; so the
    /// subscriber is never called from two threads at once, nor recursively.
    final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationReceiver,
        CustomStringConvertible,
        @unchecked Sendable  // every var is guarded by `lock`
    where Downstream.Input == Notification, Downstream.Failure == Never {
        private let lock = Lock()
        private var downstream: Downstream?
        private var demand = Subscribers.Demand.none
        private var isDelivering = false
        private var queued: [Notification] = []
        private var center: NotificationCenter?
        private var observer: (any NSObjectProtocol)?

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        var description: String { "NotificationCenter Observer" }

        func observe(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            let observer = center.addObserver(
                forName: name, object: object, queue: nil, using: observerBlock(for: self))
            lock.withLock {
                self.center = center
                self.observer = observer
            }
        }

        func post(_ notification: Notification) {
            lock.lock()
            guard downstream != nil, demand > .none else {
                lock.unlock()
                return
            }
            demand -= 1
            if isDelivering {
                queued.append(notification)
                lock.unlock()
                return
            }
            isDelivering = true
            var next = notification
            while true {
                let downstream = self.downstream
                lock.unlock()
                let more = downstream?.receive(next) ?? .none
                lock.lock()
                if more > .none, self.downstream != nil { demand += more }
                if queued.isEmpty || self.downstream == nil {
                    queued = []
                    isDelivering = false
                    lock.unlock()
                    return
                }
                next = queued.removeFirst()
            }
        }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                if downstream != nil { self.demand += demand }
            }
        }

        func cancel() {
            lock.lock()
            let center = self.center
            let observer = self.observer
            let downstream = self.downstream
            self.center = nil
            self.observer = nil
            self.downstream = nil
            self.queued = []
            lock.unlock()
            if let center, let observer { center.removeObserver(observer) }
            keepAlive(downstream)  // released here, after unlocking
        }
    }
#endif
