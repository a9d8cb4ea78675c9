// The architecture is used with Streams' types (publishers, schedulers) in every file that
// imports it.
@_exported import Streams
