import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("ObservableObject")
struct ObservableObjectTests {
    final class Contact: ObservableObject, @unchecked Sendable {  // touched by one thread at a time, except in the threads test, through locked state only
        @Published var name: String
        @Published var age: Int
        var note = ""

        init(name: String, age: Int) {
            self.name = name
            self.age = age
        }
    }

    class Base: ObservableObject {
        @Published var a = 0
        var plain = "x"
    }

    final class Derived: Base {
        @Published var b = 0
        @Published var c = "c"
    }

    class NotObservableBase {
        @Published var inherited = 0
    }

    final class ObservableDerived: NotObservableBase, ObservableObject {
        @Published var own = 0
    }

    final class Generic<First, Second>: ObservableObject {
        @Published var first: First
        @Published var second: Second
        init(_ first: First, _ second: Second) {
            self.first = first
            self.second = second
        }
    }

    final class CustomWillChange: ObservableObject {
        let objectWillChange = ObservableObjectPublisher()
        @Published var state = 0
    }

    final class CustomWillChangeType: ObservableObject {
        let objectWillChange = PassthroughSubject<String, Never>()
        @Published var state = 0
    }

    final class NoPublished: ObservableObject {
        var volume = 5 {
            willSet { objectWillChange.send() }
        }
    }

    final class Counter {
        var count = 0
    }

    // MARK: Signals

    @Test func firesOnceBeforeEachChangeOfAnyPublishedProperty() {
        let john = Contact(name: "John", age: 24)
        var seen: [String] = []
        let cancellable = john.objectWillChange.sink { seen.append("\(john.name) \(john.age)") }
        john.age += 1
        john.name = "Johnny"
        john.age = 30
        john.note = "not published"
        #expect(seen == ["John 24", "John 25", "Johnny 25"])
        #expect(john.age == 30)
        _ = cancellable
    }

    @Test func theDocumentationExample() {
        let john = Contact(name: "John Appleseed", age: 24)
        var printed: [String] = []
        let cancellable = john.objectWillChange.sink { printed.append("\(john.age) will change") }
        john.age += 1
        printed.append("\(john.age)")
        #expect(printed == ["24 will change", "25"])
        _ = cancellable
    }

    @Test func firesBeforeThePropertysOwnSubscribers() {
        let john = Contact(name: "John", age: 24)
        var seen: [String] = []
        let willChange = john.objectWillChange.sink { seen.append("will change") }
        let age = john.$age.dropFirst().sink { seen.append("age \($0)") }
        john.age = 25
        #expect(seen == ["will change", "age 25"])
        _ = (willChange, age)
    }

    @Test func firesForPropertiesOfSubclassesAndSuperclasses() {
        let object = Derived()
        let counter = Counter()
        let cancellable = object.objectWillChange.sink { counter.count += 1 }
        object.a = 1
        object.b = 2
        object.c = "d"
        object.plain = "y"
        #expect(counter.count == 3)
        _ = cancellable
    }

    @Test func firesForPropertiesOfANonObservableSuperclass() {
        let object = ObservableDerived()
        let counter = Counter()
        let cancellable = object.objectWillChange.sink { counter.count += 1 }
        object.inherited = 1
        object.own = 2
        #expect(counter.count == 2)
        _ = cancellable
    }

    @Test func firesForAGenericClass() {
        let object = Generic(1, "one")
        let counter = Counter()
        let cancellable = object.objectWillChange.sink { counter.count += 1 }
        object.first += 1
        object.second += "!"
        #expect(counter.count == 2)
        #expect(object.first == 2)
        #expect(object.second == "one!")
        _ = cancellable
    }

    @Test func assignToPublishedFiresIt() {
        let john = Contact(name: "John", age: 24)
        let counter = Counter()
        let cancellable = john.objectWillChange.sink { counter.count += 1 }
        [30, 31].publisher.assign(to: &john.$age)
        #expect(counter.count == 2)
        #expect(john.age == 31)
        _ = cancellable
    }

    @Test func changesBeforeAnyoneReadsItAreNotSignalled() {
        let john = Contact(name: "John", age: 24)
        john.age = 25
        let counter = Counter()
        let cancellable = john.objectWillChange.sink { counter.count += 1 }
        #expect(counter.count == 0)
        john.age = 26
        #expect(counter.count == 1)
        _ = cancellable
    }

    // MARK: One publisher per object

    @Test func readingItTwiceGivesTheSamePublisher() {
        let object = Derived()
        #expect(object.objectWillChange === object.objectWillChange)
        #expect(object.objectWillChange !== Derived().objectWillChange)
    }

    @Test func anObjectWithoutPublishedPropertiesKeepsOnePublisherForManualSends() {
        let object = NoPublished()
        #expect(object.objectWillChange === object.objectWillChange)
        var seen: [Int] = []
        let cancellable = object.objectWillChange.sink { seen.append(object.volume) }
        object.volume = 7
        object.volume = 9
        #expect(seen == [5, 7])
        _ = cancellable
    }

    @Test func manualSendOnAnObjectWithPublishedProperties() {
        let john = Contact(name: "John", age: 24)
        let counter = Counter()
        let cancellable = john.objectWillChange.sink { counter.count += 1 }
        john.objectWillChange.send()
        #expect(counter.count == 1)
        _ = cancellable
    }

    @Test func concurrentFirstReadsAgreeOnOnePublisher() {
        for _ in 0..<50 {
            let john = Contact(name: "John", age: 24)
            final class Found: @unchecked Sendable {  // guarded by `lock`
                let lock = NSLock()
                var publishers: [ObservableObjectPublisher] = []
            }
            let found = Found()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let publisher = john.objectWillChange
                found.lock.withLock { found.publishers.append(publisher) }
            }
            #expect(found.publishers.allSatisfy { $0 === found.publishers[0] })
            let counter = Counter()
            let cancellable = found.publishers[0].sink { counter.count += 1 }
            john.name = "J"
            john.age = 1
            #expect(counter.count == 2)
            _ = cancellable
        }
    }

    // MARK: A custom objectWillChange

    @Test func aCustomObjectWillChangeIsNotFiredByPublishedProperties() {
        // As Combine: a class that declares objectWillChange sends it itself.
        let object = CustomWillChange()
        let subscriber = RecordingSubscriber<Void, Never>()
        object.objectWillChange.subscribe(subscriber)
        object.state = 100
        #expect(subscriber.events.count == 1)  // the subscription only
        object.objectWillChange.send()
        #expect(subscriber.events.count == 2)
    }

    @Test func aCustomObjectWillChangeOfAnotherType() {
        let object = CustomWillChangeType()
        var seen: [String] = []
        let cancellable = object.objectWillChange.sink { seen.append($0) }
        object.state = 1
        object.objectWillChange.send("custom")
        #expect(seen == ["custom"])
        _ = cancellable
    }

    // MARK: Lifetime

    @Test func theObjectIsReleasedWhileItsPublisherHasSubscribers() {
        weak var weakObject: Derived?
        let subscriber = RecordingSubscriber<Void, Never>()
        let publisher: ObservableObjectPublisher
        do {
            let object = Derived()
            weakObject = object
            publisher = object.objectWillChange
            publisher.subscribe(subscriber)
            object.b = 1
        }
        #expect(weakObject == nil)
        #expect(subscriber.values.count == 1)
        publisher.send()
        #expect(subscriber.values.count == 2)
    }

    @Test func anObjectWithoutPublishedPropertiesIsReleasedToo() {
        weak var weakObject: NoPublished?
        let publisher: ObservableObjectPublisher
        do {
            let object = NoPublished()
            weakObject = object
            publisher = object.objectWillChange
        }
        #expect(weakObject == nil)
        // A new object (possibly at the same address) gets a publisher of its own.
        let other = NoPublished()
        #expect(other.objectWillChange !== publisher)
    }
}
