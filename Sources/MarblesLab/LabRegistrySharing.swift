import Foundation
import Streams
import StreamsTesting

// The operators that share one subscription among several subscribers (`--subscribe-at 0,4`).
extension LabOperators {
    static let sharing: [LabOperator] = [
        op(
            "share", "share",
            "one upstream subscription for every subscriber; a late one gets only what comes after it", .sharing,
            LabExample("-1-2-3-4-|", "share", options: ["--subscribe-at", "0,4"], doc: "share")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "share (with --subscribe-at 0,4: several subscribers)")
            return up.share().eraseToAnyPublisher()
        },
        op(
            "multicast", "multicast",
            "as share, through a PassthroughSubject, connected at --connect-at (0 by default)", .sharing,
            LabExample(
                "-1-2-3-|", "multicast", options: ["--cold", "--subscribe-at", "0,2", "--connect-at", "2"],
                doc: "multicast")
        ) { step, up, context throws(LabError) in
            try step.noArguments(usage: "multicast (a PassthroughSubject; the lab connects it at --connect-at TICK)")
            let multicast = up.multicast { PassthroughSubject<String, MarbleFailure>() }
            context.connections.add { multicast.connect() }
            context.multicast = (context.stepIndex, multicast)
            return multicast.eraseToAnyPublisher()
        },
        op(
            "autoconnect", "autoconnect", "right after multicast: connects with the first subscriber", .sharing,
            LabExample("-1-2-3-|", "multicast | autoconnect", options: ["--subscribe-at", "0,4"], doc: "multicast")
        ) { step, up, context throws(LabError) in
            try step.noArguments(usage: "multicast | autoconnect")
            guard let found = context.multicast, found.step == context.stepIndex - 1 else {
                throw step.error("autoconnect connects a connectable publisher: write it right after multicast")
            }
            context.connections.removeLast()
            context.multicast = nil
            return found.publisher.autoconnect().eraseToAnyPublisher()
        },
    ]
}
