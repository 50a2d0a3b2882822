import Foundation
@testable import PodiumWeb
import Testing

/// The relay's update check against Yjs itself (Debian's node-yjs, run by node): every update
/// real documents send is accepted, and every one Yjs cannot decode or apply is refused.
@Suite("Yjs updates the editor's relay accepts")
struct YjsUpdateCheckTests {
    struct Case: Decodable { let hex: String; let kind: String; let yjs: String }

    static func cases(seed: Int) throws -> [Case] {
        let node = try #require(which("node") ?? which("nodejs"), "node (scripts/setup … tests installs nodejs)")
        let r = try run(node, [Paths.fixture("yjs_updates.cjs"), "\(seed)"], environment: ["NODE_PATH": "/usr/share/nodejs"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    @Test("honest updates (text, formats, embeds, maps of every value, arrays, XML, subdocuments, gc'd and kept deletes, merged skips, 20 KB and 500 KB texts) pass; every cut, flipped, padded or random one Yjs refuses is refused", arguments: [5, 77])
    func agreesWithYjs(seed: Int) throws {
        let cases = try YjsUpdateCheckTests.cases(seed: seed)
        let honest = cases.filter { $0.kind == "honest" }
        let refusedByYjs = cases.filter { $0.kind == "broken" && $0.yjs == "error" }
        #expect(honest.count > 300 && refusedByYjs.count > 1000, "\(honest.count) honest, \(refusedByYjs.count) refused by Yjs")
        var wronglyRefused: [String] = [], wronglyAccepted: [String] = []
        for c in honest {
            do { try YjsUpdateCheck.check(YjsUpdateCheckTests.bytes(c.hex)) } catch { wronglyRefused.append("\(error): \(c.hex.prefix(80))") }
        }
        for c in refusedByYjs where (try? YjsUpdateCheck.check(YjsUpdateCheckTests.bytes(c.hex))) != nil {
            wronglyAccepted.append(String(c.hex.prefix(120)))
        }
        #expect(wronglyRefused.isEmpty, "honest updates refused: \(wronglyRefused.count): \(wronglyRefused.prefix(5))")
        #expect(wronglyAccepted.isEmpty, "updates Yjs refuses, accepted: \(wronglyAccepted.count): \(wronglyAccepted.prefix(5))")
    }

    @Test("the relay's own merge of a log gives the bytes Y.mergeUpdates gives: two pages' text, formats, maps, arrays, XML and subdocuments; whole states among the updates they hold (items sliced, a surrogate pair among them); merged updates with gaps (skips); 340 keystrokes and deletions", arguments: [5, 77, 901])
    func mergesAsYjs(seed: Int) throws {
        struct Set: Decodable { let updates: [String]; let merged: String }
        let node = try #require(which("node") ?? which("nodejs"), "node (scripts/setup … tests installs nodejs)")
        let r = try run(node, [Paths.fixture("yjs_updates.cjs"), "\(seed)", "merges"], environment: ["NODE_PATH": "/usr/share/nodejs"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let sets = try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Set.self, from: Data($0.utf8)) }
        #expect(sets.count == 7)
        for (i, set) in sets.enumerated() {
            let merged = try YjsUpdateMerge.merge(set.updates.map(YjsUpdateCheckTests.bytes))
            let theirs = YjsUpdateCheckTests.bytes(set.merged)
            #expect(merged == theirs, "set \(i) (\(set.updates.count) updates): \(merged.count) bytes against Yjs's \(theirs.count); first difference at \(zip(merged, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(merged.count, theirs.count))")
            #expect(throws: Never.self) { try YjsUpdateCheck.check(merged) }
        }
    }

    @Test("edges: empty, a lone varint, counts larger than the update, integers past 2^53, values nested 10,000 deep are refused with the byte they fail at, never trap")
    func edges() {
        let refused: [[UInt8]] = [
            [], [0x80], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            [0x7f, 0x00],  // 127 clients in 2 bytes
            [1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 1, 0],  // a client past 2^53
            [1, 1, 7, 0, 8, 1, 1, 0x61, 1] + Array([[UInt8]](repeating: [117, 1], count: 10_000).joined()) + [127, 0],  // arrays 10,000 deep
            [1, 1, 7, 0, 31, 1, 1, 0x61, 0],  // content reference 31
        ]
        for u in refused {
            #expect(throws: YjsUpdateCheck.Invalid.self, "\(u.prefix(16))") { try YjsUpdateCheck.check(u) }
        }
        #expect(throws: Never.self) { try YjsUpdateCheck.check([0, 0]) }  // the empty update
    }
}
