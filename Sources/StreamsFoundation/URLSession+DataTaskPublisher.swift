#if !canImport(Combine)  // where Combine exists, Foundation already declares these names for it
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import Streams

    extension URLSession {
        /// A publisher that loads one URL request with a data task when a subscriber asks, and
        /// publishes the data and the response, made by
        /// ``URLSession/dataTaskPublisher(for:)-(URLRequest)``.
        ///
        /// <!-- marble dataTaskPublisher scheduler source async demand=0 demand=1@1 row=2: stubSession(answering: "/doc-marble-d", with: .respond(status: 200, body: Data("d".utf8)), atTick: 6, on: scheduler).dataTaskPublisher(for: stubURL("/doc-marble-d")).map(text) -->
        /// <!-- marble dataTaskPublisher-error scheduler source async demand=0 demand=1@1 row=3: stubSession(answering: "/doc-marble-error", with: .fail(.notConnectedToInternet), atTick: 6, on: scheduler).dataTaskPublisher(for: stubURL("/doc-marble-error")).map(text) -->
        /// ```text
        /// request(.max(1)):  -r-----------
        /// subscriber:        ------[d|]       (d: the task's data and response; then finished)
        /// on error:          ------^          (the URLError)
        /// ```
        ///
        /// - Demand: the data task is created and resumed at the first request; nothing happens
        ///   before, and later requests change nothing. `request(.none)` is an API violation ([S9]),
        ///   as Combine traps.
        /// - Completion: a response ends the stream with one value, `(data, response)` (empty data
        ///   when the task gave none), then `.finished`. An error ends it with `.failure`: the
        ///   task's `URLError`, or `URLError(.unknown)` for any other error or a missing response.
        /// - Cancellation: cancels the data task; the subscriber then receives nothing more and is
        ///   released ([S6], [S7]).
        /// - Threading: the value and the completion arrive on the session's delegate queue.
        /// - Combine compatibility: as Combine.
        ///
        /// [S6]: doc:/Contract/StreamContract#S6
        /// [S7]: doc:/Contract/StreamContract#S7
        /// [S9]: doc:/Contract/StreamContract#S9
        public struct DataTaskPublisher: Streams.Publisher {
            /// The data and the response.
            public typealias Output = (data: Data, response: URLResponse)
            /// The error of the data task.
            public typealias Failure = URLError

            /// The request to load.
            public let request: URLRequest
            /// The session whose data task loads it.
            public let session: URLSession

            /// A publisher that loads `request` with a data task of `session`.
            ///
            /// - Parameters:
            ///   - request: The request to load.
            ///   - session: The session whose data task loads it.
            public init(request: URLRequest, session: URLSession) {
                self.request = request
                self.session = session
            }

            /// Gives `subscriber` its subscription; the data task starts at its first request.
            ///
            /// - Parameter subscriber: The subscriber that receives the data and response, then
            ///   `.finished`, or the `URLError`.
            public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
                subscriber.receive(
                    subscription: DataTaskSubscription(request: request, session: session, downstream: subscriber))
            }
        }

        /// A publisher that loads `url` with a data task of this session when a subscriber asks.
        ///
        /// <!-- marble dataTaskPublisher-url scheduler source async: stubSession(answering: "/doc-marble-url", with: .respond(status: 200, body: Data("d".utf8)), atTick: 6, on: scheduler).dataTaskPublisher(for: stubURL("/doc-marble-url")).map(text) -->
        /// ```text
        /// publisher:  ------[d|]    (d: the data and the response)
        /// ```
        ///
        /// ```swift
        /// let c = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com")!)
        ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.data.count) })
        /// ```
        ///
        /// - Parameter url: The URL to load.
        /// - Returns: A publisher of the data and response, failing with a `URLError`.
        /// - Demand, Completion, Cancellation: see ``DataTaskPublisher``.
        /// - Combine compatibility: as Combine.
        public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
            dataTaskPublisher(for: URLRequest(url: url))
        }

        /// A publisher that loads `request` with a data task of this session when a subscriber asks.
        ///
        /// <!-- marble dataTaskPublisher-request scheduler source async: stubSession(answering: "/doc-marble-request", with: .respond(status: 200, body: Data("d".utf8)), atTick: 6, on: scheduler).dataTaskPublisher(for: stubRequest("/doc-marble-request")).map(text) -->
        /// ```text
        /// publisher:  ------[d|]    (d: the data and the response)
        /// ```
        ///
        /// - Parameter request: The request to load.
        /// - Returns: A publisher of the data and response, failing with a `URLError`.
        /// - Demand, Completion, Cancellation: see ``DataTaskPublisher``.
        /// - Combine compatibility: as Combine.
        public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
            DataTaskPublisher(request: request, session: self)
        }
    }

    /// What a data task's completion handler calls: the subscription, seen through a non-generic
    /// protocol, so that the handler (made by `completionHandler(for:)`) captures no generic type.
    protocol DataTaskReceiver: AnyObject, Sendable {
        func finish(data: Data?, response: URLResponse?, error: (any Error)?)
    }

    /// The completion handler of `receiver`'s data task. It holds the receiver until the task
    /// completes (or is cancelled), as Combine's does.
    private func completionHandler(for receiver: any DataTaskReceiver)
        -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    {
        { data, response, error in receiver.finish(data: data, response: response, error: error) }
    }

    /// One subscription of a ``URLSession/DataTaskPublisher``: creates its data task at the first
    /// request; the task's completion handler delivers at most once.
    final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskReceiver, CustomStringConvertible,
        @unchecked Sendable  // every var is guarded by `lock`
    where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
        private let lock = Lock()
        private let request: URLRequest
        private let session: URLSession
        private var downstream: Downstream?
        private var task: URLSessionDataTask?
        private var isCreatingTask = false

        init(request: URLRequest, session: URLSession, downstream: Downstream) {
            self.request = request
            self.session = session
            self.downstream = downstream
        }

        var description: String { "DataTaskPublisher" }

        func request(_ demand: Subscribers.Demand) {
            guard demand.isValidRequest(of: "URLSession.DataTaskPublisher") else { return }
            lock.lock()
            // The task is resumed once. Combine resumes it at every request, which does nothing on
            // Apple platforms but starts the load again with swift-corelibs-foundation.
            if downstream == nil || isCreatingTask || task != nil {
                lock.unlock()
                return
            }
            isCreatingTask = true
            lock.unlock()

            let task = session.dataTask(with: request, completionHandler: completionHandler(for: self))
            lock.lock()
            isCreatingTask = false
            if downstream == nil {  // cancelled meanwhile
                lock.unlock()
                task.cancel()
                return
            }
            self.task = task
            lock.unlock()
            task.resume()
        }

        func cancel() {
            lock.lock()
            let task = self.task
            let downstream = self.downstream
            self.task = nil
            self.downstream = nil
            lock.unlock()
            task?.cancel()
            keepAlive(downstream)  // released here, after unlocking
        }

        func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.downstream = nil
            self.task = nil
            lock.unlock()
            if let error {
                downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
            } else if let response {
                _ = downstream.receive((data ?? Data(), response))
                downstream.receive(completion: .finished)
            } else {
                downstream.receive(completion: .failure(URLError(.unknown)))
            }
        }
    }
#endif
