import Foundation
import PodiumEngine
import PodiumHost

/// Names, stamps and file helpers shared by a session's parts.
enum SessionFiles {
    static func saveSource(_ source: EngineSource, in dir: URL) throws -> SessionInfo.Source {
        func save(_ text: String, _ ext: String) throws -> String {
            let rel = "orchestras/\(JournalLine.hash(text)).\(ext)"
            try text.write(to: dir.appendingPathComponent(rel), atomically: true, encoding: .utf8)
            return rel
        }
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        switch source {
        case let .csd(path):
            return .init(kind: "csd", file: try save(try Engine.read(path), "csd"), score: nil, original: absolute(path))
        case let .orchestra(path, score):
            return .init(kind: "orc", file: try save(try Engine.read(path), "orc"),
                         score: try score.map { try save(try Engine.read($0), "sco") }, original: absolute(path))
        case let .text(orchestra, score, name):
            return .init(kind: "orc", file: try save(orchestra, "orc"), score: try score.map { try save($0, "sco") }, original: name)
        }
    }

    static func orchestraName(_ source: EngineSource) -> String {
        let raw: String
        switch source {
        case let .csd(path), let .orchestra(path, _): raw = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        case let .text(_, _, name): raw = (name as NSString).deletingPathExtension
        }
        let safe = String(raw.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return safe.isEmpty ? "orchestra" : safe
    }

    static func stamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd_HHmmss"
        return f.string(from: date)
    }

    static func levelName(_ level: ConsoleLine.Level) -> String {
        switch level {
        case .debug: return "debug  "
        case .info: return "info   "
        case .orchestra: return "orch   "
        case .warning: return "warning"
        case .error: return "error  "
        }
    }

    static func freeBytes(_ path: String) -> Int64? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}
