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
