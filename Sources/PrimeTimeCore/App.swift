import ComposableArchitecture
import Dispatch
import Foundation

// The whole app: its state, its actions, its environment, and the features pulled back into
// one reducer, with navigation, autosaving, the activity feed and logging around them.

/// The app's screens.
public enum Screen: Equatable, Sendable {
    /// The counter, with "is this prime?" and "what is the nth prime?".
    case counter
    /// The list of favorite primes.
    case favoritePrimes
}

/// Everything on screen.
///
/// Each feature sees a slice of it (``counter``, ``primeModal``, ``nthPrime``,
/// ``favoritePrimesState``): computed properties that read and write the shared fields, so the
/// count and the favorites exist once.
public struct AppState: Equatable, Sendable {
    /// The counter's number.
    public var count: Int
    /// The favorite primes, in the order they were saved.
    public var favoritePrimes: [Int]
    /// The screen shown.
    public var screen: Screen
    /// Whether the "is this prime?" modal is shown (over the counter screen).
    public var isPrimeModalShown: Bool
    /// The nth-prime answer on screen, until dismissed.
    public var nthPrimeAlert: NthPrimeAlert?
    /// The n of the nth-prime question being computed (the count when it was asked), or `nil`.
    public var nthPrimeRequestedN: Int?
    /// The favorites added and removed, oldest first (at most ``Activity/feedLimit``).
    public var activityFeed: [Activity]
    /// Whether every action and state change is written to the log.
    public var isLogging: Bool
    /// What to tell the user about the favorites file, until dismissed: a problem with it, or
    /// what a save or load they asked for did.
    public var message: String?
    /// What the app knows about the favorites file (whether changes are autosaved).
    public var favoritesFileStatus: FavoritesFileStatus
    /// The save or load of the favorites file the user asked for, until it is answered.
    public var favoritesFileRequest: FavoritesFileRequest?

    /// An app state; by default the counter at 0, no favorites (the file not read yet), nothing
    /// shown over the counter, logging off.
    ///
    /// - Parameters:
    ///   - count: The counter's number.
    ///   - favoritePrimes: The favorite primes, in the order they were saved.
    ///   - screen: The screen shown.
    ///   - isPrimeModalShown: Whether the "is this prime?" modal is shown.
    ///   - nthPrimeAlert: The nth-prime answer on screen, if any.
    ///   - nthPrimeRequestedN: The n of the nth-prime question being computed, or `nil` when none
    ///     is.
    ///   - activityFeed: The favorites added and removed, oldest first.
    ///   - isLogging: Whether actions and state changes are logged.
    ///   - message: What to tell the user about the favorites file, if anything.
    ///   - favoritesFileStatus: What the app knows about the favorites file.
    ///   - favoritesFileRequest: The save or load of the favorites file in flight, if any.
    public init(
        count: Int = 0,
        favoritePrimes: [Int] = [],
        screen: Screen = .counter,
        isPrimeModalShown: Bool = false,
        nthPrimeAlert: NthPrimeAlert? = nil,
        nthPrimeRequestedN: Int? = nil,
        activityFeed: [Activity] = [],
        isLogging: Bool = false,
        message: String? = nil,
        favoritesFileStatus: FavoritesFileStatus = .notLoaded,
        favoritesFileRequest: FavoritesFileRequest? = nil
    ) {
        self.count = count
        self.favoritePrimes = favoritePrimes
        self.screen = screen
        self.isPrimeModalShown = isPrimeModalShown
        self.nthPrimeAlert = nthPrimeAlert
        self.nthPrimeRequestedN = nthPrimeRequestedN
        self.activityFeed = activityFeed
        self.isLogging = isLogging
        self.message = message
        self.favoritesFileStatus = favoritesFileStatus
        self.favoritesFileRequest = favoritesFileRequest
    }

    // MARK: Views for the front end

    /// Whether the count is prime.
    public var isPrime: Bool { Primes.isPrime(count) }

    /// Whether an nth-prime question is being computed (``nthPrimeRequestedN`` is set).
    public var isNthPrimeRequestInFlight: Bool { nthPrimeRequestedN != nil }

    /// Whether the count is a favorite.
    public var isFavorite: Bool { favoritePrimes.contains(count) }

    /// Whether "what is the nth prime?" can be asked: on the counter screen, with no modal, no
    /// question in flight and no answer on screen.
    public var isNthPrimeButtonEnabled: Bool {
        screen == .counter && !isPrimeModalShown && nthPrime.isButtonEnabled
    }

    /// Whether the app acts on `action` now. Actions of a screen that is not shown are ignored
    /// (the reducer does not trust the front end); a front end may use this to grey out commands.
    ///
    /// - Counter actions, "is this prime?" and "what is the nth prime?": on the counter screen
    ///   with no modal shown (the nth-prime button also needs ``isNthPrimeButtonEnabled``).
    /// - The modal's actions and its dismissal: while it is shown.
    /// - Everything else (navigation, the favorites list and file, logging, answers from
    ///   effects, dismissing the nth-prime alert or the message): always.
    ///
    /// - Parameter action: The action a front end would send.
    /// - Returns: `true` if the reducer acts on `action` in this state.
    public func accepts(_ action: AppAction) -> Bool {
        let onCounter = screen == .counter && !isPrimeModalShown
        switch action {
        case .counter, .isPrimeButtonTapped:
            return onCounter
        case .nthPrime(.nthPrimeButtonTapped):
            return isNthPrimeButtonEnabled
        case .primeModal, .primeModalDismissed:
            return isPrimeModalShown
        case .nthPrime, .favoritePrimes, .screenSelected, .loggingToggled:
            return true
        }
    }

    // MARK: The features' slices

    /// The counter's slice.
    public var counter: CounterState {
        get { CounterState(count: count) }
        set { count = newValue.count }
    }

    /// The "is this prime?" modal's slice.
    public var primeModal: PrimeModalState {
        get { PrimeModalState(count: count, favoritePrimes: favoritePrimes) }
        set {
            count = newValue.count
            favoritePrimes = newValue.favoritePrimes
        }
    }

    /// The nth-prime feature's slice.
    public var nthPrime: NthPrimeState {
        get { NthPrimeState(count: count, alert: nthPrimeAlert, requestedN: nthPrimeRequestedN) }
        set {
            count = newValue.count
            nthPrimeAlert = newValue.alert
            nthPrimeRequestedN = newValue.requestedN
        }
    }

    /// The favorite primes feature's slice.
    public var favoritePrimesState: FavoritePrimesState {
        get {
            FavoritePrimesState(
                favoritePrimes: favoritePrimes, message: message, fileStatus: favoritesFileStatus,
                request: favoritesFileRequest)
        }
        set {
            favoritePrimes = newValue.favoritePrimes
            message = newValue.message
            favoritesFileStatus = newValue.fileStatus
            favoritesFileRequest = newValue.request
        }
    }
}

/// Every user intent and every effect's answer, nested per feature.
///
/// At launch the front end sends `.favoritePrimes(.launched)` to read the favorites file.
public enum AppAction: Equatable, Sendable {
    /// The counter's `+` and `-`.
    case counter(CounterAction)
    /// Save and remove on the "is this prime?" modal.
    case primeModal(PrimeModalAction)
    /// "What is the nth prime?": the button, the answer, dismissing the alert.
    case nthPrime(NthPrimeAction)
    /// The favorites list and its file.
    case favoritePrimes(FavoritePrimesAction)
    /// Go to a screen. Leaving the counter screen closes the modal and cancels an nth-prime
    /// question in flight.
    case screenSelected(Screen)
    /// "Is this prime?": show the modal.
    case isPrimeButtonTapped
    /// Close the modal.
    case primeModalDismissed
    /// Turn logging of actions and state changes on or off.
    case loggingToggled
}

extension AppAction {
    /// Whether this is the favorites file's answer to a load or a save: what it changes in the
    /// list was read (or saved by another PrimeTime process), not done by the user, so it is not
    /// activity.
    var isFileAnswer: Bool {
        switch self {
        case .favoritePrimes(.loadResponse), .favoritePrimes(.mergedSaveResponse): true
        default: false
        }
    }
}

/// Everything the app needs from the outside world.
public struct AppEnvironment {
    /// Computes the nth prime (`nil` when there is none), eventually.
    public var nthPrime: (Int) -> Effect<Int?>
    /// Where effects deliver their answers: the main queue live, a `TestScheduler` in tests.
    public var mainQueue: AnySchedulerOf<DispatchQueue>
    /// Reads and writes the favorites file.
    public var favoritesFile: FavoritesFileClient
    /// The clock stamping activity-feed entries.
    public var now: () -> Date
    /// Writes one log report (an action and its state diff, several lines) while logging is on.
    public var log: (String) -> Void

    /// An environment of the given dependencies.
    ///
    /// - Parameters:
    ///   - nthPrime: A closure that takes `n` and returns an effect that computes the nth prime
    ///     (`nil` when there is none).
    ///   - mainQueue: Where effects deliver their answers.
    ///   - favoritesFile: The client that reads and writes the favorites file.
    ///   - now: The clock that stamps activity-feed entries.
    ///   - log: A closure that writes one log report.
    public init(
        nthPrime: @escaping (Int) -> Effect<Int?>,
        mainQueue: AnySchedulerOf<DispatchQueue>,
        favoritesFile: FavoritesFileClient,
        now: @escaping () -> Date,
        log: @escaping (String) -> Void
    ) {
        self.nthPrime = nthPrime
        self.mainQueue = mainQueue
        self.favoritesFile = favoritesFile
        self.now = now
        self.log = log
    }

    /// The real world: the nth prime computed on a global queue after 300–500 ms (standing in for
    /// a network service), answers delivered on the main queue, the favorites in the JSON file
    /// `favoritesFile`, the system clock, and the log appended to `logFile` (from a background
    /// queue; a log that cannot be written is silently skipped).
    ///
    /// - Parameters:
    ///   - favoritesFile: The URL of the JSON file of favorites.
    ///   - logFile: The URL of the file the log is appended to.
    /// - Returns: The live environment.
    public static func live(favoritesFile: URL, logFile: URL) -> AppEnvironment {
        let background = DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler()
        return AppEnvironment(
            nthPrime: { n in
                NthPrimeEnvironment.computing(on: background, latency: .milliseconds(Int.random(in: 300...500)))(n)
            },
            mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
            favoritesFile: .live(file: favoritesFile),
            now: { Date() },
            log: LogFile(url: logFile).append
        )
    }

    /// The nth-prime feature's environment.
    var nthPrimeEnvironment: NthPrimeEnvironment {
        NthPrimeEnvironment(nthPrime: nthPrime, mainQueue: mainQueue)
    }

    /// The favorite primes feature's environment.
    var favoritePrimesEnvironment: FavoritePrimesEnvironment {
        FavoritePrimesEnvironment(file: favoritesFile, mainQueue: mainQueue)
    }
}

/// The log file: reports appended on a serial background queue, so logging never blocks the
/// main queue and reports stay in order.
final class LogFile: Sendable {
    /// The file the reports go to.
    let url: URL
    private let queue = DispatchQueue(label: "PrimeTime.log", qos: .utility)

    /// A log appending to `url` (created when first written to).
    init(url: URL) {
        self.url = url
    }

    /// Appends `report` and a newline, later, on the log's queue. A log that cannot be written is
    /// skipped: logging is a debugging aid and must not disturb the app.
    func append(_ report: String) {
        let data = Data((report + "\n").utf8)
        let url = self.url
        queue.async {
            if let handle = try? FileHandle(forWritingTo: url) {
                _ = try? handle.seekToEnd()
                try? handle.write(contentsOf: data)
                try? handle.close()
            } else {
                try? data.write(to: url)
            }
        }
    }

    /// Waits until everything appended so far is written.
    func flush() {
        queue.sync {}
    }
}

// MARK: - The reducer

/// The features, pulled back into the app, and the app's own actions (navigation, the modal,
/// the logging switch).
@MainActor let featuresReducer = Reducer<AppState, AppAction, AppEnvironment>.combine(
    counterReducer.pullback(state: \.counter, action: /AppAction.counter, environment: { _ in () }),
    primeModalReducer.pullback(state: \.primeModal, action: /AppAction.primeModal, environment: { _ in () }),
    nthPrimeReducer.pullback(state: \.nthPrime, action: /AppAction.nthPrime, environment: \.nthPrimeEnvironment),
    favoritePrimesReducer.pullback(
        state: \.favoritePrimesState, action: /AppAction.favoritePrimes, environment: \.favoritePrimesEnvironment),
    Reducer { state, action, environment in
        switch action {
        case let .screenSelected(screen):
            guard screen != state.screen else { return .none }
            let leaving = state.screen
            state.screen = screen
            guard leaving == .counter else { return .none }
            state.isPrimeModalShown = false
            return nthPrimeReducer.run(&state.nthPrime, .screenLeft, environment.nthPrimeEnvironment)
                .map(AppAction.nthPrime)
        case .isPrimeButtonTapped:
            state.isPrimeModalShown = true
            return .none
        case .primeModalDismissed:
            state.isPrimeModalShown = false
            return .none
        case .loggingToggled:
            state.isLogging.toggle()
            return .none
        case .counter, .primeModal, .nthPrime, .favoritePrimes:
            return .none
        }
    }
)

extension Reducer where State == AppState, Action == AppAction, Environment == AppEnvironment {
    /// Runs this reducer only for actions the state ``AppState/accepts(_:)``.
    func ignoringUnacceptedActions() -> Reducer {
        Reducer { state, action, environment in
            guard state.accepts(action) else { return .none }
            return self.run(&state, action, environment)
        }
    }

    /// Writes each action and its state diff to the environment's log while logging is on
    /// (``Reducer/debug(_:actionFormat:environment:)``). ``AppAction/loggingToggled`` itself is
    /// written both when it turns logging on and when it turns it off, so the log shows where
    /// each stretch begins and ends.
    func loggingWhenEnabled() -> Reducer {
        let logged = debug(environment: { DebugEnvironment(printer: $0.log) })
        return Reducer { state, action, environment in
            if state.isLogging || action == .loggingToggled {
                logged.run(&state, action, environment)
            } else {
                self.run(&state, action, environment)
            }
        }
    }
}

/// The app's logic: the features (counter, "is this prime?", "what is the nth prime?", the
/// favorites list and file) pulled back into ``AppState`` and ``AppAction``, and around them, from
/// the inside out:
/// 1. actions of a screen that is not shown are ignored (``AppState/accepts(_:)``);
/// 2. changed favorites are autosaved once the file is in sync
///    (``Reducer/autosavingFavoritePrimes(state:action:environment:)``);
/// 3. every favorite the user added or removed goes to the activity feed (what the file's load
///    or save answers bring in does not), stamped with the environment's clock (``Reducer/activityFeed(favoritePrimes:activityFeed:limit:now:)``);
/// 4. while ``AppState/isLogging`` is on, every action and its state diff is written to the
///    environment's log.
///
/// Navigating away from the counter screen closes the modal and cancels an nth-prime question in
/// flight (``NthPrimeAction/screenLeft``), so no answer arrives on another screen.
@MainActor public let appReducer: Reducer<AppState, AppAction, AppEnvironment> =
    featuresReducer
    .ignoringUnacceptedActions()
    .autosavingFavoritePrimes(
        state: \.favoritePrimesState, action: /AppAction.favoritePrimes, environment: \.favoritePrimesEnvironment
    )
    .activityFeed(
        favoritePrimes: \.favoritePrimes, activityFeed: \.activityFeed, now: { $0.now() },
        records: { !$0.isFileAnswer }
    )
    .loggingWhenEnabled()
