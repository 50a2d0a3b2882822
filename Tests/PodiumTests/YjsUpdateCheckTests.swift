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

    @Test("the relay's own merge of a log gives the bytes Y.mergeUpdates gives: keystrokes then the typist's whole state (its item cut where the last written one ends); two pages' text, formats, maps, arrays, XML and subdocuments; whole states among the updates they hold (items sliced, a surrogate pair among them); merged updates with gaps (skips); 340 keystrokes and deletions", arguments: [5, 77, 901])
    func mergesAsYjs(seed: Int) throws {
        struct Set: Decodable { let updates: [String]; let merged: String }
        let node = try #require(which("node") ?? which("nodejs"), "node (scripts/setup … tests installs nodejs)")
        let r = try run(node, [Paths.fixture("yjs_updates.cjs"), "\(seed)", "merges"], environment: ["NODE_PATH": "/usr/share/nodejs"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let sets = try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Set.self, from: Data($0.utf8)) }
        #expect(sets.count == 8)
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
        // Updates Yjs would not write: a client twice and clients rising are refused by the check
        // (the merge rests on Yjs's order); the merge of any of these, whether the check passes
        // them or not, throws or gives an update, never traps.
        // A client's section: its strings, each an item in the root type "t" with no origins.
        func section(_ client: UInt8, _ clock: UInt8, _ strings: [String]) -> [UInt8] {
            [UInt8(strings.count), client, clock] + strings.flatMap { [4, 1, 1, 0x74, UInt8($0.utf8.count)] + Array($0.utf8) }
        }
        let odd: [[UInt8]] = [
            [2] + section(7, 5, ["a"]) + section(7, 0, ["abcdefgh"]) + [0],  // client 7 twice, going back
            [2] + section(3, 0, ["a"]) + section(9, 0, ["b"]) + [0],  // 3 before 9
            [1] + section(7, 4, ["abc"]) + [0],
            [1] + section(7, 0, ["abcdefghi", "", "j"]) + [0],  // an empty string: length 0
            [1, 2, 7, 0, 0, 3, 0, 2] + [1, 7, 1, 1, 2],  // garbage, then garbage; a delete set
        ]
        for u in odd.prefix(2) { #expect(throws: YjsUpdateCheck.Invalid.self, "\(u)") { try YjsUpdateCheck.check(u) } }
        for u in odd.dropFirst(2) { #expect(throws: Never.self, "\(u)") { try YjsUpdateCheck.check(u) } }
        var merged = 0, notMerged = 0
        for a in odd {
            for b in odd {
                for c in odd {
                    // Either refused with a reason, or an update the check itself accepts.
                    guard let u = try? YjsUpdateMerge.merge([a, b, c]) else { notMerged += 1; continue }
                    merged += 1
                    #expect(throws: Never.self, "merge of \(a), \(b), \(c)") { try YjsUpdateCheck.check(u) }
                }
            }
        }
        #expect(merged + notMerged == 125 && merged > 0 && notMerged > 0, "\(merged) merged, \(notMerged) refused")
        #expect(throws: YjsUpdateCheck.Invalid.self) { try YjsUpdateMerge.merge([odd[0], odd[2]]) }
        #expect(throws: Never.self) { try YjsUpdateMerge.merge([odd[2], odd[3], odd[4]]) }
    }
}
