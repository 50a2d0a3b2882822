import Foundation
import PodiumEngine
import PodiumOSC

/// The stage page's widgets, generated from the orchestra: its declared channels (`chn_k`'s
/// range and curve) and its OSC map (toggles, momentary buttons, XY pads, step grids, the
/// accelerometer). What the map does not say is grouped by name: `kick_1…16` is a step row,
/// `cell_R_C` a grid; a 0–1 integer channel is a toggle; every other input a fader; every
/// output channel a meter.
public struct WebLayout: Codable, Sendable, Equatable {
    public struct Control: Codable, Sendable, Equatable {
        /// fader, knob, toggle, momentary, xy, grid, meter
        public var widget: String
        public var label: String
        /// The channels it sets (grid: row by row, `rows` × `columns`).
        public var channels: [String]
        public var min: Double
        public var max: Double
        public var defaultValue: Double
        public var curve: String
        public var rows: Int?
        public var columns: Int?
    }
    public struct Group: Codable, Sendable, Equatable {
        public var title: String
        public var controls: [Control]
    }
    public var orchestra: String
    public var groups: [Group]
    /// Output channels, shown as meters.
    public var meters: [Control]
    /// Channels the phone's motion sensors feed (CsoundMotion's names) that the orchestra declares.
    public var motion: [String]

    /// CsoundMotion's channel names.
    public static let motionChannels = ["accelerometerX", "accelerometerY", "accelerometerZ", "gyroX", "gyroY", "gyroZ",
                                        "attitudeRoll", "attitudePitch", "attitudeYaw"]

    public init(orchestra: String, channels: [ChannelInfo], map: OSCMap?) {
        self.orchestra = orchestra
        let inputs = channels.filter { $0.kind == .control && $0.isInput && !$0.name.hasPrefix("podium.") }.sorted { $0.name < $1.name }
        let byName = Dictionary(inputs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var used: Set<String> = []
        var mapped: [Control] = []
        func control(_ widget: String, _ names: [String], label: String? = nil, rows: Int? = nil, columns: Int? = nil) -> Control {
            let r = byName[names.first ?? ""]?.range
            let curve = r.map { c -> String in switch c.curve { case .exponential: "exp"; case .integer: "int"; default: "lin" } } ?? "lin"
            return Control(widget: widget, label: label ?? names.first ?? "", channels: names, min: r?.minimum ?? 0, max: r?.maximum ?? 1,
                           defaultValue: r?.defaultValue ?? 0, curve: curve, rows: rows, columns: columns)
        }
        // The OSC map first: it says what kind of control each channel is.
        for (address, c) in (map?.controls ?? [:]).sorted(by: { $0.key < $1.key }) where c.event == nil {
            let targets = c.targetChannels.filter { byName[$0] != nil || c.mode == .multitoggle }
            switch c.mode ?? .continuous {
            case .toggle, .push:
                guard let name = targets.first, !used.contains(name) else { continue }
                mapped.append(control("toggle", [name])); used.insert(name)
            case .momentary:
                guard let name = targets.first, !used.contains(name) else { continue }
                mapped.append(control("momentary", [name])); used.insert(name)
            case .xy:
                // A pad may share its channels with faders: both move together.
                guard targets.count == 2 else { continue }
                mapped.append(control("xy", targets, label: targets.joined(separator: " × "))); used.formUnion(targets)
            case .multitoggle:
                if let steps = c.steps {
                    // Rows are instruments (kick, snare, hat), columns their steps.
                    let rows = c.targetChannels
                    let names = rows.flatMap { row in (1...steps).map { "\(row)_\($0)" } }.filter { byName[$0] != nil }
                    guard names.count == rows.count * steps else { continue }
                    mapped.append(control("grid", names, label: rows.joined(separator: " / "), rows: rows.count, columns: steps))
                    used.formUnion(names)
                }
            case .accelerometer:
                used.formUnion(targets)
            case .continuous:
                guard let name = targets.first, !used.contains(name), targets.count == 1 else { continue }
                mapped.append(control("fader", [name])); used.insert(name)
            }
            _ = address
        }
        var groups: [Group] = []
        // Grids by name: NAME_R_C (a matrix), then NAME_N (a step row) — four or more of them.
        var rest = inputs.map(\.name).filter { !used.contains($0) && !WebLayout.motionChannels.contains($0) }
        let matrix = Dictionary(grouping: rest.compactMap { WebLayout.split2($0) }, by: \.prefix)
        for (prefix, cells) in matrix.sorted(by: { $0.key < $1.key }) where cells.count >= 4 {
            let rows = cells.map(\.row).max()!, cols = cells.map(\.column).max()!
            let names = (1...rows).flatMap { r in (1...cols).map { "\(prefix)_\(r)_\($0)" } }
            guard names.allSatisfy({ byName[$0] != nil }) else { continue }
            groups.append(Group(title: prefix, controls: [control("grid", names, label: prefix, rows: rows, columns: cols)]))
            rest.removeAll { names.contains($0) }
        }
        let steps = Dictionary(grouping: rest.compactMap { WebLayout.split1($0) }, by: \.prefix)
        var stepRows: [Control] = []
        for (prefix, cells) in steps.sorted(by: { $0.key < $1.key }) where cells.count >= 4 {
            let n = cells.map(\.index).max()!
            let names = (1...n).map { "\(prefix)_\($0)" }
            guard names.allSatisfy({ byName[$0] != nil }) else { continue }
            stepRows.append(control("grid", names, label: prefix, rows: 1, columns: n))
            rest.removeAll { names.contains($0) }
        }
        // A stray cell outside its grid (`kick_0`, `cell_0_0`: made by a chnget before the step
        // counter moved) is not a control of its own.
        let gridPrefixes = Set((mapped + stepRows).filter { $0.widget == "grid" }.flatMap(\.channels).compactMap { WebLayout.split1($0)?.prefix }
                               + groups.flatMap(\.controls).flatMap(\.channels).compactMap { WebLayout.split2($0)?.prefix })
        rest.removeAll { name in byName[name]?.range == nil && (WebLayout.split1(name).map { gridPrefixes.contains($0.prefix) } ?? false
                                                               || WebLayout.split2(name).map { gridPrefixes.contains($0.prefix) } ?? false) }
        var faders: [Control] = mapped.filter { $0.widget == "fader" }
        for name in rest {
            let r = byName[name]?.range
            if let r, r.curve == .integer, r.minimum == 0, r.maximum == 1 { mapped.append(control("toggle", [name])) }
            else { faders.append(control(r.map { $0.curve == .exponential } == true ? "knob" : "fader", [name])) }
        }
        if !faders.isEmpty { groups.insert(Group(title: "controls", controls: faders), at: 0) }
        let switches = mapped.filter { ["toggle", "momentary"].contains($0.widget) }
        if !switches.isEmpty { groups.append(Group(title: "switches", controls: switches)) }
        let pads = mapped.filter { $0.widget == "xy" }
        if !pads.isEmpty { groups.append(Group(title: "pads", controls: pads)) }
        let grids = mapped.filter { $0.widget == "grid" } + stepRows
        if !grids.isEmpty { groups.append(Group(title: "steps", controls: grids)) }
        self.groups = groups
        // Meters: what the orchestra writes and no control of the page sets.
        let controlled = Set(groups.flatMap { $0.controls.flatMap(\.channels) })
        meters = channels.filter { $0.kind == .control && $0.isOutput && !$0.name.hasPrefix("podium.") && !controlled.contains($0.name) && !$0.isInput }.sorted { $0.name < $1.name }.map { c in
            Control(widget: "meter", label: c.name, channels: [c.name], min: c.range?.minimum ?? 0, max: c.range.map { $0.maximum > $0.minimum ? $0.maximum : 1 } ?? 1,
                    defaultValue: 0, curve: "lin", rows: nil, columns: nil)
        }
        motion = WebLayout.motionChannels.filter { byName[$0] != nil }
    }

    /// Every channel a control of the layout sets.
    public var inputChannels: Set<String> {
        Set(groups.flatMap { $0.controls.flatMap(\.channels) } + motion)
    }

    static func split1(_ name: String) -> (prefix: String, index: Int)? {
        guard let u = name.lastIndex(of: "_"), let i = Int(name[name.index(after: u)...]), i >= 1 else { return nil }
        return (String(name[..<u]), i)
    }

    static func split2(_ name: String) -> (prefix: String, row: Int, column: Int)? {
        guard let (head, c) = split1(name), let (prefix, r) = split1(head) else { return nil }
        return (prefix, r, c)
    }
}
