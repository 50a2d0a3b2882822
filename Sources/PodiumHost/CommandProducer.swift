import PodiumEngine
import PodiumRealtime

/// One producer's way into the audio thread (one thread per producer).
public final class CommandProducer: @unchecked Sendable {
    unowned let driver: JackDriver
    let ring: Ring<Command>
    /// Ids are unique across producers: the ring's index in the top 16 bits.
    private var nextID: UInt64

    // Thread: NRT (owner, in makeProducer)
    init(driver: JackDriver, ring: Ring<Command>, index: Int) {
        self.driver = driver
        self.ring = ring
        nextID = UInt64(index) << 48
    }

    /// Posts a command once `InputCheck` has passed it (the audio thread applies nothing
    /// unchecked); returns its id, or nil when the ring is full (counted).
    // Thread: this producer's thread
    @discardableResult
    public func post(_ command: Command) throws(InputError) -> UInt64? {
        try InputCheck.command(command)
        var c = command
        nextID += 1
        c.id = nextID
        if c.generation == 0 { c.generation = driver.currentGeneration }
        let pushed = ring.push(c)
        // Noted for a crash report after the push: the words cost more than the ring write.
        if command.kind == .event || command.kind == .table { RecentInputs.note(command) }
        return pushed ? nextID : nil
    }

    /// A score event now (or at `frame`); its p-fields are checked once, in the command (`post`).
    // Thread: this producer's thread
    @discardableResult
    public func event(_ pfields: [Double], frame: Int64 = 0, quantize: Quantize = .now) throws(InputError) -> UInt64? {
        try InputCheck.pFieldCount(pfields.count)
        return try pfields.withUnsafeBufferPointer { (all) throws(InputError) -> UInt64? in
            try event(p1: all[0], UnsafeBufferPointer(rebasing: all[1...]), frame: frame, quantize: quantize)
        }
    }

    /// A score event of p1 and then `fields` (a surface's note: no array is built for it; an
    /// OSC note's fields are read where they lie in the datagram).
    // Thread: this producer's thread
    @discardableResult
    public func event(p1: Double, _ fields: UnsafeBufferPointer<Double>, frame: Int64 = 0, quantize: Quantize = .now) throws(InputError) -> UInt64? {
        try InputCheck.pFieldCount(fields.count + 1)
        var c = Command.event(p1: p1, fields, frame: frame)
        quantize.time(&c)
        return try post(c)
    }

    /// Hush, at the next k-cycle: every playing note released (with its release segment), every
    /// command waiting for its frame or beat dropped, all notes off on `midi_out` (Hush.swift).
    /// The live loops are the caller's to stop first (`Hush.perform` does both).
    // Thread: this producer's thread
    @discardableResult
    public func hush() throws(InputError) -> UInt64? { try post(Command(kind: .hush)) }

    /// An f statement (a function table) now (or at `frame`).
    // Thread: this producer's thread
    @discardableResult
    public func table(_ pfields: [Double], frame: Int64 = 0) throws(InputError) -> UInt64? {
        try TableStatement.check(pfields)
        return try post(Command(kind: .table, frame: frame, pfields: pfields))
    }

    /// Sets a string channel on the audio thread, on an exact k-cycle, when the text fits the
    /// storage the engine reserved (up to `Engine.stringCapacity - 1` bytes); longer text is set
    /// from this thread between two callbacks (`JackDriver.setString`).
    // Thread: this producer's thread
    @discardableResult
    public func setString(_ name: String, _ value: String, frame: Int64 = 0) throws -> UInt64? {
        try InputCheck.channelName(name)
        let (storage, lock, generation) = try driver.stringChannel(name)
        let bytes = Array(value.utf8)
        guard bytes.count < min(RTEngine.stringCapacity(storage), Command.maxPFields * 8), !bytes.contains(0) else {
            try driver.setString(name, value)
            return 0
        }
        var c = Command(kind: .setString, frame: frame)
        c.storage = storage
        c.lock = lock
        c.count = Int32(bytes.count)
        withUnsafeMutableBytes(of: &c.pfields) { p in
            for (i, b) in bytes.enumerated() { p[i] = b }
        }
        c.generation = generation
        return try post(c)
    }

    /// Sets a declared control channel (or holds it for one k-cycle with `momentary`).
    // Thread: this producer's thread
    @discardableResult
    public func set(_ name: String, _ value: Double, momentary: Bool = false, frame: Int64 = 0) throws -> UInt64? {
        try InputCheck.channelValue(value, channel: name)
        let (p, generation) = try driver.channel(name)
        var c = Command(kind: momentary ? .momentary : .setControl, frame: frame, channel: p, value: value)
        c.generation = generation
        return try post(c)
    }

    /// Sets several declared control channels together (a pie's shares): every value is
    /// checked and every channel found before any is posted, and all go into the ring in one
    /// write, so the audio thread applies them in the same k-cycle. Returns the first command's
    /// id (the others follow it), or nil when the ring cannot take them all (counted).
    // Thread: this producer's thread
    @discardableResult
    public func set(all values: [(String, Double)], frame: Int64 = 0) throws -> UInt64? {
        var commands: [Command] = []
        for (name, value) in values {
            try InputCheck.channelValue(value, channel: name)
            let (p, generation) = try driver.channel(name)
            var c = Command(kind: .setControl, frame: frame, channel: p, value: value)
            c.generation = generation
            try InputCheck.command(c)
            commands.append(c)
        }
        let first = nextID + 1
        for i in commands.indices {
            nextID += 1
            commands[i].id = nextID
        }
        guard ring.push(all: commands) else {
            nextID = first - 1
            return nil
        }
        return first
    }

    public var overflows: UInt64 { ring.overflows }
}
