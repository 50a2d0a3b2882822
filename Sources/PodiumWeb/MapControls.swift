import PodiumEngine
import PodiumOSC

/// The stage page's controls that the orchestra's OSC map declares: it says what kind of
/// control each channel is (toggle, momentary, push, XY pad, pie, step grid, accelerometer).
struct MapControls {
    var controls: [WebLayout.Control] = []
    /// The channels the map's controls set (not laid out again by name).
    var used: Set<String> = []

    // Thread: any (the layout is plain data)
    init(map: OSCMap?, byName: [String: ChannelInfo],
         control: (String, [String], String?, Int?, Int?) -> WebLayout.Control) {
        func add(_ c: WebLayout.Control) {
            controls.append(c)
            used.formUnion(c.channels)
        }
        for (address, c) in (map?.controls ?? [:]).sorted(by: { $0.key < $1.key }) {
            let targets = c.targetChannels.filter { byName[$0] != nil || c.mode == .multitoggle }
            switch c.mode ?? .continuous {
            case .push where c.event != nil:
                // Holds a note while pressed: the same held note as the map's OSC push.
                guard c.heldNote(pressed: true) != nil, let note = c.event?.note else { continue }
                var push = control("push", [], WebLayout.noteName(note), nil, nil)
                push.id = address
                push.note = note
                add(push)
            case _ where c.event != nil:
                continue
            case .toggle:
                guard let name = targets.first, !used.contains(name) else { continue }
                add(control("toggle", [name], nil, nil, nil))
            case .push:
                // 1 while held, 0 on release.
                guard let name = targets.first, !used.contains(name) else { continue }
                var push = control("push", [name], nil, nil, nil)
                push.id = address
                add(push)
            case .momentary:
                guard let name = targets.first, !used.contains(name) else { continue }
                add(control("momentary", [name], nil, nil, nil))
            case .xy:
                // A pad may share its channels with faders: both move together.
                guard targets.count == 2 else { continue }
                var pad = control("xy", targets, targets.joined(separator: " × "), nil, nil)
                pad.id = address
                add(pad)
            case .pie:
                guard targets.count == c.targetChannels.count, targets.count >= 2 else { continue }
                var pie = control("pie", targets, targets.joined(separator: " · "), nil, nil)
                pie.id = address
                pie.total = c.total ?? 1
                add(pie)
            case .multitoggle:
                if let steps = c.steps {
                    // Rows are instruments (kick, snare, hat), columns their steps.
                    let rows = c.targetChannels
                    let names = rows.flatMap { row in (1...steps).map { "\(row)_\($0)" } }.filter { byName[$0] != nil }
                    guard names.count == rows.count * steps else { continue }
                    add(control("grid", names, rows.joined(separator: " / "), rows.count, steps))
                }
            case .accelerometer:
                used.formUnion(targets)
            case .continuous:
                guard let name = targets.first, !used.contains(name), targets.count == 1 else { continue }
                add(control("fader", [name], nil, nil, nil))
            }
        }
        // Keys in pitch order (the map lists them by address: push1, push10, push11…).
        let keys = controls.filter { $0.note != nil }.sorted { $0.note! < $1.note! }
        var k = keys.makeIterator()
        controls = controls.map { $0.note != nil ? k.next()! : $0 }
    }
}

extension WebLayout {
    /// A MIDI note's name: 60 → C4.
    // Thread: any
    static func noteName(_ note: Double) -> String {
        let n = Int(note.rounded())
        let names = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"]
        return names[((n % 12) + 12) % 12] + "\(n / 12 - 1)"
    }
}
