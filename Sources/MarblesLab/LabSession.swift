import Foundation
import Streams

/// The interactive lab: a line is a diagram (it becomes the upstream row) or an operator (it
/// runs on the current rows); lines that start with `:` are commands.
struct LabSession {
    let write: (String) -> Void
    var setup = LabSetup(diagram: "-1-2-3-4-|", chain: "")
    /// Whether a prompt is written before each line is read (input from a terminal).
    var prompts = false

    init(write: @escaping (String) -> Void) {
        self.write = write
        setup.requiresEveryRow = false
    }

    static let help = """
        Type a diagram to make it the upstream row, or an operator to run it on the rows:
          -1-2-3-4-|                 the upstream row (one character = one tick)
          filter(even)               runs filter on it
          map(x*10) | debounce(2)    a chain
        Commands:
          :input NAME=DIAGRAM        another row (:input b=--x---y|), for merge(b), zip(b), flatMap...
          :inputs                    forget the other rows
          :demand DEMANDS            what the subscriber asks for (max(1)@0,max(1)@5 or unlimited); shows the demand rows
          :cancel-at TICK            the subscriber cancels at TICK (:cancel-at off to stop)
          :subscribe-at TICKS        several subscribers, one per tick (:subscribe-at 0,4), for share
          :connect-at TICK           when a multicast is connected (:connect-at off: at 0)
          :cold [ROWS|off]           every row cold, or these rows (:cold upstream,b), or none
          :rows                      shows the rows
          :list                      every operator
          :example NAME              the operator's own doc diagram, run here
          :help                      this text
          :quit                      leaves (so does the end of input)
        """

    mutating func run(readLine: () -> String?) -> Int32 {
        write("Marbles lab. Type a diagram, then an operator; :help for more, :quit to leave.\n")
        write("upstream: \(setup.diagram)\n")
        while true {
            if prompts { write("marbles> ") }
            guard let line = readLine() else {
                write("\n")
                return 0
            }
            if !handle(line.trimmingCharacters(in: .whitespaces)) { return 0 }
        }
    }

    /// Handles one line; `false` to leave.
    mutating func handle(_ line: String) -> Bool {
        guard !line.isEmpty else { return true }
        do throws(LabError) {
            if line.hasPrefix(":") {
                return try command(line)
            }
            if looksLikeOperator(line) {
                setup.chain = line
                write(MarblesCommand.show(try LabRunner.run(setup)) + "\n")
            } else {
                do {
                    _ = try LabDiagram.parse(line)
                } catch {
                    throw LabError("in the diagram: \(error.message)", in: error.source, at: error.column)
                }
                setup.diagram = line
                if setup.chain.isEmpty {
                    write("upstream: \(line)   (now type an operator, such as filter(even))\n")
                } else {
                    write(MarblesCommand.show(try LabRunner.run(setup)) + "\n")
                }
            }
        } catch {
            write(error.description + "\n")
        }
        return true
    }

    /// Whether a line is an operator: it starts with a name the lab knows, or a name and `(`.
    func looksLikeOperator(_ line: String) -> Bool {
        let name = line.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, first.isLetter else { return false }
        if !LabOperators.named(String(name)).isEmpty { return true }
        let rest = line.dropFirst(name.count).drop { $0 == " " }
        return rest.first == "(" || rest.first == "|"
            || rest.isEmpty && name.count > 1 && (try? LabDiagram.parse(line)) == nil
    }

    mutating func command(_ line: String) throws(LabError) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch parts[0] {
        case ":quit", ":q", ":exit":
            return false
        case ":help", ":h":
            write(Self.help + "\n")
        case ":list":
            write(MarblesCommand.listText + "\n")
        case ":example":
            guard !argument.isEmpty else { throw LabError(":example needs an operator's name, as :example debounce") }
            write(try MarblesCommand.exampleText(argument) + "\n")
        case ":input":
            guard let equals = argument.firstIndex(of: "=") else {
                throw LabError(":input NAME=DIAGRAM, as :input b=--x---y|")
            }
            let name = String(argument[..<equals]).trimmingCharacters(in: .whitespaces)
            let diagram = String(argument[argument.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            do {
                _ = try LabDiagram.parse(diagram)
            } catch {
                throw LabError("in the diagram of \(name): \(error.message)", in: error.source, at: error.column)
            }
            setup.inputs.removeAll { $0.name == name }
            setup.inputs.append((name, diagram))
            write("\(name): \(diagram)\n")
        case ":inputs":
            setup.inputs = []
            write("only the upstream row is left\n")
        case ":demand":
            setup.demand = try LabDemandList.parse(argument.isEmpty ? "unlimited" : argument)
            setup.showsDemand = true
            write("the subscriber asks for \(argument.isEmpty ? "unlimited" : argument); the demand rows are shown\n")
        case ":cancel-at":
            if argument == "off" {
                setup.cancelAt = nil
            } else {
                guard let tick = Int(argument), (0...LabRunner.longest).contains(tick) else {
                    throw LabError(":cancel-at TICK (a whole number from 0 to \(LabRunner.longest)) or :cancel-at off")
                }
                setup.cancelAt = tick
                setup.showsDemand = true
            }
            write(setup.cancelAt.map { "the subscriber cancels at tick \($0)\n" } ?? "no cancel\n")
        case ":subscribe-at":
            let ticks = try LabTickList.parse(argument.isEmpty ? "0" : argument, option: ":subscribe-at")
            guard ticks.count <= LabOptions.mostSubscribers else {
                throw LabError(":subscribe-at: at most \(LabOptions.mostSubscribers) subscribers")
            }
            setup.subscribeAt = ticks
            write("subscribers at ticks \(ticks.map(String.init).joined(separator: ", "))\n")
        case ":connect-at":
            if argument == "off" {
                setup.connectAt = nil
            } else {
                guard let tick = Int(argument), (0...LabRunner.longest).contains(tick) else {
                    throw LabError(
                        ":connect-at TICK (a whole number from 0 to \(LabRunner.longest)) or :connect-at off")
                }
                setup.connectAt = tick
            }
            write("a multicast is connected at tick \(setup.connectAt ?? 0)\n")
        case ":cold":
            setup.allRowsCold = argument.isEmpty
            setup.coldRows = []
            if argument == "off" {
                write("every row is hot\n")
            } else if argument.isEmpty {
                write("every row is cold: each subscription plays it from its start\n")
            } else {
                setup.coldRows = Set(argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                write("cold: \(setup.coldRows.sorted().joined(separator: ", "))\n")
            }
        case ":rows":
            write(
                (["upstream: \(setup.diagram)"] + setup.inputs.map { "\($0.name): \($0.diagram)" }).joined(
                    separator: "\n") + "\n")
        default:
            throw LabError("unknown command \(parts[0]) (:help lists them)")
        }
        return true
    }
}
