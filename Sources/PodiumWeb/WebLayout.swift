import Foundation
import PodiumEngine
import PodiumOSC

/// The stage page's widgets, generated from the orchestra: its declared channels (`chn_k`'s
/// range and curve, and its position and attributes when given) and its OSC map (toggles,
/// momentary and push buttons, XY pads, pies, step grids, the accelerometer). What the map does
/// not say is grouped by name: `kick_1…16` is a step row, `cell_R_C` a grid; a 0–1 integer
/// channel is a toggle; every other input a fader; every output channel a meter. Controls whose
/// channel `chn_k` placed (x, y, width, height) go on one canvas, where it put them.
public struct WebLayout: Codable, Sendable, Equatable {
    public struct Control: Codable, Sendable, Equatable {
        /// fader, knob, toggle, momentary, push, xy, pie, grid, meter
        public var widget: String
        public var label: String
        /// The channels it sets (grid: row by row, `rows` × `columns`; pie: its slices).
        public var channels: [String]
        public var min: Double
        public var max: Double
        public var defaultValue: Double
        public var curve: String
        public var rows: Int?
        public var columns: Int?
        /// push, pie, xy: the map entry (its OSC address) a page names when it presses or drags.
        public var id: String?
        /// push that plays: its note (MIDI number), for the label.
        public var note: Double?
        /// pie: what its channels add up to.
        public var total: Double?
        /// Where `chn_k` put it (on the canvas group).
        public var place: ChannelInfo.Place?
    }
    public struct Group: Codable, Sendable, Equatable {
        public var title: String
        public var controls: [Control]
        /// The controls sit where `chn_k` placed them (one canvas), not in a row.
        public var placed: Bool?
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
        let inputs = channels.filter(\.isPerformerInput).sorted { $0.name < $1.name }
        let byName = Dictionary(inputs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func control(_ widget: String, _ names: [String], label: String? = nil, rows: Int? = nil, columns: Int? = nil) -> Control {
            let info = byName[names.first ?? ""], r = info?.range
            let curve = r.map { c -> String in switch c.curve { case .exponential: "exp"; case .integer: "int"; default: "lin" } } ?? "lin"
            let hints = WebLayout.attributes(info?.attributes)
            return Control(widget: widget, label: hints["label"] ?? label ?? names.first ?? "", channels: names, min: r?.minimum ?? 0,
                           max: r?.maximum ?? 1, defaultValue: r?.defaultValue ?? 0, curve: curve, rows: rows, columns: columns,
                           place: names.count == 1 || widget == "xy" || widget == "pie" ? info?.place : nil)
        }
        let fromMap = MapControls(map: map, byName: byName, control: control)
        var used = fromMap.used
        let mapped = fromMap.controls
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
        rest.removeAll { name in byName[name]?.range == nil && WebLayout.cellPrefixes(name).contains { gridPrefixes.contains($0) } }
        var faders: [Control] = mapped.filter { $0.widget == "fader" }
        var switches = mapped.filter { ["toggle", "momentary"].contains($0.widget) }
        for name in rest {
            let r = byName[name]?.range
            if let r, r.curve == .integer, r.minimum == 0, r.maximum == 1 { switches.append(control("toggle", [name])) }
            else { faders.append(control(r.map { $0.curve == .exponential } == true ? "knob" : "fader", [name])) }
            used.insert(name)
        }
        // `chn_k`'s attributes may name the widget (`widget=knob`).
        let kinds = ["fader", "knob", "toggle", "momentary"]
        for i in faders.indices { if let w = WebLayout.attributes(byName[faders[i].channels[0]]?.attributes)["widget"], kinds.contains(w) { faders[i].widget = w } }
        let moved = faders.filter { ["toggle", "momentary"].contains($0.widget) }
        faders.removeAll { moved.contains($0) }
        switches += moved
        if !faders.isEmpty { groups.insert(Group(title: "controls", controls: WebLayout.families(faders)), at: 0) }
        if !switches.isEmpty { groups.append(Group(title: "switches", controls: switches)) }
        let pies = mapped.filter { $0.widget == "pie" }
        if !pies.isEmpty { groups.append(Group(title: "mix", controls: pies)) }
        let pads = mapped.filter { $0.widget == "xy" }
        if !pads.isEmpty { groups.append(Group(title: "pads", controls: pads)) }
        let pushes = mapped.filter { $0.widget == "push" }
        if !pushes.isEmpty { groups.append(Group(title: "keys", controls: pushes)) }
        let grids = mapped.filter { $0.widget == "grid" } + stepRows
        if !grids.isEmpty { groups.append(Group(title: "steps", controls: grids)) }
        // Controls `chn_k` placed: one canvas, first.
        let placed = groups.flatMap(\.controls).filter { $0.place != nil && $0.widget != "grid" }
        if !placed.isEmpty {
            groups = groups.map { g in Group(title: g.title, controls: g.controls.filter { !placed.contains($0) }) }.filter { !$0.controls.isEmpty }
            groups.insert(Group(title: "stage", controls: placed, placed: true), at: 0)
        }
        self.groups = groups
        // Meters: what the orchestra writes and no control of the page sets.
        let controlled = Set(groups.flatMap { $0.controls.flatMap(\.channels) })
        meters = channels.filter { $0.isPerformerOutput && !controlled.contains($0.name) && !$0.isInput }.sorted { $0.name < $1.name }.map { c in
            Control(widget: "meter", label: c.name, channels: [c.name], min: c.range?.minimum ?? 0, max: c.range.map { $0.maximum > $0.minimum ? $0.maximum : 1 } ?? 1,
                    defaultValue: 0, curve: "lin", rows: nil, columns: nil)
        }
        motion = WebLayout.motionChannels.filter { byName[$0] != nil }
    }

    /// Every channel a control of the layout sets.
    public var inputChannels: Set<String> {
        Set(groups.flatMap { $0.controls.flatMap(\.channels) } + motion)
    }

    /// The layout's controls of one kind that a page names by `id` (push, pie).
    // Thread: any
    func controls(_ widget: String) -> [String: Control] {
        Dictionary(groups.flatMap(\.controls).filter { $0.widget == widget && $0.id != nil }.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// `chn_k`'s attributes as `key=value` words (separated by spaces or `;`; a value may be
    /// quoted: `label="Filter cutoff"`).
    // Thread: any
    static func attributes(_ text: String?) -> [String: String] {
        guard let text else { return [:] }
        var result: [String: String] = [:]
        let pattern = /([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^\s;]+))/
        for m in text.matches(of: pattern) { result[String(m.1).lowercased()] = String(m.2 ?? m.3 ?? "") }
        return result
    }

    /// The prefixes a name would have as a grid cell, any index (`kick_0` → kick; `cell_0_0` → cell_0, cell).
    // Thread: any
    static func cellPrefixes(_ name: String) -> [String] {
        var prefixes: [String] = []
        var head = Substring(name)
        for _ in 0..<2 {
            guard let u = head.lastIndex(of: "_"), Int(head[head.index(after: u)...]) != nil else { break }
            head = head[..<u]
            prefixes.append(String(head))
        }
        return prefixes
    }

    /// Numbered channels of one family together, in number order, where the first of them was
    /// (`drawbar1…5` mapped, `drawbar6…9` not: all nine side by side).
    // Thread: any
    static func families(_ controls: [Control]) -> [Control] {
        func family(_ c: Control) -> (String, Int)? {
            let name = c.channels.first ?? ""
            let digits = name.reversed().prefix { $0.isNumber }
            guard !digits.isEmpty, digits.count < name.count, let n = Int(String(digits.reversed())) else { return nil }
            return (String(name.dropLast(digits.count)), n)
        }
        var result: [Control] = []
        var placed: Set<String> = []
        for c in controls {
            guard let (f, _) = family(c) else { result.append(c); continue }
            guard !placed.contains(f) else { continue }
            placed.insert(f)
            result += controls.filter { family($0)?.0 == f }.sorted { family($0)!.1 < family($1)!.1 }
        }
        return result
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
