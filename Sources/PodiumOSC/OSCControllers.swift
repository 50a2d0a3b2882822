import PodiumPatterns
import PodiumSurfaces

/// Tidal's controller input on Podium's OSC port: `/ctrl ,sf NAME VALUE` (also `,si`, `,ss`, and
/// an integer name, `,if 3 0.5`, read as "3", as Tidal reads it) sets what `cF 0 "NAME"`, `cI`,
/// `cS` … read in every pattern from its next query (within the 100 ms the patterns are posted
/// ahead). A TouchOSC control's value (`/1/fader1` → "fader1") is one too, beside its channel.
extension OSCSurface {
    // Thread: NRT (OSC)
    func ctrl(_ m: OSCMessage, _ source: Endpoint) {
        guard let controllers = loops?.patterns.controllers else { return bad(m, source, "patterns are not available") }
        guard m.arguments.count == 2 else { return bad(m, source, "expected a name and a value (,sf NAME VALUE)") }
        let name: String
        switch m.arguments[0] {
        case let .string(s) where !s.isEmpty && s.utf8.count <= 64: name = s
        case let .int(i): name = String(i)
        default: return bad(m, source, "expected the controller's name (a string of at most 64 bytes, or an integer)")
        }
        guard let value = OSCSurface.controllerValue(m.arguments[1]) else { return bad(m, source, "expected a number or a string as the value") }
        controllers.set(name, value)
    }

    /// An OSC value as Tidal's `/ctrl` stores it (VF, VI, VS); nil for anything else.
    // Thread: any
    static func controllerValue(_ v: OSCValue) -> PodiumPatterns.Value? {
        switch v {
        case let .float(f) where f.isFinite: return .double(f)
        case let .int(i): return .int(Int(clamping: i))
        case let .string(s) where s.utf8.count <= 1024: return .string(s)
        case let .bool(b): return .bool(b)
        default: return nil
        }
    }
}
