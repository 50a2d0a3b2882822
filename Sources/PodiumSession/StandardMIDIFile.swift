import Foundation

/// A Standard MIDI File (type 0, one track) of timed messages, at the frames they were sent:
/// one tick is one sample frame — a division of sr / g ticks a quarter note at a tempo of
/// 10⁶ / g µs a quarter, g = gcd(sr, 10⁶) (48 kHz: 6 ticks, 125 µs). What `midi_out` sent is a
/// function of the performance, so `podium replay --midi` writes it from the journal.
public struct StandardMIDIFile {
    public struct Message: Sendable, Equatable {
        public var frame: Int64
        public var bytes: [UInt8]
        public init(frame: Int64, bytes: [UInt8]) { self.frame = frame; self.bytes = bytes }
    }

    public let sampleRate: Int
    public private(set) var messages: [Message] = []

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Adds channel messages (whole, back to back in `bytes`) at `frame`; real-time bytes and
    /// anything else are left out (a MIDI file holds no clock).
    public mutating func add(frame: Int64, _ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            let status = bytes[i]
            let n = status >= 0xC0 && status < 0xE0 ? 2 : status >= 0x80 && status < 0xF0 ? 3 : 1
            if status >= 0x80 && status < 0xF0 && i + n <= bytes.count {
                messages.append(Message(frame: frame, bytes: Array(bytes[i..<(i + n)])))
            }
            i += n
        }
    }

    /// Ticks a quarter note and microseconds a quarter note for frame-exact ticks.
    public var timing: (division: Int, tempo: Int) {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = gcd(sampleRate, 1_000_000)
        return (sampleRate / g, 1_000_000 / g)
    }

    /// The file's bytes.
    public var data: Data {
        let (division, tempo) = timing
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, UInt8(tempo >> 16 & 0xFF), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)]
        var last: Int64 = 0
        for m in messages.sorted(by: { $0.frame < $1.frame }) {  // stable: a frame's messages keep their order
            track += StandardMIDIFile.quantity(UInt32(clamping: max(0, m.frame - last)))
            track += m.bytes
            last = max(last, m.frame)
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        var out: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, UInt8(division >> 8), UInt8(division & 0xFF)]
        out += Array("MTrk".utf8) + [UInt8(track.count >> 24 & 0xFF), UInt8(track.count >> 16 & 0xFF), UInt8(track.count >> 8 & 0xFF), UInt8(track.count & 0xFF)]
        return Data(out + track)
    }

    /// A variable-length quantity (7 bits a byte, most significant first).
    static func quantity(_ v: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(v & 0x7F)]
        var rest = v >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }
}
