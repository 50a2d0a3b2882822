import Foundation
import Glibc
import Synchronization

/// Calls back when a file is saved, including by editors that write a new file and rename it
/// over the old one: watches the file's directory with inotify for that name and acts on the
/// end of a save itself — the writer closing it (IN_CLOSE_WRITE) or a new file renamed into
/// place (IN_MOVED_TO) — with no wait for quiet. The callback coalesces by content (HotReload:
/// a save whose text compiled already, or that follows while a compile waits, compiles nothing
/// more), so an editor's several closes make one compile.
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
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "inotify_add_watch \(directory): \(String(cString: strerror(errno)))"])
        }
        let fd = self.fd
        let thread = Thread { [flag, done] in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: 8192, alignment: 8)
            defer { buffer.deallocate(); done.signal() }
            while flag.running.load(ordering: .acquiring) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                // One call for what one read brings (a save's events come together).
                var saved = false
                let n = read(fd, buffer, 8192)
                var offset = 0
                while n > 0 && offset < n {
                    let event = (buffer + offset).assumingMemoryBound(to: inotify_event.self)
                    let length = Int(event.pointee.len)
                    if length > 0 {
                        let eventName = String(cString: (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self))
                        if eventName == name { saved = true }
                    }
                    offset += MemoryLayout<inotify_event>.size + length
                }
                if saved { onChange() }
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
