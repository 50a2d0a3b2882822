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

    /// The newest `frames` samples of the output, the first two ports mixed (what the editor's
    /// scope draws), and the rate; nil before enough was played or when the copy was overtaken.
    // Thread: NRT (any reader)
    public func outputScope(frames: Int) -> (samples: [Float], rate: Double)? {
        let ports = min(portNames.outputs.count, 2, RTLimits.maxPorts)
        guard ports > 0 else { return nil }
        let levels = state.pointee.levels
        var mix = [Float](repeating: 0, count: frames)
        for p in 0..<ports {
            guard let s = levels.newest(port: p, count: frames), s.count == frames else { return nil }
            for i in 0..<frames { mix[i] += s[i] / Float(ports) }
        }
        return (mix, engine.sampleRate)
    }
}
