import Foundation
import PodiumEngine
import PodiumSurfaces

/// Controller messages through the orchestra's OSC map (`OSCMap`): scaled channels, toggles,
/// pushes that hold notes, XY pads, multitoggle cells and step patterns.
extension OSCSurface {
    // Thread: NRT (OSC)
    /// A controller message through the orchestra's map.
    func mapped(_ c: OSCMap.Control, cell: (Int, Int)?, _ m: OSCMessage, _ source: Endpoint, _ frame: Int64) {
        let values = m.arguments.compactMap(\.number)
        guard let first = values.first else { return bad(m, source, "expected a number") }
        let channels = c.targetChannels
        func set(_ name: String, _ v: Double, momentary: Bool = false) {
            do {
                // `channel: podium.tempo` in a map: the control drives the beat clock's tempo.
                let posted = name == OSCMap.tempoTarget ? try producer.clock(tempo: v) : try producer.set(name, v, momentary: momentary, frame: frame)
                if posted == nil {
                    count { $0.ringFull += 1 }
                    replyError(source, m.address, "command ring full: \(name) not set")
                }
            } catch {
                count { $0.unknownTargets += 1 }
                replyError(source, m.address, "\(error)")
            }
        }
        let input = c.range ?? [0, 1]
        let pressed = first > (input[0] + input[1]) / 2
        switch c.mode ?? .continuous {
        case .continuous: set(channels[0], c.scale(first))
        case .push where c.event != nil:
            // A held note from press to release, its own fractional instance (`i1.060 0 -1 60`).
            let (instrument, fields) = c.heldNote(pressed: pressed)!
            post(instrument: .number(instrument), fields: fields, address: m.address, source, frame)
        case .pie:
            // Every share in one go (the same k-cycle), or none.
            do {
                if try producer.set(all: c.pieShares(values), frame: frame) == nil {
                    count { $0.ringFull += 1 }
                    replyError(source, m.address, "command ring full: the pie not set")
                }
            } catch { return bad(m, source, "\(error)") }
        case .toggle, .push: set(channels[0], pressed ? 1 : 0)
        case .momentary: if pressed { set(channels[0], 1, momentary: true) }
        case .xy, .accelerometer:
            for (name, v) in zip(channels, values) { set(name, c.scale(v)) }
        case .multitoggle:
            guard let (row, col) = cell else { return bad(m, source, "a multitoggle cell address ends in /<row>/<col>") }
            if let e = c.event {
                guard pressed else { break }
                let instrument: ScoreLine.Instrument = e.name.map { .name($0) } ?? .number(e.instr ?? 1)
                post(instrument: instrument, fields: [0, e.duration ?? 1, Double(row), Double(col)], address: m.address, source, frame)
            } else if let channel = c.cellChannel(row: row, col: col) {
                set(channel, pressed ? 1 : 0)
            } else {
                return bad(m, source, "cell \(row)/\(col) is outside the map's patterns")
            }
        }
        // Every value back (an XY pad's two, an accelerometer's three), so the controller follows.
        let echo = m.arguments.compactMap { $0.number.map { OSCValue.float($0) } }
        sharedLock.withLock { pendingEchoes[m.address] = echo }
    }
}
