import CZlib
import Foundation
import PodiumOSC

/// The stage page's widgets as a TouchOSC (Mk2) layout: `podium layout touchosc`. The file is
/// TouchOSC's XML (`lexml` version 3: nodes with properties and OSC messages), deflated with
/// zlib, as the `tosclib` package reads and writes it. A control the OSC map binds sends its
/// map address (the map scales it, as for the TouchOSC layouts the maps were made for); any
/// other sends `/podium/chn/<name>` scaled to the channel's range. Placed controls keep their
/// `chn_k` place; the rest flow in rows, group by group. TouchOSC has no pie: a pie's channels
/// become faders (their sum is not kept).
public enum TouchOSCExport {
    /// The page: iPad-sized (TouchOSC scales it to the device).
    static let width = 1024, height = 768

    // Thread: any
    public static func xml(_ layout: WebLayout, map: OSCMap?) -> String {
        var children: [String] = []
        var flow = Flow(width: width)
        // Map address per channel, for the kinds the map scales itself.
        var addresses: [String: String] = [:]
        for (address, c) in (map?.controls ?? [:]) where c.event == nil && [nil, .continuous, .toggle, .momentary, .push].contains(c.mode) {
            if let name = c.targetChannels.first { addresses[name] = address }
        }
        for group in layout.groups {
            flow.newRow(title: group.title, children: &children)
            for c in group.controls {
                for (i, node) in nodes(c, addresses: addresses).enumerated() {
                    // A grid keeps its rows.
                    if c.widget == "grid", let columns = c.columns, i > 0, i % columns == 0 { flow.breakLine() }
                    let frame = c.place.map { ($0.x, $0.y + 40, $0.width, $0.height) } ?? flow.place(node.size)
                    children.append(node.xml(frame: frame))
                }
                if c.widget == "grid" { flow.breakLine() }
            }
            if group.placed == true { flow.skip(below: group.controls.compactMap(\.place).map { $0.y + $0.height + 40 }.max() ?? 0) }
        }
        // As tall as the controls need (TouchOSC scrolls a page taller than the screen).
        let tall = max(height, flow.y + flow.rowHeight + 10)
        let root = Node(type: "GROUP", name: layout.orchestra, size: (width, tall), properties: [], messages: "")
        return "<?xml version='1.0' encoding='UTF-8'?>\n<lexml version='3'>" + root.xml(frame: (0, 0, width, tall), children: children.joined()) + "</lexml>\n"
    }

    /// The layout, deflated (zlib), ready for a `.tosc` file.
    // Thread: any
    public static func file(_ layout: WebLayout, map: OSCMap?) throws -> Data {
        let text = Array(xml(layout, map: map).utf8)
        var size = compressBound(uLong(text.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let result = compress2(&out, &size, text, uLong(text.count), Z_BEST_COMPRESSION)
        guard result == Z_OK else { throw WebError("zlib could not compress the layout (error \(result))") }
        return Data(out.prefix(Int(size)))
    }

    /// One TouchOSC control.
    struct Node {
        var type: String
        var name: String
        var size: (Int, Int)
        var properties: [String]
        var messages: String

        func xml(frame: (Int, Int, Int, Int), children: String = "") -> String {
            let props = [Node.property("s", "name", Node.escape(name)),
                         "<property type='r'><key>frame</key><value><x>\(frame.0)</x><y>\(frame.1)</y><w>\(frame.2)</w><h>\(frame.3)</h></value></property>"] + properties
            return "<node ID='\(UUID().uuidString.lowercased())' type='\(type)'><properties>\(props.joined())</properties><values/><messages>\(messages)</messages><children>\(children)</children></node>"
        }

        static func property(_ type: String, _ key: String, _ value: String) -> String {
            "<property type='\(type)'><key>\(key)</key><value>\(value)</value></property>"
        }

        static func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
                .replacingOccurrences(of: "'", with: "&apos;")
        }

        /// An OSC message sent when the control moves: `path` with one argument per value
        /// (`x`, and `y` for a pad), each scaled from 0…1 to `range`.
        static func osc(_ path: String, values: [String] = ["x"], range: (Double, Double) = (0, 1)) -> String {
            let arguments = values.map {
                "<partial><type>VALUE</type><conversion>FLOAT</conversion><value>\($0)</value><scaleMin>\(range.0)</scaleMin><scaleMax>\(range.1)</scaleMax></partial>"
            }.joined()
            return "<osc><enabled>1</enabled><send>1</send><receive>1</receive><feedback>0</feedback><connections>00001</connections>"
                + "<triggers>" + values.map { "<trigger><var>\($0)</var><condition>ANY</condition></trigger>" }.joined() + "</triggers>"
                + "<path><partial><type>CONSTANT</type><conversion>STRING</conversion><value>\(escape(path))</value><scaleMin>0</scaleMin><scaleMax>1</scaleMax></partial></path>"
                + "<arguments>\(arguments)</arguments></osc>"
        }
    }

    /// TouchOSC's button types: 0 momentary (1 while pressed), 1 toggle.
    static func button(_ name: String, _ path: String, toggle: Bool, size: (Int, Int) = (80, 80)) -> Node {
        Node(type: "BUTTON", name: name, size: size, properties: [Node.property("i", "buttonType", toggle ? "1" : "0")], messages: Node.osc(path))
    }

    // Thread: any
    static func nodes(_ c: WebLayout.Control, addresses: [String: String]) -> [Node] {
        let first = c.channels.first ?? ""
        let mapped = addresses[first]
        func channelPath(_ name: String) -> String { "/podium/chn/\(name)" }
        switch c.widget {
        case "fader", "knob":
            return [Node(type: c.widget == "knob" ? "RADIAL" : "FADER", name: c.label, size: c.widget == "knob" ? (100, 100) : (60, 240), properties: [],
                         messages: mapped.map { Node.osc($0) } ?? Node.osc(channelPath(first), range: (c.min, c.max)))]
        case "toggle": return [button(c.label, mapped ?? channelPath(first), toggle: true)]
        case "momentary", "push": return [button(c.label, c.id ?? mapped ?? channelPath(first), toggle: false)]
        case "xy":
            return [Node(type: "XY", name: c.label, size: (240, 240), properties: [], messages: c.id.map { Node.osc($0, values: ["x", "y"]) }
                         ?? c.channels.map { Node.osc(channelPath($0), values: [$0 == first ? "x" : "y"], range: (c.min, c.max)) }.joined())]
        case "pie":
            return c.channels.map { Node(type: "FADER", name: $0, size: (60, 240), properties: [], messages: Node.osc(channelPath($0), range: (0, c.total ?? 1))) }
        case "grid":
            return c.channels.map { button($0, channelPath($0), toggle: true, size: (40, 40)) }
        default: return []
        }
    }

    /// Rows of controls, left to right, group by group.
    struct Flow {
        let width: Int
        var x = 0, y = 0, rowHeight = 0

        mutating func newRow(title: String, children: inout [String]) {
            if x > 0 { y += rowHeight + 10 }
            x = 0
            rowHeight = 0
            children.append(Node(type: "LABEL", name: title, size: (width, 30), properties: [Node.property("s", "text", Node.escape(title))], messages: "")
                .xml(frame: (0, y, 300, 30)))
            y += 34
        }

        mutating func place(_ size: (Int, Int)) -> (Int, Int, Int, Int) {
            if x + size.0 > width { x = 0; y += rowHeight + 10; rowHeight = 0 }
            defer { x += size.0 + 10; rowHeight = max(rowHeight, size.1) }
            return (x, y, size.0, size.1)
        }

        mutating func breakLine() {
            guard x > 0 else { return }
            x = 0
            y += rowHeight + 10
            rowHeight = 0
        }

        mutating func skip(below bottom: Int) {
            y = max(y, bottom)
            x = 0
            rowHeight = 0
        }
    }
}
