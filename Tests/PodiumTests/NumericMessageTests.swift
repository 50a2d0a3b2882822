@testable import PodiumOSC
import PodiumProbe
import Testing

/// OSC notes read in place (`NumericMessage`) against liblo's own reading of the same bytes.
@Suite("OSC notes read in place")
struct NumericMessageTests {
    /// liblo's reading of one datagram (nil: rejected), from a zero-padded copy as the OSC thread
    /// hands it over.
    static func liblo(_ parser: LoParser, _ bytes: [UInt8]) -> [OSCMessage]? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 16, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.copyBytes(from: bytes)
        return parser.parse(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count]))
    }

    static func read(_ bytes: [UInt8], _ values: UnsafeMutableBufferPointer<Double>) -> (address: Int, count: Int)? {
        bytes.withUnsafeBytes { NumericMessage.read($0, into: values) }
    }

    /// The same numbers, NaN equal to NaN.
    static func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }

    @Test("a note's address and numbers, read in place, are liblo's; anything else is left to liblo")
    func knownDatagrams() throws {
        let parser = try LoParser()
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: 16)
        defer { values.deallocate() }
        let notes: [[UInt8]] = [
            OSCMessage.encode("/podium/event", [.int(2), .float(0), .float(0.01), .float(0.5)]),
            OSCMessage.encode("/csound/event", [.int(1), .float(0.25), .float(1), .int(-7), .float(-1e30)]),
            RawOSC.message("/podium/event", [.h(Int64.max), .d(.nan), .d(-.infinity), .i(Int32.min), .f(1.5)]),
        ]
        for bytes in notes {
            let read = try #require(Self.read(bytes, values), "\(bytes)")
            let message = try #require(Self.liblo(parser, bytes)?.first)
            #expect(NumericMessage.addresses[read.address] == message.address)
            #expect(read.count == message.arguments.count)
            for i in 0..<read.count { #expect(message.arguments[i].number.map { Self.same(values[i], $0) } == true, "argument \(i)") }
        }
        let others: [[UInt8]] = [
            OSCMessage.encode("/podium/event", [.string("i1 0 1")]),                    // a score line
            OSCMessage.encode("/podium/event", [.string("bass"), .float(0), .float(1)]), // a named instrument
            OSCMessage.encode("/podium/event", [.int(1), .bool(true), .float(1)]),       // T
            OSCMessage.encode("/podium/chn/level", [.float(0.5)]),                       // another address
            OSCMessage.encode("/podium/events", [.int(1), .float(0), .float(1)]),
            RawOSC.bundle(ntp: 1 / 4_294_967_296, [OSCMessage.encode("/podium/event", [.int(1), .float(0), .float(1)])]),
            Array(OSCMessage.encode("/podium/event", [.int(1), .float(0), .float(1)]).dropLast(1)),  // truncated
            OSCMessage.encode("/podium/event", [.int(1), .float(0), .float(1)]) + [0, 0, 0, 0],      // a word too many
            OSCMessage.encode("/podium/event", Array(repeating: .float(1), count: 17)),             // more than 16
        ]
        for bytes in others { #expect(Self.read(bytes, values) == nil, "\(bytes)") }
    }

    @Test("20,000 mutated datagrams: what is read in place, liblo reads the same; every well-formed note is read")
    func mutatedDatagrams() throws {
        let parser = try LoParser()
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: 16)
        defer { values.deallocate() }
        var rng = SeededNumbers(seed: 31)
        var read = 0, declined = 0, wellFormed = 0
        for round in 0..<20_000 {
            var args: [RawOSC.Arg] = []
            for _ in 0..<rng.next(below: 7) {
                switch rng.next(below: 6) {
                case 0: args.append(.i(Int32(truncatingIfNeeded: rng.raw())))
                case 1: args.append(.f(Float(bitPattern: UInt32(truncatingIfNeeded: rng.raw()))))
                case 2: args.append(.h(Int64(bitPattern: rng.raw())))
                case 3: args.append(.d(Double(bitPattern: rng.raw())))
                case 4: args.append(.s(String(repeating: "x", count: rng.next(below: 6))))
                default: args.append(.i(Int32(rng.next(below: 100))))
                }
            }
            var bytes = RawOSC.message(["/podium/event", "/csound/event", "/podium/even", "/podium/event/x"][rng.next(below: 4)], args)
            let pristine = round % 4 == 0
            if !pristine {
                switch rng.next(below: 5) {
                case 0: bytes[rng.next(below: bytes.count)] = UInt8(truncatingIfNeeded: rng.raw())
                case 1: bytes.removeLast(rng.next(below: min(bytes.count, 9)) + 1)
                case 2: bytes += (0..<rng.next(below: 9)).map { _ in UInt8(truncatingIfNeeded: rng.raw()) }
                case 3: if let comma = bytes.firstIndex(of: UInt8(ascii: ",")), comma + 1 < bytes.count {
                            bytes[comma + 1 + rng.next(below: bytes.count - comma - 1)] = Array("ifhdsTFbN,".utf8)[rng.next(below: 10)]
                        }
                default: bytes[rng.next(below: bytes.count)] = 0
                }
            }
            let inPlace = Self.read(bytes, values)
            if pristine, bytes.starts(with: Array("/podium/event\0".utf8)) || bytes.starts(with: Array("/csound/event\0".utf8)),
               !args.contains(where: { if case .s = $0 { true } else { false } }) {
                wellFormed += 1
                #expect(inPlace != nil, "a well-formed note is read in place: \(bytes)")
            }
            guard let inPlace else { declined += 1; continue }
            read += 1
            let messages = Self.liblo(parser, bytes)
            #expect(messages?.count == 1, "liblo reads what was read in place: \(bytes)")
            guard let m = messages?.first else { continue }
            #expect(m.address == NumericMessage.addresses[inPlace.address] && m.timetag == nil)
            #expect(m.arguments.count == inPlace.count && zip(m.arguments, values.prefix(inPlace.count)).allSatisfy { arg, v in
                switch arg {
                case .int, .float: return Self.same(arg.number!, v)
                default: return false
                }
            }, "\(m.arguments) / \(Array(values.prefix(inPlace.count))): \(bytes)")
        }
        // Both ways taken often: this is not a test of one branch.
        #expect(read > 2_000 && declined > 2_000 && wellFormed > 1_000, "read \(read), declined \(declined), well-formed \(wellFormed)")
    }
}

/// A small seeded generator (splitmix64): the same datagrams every run.
struct SeededNumbers {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func raw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below n: Int) -> Int { n <= 1 ? 0 : Int(raw() % UInt64(n)) }
}
