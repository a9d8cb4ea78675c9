import Foundation
import PrimeTimeCore

// The contexts of the ```swift examples of PrimeTimeCore that need names they do not declare.
// An example annotated `<!-- example context: NAME -->` is compiled in a copy of the function
// after the line `// <!-- example context: NAME -->`, in place of its line `// example` (see
// Scripts/extract-examples). Each copy is compiled, never called or run.

// <!-- example context: session -->
/// The program's end, as `main.swift` writes it: `session`, the terminal session it runs, and
/// `status`, the exit status its lines left.
@MainActor func terminalSession(session: TerminalSession, status: Int32) async {
    // example
}
