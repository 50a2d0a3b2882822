#if canImport(Glibc)
import Glibc
#endif

/// printf-style formatting through the C library (`%.3f`, `%d`, `%s` with a C string): what
/// `String(format:)` does for numbers without loading Foundation's locale data, which costs a
/// short command such as `podium render` about a millisecond at exit.
/// Thread: NRT (any).
public func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 256)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard needed >= buffer.count else { return String(cString: buffer) }
        return withVaList(arguments) { again in
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = vsnprintf(&buffer, buffer.count, format, again)
            return String(cString: buffer)
        }
    }
}
