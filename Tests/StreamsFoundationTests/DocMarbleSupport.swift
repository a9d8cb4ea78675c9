import Foundation
import StreamsFoundation
import StreamsTesting

// Helpers the <!-- marble ... --> annotations of StreamsFoundation's doc comments use (see
// MarbleBlock's doc comment).

extension Notification.Name {
    /// The name the diagrams' notifications are posted with.
    static let docMarble = Notification.Name("DocMarble")
}

/// A center of its own (no other test posts to it) that posts a `.docMarble` notification for
/// each value of `input`, carrying the value's text; the publisher of those notifications, as
/// their texts.
func notifications(posting input: TestPublisher<String, MarbleFailure>) -> some Publisher<String, Never> {
    let center = NotificationCenter()
    input.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { value in
        center.post(name: .docMarble, object: nil, userInfo: ["value": value])
    }))
    return center.publisher(for: .docMarble).map { $0.userInfo?["value"] as? String ?? "?" }
}

#if !canImport(Combine)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session whose loads the stub protocol answers (`StubURLProtocol`; a request for `path`
/// gets `answer`), and whose delegate queue — where a data task's answer arrives — is held
/// until tick `tick` of the diagram on `scheduler`: the answer comes at that tick, whenever the
/// stub gave it. For the async diagrams of `dataTaskPublisher`.
func stubSession(
    answering path: String, with answer: StubAnswer, atTick tick: Int, on scheduler: TestSchedulerOf<DispatchQueue>
) -> URLSession {
    StubBook.shared.answer(path, with: answer)
    let delegateQueue = OperationQueue()
    delegateQueue.isSuspended = true
    scheduler.atTick(tick) { delegateQueue.isSuspended = false }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [StubURLProtocol.self]
    return URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
}

/// The URL of `path` on the stub's host.
func stubURL(_ path: String) -> URL {
    URL(string: "https://stub.test" + path)!
}

/// A request for `path` on the stub's host.
func stubRequest(_ path: String) -> URLRequest {
    URLRequest(url: stubURL(path))
}

/// The data of a data task's answer, as text (the row's value).
func text(_ answer: (data: Data, response: URLResponse)) -> String {
    String(decoding: answer.data, as: UTF8.self)
}
#endif
