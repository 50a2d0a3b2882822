import CJack
import Foundation

/// A short look at a running JACK server from outside a performance (`podium doctor`): its
/// period and rate, whether it runs real-time and at what priority, and the xruns it reports
/// while watched.
public struct JackServerLook: Sendable {
    public var period: Int
    public var sampleRate: Int
    public var realtime: Bool
    public var priority: Int
    public var xruns: Int

    /// Nil when no server of that name runs (none is started).
    // Thread: NRT (the caller's; sleeps for `seconds`)
    public static func look(server: String?, seconds: Double) -> JackServerLook? {
        JackDriver.routeJackMessages(verbose: false)
        guard let jack = try? JackAPI.open(name: "podium-doctor-\(getpid())", server: server) else { return nil }
        defer { jack.close() }
        let xruns = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        xruns.initialize(to: 0)
        defer { xruns.deallocate() }
        jack.countXruns(into: xruns)
        guard (try? jack.activate()) != nil else { return nil }
        Thread.sleep(forTimeInterval: seconds)
        jack.deactivate()
        return JackServerLook(period: jack.bufferSize, sampleRate: jack.sampleRate, realtime: jack.isRealtime,
                              priority: jack.realtimePriority, xruns: xruns.pointee)
    }
}

extension JackAPI {
    var isRealtime: Bool { jack_is_realtime(client) != 0 }
    var realtimePriority: Int { Int(jack_client_real_time_priority(client)) }
    /// Adds one to `counter` at each xrun the server reports (JACK's notification thread writes
    /// it; read it after `deactivate`).
    func countXruns(into counter: UnsafeMutablePointer<Int>) {
        _ = jack_set_xrun_callback(client, { arg in arg!.assumingMemoryBound(to: Int.self).pointee += 1; return 0 }, counter)
    }
}
