import Foundation
import PodiumEngine
import PodiumHost

/// Presets: every input channel's value, saved under a name and restored on the audio thread
/// through the caller's command producer (each value lands on one k-cycle, and is journaled).
/// Files: `<directory>/<NAME>.json`, e.g. `Sessions/presets/organ/gospel.json`.
public struct Presets: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    struct File: Codable {
        var orchestra: String
        var saved: String
        var controls: [String: Double]
        var strings: [String: String]
    }

    static func valid(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." } && !name.hasPrefix(".")
    }

    /// Saves the input channels' values now. Returns the file's path.
    // Thread: NRT
    public func save(_ name: String, driver: JackDriver) throws -> String {
        guard Presets.valid(name) else { throw PresetError("preset names use letters, digits, - _ and . (got \"\(name)\")") }
        let e = driver.engine
        var controls: [String: Double] = [:], strings: [String: String] = [:]
        for c in e.channels() where c.isInput && !c.isPodiums {
            switch c.kind {
            case .control: if let v = try? e.control(c.name) { controls[c.name] = v }
            case .string: if let s = try? e.string(c.name) { strings[c.name] = s }
            default: break
            }
        }
        let file = File(orchestra: driver.source.displayName, saved: Date().formatted(.iso8601), controls: controls, strings: strings)
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw PresetError("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let url = directory.appendingPathComponent("\(name).json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { try encoder.encode(file).write(to: url, options: .atomic) } catch {
            throw PresetError("cannot write \(url.path): \(error.localizedDescription)")
        }
        return url.path
    }

    /// Restores a preset's values. Returns a summary; channels the orchestra no longer has are named.
    // Thread: the producer's thread
    public func load(_ name: String, producer: CommandProducer) throws -> String {
        guard Presets.valid(name) else { throw PresetError("preset names use letters, digits, - _ and . (got \"\(name)\")") }
        let url = directory.appendingPathComponent("\(name).json")
        guard let data = try? Data(contentsOf: url) else {
            let known = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            throw PresetError("no preset \"\(name)\" in \(directory.path)" + (known.isEmpty ? "" : " (have: \(known.joined(separator: ", ")))"))
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch { throw PresetError("\(url.path) is not a preset: \(error)") }
        var missing: [String] = []
        for (channel, value) in file.controls.sorted(by: { $0.key < $1.key }) {
            do { try producer.set(channel, value) } catch { missing.append(channel) }
        }
        for (channel, text) in file.strings.sorted(by: { $0.key < $1.key }) {
            do { try producer.setString(channel, text) } catch { missing.append(channel) }
        }
        let count = file.controls.count + file.strings.count - missing.count
        return "preset \(name): \(count) channels" + (missing.isEmpty ? "" : "; not in this orchestra: \(missing.joined(separator: ", "))")
    }

    /// Puts a channel back to the default its declaration gives (`chn_k`'s idflt).
    // Thread: the producer's thread
    public static func reset(_ channel: String, driver: JackDriver, producer: CommandProducer) throws -> String {
        guard let info = driver.engine.channels().first(where: { $0.name == channel && $0.kind == .control }) else {
            throw PresetError("unknown channel \"\(channel)\"")
        }
        guard let range = info.range else { throw PresetError("\(channel) declares no default (chn_k \"\(channel)\", 1, 2, DEFAULT, MIN, MAX)") }
        try producer.set(channel, range.defaultValue)
        return "\(channel) = \(InstrumentTable.format(range.defaultValue))"
    }
}

public struct PresetError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
