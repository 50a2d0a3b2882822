import PodiumRealtime

/// A port's level for meters.
public struct OutputLevel: Sendable, Equatable {
    /// The port's short name (`out_1`).
    public var port: String
    public var peak: Double
    public var rms: Double
}

extension JackDriver {
    /// Each output port's peak and RMS since the last call (one reader: the stage page's feedback).
    // Thread: NRT (the one reader)
    public func takeOutputLevels() -> [OutputLevel] {
        let names = portNames.outputs
        let levels = state.pointee.levels
        return names.prefix(RTLimits.maxPorts).enumerated().map { i, name in
            let (peak, rms) = levels.take(port: i)
            return OutputLevel(port: String(name.split(separator: ":").last ?? Substring(name)), peak: peak, rms: rms)
        }
    }
}
