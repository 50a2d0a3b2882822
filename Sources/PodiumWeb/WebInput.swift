import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumRealtime
import PodiumSurfaces

/// What a page sends, checked and turned into the `Command`s every surface posts (one producer,
/// under a lock). Every refusal is counted and answered to that page in words.
///
///     {"type": "set", "channel": "cutoff", "value": 800}
///     {"type": "momentary", "channel": "hit"}
///     {"type": "push", "id": "/2/push1", "down": true}        (a map's push: a held note, or 1/0)
///     {"type": "pie", "id": "/5/pie", "values": [0.2, 0.5, 0.3]}   (proportions; shares of the total)
///     {"type": "motion", "values": {"accelerometerX": 0.1}}
///     {"type": "score", "text": "i1 0 1 440"}        {"type": "tempo", "value": 128}
extension WebClients {
    /// One message from a page; an error reply for that page when it is refused.
    // Thread: Hummingbird's event loops (or a test's)
    func handle(_ text: String, page: Int = 0) -> String? {
        count { $0.messages += 1 }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], let type = object["type"] as? String else {
            count { $0.malformed += 1 }
            return WebClients.json(["type": "error", "message": "not a JSON object with a \"type\""])
        }
        // Questions change nothing: the audience may ask them too.
        if type == "help" || type == "sounds" || type == "scope" { return answer(type, object) }
        if lock.withLock({ readOnlyPages.contains(page) }) {
            count { $0.refused += 1 }
            return WebClients.json(["type": "error", "message": "this page is the audience's (read-only): \(type.prefix(20)) not done"])
        }
        do {
            switch type {
            case "eval":
                return try evaluate(object, page: page)
            case "set":
                guard let name = object["channel"] as? String, let value = WebClients.number(object["value"]) else {
                    throw InputError("set needs \"channel\" (a name) and \"value\" (a number)")
                }
                try set(name, value, momentary: false)
                // A widget's value is also a controller of the patterns' (`cF 0 "cutoff"`).
                if value.isFinite { loops?.patterns.controllers.set(name, .double(value)) }
            case "momentary":
                guard let name = object["channel"] as? String else { throw InputError("momentary needs \"channel\"") }
                try set(name, 1, momentary: true)
            case "push":
                guard let id = object["id"] as? String, let down = object["down"] as? Bool else {
                    throw InputError("push needs \"id\" (the button's map address) and \"down\" (true or false)")
                }
                try push(id, down: down, page: page)
            case "pie":
                guard let id = object["id"] as? String, let list = object["values"] as? [Any] else {
                    throw InputError("pie needs \"id\" (the pie's map address) and \"values\" (a number a slice)")
                }
                let values = list.compactMap(WebClients.number)
                guard values.count == list.count else { throw InputError("a pie's values are numbers") }
                try pie(id, values)
            case "motion":
                guard let v = object["values"] as? [String: Any] else { throw InputError("motion needs \"values\"") }
                let wanted = lock.withLock { layout.motion }
                // Sensors overshoot: their values are held to the channel's range, not refused.
                for (name, number) in v {
                    guard wanted.contains(name), let x = WebClients.number(number), x.isFinite else { continue }
                    let r = lock.withLock { ranges[name] }
                    try set(name, r.map { min(max(x, $0.minimum), $0.maximum) } ?? x, momentary: false)
                }
            case "score":
                guard let line = object["text"] as? String, line.utf8.count <= 4096 else { throw InputError("score needs \"text\" (at most 4096 bytes)") }
                let q = driver.quantization.withLock { $0 }
                do { try producer.withLock { _ in try score.play(prefixed: line, otherwise: q) } } catch { throw InputError("\(error)") }
                count { $0.applied += 1 }
            case "hush":
                let done = try producer.withLock { p throws(InputError) in try Hush.perform(producer: p, loops: loops) }
                count { $0.applied += 1 }
                return WebClients.json(["type": "done", "message": done])
            case "tempo":
                guard let bpm = WebClients.number(object["value"]) else { throw InputError("tempo needs \"value\" (BPM)") }
                guard try producer.withLock({ try $0.clock(tempo: bpm) }) != nil else { throw InputError("command ring full: not applied") }
                count { $0.applied += 1 }
            default:
                throw InputError("unknown message type \"\(type.prefix(40))\" (set, momentary, push, pie, motion, score, tempo, hush, eval, help, sounds, scope)")
            }
            return nil
        } catch {
            count { $0.refused += 1 }
            return WebClients.json(["type": "error", "message": "\(error)"])
        }
    }

    /// A JSON number.
    // Thread: any
    static func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

    /// A channel value from a page: a channel the page shows, within its declared range.
    // Thread: a page's connection (Hummingbird's event loops)
    func set(_ name: String, _ value: Double, momentary: Bool) throws {
        try check(name, value)
        guard try producer.withLock({ try $0.set(name, value, momentary: momentary) }) != nil else { throw InputError("command ring full: \(name) not set") }
        count { $0.applied += 1 }
    }

    /// A channel the page shows, and a value within its declared range (InputCheck follows, in the producer).
    // Thread: a page's connection
    func check(_ name: String, _ value: Double) throws {
        let (known, range) = lock.withLock { (settable.contains(name), ranges[name]) }
        guard known else { throw InputError("unknown channel \(name.prefix(64)): not a control of this page") }
        if let r = range, r.maximum > r.minimum, !(r.minimum...r.maximum).contains(value) {
            throw InputError("\(name) runs from \(InputCheck.describe(r.minimum)) to \(InputCheck.describe(r.maximum)): \(InputCheck.describe(value)) is out of range")
        }
    }

    /// A pie dragged: its slices' proportions become the channels' shares of its total, all set
    /// in one go (one ring write: the same k-cycle), or none.
    // Thread: a page's connection
    func pie(_ id: String, _ proportions: [Double]) throws {
        guard let c = lock.withLock({ pies[id] }) else { throw InputError("unknown pie \(id.prefix(64)): not a control of this page") }
        let shares = try c.pieShares(proportions)
        for (name, value) in shares { try check(name, value) }
        guard try producer.withLock({ try $0.set(all: shares) }) != nil else { throw InputError("command ring full: the pie not set") }
        count { $0.applied += 1 }
    }

    /// A push button pressed or released: the map's push (a held note from press to release,
    /// `OSCMap.Control.heldNote`; or its channel 1 while held, 0 after).
    // Thread: a page's connection
    func push(_ id: String, down: Bool, page: Int) throws {
        guard let c = lock.withLock({ pushes[id] }) else { throw InputError("unknown push button \(id.prefix(64)): not a control of this page") }
        let wasDown = lock.withLock { held[page, default: []].contains(id) }
        // A release without a press (or a second press) has nothing to do.
        guard down != wasDown else { return }
        if let (instrument, fields) = c.heldNote(pressed: down) {
            let q = driver.quantization.withLock { $0 }
            try producer.withLock { _ in try score.play(.event(instrument: .number(instrument), fields: fields), quantize: q) }
        } else if let name = c.targetChannels.first {
            try check(name, down ? 1 : 0)
            guard try producer.withLock({ try $0.set(name, down ? 1 : 0) }) != nil else { throw InputError("command ring full: \(name) not set") }
        }
        lock.withLock { if down { held[page, default: []].insert(id) } else { held[page]?.remove(id) } }
        count { $0.applied += 1 }
    }

    /// A page went away: what it held down is released.
    // Thread: a page's connection, as it closes
    func releaseHeld(page: Int) {
        for id in lock.withLock({ held[page] ?? [] }) { try? push(id, down: false, page: page) }
        lock.withLock { held[page] = nil }
    }
}
