import CSndfile
import Foundation

/// Errors from libsndfile, naming the call and the path.
public enum SoundFileError: Error, CustomStringConvertible, Equatable {
    case directoryMissing(String)
    case directoryNotWritable(String)
    case call(String, path: String, message: String)

    public var description: String {
        switch self {
        case let .directoryMissing(dir): return "output directory \(dir) does not exist"
        case let .directoryNotWritable(dir): return "output directory \(dir) is not writable"
        case let .call(name, path, message): return "\(name) failed for \(path): \(message)"
        }
    }
}

/// Sample formats Podium writes.
public enum SampleFormat: String, Sendable, CaseIterable {
    case float, pcm24 = "24", pcm16 = "16"
    var sndfileSubtype: Int32 {
        switch self {
        case .float: return Int32(SF_FORMAT_FLOAT)
        case .pcm24: return Int32(SF_FORMAT_PCM_24)
        case .pcm16: return Int32(SF_FORMAT_PCM_16)
        }
    }
}

/// A WAV writer: RF64 container that downgrades to plain WAV under 4 GiB.
/// Thread: NRT (the thread that owns the file: offline driver or disk writer).
public final class SoundFileWriter {
    public let path: String
    public let channels: Int
    public let sampleRate: Int
    private var handle: OpaquePointer?
    public private(set) var framesWritten: Int64 = 0

    public init(path: String, sampleRate: Int, channels: Int, format: SampleFormat = .float) throws {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        try SoundFileWriter.checkWritable(path)
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_RF64) | format.sndfileSubtype
        guard let h = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw SoundFileError.call("sf_open", path: path, message: String(cString: sf_strerror(nil)))
        }
        handle = h
        _ = sf_command(h, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE))
        if format != .float { _ = sf_command(h, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE)) }
    }

    deinit { close() }

    /// Clear errors for the usual mistakes, before libsndfile's generic one.
    public static func checkWritable(_ path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw SoundFileError.directoryMissing(dir)
        }
        guard FileManager.default.isWritableFile(atPath: dir) else { throw SoundFileError.directoryNotWritable(dir) }
    }

    /// Writes interleaved samples in the -1…1 range.
    public func write(_ samples: UnsafePointer<Double>, frames: Int) throws {
        guard let handle else { return }
        let n = sf_writef_double(handle, samples, sf_count_t(frames))
        if n != frames {
            throw SoundFileError.call("sf_writef_double", path: path, message: String(cString: sf_strerror(handle)))
        }
        framesWritten += Int64(frames)
    }

    /// Writes interleaved 32-bit float samples (exactly as given, in a float file).
    public func write(floats samples: UnsafePointer<Float>, frames: Int) throws {
        guard let handle else { return }
        let n = sf_writef_float(handle, samples, sf_count_t(frames))
        if n != frames {
            throw SoundFileError.call("sf_writef_float", path: path, message: String(cString: sf_strerror(handle)))
        }
        framesWritten += Int64(frames)
    }

    /// Rewrites the header so that a reader sees everything written so far (crash safety).
    public func updateHeader() {
        guard let handle else { return }
        _ = sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
    }

    public func close() {
        if let handle { sf_close(handle) }
        handle = nil
    }
}

/// What a sound file's header says, and mending one a crash left behind.
public enum SoundFileHeader {
    /// Frames, sample rate and channels as libsndfile reads them.
    public static func info(_ path: String) throws -> (frames: Int64, sampleRate: Int, channels: Int) {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else {
            throw SoundFileError.call("sf_open", path: path, message: String(cString: sf_strerror(nil)))
        }
        sf_close(h)
        return (Int64(info.frames), Int(info.samplerate), Int(info.channels))
    }

    /// Rewrites the header of a WAV whose writer died before closing it, so that every reader
    /// sees all the whole frames in the file. The writer updates the header about once a
    /// second, so the header under-counts what follows; the data chunk runs to the end of the
    /// file (Podium writes nothing after it). Handles RIFF and RF64 (`ds64`). Returns the frames.
    @discardableResult
    public static func repair(_ path: String) throws -> Int64 {
        func fail(_ why: String) -> SoundFileError { .call("repair", path: path, message: why) }
        guard let file = FileHandle(forUpdatingAtPath: path) else { throw fail("cannot open for writing") }
        defer { try? file.close() }
        let size = try file.seekToEnd()
        try file.seek(toOffset: 0)
        guard let head = try file.read(upToCount: 12), head.count == 12 else { throw fail("too short for a WAV header") }
        let riff = String(decoding: head[0..<4], as: UTF8.self)
        guard (riff == "RIFF" || riff == "RF64"), String(decoding: head[8..<12], as: UTF8.self) == "WAVE" else { throw fail("not a WAV file") }
        var offset: UInt64 = 12
        var blockAlign: UInt64 = 0
        var ds64Offset: UInt64?
        while offset + 8 <= size {
            try file.seek(toOffset: offset)
            guard let chunk = try file.read(upToCount: 8), chunk.count == 8 else { break }
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            let length = UInt64(chunk.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) })
            switch id {
            case "fmt ":
                guard let fmt = try file.read(upToCount: 16), fmt.count == 16 else { throw fail("truncated fmt chunk") }
                blockAlign = UInt64(fmt.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 12, as: UInt16.self) })
            case "ds64":
                ds64Offset = offset + 8
            case "data":
                guard blockAlign > 0 else { throw fail("data before fmt") }
                let dataStart = offset + 8
                let bytes = (size - dataStart) / blockAlign * blockAlign
                // A frame cut off by the crash is dropped.
                let end = dataStart + bytes
                if end < size { try file.truncate(atOffset: end) }
                let size = end
                if riff == "RF64" {
                    guard let ds64 = ds64Offset else { throw fail("RF64 without ds64") }
                    try file.seek(toOffset: ds64)
                    file.write(withUnsafeBytes(of: (size - 8).littleEndian) { Data($0) })   // RIFF size
                    file.write(withUnsafeBytes(of: bytes.littleEndian) { Data($0) })        // data size
                } else {
                    guard size - 8 <= UInt64(UInt32.max) else { throw fail("over 4 GiB in a RIFF header") }
                    try file.seek(toOffset: 4)
                    file.write(withUnsafeBytes(of: UInt32(size - 8).littleEndian) { Data($0) })
                    try file.seek(toOffset: offset + 4)
                    file.write(withUnsafeBytes(of: UInt32(bytes).littleEndian) { Data($0) })
                }
                try file.synchronize()
                return Int64(bytes / blockAlign)
            default:
                break
            }
            offset += 8 + length + (length & 1)
        }
        throw fail("no data chunk")
    }
}

/// A whole sound file read into memory (tests, replay comparison, loops).
public struct SoundFileContents: Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved.
    public var samples: [Double]
    public var frames: Int { channels == 0 ? 0 : samples.count / channels }

    public init(path: String) throws {
        var info = SF_INFO()
        guard let h = sf_open(path, Int32(SFM_READ), &info) else {
            throw SoundFileError.call("sf_open", path: path, message: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(h) }
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        samples = [Double](repeating: 0, count: Int(info.frames) * channels)
        let got = samples.withUnsafeMutableBufferPointer { sf_readf_double(h, $0.baseAddress, info.frames) }
        if got < info.frames { samples.removeLast(Int(info.frames - got) * channels) }
    }

    /// The samples of one channel.
    public func channel(_ c: Int) -> [Double] {
        stride(from: c, to: samples.count, by: channels).map { samples[$0] }
    }

    /// Peak absolute value per channel.
    public var peaks: [Double] {
        var p = [Double](repeating: 0, count: channels)
        for (i, s) in samples.enumerated() { p[i % channels] = max(p[i % channels], abs(s)) }
        return p
    }
}
