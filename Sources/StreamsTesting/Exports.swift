// StreamsTesting is used next to Streams in every test; importing it brings Streams along.
@_exported import Streams
