import Foundation
import PodiumEngine
import PodiumHost

/// A scripted performance: lines of score or commands, each optionally at a time.
///
///     ; comments start with ; or #
///     @0     i1 0 2 440        a score line at 0 s
///     @1.5   :set amp 0.2      a channel value at 1.5 s
///     @2     i "lead" 0 1 60   named instruments too
///     @3     :load lead2.orc   compile an orchestra file (beside the script): a hot swap
///     @4     :tempo 128        the beat clock's tempo (and `:quant bar|beat|N|off`)
///     @4     @bar i1 0 1 a4    the next bar after 4 s, p2 and p3 in beats (see `TimePrefix`)
///     @5     d1 $ s "bd*2 sn"  a pattern statement, in Tidal's words (`hush`, `setcps` too)
///     @6     :quit             end the performance
///
/// Lines without `@` happen right after the previous one.
public struct Script: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case score(ScoreLine)
        case set(channel: String, value: Double)
        /// Compile an orchestra file (its orchestra, for a .csd): instruments swap as on a save.
        case load(path: String)
        /// The beat clock's tempo; the script's quantization of the score lines that follow.
        case tempo(Double)
        case quant(String)
        /// A pattern statement (`d1 $ …`, `d1 silence`, `hush`, `setcps 0.5`, `once $ …`).
        case pattern(String)
        case quit
    }
    public struct Step: Sendable, Equatable {
        public var time: Double
        public var action: Action
        public var line: Int
        /// A note of a `chord` or `scale` line: it gets every p-field its instrument reads.
        public var fromHelper = false
        /// A score line's musical prefix word (`bar`, `beat`, `2beats`, `now`), resolved when it plays.
        public var timing: String? = nil
    }
    public var steps: [Step]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
    }

    public init(text: String, path: String = "<script>") throws {
        steps = []
        var time = 0.0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            do {
                if let (t, rest) = try Script.timePrefix(line) {
                    time = t
                    line = rest.trimmingWhitespace()
                }
            } catch {
                throw ParseError(path: path, line: index + 1, message: error.description)
            }
            let action: Action
            if ReplInterpreter.isPatternStatement(String(line)) {
                // Read when it plays (the orchestra's own control names are known then); a
                // refusal is the script's problem with its line, and the script goes on.
                action = .pattern(String(line))
            } else if line.hasPrefix(":") {
                let words = line.split(whereSeparator: \.isWhitespace)
                switch words.first {
                case ":quit":
                    action = .quit
                case ":tempo":
                    guard words.count == 2, let bpm = Double(words[1]) else { throw ParseError(path: path, line: index + 1, message: "expected :tempo BPM") }
                    do { try InputCheck.tempo(bpm) } catch { throw ParseError(path: path, line: index + 1, message: error.description) }
                    action = .tempo(bpm)
                case ":quant":
                    let word = words.count == 2 ? String(words[1]).lowercased() : ""
                    guard (try? TimePrefix.setting(word, quantum: 4)) != nil else {
                        throw ParseError(path: path, line: index + 1, message: "expected :quant bar|beat|N|off")
                    }
                    action = .quant(word)
                case ":load":
                    guard words.count == 2 else { throw ParseError(path: path, line: index + 1, message: "expected :load FILE") }
                    let file = String(words[1])
                    let base = (path as NSString).deletingLastPathComponent
                    action = .load(path: file.hasPrefix("/") || base.isEmpty ? file : base + "/" + file)
                case ":set":
                    guard words.count == 3 else { throw ParseError(path: path, line: index + 1, message: "expected :set CHANNEL VALUE") }
                    guard let v = Double(words[2]) else {
                        throw ParseError(path: path, line: index + 1, message: ":set \(words[1]): \(words[2]) is not a number")
                    }
                    action = .set(channel: String(words[1]), value: v)
                default:
                    throw ParseError(path: path, line: index + 1, message: "unknown command \(words.first ?? "") (known: :set, :load, :tempo, :quant, :quit)")
                }
            } else {
                var timing: String?
                if line.hasPrefix("@") {
                    let word = line.dropFirst().prefix { !$0.isWhitespace }
                    let known: Quantize?
                    do { known = try TimePrefix.quantize(String(word).lowercased(), quantum: 4) } catch {
                        throw ParseError(path: path, line: index + 1, message: error.description)
                    }
                    guard known != nil else { throw ParseError(path: path, line: index + 1, message: "bad time \"@\(word)\"") }
                    timing = String(word).lowercased()
                    line = line.dropFirst(word.count + 1).trimmingWhitespace()
                }
                let statements: [ScoreLine]
                do { statements = try ScoreLine.parse(text: String(line)) } catch {
                    throw ParseError(path: path, line: index + 1, message: "column \(error.column): \(error.message)")
                }
                let helper = Music.isExpansion(String(line))
                for score in statements { steps.append(Step(time: time, action: .score(score), line: index + 1, fromHelper: helper, timing: timing)) }
                continue
            }
            steps.append(Step(time: time, action: action, line: index + 1))
        }
    }

    /// A line's `@SECONDS` prefix (seconds from the start) and the rest; nil without one.
    /// Scripts and piped input share it.
    public static func timePrefix(_ line: Substring) throws(InputError) -> (Double, Substring)? {
        let trimmed = line.trimmingWhitespace()
        guard trimmed.hasPrefix("@") else { return nil }
        let token = trimmed.dropFirst().prefix { !$0.isWhitespace }
        // `@bar`, `@beat`, `@2beats`, `@now`: musical time (TimePrefix), not seconds.
        if Double(token) == nil, try TimePrefix.quantize(String(token).lowercased(), quantum: 4) != nil { return nil }
        guard let t = Double(token), t >= 0 else {
            throw InputError("bad time \"@\(token)\" (seconds from the start, e.g. @1.5)")
        }
        try InputCheck.ahead(t, "the time @\(token)")
        return (t, trimmed.dropFirst(token.count + 1))
    }

    public init(contentsOf path: String) throws {
        let text: String
        do { text = try Engine.read(path) } catch {
            guard case let .unreadable(_, reason) = error else { throw error }
            throw ParseError(path: path, line: 0, message: "cannot read: \(reason)")
        }
        try self.init(text: text, path: path)
        // A missing file is found now, not in the middle of the performance.
        for step in steps {
            if case let .load(file) = step.action, !FileManager.default.fileExists(atPath: file) {
                throw ParseError(path: path, line: step.line, message: "no such file: \(file)")
            }
        }
    }
}
