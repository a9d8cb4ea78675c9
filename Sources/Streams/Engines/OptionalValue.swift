// `Optional`, as a protocol, for the engine that holds its downstream as `Downstream?` in a
// generic class: `CombiningSubscription` (merge, zip, combineLatest). (`FlatMapSubscription`
// used it too until its engine was made to read on its own: Docs/Performance.md, "flatMap and
// switchToLatest: an engine file each".)
//
// Why: a class's deinit is compiled once for every type the class is used with (it is never
// specialized). For a stored property of type `Optional<Downstream>`, where `Downstream` is a
// generic parameter, that deinit has to look up the metadata of `Optional<Downstream>` in the
// runtime's cache to destroy the property: about 325 instructions on every subscription. When
// the class takes the optional type itself as a generic parameter (`HeldDownstream`, always
// `Downstream?`), its metadata is already in the object's own class metadata and nothing is
// looked up. The engine then reads and writes the property through `asOptional`, as what it
// is. The measured gain is in Docs/Performance.md ("flatMap: the downstream's `Optional` as a
// type parameter", "Combining: fewer objects and lookups per subscription").

/// `Optional`, as a protocol: lets a generic class take `Downstream?` as a generic parameter
/// (see the comment at the top of this file). Only `Optional` conforms.
@usableFromInline
protocol OptionalValue {
    associatedtype Wrapped
    init(_ some: Wrapped)
    var asOptional: Wrapped? { get set }
}

extension Optional: OptionalValue {
    @inlinable
    var asOptional: Wrapped? {
        get { self }
        set { self = newValue }
    }
}
