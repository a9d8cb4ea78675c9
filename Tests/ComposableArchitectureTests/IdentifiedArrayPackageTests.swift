import ComposableArchitecture
import Foundation
import StreamsTesting
import Testing

// The tests of pointfreeco/swift-identified-collections 1.1.1 (Tests/IdentifiedCollectionsTests),
// run against this library's `IdentifiedArray` to show that it behaves as the package does.
//
// Each test keeps the package's test body; only the import, the names and the assertion spelling
// (XCTest to Swift Testing) changed. The comment on each names the package test it comes from.
// Two further changes: the collection-operation tests draw their random counts and shuffle seeds
// from a seeded `SplitMix64` instead of the system generator, so a failure can be replayed; and
// the two `sort(using: KeyPathComparator(...))` tests, which the package runs on Apple platforms
// only, run here on every platform (Foundation has `KeyPathComparator` on Linux too).

extension Int: @retroactive Identifiable {
    /// The number itself: the package's tests identify an integer by its value.
    public var id: Self { self }
}

private struct PackageUser: Equatable, Identifiable {
    let id: Int
    var name: String
}

@Suite("IdentifiedArray: the package's tests (swift-identified-collections 1.1.1)")
struct IdentifiedArrayPackageTests {
    // testIds
    @Test func idsAreTheElementsIDsInOrder() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(array.ids == [1, 2, 3])
    }

    // testElements
    @Test func elementsAreTheElementsInOrder() {
        let array: IdentifiedArray = [
            PackageUser(id: 1, name: "Blob"),
            PackageUser(id: 2, name: "Blob, Jr."),
            PackageUser(id: 3, name: "Blob, Sr."),
        ]

        #expect(array.elements == array.map { $0 })
    }

    // testSubscriptId
    @Test func subscriptByIDReadsChangesRemovesAndAppends() {
        var array: IdentifiedArray = [
            PackageUser(id: 1, name: "Blob"),
            PackageUser(id: 2, name: "Blob, Jr."),
            PackageUser(id: 3, name: "Blob, Sr."),
        ]
        #expect(array[id: 1] == PackageUser(id: 1, name: "Blob"))
        #expect(array[id: 2] == PackageUser(id: 2, name: "Blob, Jr."))
        #expect(array[id: 3] == PackageUser(id: 3, name: "Blob, Sr."))
        array[id: 1]?.name += ", Esq."
        #expect(array[id: 1] == PackageUser(id: 1, name: "Blob, Esq."))
        array[id: 2]?.name.removeLast(5)
        #expect(array[id: 2] == PackageUser(id: 2, name: "Blob"))
        array[id: 3]?.name.removeLast(5)
        #expect(array[id: 3] == PackageUser(id: 3, name: "Blob"))
        array[id: 3] = nil
        #expect(array[id: 3] == nil)

        array[id: 4] = PackageUser(id: 4, name: "Blob, Sr.")
        #expect(
            array
                == [
                    PackageUser(id: 1, name: "Blob, Esq."),
                    PackageUser(id: 2, name: "Blob"),
                    PackageUser(id: 4, name: "Blob, Sr."),
                ]
        )
    }

    // testContainsElement
    @Test func containsAnElement() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(array.contains(2))
    }

    // testIndexId
    @Test func indexOfAnID() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(array.index(id: 2) == 1)
    }

    // testRemoveElement
    @Test func removeAnElementReturnsIt() {
        var array: IdentifiedArray = [1, 2, 3]
        #expect(array.remove(2) == 2)
        #expect(array == [1, 3])
    }

    // testRemoveId
    @Test func removeByIDReturnsTheElement() {
        var array: IdentifiedArray = [1, 2, 3]
        #expect(array.remove(id: 2) == 2)
        #expect(array == [1, 3])
    }

    // testCodable
    @Test func codableAsAnArrayAndADuplicateIsADecodingError() throws {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(
            try JSONDecoder().decode(IdentifiedArray.self, from: JSONEncoder().encode(array))
                == array
        )
        #expect(
            try JSONDecoder().decode(IdentifiedArray.self, from: Data("[1,2,3]".utf8))
                == array
        )
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IdentifiedArrayOf<Int>.self, from: Data("[1,1,1]".utf8))
        }
        guard case let DecodingError.dataCorrupted(ctx)? = error
        else { Issue.record("not dataCorrupted: \(String(describing: error))"); return }
        #expect(ctx.debugDescription == "Duplicate element at offset 1")
    }

    // testCustomDebugStringConvertible
    @Test func debugDescriptionNamesTheTypeAndTheElements() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(array.debugDescription == "IdentifiedArray<Int>([1, 2, 3])")
    }

    // testCustomReflectable
    @Test func mirrorIsACollectionOfTheElements() {
        let array: IdentifiedArray = [1, 2, 3]
        let mirror = Mirror(reflecting: array)
        #expect(mirror.displayStyle == .collection)
        #expect(mirror.superclassMirror == nil)
        #expect(mirror.children.compactMap { $0.label }.isEmpty == true)
        #expect(mirror.children.map { $0.value as? Int } == array.map { $0 })
    }

    // testCustomStringConvertible
    @Test func descriptionIsTheElementsAsAnArray() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(array.description == "[1, 2, 3]")
    }

    // testHashable
    @Test func hashable() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(Set([array]) == Set([array, array]))
    }

    // testInitUncheckedUniqueElements
    @Test func initUncheckedUniqueElements() {
        let array = IdentifiedArray(uncheckedUniqueElements: [1, 2, 3])
        #expect(array == [1, 2, 3])
    }

    // testInitUniqueElementsSelf
    @Test func initUniqueElementsOfAnIdentifiedArray() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(IdentifiedArray(uniqueElements: array) == [1, 2, 3])
    }

    // testInitUniqueElementsSubSequence
    @Test func initUniqueElementsOfASlice() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(IdentifiedArray(uniqueElements: array[...]) == [1, 2, 3])
    }

    // testInitUniqueElements
    @Test func initUniqueElements() {
        let array = IdentifiedArray(uniqueElements: [1, 2, 3])
        #expect(array == [1, 2, 3])
    }

    // testSelfInit
    @Test func initFromAnIdentifiedArray() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(IdentifiedArray(array) == [1, 2, 3])
    }

    // testSubsequenceInit
    @Test func initFromASlice() {
        let array: IdentifiedArray = [1, 2, 3]
        #expect(IdentifiedArray(array[...]) == [1, 2, 3])
    }

    // testInitIDUniquingElements
    @Test func initByKeyPathUniquingIDsWithAClosure() {
        struct Model: Equatable {
            let id: Int
            let data: String
        }
        // Choose first element
        do {
            let array = IdentifiedArray(
                [
                    Model(id: 1, data: "A"),
                    Model(id: 2, data: "B"),
                    Model(id: 1, data: "AAAA"),
                ],
                id: \.id
            ) { lhs, _ in lhs }

            #expect(
                array
                    == IdentifiedArray(
                        uniqueElements: [
                            Model(id: 1, data: "A"),
                            Model(id: 2, data: "B"),
                        ],
                        id: \.id
                    )
            )
        }
        // Choose later element
        do {
            let array = IdentifiedArray(
                [
                    Model(id: 1, data: "A"),
                    Model(id: 2, data: "B"),
                    Model(id: 1, data: "AAAA"),
                ],
                id: \.id
            ) { _, rhs in rhs }

            #expect(
                array
                    == IdentifiedArray(
                        uniqueElements: [
                            Model(id: 1, data: "AAAA"),
                            Model(id: 2, data: "B"),
                        ], id: \.id))
        }
    }

    // testInitUniquingElements
    @Test func initUniquingIDsWithAClosure() {
        struct Model: Equatable, Identifiable {
            let id: Int
            let data: String
        }
        // Choose first element
        do {
            let array = IdentifiedArray(
                [
                    Model(id: 1, data: "A"),
                    Model(id: 2, data: "B"),
                    Model(id: 1, data: "AAAA"),
                ]
            ) { lhs, _ in lhs }

            #expect(
                array
                    == IdentifiedArray(
                        uniqueElements: [
                            Model(id: 1, data: "A"),
                            Model(id: 2, data: "B"),
                        ]
                    )
            )
        }
        // Choose later element
        do {
            let array = IdentifiedArray(
                [
                    Model(id: 1, data: "A"),
                    Model(id: 2, data: "B"),
                    Model(id: 1, data: "AAAA"),
                ]
            ) { _, rhs in rhs }

            #expect(
                array
                    == IdentifiedArray(
                        uniqueElements: [
                            Model(id: 1, data: "AAAA"),
                            Model(id: 2, data: "B"),
                        ]
                    )
            )
        }
    }

    // testAppend
    @Test func appendReturnsWhetherItInsertedAndWhere() {
        var array: IdentifiedArray = [1, 2, 3]
        var (inserted, index) = array.append(4)
        #expect(inserted == true)
        #expect(index == 3)
        #expect(array == [1, 2, 3, 4])
        (inserted, index) = array.append(2)
        #expect(inserted == false)
        #expect(index == 1)
        #expect(array == [1, 2, 3, 4])
    }

    // testAppendContentsOf
    @Test func appendContentsOfSkipsIDsAlreadyThere() {
        var array: IdentifiedArray = [1, 2, 3]
        array.append(contentsOf: [1, 4, 3, 5])
        #expect(array == [1, 2, 3, 4, 5])
    }

    // testInsert
    @Test func insertReturnsWhetherItInsertedAndWhere() {
        var array: IdentifiedArray = [1, 2, 3]
        var (inserted, index) = array.insert(0, at: 0)
        #expect(inserted == true)
        #expect(index == 0)
        #expect(array == [0, 1, 2, 3])
        (inserted, index) = array.insert(2, at: 0)
        #expect(inserted == false)
        #expect(index == 2)
        #expect(array == [0, 1, 2, 3])
    }

    // testUpdateAt
    @Test func updateAtReturnsTheReplacedElement() {
        var array: IdentifiedArray = [1, 2, 3]
        #expect(array.update(2, at: 1) == 2)
    }

    // testUpdateOrAppend
    @Test func updateOrAppend() {
        var array: IdentifiedArray = [1, 2, 3]
        #expect(array.updateOrAppend(4) == nil)
        #expect(array == [1, 2, 3, 4])
        #expect(array.updateOrAppend(2) == 2)
    }

    // testUpdateOrInsert
    @Test func updateOrInsert() {
        var array: IdentifiedArray = [1, 2, 3]
        var (originalMember, index) = array.updateOrInsert(0, at: 0)
        #expect(originalMember == nil)
        #expect(index == 0)
        #expect(array == [0, 1, 2, 3])
        (originalMember, index) = array.updateOrInsert(2, at: 0)
        #expect(originalMember == 2)
        #expect(index == 2)
        #expect(array == [0, 1, 2, 3])
    }

    // testPartition
    @Test func partitionKeepsTheIDsInStep() {
        var array: IdentifiedArray = [1, 2]

        let index = array.partition { $0.id == 1 }

        #expect(index == 1)
        #expect(array == [2, 1])

        for id in array.ids {
            #expect(id == array[id: id]?.id)
        }
    }

    // testMoveFromOffsetsToOffset
    @Test func moveFromOffsetsToOffset() {
        var array: IdentifiedArray = [1, 2, 3]
        array.move(fromOffsets: [0, 2], toOffset: 0)
        #expect(array == [1, 3, 2])

        array = [1, 2, 3]
        array.move(fromOffsets: [0, 2], toOffset: 1)
        #expect(array == [1, 3, 2])

        array = [1, 2, 3]
        array.move(fromOffsets: [0, 2], toOffset: 2)
        #expect(array == [2, 1, 3])
    }

    // testRemoveAtOffsets
    @Test func removeAtOffsets() {
        var array: IdentifiedArray = [1, 2, 3]
        array.remove(atOffsets: [0, 2])
        #expect(array == [2])
    }

    // testEquatable
    @Test func equalWhateverInitializerMadeThem() {
        struct Foo: Identifiable, Equatable {
            var id: String = "id"
            var value: String = "value"
        }
        // Create arrays using all of the initializers
        var arrays: [IdentifiedArray<String, Foo>] = [
            IdentifiedArray<String, Foo>(),
            IdentifiedArray<String, Foo>(uncheckedUniqueElements: [], id: \.id),
            IdentifiedArray<String, Foo>(uniqueElements: [], id: \.id),
            IdentifiedArray<String, Foo>(uncheckedUniqueElements: []),
            IdentifiedArray<String, Foo>(uniqueElements: []),
        ]
        arrays.forEach({ lhs in
            arrays.forEach({ rhs in
                #expect(lhs == rhs)
            })
        })
        // add an element to each array
        arrays.indices.forEach({
            arrays[$0].append(Foo())
        })
        arrays.forEach({ lhs in
            arrays.forEach({ rhs in
                #expect(lhs == rhs)
            })
        })
        // modify all arrays
        arrays.indices.forEach({
            arrays[$0].append(Foo(id: "id2", value: "\($0)"))
        })
        arrays.enumerated().forEach({ lhsIndex, lhs in
            arrays.enumerated().forEach({ rhsIndex, rhs in
                guard rhsIndex != lhsIndex else { return }
                #expect(lhs != rhs)
            })
        })
    }

    // testIdentifiedArraySubscript
    @Test func settingAnElementWithANewIDByPositionReplacesIt() {
        struct Item: Identifiable {
            let id: Int
        }
        var items: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
        items[1] = Item(id: 4)
        #expect(3 == items.count)
        #expect([1, 4, 3] == items.map(\.id))
    }

    // testIdentifiedArrayComparatorSort
    @Test func sortUsingAKeyPathComparator() {
        struct Item: Identifiable {
            let id: Int
        }
        var items: IdentifiedArrayOf<Item> = [Item(id: 3), Item(id: 2), Item(id: 1)]
        items.sort(using: KeyPathComparator(\.id))
        #expect([1, 2, 3] == items.map(\.id))
    }
}

// IdentifiedArrayCollectionOperationTests.swift: each operation on an identified array and on a
// plain array of the same elements gives the same elements and result, and leaves `ids` in step.
@Suite("IdentifiedArray: the package's collection-operation tests (swift-identified-collections 1.1.1)")
struct IdentifiedArrayPackageCollectionOperationTests {
    // testMax
    @Test func max() {
        assertElementsEqual { $0.max() }
        assertElementsEqual { $0.max(by: >) }
    }

    // testMin
    @Test func min() {
        assertElementsEqual { $0.min() }
        assertElementsEqual { $0.min(by: >) }
    }

    // testRemoveFirst
    @Test func removeFirst() {
        assertElementsEqual { $0.isEmpty ? nil : $0.removeFirst() }
    }

    // testRemoveLast
    @Test func removeLast() {
        assertElementsEqual { $0.isEmpty ? nil : $0.removeLast() }
    }

    // testReverse
    @Test func reverse() {
        assertElementsEqual { $0.reverse() }
    }

    // testShuffleUsing
    @Test func shuffleUsing() {
        var seeds = SplitMix64(seed: 0x1D_C0_11)
        var seed: UInt64 = 0
        assertElementsEqual {
            var rng = LCRNG(seed: seed)
            $0.shuffle(using: &rng)
        } setUp: {
            seed = .random(in: .min ... .max, using: &seeds)
        }
    }

    // testSort
    @Test func sort() {
        assertElementsEqual { $0.sort() }
        assertElementsEqual { $0.sort(by: >) }
    }

    // testSortUsing
    @Test func sortUsing() {
        assertElementsEqual { $0.sort(using: KeyPathComparator(\.count)) }
        assertElementsEqual { $0.sort(using: KeyPathComparator(\.count, order: .reverse)) }
    }
}

private struct Item: Identifiable, Comparable, Equatable {
    let id = UUID()
    var count: Int

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.count < rhs.count
    }
}

private protocol TestCollection<Element>:
    MutableCollection, RandomAccessCollection, RangeReplaceableCollection
{}

extension Array: TestCollection {}
extension IdentifiedArray: TestCollection where Element: Identifiable, Element.ID == ID {}

private func assertElementsEqual<Result>(
    after operation: (inout (any TestCollection<Item>)) -> Result,
    setUp: () -> Void = {},
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var random = SplitMix64(seed: 0xC0_11EC)
    for n in 0...10 {
        let size = Int(pow(Double(n), 2))
        for _ in 1...10 {
            setUp()
            var identifiedArray: IdentifiedArrayOf<Item> = []
            for _ in 0..<size {
                identifiedArray.append(Item(count: .random(in: -1_000...1_000, using: &random)))
            }
            var anyIdentifiedArray = identifiedArray as any TestCollection<Item>
            var anyArray = Array(identifiedArray) as any TestCollection<Item>
            let lhs = operation(&anyIdentifiedArray)
            let rhs = operation(&anyArray)
            // The existentials are opened and described outside `#expect` (in it, they crash the
            // Swift 6.3.1 compiler).
            let elementsEqual = anyIdentifiedArray.elementsEqual(anyArray)
            let elementsMessage = """
                (\(anyIdentifiedArray)) does not equal control (\(anyArray))
                """
            #expect(elementsEqual, Comment(rawValue: elementsMessage), sourceLocation: location)
            identifiedArray = anyIdentifiedArray as! IdentifiedArrayOf<Item>
            let idsMessage = """
                (\(identifiedArray.ids)) keys does not equal IDs (\(identifiedArray.map(\.id)))
                """
            #expect(
                identifiedArray.ids.elementsEqual(identifiedArray.map(\.id)), Comment(rawValue: idsMessage),
                sourceLocation: location)
            if let lhs = lhs as? any Equatable {
                func open<LHS: Equatable>(_ lhs: LHS) {
                    if let rhs = rhs as? LHS {
                        #expect(lhs == rhs, sourceLocation: location)
                    }
                }
                open(lhs)
            }
            if size == 0 {
                continue
            }
        }
    }
}

private struct LCRNG: RandomNumberGenerator {
    var seed: UInt64
    init(seed: UInt64 = 0) {
        self.seed = seed
    }
    mutating func next() -> UInt64 {
        self.seed = 2_862_933_555_777_941_757 &* self.seed &+ 3_037_000_493
        return self.seed
    }
}
