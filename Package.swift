// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Streams",
    // `Atomic` (the Synchronization module) sets the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "StreamsFoundation", targets: ["StreamsFoundation"]),
        .library(name: "ComposableArchitecture", targets: ["ComposableArchitecture"]),
        .library(name: "ComposableArchitectureTesting", targets: ["ComposableArchitectureTesting"]),
        // The marble lab: `swift run Marbles 'filter(even)' '-1-2-3-4-|'`.
        .executable(name: "Marbles", targets: ["Marbles"]),
    ],
    targets: [
        .target(name: "Streams"),
        .target(name: "StreamsTesting", dependencies: ["Streams"]),
        // Foundation's publishers: NotificationCenter and URLSession.
        .target(name: "StreamsFoundation", dependencies: ["Streams"]),
        .target(name: "ComposableArchitecture", dependencies: ["Streams"]),
        .target(name: "ComposableArchitectureTesting", dependencies: ["ComposableArchitecture", "StreamsTesting"]),
        // The showcase app: its features (not a product), and a terminal front end (`swift run PrimeTime`).
        .target(name: "PrimeTimeCore", dependencies: ["ComposableArchitecture"]),
        .executableTarget(name: "PrimeTime", dependencies: ["PrimeTimeCore"]),
        // The marble lab: its grammar, operators and runner (MarblesLab), and the executable.
        .target(name: "MarblesLab", dependencies: ["Streams", "StreamsTesting"]),
        .executableTarget(name: "Marbles", dependencies: ["MarblesLab"]),
        .testTarget(name: "MarblesLabTests", dependencies: ["MarblesLab", "Marbles", "StreamsTesting"]),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
        .testTarget(name: "StreamsFoundationTests", dependencies: ["StreamsFoundation", "StreamsTesting"]),
        .testTarget(name: "ComposableArchitectureTests",
                    dependencies: ["ComposableArchitecture", "ComposableArchitectureTesting", "StreamsTesting"]),
        // PrimeTime's features with TestStore, and an end-to-end run of the built PrimeTime executable.
        .testTarget(name: "PrimeTimeCoreTests",
                    dependencies: ["PrimeTimeCore", "PrimeTime", "ComposableArchitectureTesting", "StreamsTesting"]),
        // The PrimeTime tutorial (ComposableArchitecture.docc/Tutorials): the project after each of
        // its steps, and the finished project, written here by Scripts/extract-tutorial.
        .testTarget(name: "TutorialTests",
                    dependencies: ["ComposableArchitecture", "ComposableArchitectureTesting", "StreamsTesting"]),
        // Combine-era app code in Swift 5 language mode: it compiles against Streams by changing
        // only the import (`import Combine` -> `import Streams`).
        .testTarget(name: "CombineEraTests", dependencies: ["Streams"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        // Real-thread stress tests; `.ci/run` runs them again under ThreadSanitizer.
        .testTarget(name: "StreamsStressTests", dependencies: ["Streams", "StreamsTesting", "ComposableArchitecture"]),
    ],
    swiftLanguageModes: [.v6]
)
