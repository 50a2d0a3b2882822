import Foundation

// The engine's named channels (control and string): listing, pointers, values, and the string
// storage reserved before a performance so the audio thread can store without reallocation.

extension Engine {
    // MARK: channels — Thread: NRT

    public func channels() -> [ChannelInfo] { api.listChannels() }

    /// A stable pointer to a control channel's value, for atomic stores from the audio thread.
    /// The channel must exist (declared with chn_k, or created before start with `create: true`).
    public func controlChannelPointer(_ name: String, create: Bool = false) throws -> UnsafeMutablePointer<Double> {
        let type: Int32 = create ? 1 | 16 : 0  // CSOUND_CONTROL_CHANNEL | CSOUND_INPUT_CHANNEL
        let (p, rc) = api.channelPointer(name, type: type)
        if create {
            guard rc == 0, let p else { throw EngineError.unknownChannel(name) }
            return p
        }
        guard rc & 15 == 1, let p = api.channelPointer(name, type: rc).0 else { throw Engine.channelError(name, rc) }
        return p
    }

    /// Sets a declared control channel (unknown names are an error, never a silent create).
    public func setControl(_ name: String, _ value: Double) throws {
        let p = try controlChannelPointer(name)
        CsoundAPI.store(p, value)
    }

    public func control(_ name: String) throws -> Double {
        CsoundAPI.load(try controlChannelPointer(name))
    }

    public func setString(_ name: String, _ value: String) throws {
        let (_, rc) = api.channelPointer(name, type: 0)
        guard rc & 15 == 3 else { throw Engine.channelError(name, rc) }
        api.setStringChannel(name, value)
    }

    /// Why a channel could not be used: it does not exist, or it is of the other kind
    /// (`rc`: what csoundGetChannelPtr answered with type 0, the channel's own type).
    static func channelError(_ name: String, _ rc: Int32) -> EngineError {
        switch rc & 15 {
        case 1: return .wrongKind(channel: name, isControl: true)
        case 3: return .wrongKind(channel: name, isControl: false)
        default: return .unknownChannel(name)
        }
    }

    /// Room every string input channel keeps, so that the audio thread can store values up to
    /// this many bytes (less one) without Csound allocating.
    public static let stringCapacity = 128

    /// Grows every string input channel's storage to `stringCapacity` (Csound keeps the
    /// largest size it has held), keeping its value.
    // Thread: NRT (before the performance)
    func reserveStringChannels() {
        for c in channels() where c.kind == .string && c.isInput {
            let value = api.stringChannel(c.name)
            api.setStringChannel(c.name, String(repeating: " ", count: Engine.stringCapacity - 1))
            api.setStringChannel(c.name, value)
        }
    }

    /// A string channel's storage and lock, for the audio thread's `RTEngine.tryStoreString`.
    public func stringChannelStorage(_ name: String) throws -> (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?) {
        let (_, rc) = api.channelPointer(name, type: 0)
        guard rc & 15 == 3, let s = api.stringChannelStorage(name) else { throw Engine.channelError(name, rc) }
        return s
    }

    public func string(_ name: String) throws -> String {
        let (_, rc) = api.channelPointer(name, type: 0)
        guard rc & 15 == 3 else { throw Engine.channelError(name, rc) }
        return api.stringChannel(name)
    }
}
