import CSamplerate
import CSndfile
import Foundation

/// A sound file decoded for the sampler: one buffer of doubles per channel, at the engine's
/// rate, each `frames + 1` long (a zero guard point, as Csound's tables have). Owns its memory.
/// Thread: NRT (the sample loader, a replay).
public final class DecodedSample: @unchecked Sendable {
    public let path: String
    public let frames: Int
    public let sampleRate: Int
    /// The file's own rate and length before resampling.
    public let fileRate: Int
    public let fileFrames: Int
    /// 1 or 2 buffers of `frames + 1` values.
    public let channels: [UnsafeMutablePointer<Double>]
    /// What a performer should know about this file (truncated, a low rate), said once.
    public let notes: [String]

    init(path: String, frames: Int, sampleRate: Int, fileRate: Int, fileFrames: Int, channels: [UnsafeMutablePointer<Double>], notes: [String]) {
        self.path = path
        self.frames = frames
        self.sampleRate = sampleRate
        self.fileRate = fileRate
        self.fileFrames = fileFrames
        self.channels = channels
        self.notes = notes
    }

    deinit { for c in channels { c.deallocate() } }

    /// Bytes the decoded tables take (what Csound's tables will hold).
    public var bytes: Int { channels.count * (frames + 1) * MemoryLayout<Double>.size }
    public var seconds: Double { Double(frames) / Double(sampleRate) }
}

/// Why a file is not played (one message each; the rest of a bank plays).
public struct SampleFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var reason: String
    public init(_ path: String, _ reason: String) { self.path = path; self.reason = reason }
    public var description: String { "\(path): \(reason)" }
}

/// Reads sound files through libsndfile (WAV, FLAC, AIFF, OGG…) and resamples them to the
/// engine's rate with libsamplerate (sinc, medium quality: deterministic, so a replay decodes
/// the same values).
public enum SampleDecoder {
    /// The sampler plays mono and stereo files.
    public static let maximumChannels = 2
    /// Rates below this play, with a note (they sound dull).
    public static let lowRate = 16_000

    /// What the header says, checked before anything is decoded: frames, rate, channels, and
    /// the bytes the decoded tables would take at `sampleRate`.
    public static func inspect(_ path: String, sampleRate: Int) throws(SampleFileError) -> (frames: Int, fileRate: Int, channels: Int, bytes: Int) {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else {
            throw SampleFileError(path, "not a sound file libsndfile reads (\(String(cString: sf_strerror(nil))))")
        }
        sf_close(h)
        return try check(path, info: info, sampleRate: sampleRate)
    }

    private static func check(_ path: String, info: SF_INFO, sampleRate: Int) throws(SampleFileError) -> (frames: Int, fileRate: Int, channels: Int, bytes: Int) {
        let channels = Int(info.channels), rate = Int(info.samplerate), frames = Int(info.frames)
        guard channels >= 1, channels <= maximumChannels else {
            throw SampleFileError(path, "\(channels) channels: the sampler plays mono and stereo files (mix it down: sox IN OUT remix -)")
        }
        guard rate > 0 else { throw SampleFileError(path, "no sample rate in its header") }
        guard frames > 0 else { throw SampleFileError(path, "no audio (0 frames)") }
        let outFrames = Int((Double(frames) * Double(sampleRate) / Double(rate)).rounded(.up)) + 1
        return (frames, rate, channels, channels * (outFrames + 1) * MemoryLayout<Double>.size)
    }

    /// Decodes `path` at `sampleRate`; refuses a file whose decoded tables would take more
    /// than `maximumBytes`.
    public static func decode(_ path: String, sampleRate: Int, maximumBytes: Int = .max) throws(SampleFileError) -> DecodedSample {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else {
            throw SampleFileError(path, "not a sound file libsndfile reads (\(String(cString: sf_strerror(nil))))")
        }
        defer { sf_close(h) }
        let (frames, fileRate, channels, bytes) = try check(path, info: info, sampleRate: sampleRate)
        guard bytes <= maximumBytes else {
            throw SampleFileError(path, "\(megabytes(bytes)) decoded, more than the \(megabytes(maximumBytes)) the samples' memory budget has left")
        }
        var notes: [String] = []
        // libsndfile reads a file cut short as far as it goes, saying so only in its log.
        if let cut = truncation(h) { notes.append("\(path): truncated: \(cut)") }
        var input = [Float](repeating: 0, count: frames * channels)
        let got = input.withUnsafeMutableBufferPointer { sf_readf_float(h, $0.baseAddress, sf_count_t(frames)) }
        guard got > 0 else { throw SampleFileError(path, "no audio could be read (\(String(cString: sf_strerror(h))))") }
        if Int(got) < frames {
            notes.append("\(path): truncated: \(got) of the \(frames) frames its header promises were read")
            input.removeLast((frames - Int(got)) * channels)
        }
        let read = Int(got)
        if fileRate < lowRate { notes.append("\(path): \(fileRate) Hz, resampled to \(sampleRate) Hz") }
        var output: [Float]
        var outFrames: Int
        if fileRate == sampleRate {
            output = input
            outFrames = read
        } else {
            let ratio = Double(sampleRate) / Double(fileRate)
            let capacity = Int((Double(read) * ratio).rounded(.up)) + 16
            output = [Float](repeating: 0, count: capacity * channels)
            var data = SRC_DATA()
            let rc = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o -> Int32 in
                    data.data_in = i.baseAddress
                    data.input_frames = read
                    data.data_out = o.baseAddress
                    data.output_frames = capacity
                    data.src_ratio = ratio
                    return src_simple(&data, Int32(SRC_SINC_MEDIUM_QUALITY), Int32(channels))
                }
            }
            guard rc == 0 else { throw SampleFileError(path, "resampling failed (\(String(cString: src_strerror(rc))))") }
            outFrames = Int(data.output_frames_gen)
        }
        guard outFrames > 0 else { throw SampleFileError(path, "no audio (0 frames at \(sampleRate) Hz)") }
        var buffers: [UnsafeMutablePointer<Double>] = []
        for c in 0..<channels {
            let b = UnsafeMutablePointer<Double>.allocate(capacity: outFrames + 1)
            for f in 0..<outFrames { b[f] = Double(output[f * channels + c]) }
            b[outFrames] = 0
            buffers.append(b)
        }
        return DecodedSample(path: path, frames: outFrames, sampleRate: sampleRate, fileRate: fileRate, fileFrames: read, channels: buffers, notes: notes)
    }

    /// What libsndfile's log says when the header promises more audio than the file holds.
    static func truncation(_ h: OpaquePointer) -> String? {
        var log = [CChar](repeating: 0, count: 4096)
        _ = sf_command(h, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(cString: log)
        guard let line = text.split(separator: "\n").first(where: { ($0.hasPrefix("data") && $0.contains("should be")) || $0.lowercased().contains("truncated") }) else { return nil }
        return "its header promises more than it holds (libsndfile: \(line.trimmingCharacters(in: .whitespaces))); the rest plays"
    }

    public static func megabytes(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1_048_576
        if mb < 1 { return String(format: "%.0f KB", Double(bytes) / 1024) }
        return mb >= 1024 ? String(format: "%.1f GB", mb / 1024) : String(format: mb < 10 ? "%.1f MB" : "%.0f MB", mb)
    }
}
