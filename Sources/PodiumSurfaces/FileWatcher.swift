import Foundation
import Glibc
import Synchronization

/// Calls back when a file is saved, including by editors that write a new file and rename it
/// over the old one: watches the file's directory with inotify for that name.
/// Thread: its own (NRT); the callback runs there.
public final class FileWatcher: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private final class Flag: Sendable { let running = Atomic<Bool>(true) }
    private let flag = Flag()
    private let done = DispatchSemaphore(value: 0)

    public init(path: String, onChange: @escaping @Sendable () -> Void) throws {
        self.path = path
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "inotify_init1: \(String(cString: strerror(errno)))"]) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "inotify_add_watch \(directory): \(String(cString: strerror(errno)))"])
        }
        let fd = self.fd
        let thread = Thread { [flag, done] in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: 8192, alignment: 8)
            defer { buffer.deallocate(); done.signal() }
            var pendingSince: ContinuousClock.Instant?
            while flag.running.load(ordering: .acquiring) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 20) > 0 {
                    let n = read(fd, buffer, 8192)
                    var offset = 0
                    while n > 0 && offset < n {
                        let event = (buffer + offset).assumingMemoryBound(to: inotify_event.self)
                        let length = Int(event.pointee.len)
                        if length > 0 {
                            let eventName = String(cString: (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self))
                            if eventName == name { pendingSince = .now }
                        }
                        offset += MemoryLayout<inotify_event>.size + length
                    }
                }
                // Editors write in several steps: act once things are quiet for 50 ms.
                if let since = pendingSince, ContinuousClock.now - since >= .milliseconds(50) {
                    pendingSince = nil
                    onChange()
                }
            }
        }
        thread.name = "podium-watch"
        thread.start()
    }

    public func stop() {
        if flag.running.exchange(false, ordering: .acquiringAndReleasing) { done.wait() }
    }

    deinit {
        stop()
        close(fd)
    }
}
