import Foundation

/// How a session's journal names a sample's tables: a text kept with the orchestras (by its
/// hash), whose `stage` lines copy the decoded channels in. A replay decodes the same file at
/// the same rate again (`SampleDecoder` is deterministic) after checking it is unchanged.
///
///     ; podium sample (tables decoded off the audio thread; replay decodes the file again)
///     ; file "/home/me/samples/bd/kick.wav"
///     ; content 5f1c9e0a3b2d4c11 bytes 88244 rate 48000
public struct SampleDescriptor: Equatable, Sendable {
    public var path: String
    /// FNV-1a 64 of the file's bytes (hex) and its size.
    public var content: String
    public var bytes: Int
    public var sampleRate: Int

    static let header = "; podium sample"

    public init(path: String, content: String, bytes: Int, sampleRate: Int) {
        self.path = path
        self.content = content
        self.bytes = bytes
        self.sampleRate = sampleRate
    }

    /// The descriptor of the file as it is now.
    public init(file path: String, sampleRate: Int) throws(SampleFileError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw SampleFileError(path, "cannot be read") }
        self.init(path: path, content: SampleDescriptor.fingerprint(data), bytes: data.count, sampleRate: sampleRate)
    }

    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let quoted = (try? String(decoding: encoder.encode(path), as: UTF8.self)) ?? "\"\(path)\""
        return "\(SampleDescriptor.header) (tables decoded off the audio thread; replay decodes the file again)\n"
            + "; file \(quoted)\n; content \(content) bytes \(bytes) rate \(sampleRate)\n"
    }

    /// The descriptor a journal's text holds; nil for an orchestra's text.
    public static func parse(_ text: String) -> SampleDescriptor? {
        guard text.hasPrefix(header) else { return nil }
        var path: String?, content: String?, bytes: Int?, rate: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("; file ") {
                path = try? JSONDecoder().decode(String.self, from: Data(line.dropFirst("; file ".count).utf8))
            } else if line.hasPrefix("; content ") {
                let w = line.split(separator: " ")
                if w.count >= 7 { content = String(w[2]); bytes = Int(w[4]); rate = Int(w[6]) }
            }
        }
        guard let path, let content, let bytes, let rate else { return nil }
        return SampleDescriptor(path: path, content: content, bytes: bytes, sampleRate: rate)
    }

    /// Decodes the file again for a replay, refusing one that changed since the performance.
    public func decodeAgain() throws(SampleFileError) -> DecodedSample {
        let now = try SampleDescriptor(file: path, sampleRate: sampleRate)
        guard now.content == content, now.bytes == bytes else {
            throw SampleFileError(path, "changed since the performance (\(now.bytes) bytes, content \(now.content); it was \(bytes) bytes, content \(content)): the replay would not sound the same")
        }
        return try SampleDecoder.decode(path, sampleRate: sampleRate)
    }

    /// FNV-1a, 64 bits, hex (as the journal's orchestra hashes).
    public static func fingerprint(_ data: Data) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        data.withUnsafeBytes { for b in $0 { h = (h ^ UInt64(b)) &* 0x100000001b3 } }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
