#if !canImport(Combine)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsFoundation
import StreamsTesting
import Testing

/// What the stub protocol answers for a URL.
enum StubAnswer: Sendable {
    case respond(status: Int, body: Data)
    case fail(URLError.Code)
    /// Never answers: the load waits until it is stopped.
    case hang
}

/// The stub protocol's answers, by URL path, and what it saw.
final class StubBook: @unchecked Sendable {  // every var is guarded by `lock`
    static let shared = StubBook()
    private let lock = NSLock()
    private var answers: [String: StubAnswer] = [:]
    private var _started: [String] = []
    let stopped = DispatchSemaphore(value: 0)

    func answer(_ path: String, with answer: StubAnswer) {
        lock.lock(); answers[path] = answer; lock.unlock()
    }

    func answer(for path: String) -> StubAnswer? {
        lock.lock(); defer { lock.unlock() }
        _started.append(path)
        return answers[path]
    }

    func started(_ path: String) -> Int {
        lock.lock(); defer { lock.unlock() }
        return _started.filter { $0 == path }.count
    }
}

/// A URL protocol that answers from ``StubBook`` instead of the network.
final class StubURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let client else { return }
        switch StubBook.shared.answer(for: url.path) {
        case .respond(let status, let body):
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1",
                                           headerFields: ["Content-Type": "text/plain"])!
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: body)
            client.urlProtocolDidFinishLoading(self)
        case .fail(let code):
            client.urlProtocol(self, didFailWithError: URLError(code))
        case .hang:
            break
        case nil:
            client.urlProtocol(self, didFailWithError: URLError(.fileDoesNotExist))
        }
    }

    override func stopLoading() {
        if request.url?.path.hasPrefix("/hang") == true { StubBook.shared.stopped.signal() }
    }
}

@Suite("URLSession.DataTaskPublisher")
struct DataTaskPublisherTests {
    typealias Output = (data: Data, response: URLResponse)

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }()

    static func url(_ path: String) -> URL { URL(string: "http://stub.invalid\(path)")! }

    /// Subscribes with `demand`, and waits (at most 10 s) for the completion.
    func load(_ publisher: URLSession.DataTaskPublisher) async -> RecordingSubscriber<Output, URLError> {
        let subscriber = RecordingSubscriber<Output, URLError>()
        publisher.subscribe(subscriber)
        let deadline = Date().addingTimeInterval(10)
        while subscriber.completion == nil && Date() < deadline {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return subscriber
    }

    @Test func publishesTheDataAndTheResponseThenFinishes() async {
        StubBook.shared.answer("/hello", with: .respond(status: 200, body: Data("hello".utf8)))
        let subscriber = await load(Self.session.dataTaskPublisher(for: Self.url("/hello")))
        #expect(subscriber.values.count == 1)
        #expect(subscriber.values.first.map { String(decoding: $0.data, as: UTF8.self) } == "hello")
        #expect((subscriber.values.first?.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anHTTPErrorStatusIsAResponseNotAFailure() async {
        // As Combine (and URLSession): a 404 is a response.
        StubBook.shared.answer("/missing", with: .respond(status: 404, body: Data()))
        let subscriber = await load(Self.session.dataTaskPublisher(for: URLRequest(url: Self.url("/missing"))))
        #expect((subscriber.values.first?.response as? HTTPURLResponse)?.statusCode == 404)
        #expect(subscriber.values.first?.data.isEmpty == true)
        #expect(subscriber.completion == .finished)
    }

    @Test func aLoadingErrorFailsWithItsURLError() async {
        StubBook.shared.answer("/down", with: .fail(.cannotConnectToHost))
        let subscriber = await load(Self.session.dataTaskPublisher(for: Self.url("/down")))
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func nothingStartsBeforeTheFirstRequest() async {
        StubBook.shared.answer("/lazy", with: .respond(status: 200, body: Data("x".utf8)))
        let subscriber = RecordingSubscriber<Output, URLError>(demand: nil)
        Self.session.dataTaskPublisher(for: Self.url("/lazy")).subscribe(subscriber)
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(StubBook.shared.started("/lazy") == 0)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        subscriber.request(.max(1))  // resumes the same task again: no second load
        let deadline = Date().addingTimeInterval(10)
        while subscriber.completion == nil && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        #expect(subscriber.values.count == 1)
        #expect(StubBook.shared.started("/lazy") == 1)
    }

    @Test func cancellingBeforeTheAnswerCancelsTheTask_S6() async {
        StubBook.shared.answer("/hang-cancel", with: .hang)
        let subscriber = RecordingSubscriber<Output, URLError>()
        Self.session.dataTaskPublisher(for: Self.url("/hang-cancel")).subscribe(subscriber)
        let deadline = Date().addingTimeInterval(10)
        while StubBook.shared.started("/hang-cancel") == 0 && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        #expect(StubBook.shared.started("/hang-cancel") == 1)
        subscriber.cancel()
        // The task is cancelled, so the protocol is told to stop.
        #expect(StubBook.shared.stopped.wait(timeout: .now() + 10) == .success)
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(subscriber.events.count == 1)  // the subscription only: no value, no completion
    }

    @Test func cancellingBeforeAnyRequestStartsNothing() async {
        StubBook.shared.answer("/never", with: .respond(status: 200, body: Data()))
        let subscriber = RecordingSubscriber<Output, URLError>(demand: nil)
        Self.session.dataTaskPublisher(for: Self.url("/never")).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(StubBook.shared.started("/never") == 0)
        #expect(subscriber.events.count == 1)
    }

    @Test func requestingNoneIsAViolation_S9() {
        let subscriber = RecordingSubscriber<Output, URLError>(demand: nil)
        Self.session.dataTaskPublisher(for: Self.url("/none")).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        subscriber.cancel()
    }

    @Test func thePublisherKeepsItsRequestAndSession() {
        var request = URLRequest(url: Self.url("/kept"))
        request.httpMethod = "POST"
        let publisher = Self.session.dataTaskPublisher(for: request)
        #expect(publisher.request == request)
        #expect(publisher.session === Self.session)
        #expect(Self.session.dataTaskPublisher(for: Self.url("/kept")).request == URLRequest(url: Self.url("/kept")))
    }

    @Test func subscriptionDescription() {
        let subscriber = RecordingSubscriber<Output, URLError>(demand: nil)
        Self.session.dataTaskPublisher(for: Self.url("/d")).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "DataTaskPublisher")
        subscriber.cancel()
    }
}
#endif
