/// OSC datagrams as bytes, for the senders of tests and benchmarks: every argument type they
/// send (Podium's own encoder, through liblo, writes what replies need), and bundles.
public enum RawOSC {
    public enum Arg { case i(Int32), f(Float), h(Int64), d(Double), s(String), b([UInt8]) }

    static func pad(_ bytes: inout [UInt8]) { while bytes.count % 4 != 0 { bytes.append(0) } }

    /// A string, NUL-terminated and zero-padded to a multiple of 4.
    public static func string(_ s: String) -> [UInt8] { var b = Array(s.utf8) + [0]; pad(&b); return b }

    public static func message(_ address: String, _ args: [Arg]) -> [UInt8] {
        var out = string(address)
        out += string("," + args.map { switch $0 { case .i: "i"; case .f: "f"; case .h: "h"; case .d: "d"; case .s: "s"; case .b: "b" } }.joined())
        for a in args {
            switch a {
            case let .i(v): withUnsafeBytes(of: v.bigEndian) { out += $0 }
            case let .f(v): withUnsafeBytes(of: v.bitPattern.bigEndian) { out += $0 }
            case let .h(v): withUnsafeBytes(of: v.bigEndian) { out += $0 }
            case let .d(v): withUnsafeBytes(of: v.bitPattern.bigEndian) { out += $0 }
            case let .s(v): out += string(v)
            case let .b(v):
                withUnsafeBytes(of: Int32(v.count).bigEndian) { out += $0 }
                var blob = v
                pad(&blob)
                out += blob
            }
        }
        return out
    }

    /// A bundle of `messages` for the NTP time `ntp` (seconds since 1900; 1/2^32 s is "now").
    public static func bundle(ntp: Double, _ messages: [[UInt8]]) -> [UInt8] {
        var out = string("#bundle")
        let sec = UInt32(ntp.rounded(.down)), frac = UInt32((ntp - ntp.rounded(.down)) * 4_294_967_296)
        withUnsafeBytes(of: sec.bigEndian) { out += $0 }
        withUnsafeBytes(of: frac.bigEndian) { out += $0 }
        for m in messages {
            withUnsafeBytes(of: Int32(m.count).bigEndian) { out += $0 }
            out += m
        }
        return out
    }
}
