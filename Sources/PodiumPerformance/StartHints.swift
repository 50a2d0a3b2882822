import Foundation
import PodiumOSC

/// The lines a performer needs next, printed once at the start of `podium play` on a terminal:
/// where OSC listens and how a phone's TouchOSC reaches it, and how to use the REPL.
enum StartHints {
    // Thread: NRT (the performance's owner)
    static func lines(oscBind: String, oscPort: Int?, repl: Bool) -> [String] {
        var out: [String] = []
        if let oscPort {
            if oscBind == "127.0.0.1" || oscBind == "localhost" {
                let lan = lanAddress()
                out.append("OSC listens on this machine only. For TouchOSC on a phone: podium play … --osc-bind \(lan ?? "<LAN address>") "
                    + "--osc-allow \(lan.map(range) ?? "<LAN range, e.g. 192.168.1.0/24>"), then in TouchOSC set Host \(lan ?? "<that address>") and port (outgoing) \(oscPort).")
            } else {
                out.append("TouchOSC: set Host \(oscBind == "0.0.0.0" ? lanAddress() ?? oscBind : oscBind) and port (outgoing) \(oscPort); "
                    + "its port (incoming) gets the feedback. Senders outside loopback need --osc-allow.")
            }
        }
        if repl { out.append("Type score lines (i1 0 1 440), orchestra code, or :help for the commands; :quit or Ctrl-D stops.") }
        return out
    }

    /// The first IPv4 address of an interface that is up and not loopback.
    static func lanAddress() -> String? { InterfaceAddresses.ipv4().first }

    /// The /24 around an address, as the usual home or venue network.
    static func range(_ address: String) -> String {
        let parts = address.split(separator: ".")
        return parts.count == 4 ? parts.prefix(3).joined(separator: ".") + ".0/24" : address + "/32"
    }
}
