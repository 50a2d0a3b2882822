import Foundation
import Testing

/// Where things are, for tests that use the real libcsound, the csound CLI and the podium binary.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let orchestras = packageRoot.appendingPathComponent("Orchestras")
    static let fixtures = packageRoot.appendingPathComponent("Tests/PodiumTests/Fixtures")

    static func orchestra(_ name: String) -> String { orchestras.appendingPathComponent(name).path }
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The podium binary built beside the test bundle (scripts/test builds it first).
    static var podium: String {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [bundleDir, bundleDir.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("podium").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/podium").path
    }

    /// A fresh directory for one test's files.
    static func temporaryDirectory(_ tag: String = #function) -> URL {
        let safe = tag.filter { $0.isLetter || $0.isNumber }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// The result of running a program to completion.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program with arguments; output captured, stdin closed.
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes while the process runs, so a chatty child never blocks.
    let outBox = DataBox()
    let reader = Thread { outBox.data = out.fileHandleForReading.readDataToEndOfFile(); outBox.done.signal() }
    reader.start()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    outBox.done.wait()
    let outData = outBox.data
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

final class DataBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}

/// Finds a program on PATH.
func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// Runs `body` with file descriptors 1 and 2 sent to a file; returns what was written there.
func capturingStandardOutputAndError(_ body: () throws -> Void) rethrows -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("podium-fd-\(UUID().uuidString)").path
    let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    precondition(fd >= 0)
    fflush(nil)
    let savedOut = dup(1), savedErr = dup(2)
    dup2(fd, 1); dup2(fd, 2)
    defer {
        fflush(nil)
        dup2(savedOut, 1); dup2(savedErr, 2)
        close(savedOut); close(savedErr); close(fd)
        unlink(path)
    }
    try body()
    fflush(nil)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Where two sample arrays first differ (nil when identical). Cheap to report, unlike a
/// diff of two million-element arrays.
func firstDifference(_ a: [Double], _ b: [Double]) -> Int? {
    if a.count != b.count { return min(a.count, b.count) }
    return zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
}
