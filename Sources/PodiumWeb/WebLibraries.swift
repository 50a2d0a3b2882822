import Foundation
import Hummingbird
import NIOCore

/// The editor's JavaScript libraries, served from where Debian installs them (no copy in
/// Podium, no network): CodeMirror 5 (`libjs-codemirror`) and Yjs with its protocols
/// (`node-yjs`, `node-lib0`, `node-y-protocols`). Each URL prefix maps to one directory; a path
/// is served only if it resolves (symlinks followed) inside that directory, and only `.js`,
/// `.mjs` and `.css` files.
struct WebLibraries: Sendable {
    /// URL prefix under `/lib/` → directory, and the Debian package that installs it.
    static let roots: [(prefix: String, directory: String, package: String)] = [
        ("codemirror", "/usr/share/javascript/codemirror", "libjs-codemirror"),
        ("yjs", "/usr/share/nodejs/yjs", "node-yjs"),
        ("lib0", "/usr/share/nodejs/lib0", "node-lib0"),
        ("y-protocols", "/usr/share/nodejs/y-protocols", "node-y-protocols"),
        ("isomorphic.js", "/usr/share/nodejs/isomorphic.js", "node-isomorphic.js"),
    ]
    static let types = ["js": "text/javascript", "mjs": "text/javascript", "css": "text/css"]

    /// The libraries that are not installed (the editor tab says so, naming the packages).
    static var missing: [String] {
        roots.filter { !FileManager.default.fileExists(atPath: $0.directory) }.map(\.package)
    }

    /// The file for `/lib/PREFIX/REST`, or nil (not a library, not inside it, not a script or a stylesheet).
    // Thread: Hummingbird's event loops
    static func file(_ parts: [Substring]) -> (path: String, type: String)? {
        guard parts.count >= 2, let root = roots.first(where: { $0.prefix == parts[0] }),
              !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return nil }
        let wanted = root.directory + "/" + parts.dropFirst().joined(separator: "/")
        guard let type = types[(wanted as NSString).pathExtension],
              let real = realpath(wanted, nil), let base = realpath(root.directory, nil) else { return nil }
        defer { free(real); free(base) }
        let resolved = String(cString: real), directory = String(cString: base)
        guard resolved.hasPrefix(directory + "/") else { return nil }
        return (resolved, type)
    }

    // Thread: Hummingbird's event loops
    static func response(_ parts: [Substring]) -> Response {
        guard let (path, type) = file(parts), let data = FileManager.default.contents(atPath: path) else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: "\(type); charset=utf-8", .cacheControl: "max-age=3600"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
