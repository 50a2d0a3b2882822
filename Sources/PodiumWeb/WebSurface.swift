import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import PodiumHost
import PodiumOSC
import PodiumRealtime
import PodiumSurfaces
import Synchronization

/// Where the stage page listens and who may use it.
public struct WebOptions: Sendable {
    public static let defaultPort: Int = 7780
    public var port: Int = WebOptions.defaultPort
    /// When the port is in use: try the next ones, this many ports in all; 1: that port only.
    public var portTries = 1
    /// Loopback by default; a LAN address for phones and tablets (then a token is required).
    public var bind = "127.0.0.1"
    /// Source ranges allowed besides loopback.
    public var allow: [CIDR] = []
    /// The access token in the page's URL: made up for each performance unless given, on
    /// loopback too (WebTrust).
    public var token: String
    /// Origins whose pages may use the WebSocket besides the page's own (`--web-origin`).
    public var origins: [String] = []
    /// The audience's token: the stage page and the editor with it are read-only (they see the
    /// set being built and what plays; every action they send is refused). A new one each performance.
    public var audienceToken = WebOptions.newToken()

    public init(port: Int = WebOptions.defaultPort, bind: String = "127.0.0.1", allow: [CIDR] = [], token: String? = nil, origins: [String] = []) {
        self.port = port
        self.bind = bind
        self.allow = allow
        self.token = token ?? WebOptions.newToken()
        self.origins = origins
    }

    public static func newToken() -> String {
        (0..<16).map { _ in String("abcdefghijkmnpqrstuvwxyz23456789".randomElement()!) }.joined()
    }
}

/// The request context: Hummingbird's, with the WebSocket upgrade.
struct WebContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}

/// The browser surface: `podium play` serves the stage page (HTTP) and talks to it over a
/// WebSocket (`/ws`): the orchestra's controls, meters, console, status and a score box.
/// Hummingbird runs the server on its own event loops (never the audio thread); every action
/// from a page becomes the `Command` the other surfaces post (`WebClients`).
public final class WebSurface: @unchecked Sendable {
    /// The largest WebSocket frame a page may send or be sent: 4 MiB, room for a 1 MB buffer
    /// as the editor's shared-text update (a browser sends each message as one frame;
    /// Hummingbird's default, 16 KiB, dropped the connection of a page holding a 20 KB file).
    public static let maxFrameSize = 4 << 20
    public let options: WebOptions
    let clients: WebClients
    private var task: Task<Void, Error>?
    /// Filled in when the server runs (or fails to).
    private final class ServerState: Sendable {
        let port = Mutex<Int?>(nil)
        let failure = Mutex<String?>(nil)
        /// The failure was the port in use (another performance took it first).
        let inUse = Mutex(false)
        let ready = DispatchSemaphore(value: 0)
    }
    private let server = ServerState()
    /// Notices for the console (a refused page, a client's error).
    public var onNotice: (@Sendable (String) -> Void)? {
        get { clients.onNotice }
        set { clients.onNotice = newValue }
    }

    // Thread: NRT (owner)
    /// `files`: the editor's buffers, by name (`orchestra`, `patterns`, `loops`), and the files they edit.
    public init(driver: JackDriver, options: WebOptions, orchestra: String, map: OSCMap?, files: [String: String] = [:]) {
        self.options = options
        clients = WebClients(driver: driver, orchestra: orchestra, map: map, files: files)
    }

    /// The port the server listens on (once started).
    public var port: Int { server.port.withLock { $0 } ?? options.port }

    /// The host a phone reaches this machine by, for the URL when bound to every address
    /// (`podium play` sets it from `StartHints.lanAddress`).
    public var lanHost: String?

    /// The page's address, with its token.
    public var url: String { "http://\(host):\(port)/?token=\(options.token)" }
    /// The editor's address, with the token.
    public var editorURL: String { "http://\(host):\(port)/editor?token=\(options.token)" }
    /// The audience's read-only view of the editor.
    public var audienceURL: String { "http://\(host):\(port)/editor?token=\(options.audienceToken)&readonly=1" }
    /// Its WebSocket's address, with the token (a client must also send the page's Origin, `http://HOST:PORT`).
    public var socketURL: String { "ws://\(host):\(port)/ws?token=\(options.token)" }
    private var host: String { options.bind == "0.0.0.0" ? (lanHost ?? "127.0.0.1") : options.bind }

    /// Starts serving; returns once the socket listens (throws when it cannot).
    // Thread: NRT (owner)
    public func start() throws {
        let router = Router(context: WebContext.self)
        let page = try WebPage()
        let clients = self.clients
        let audience = options.audienceToken
        router.get("/") { _, _ in page.response("index.html") }
        router.get("/editor") { _, _ in page.response("editor.html") }
        router.get("/:file") { _, context -> Response in
            guard let file = context.parameters.get("file"), WebPage.served.contains(file) else { return Response(status: .notFound) }
            return page.response(file)
        }
        router.get("/lib/**") { _, context -> Response in WebLibraries.response(context.parameters.getCatchAll()) }
        router.ws("/ws") { _, _ in .upgrade() } onUpgrade: { inbound, outbound, context in
            try await clients.serve(inbound: inbound, outbound: outbound, readOnly: WebSurface.query(context.request, "token") == audience)
        }
        let rooms = clients.rooms
        router.ws("/collab/:buffer") { _, _ in .upgrade() } onUpgrade: { inbound, outbound, context in
            let buffer = String(context.request.uri.path.split(separator: "/").last ?? "")
            try await rooms.serve(buffer: buffer, name: WebSurface.query(context.request, "name") ?? "guest",
                                  readOnly: WebSurface.query(context.request, "token") == audience, inbound: inbound, outbound: outbound)
        }
        // Every request is checked before the router sees it (WebTrust.swift).
        let rules = WebTrustHandler.Rules(trust: WebTrust(bind: options.bind, extraOrigins: options.origins), allow: options.allow,
                                          token: options.token, audienceToken: options.audienceToken, port: { [server] in server.port.withLock { $0 } ?? -1 },
                                          refused: { kind, why in clients.refused(kind, why) })
        let webSocketResponder = router.buildResponder()
        let channel = HTTPServerBuilder { responder in
            TrustedChannel(base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                              configuration: .init(maxFrameSize: WebSurface.maxFrameSize)),
                           handler: { WebTrustHandler(rules) })
        }
        let app = Application(router: router, server: channel,
                              configuration: .init(address: .hostname(options.bind, port: options.port), serverName: "podium"),
                              onServerRunning: { [server] channel in
                                  server.port.withLock { $0 = channel.localAddress?.port }
                                  server.ready.signal()
                              },
                              logger: Logger(label: "podium-web", factory: { _ in SwiftLogNoOpLogHandler() }))
        task = Task { [server] in
            do { try await app.runService(gracefulShutdownSignals: []) } catch {
                server.failure.withLock { $0 = "\(error)" }
                server.inUse.withLock { $0 = (error as? IOError)?.errnoCode == EADDRINUSE }
                server.ready.signal()
                throw error
            }
        }
        guard server.ready.wait(timeout: .now() + 10) == .success, server.port.withLock({ $0 }) != nil else {
            task?.cancel()
            let why = server.failure.withLock { $0 } ?? "it did not start within 10 s"
            throw WebError("cannot serve the page on \(options.bind):\(options.port): \(why)", portInUse: server.inUse.withLock { $0 })
        }
        clients.start()
    }

    // Thread: NRT (owner)
    public func stop() {
        clients.stop()
        task?.cancel()
        task = nil
    }

    public var stats: WebStats { clients.stats }

    /// The live loops a hush from a page ends.
    public var loops: LiveLoops? {
        get { clients.loops }
        set { clients.loops = newValue }
    }

    /// A pattern's note the audio thread started on `frame`: its steps light up on the pages.
    // Thread: the driver's supervisor
    public func lit(_ step: PatternPlayer.Step, frame: Int64) { clients.lit(step, frame: frame) }

    /// Pages editing together now, frames relayed, saves.
    public var collabStats: CollabStats { clients.rooms.stats }

    /// Console lines for every open page.
    // Thread: the console router's
    public func console(_ lines: [String]) { clients.console(lines) }

    /// A query parameter of a request.
    static func query(_ request: Request, _ name: String) -> String? {
        URLComponents(string: request.uri.description)?.queryItems?.first(where: { $0.name == name })?.value
    }

    static func isAllowed(_ address: SocketAddress?, allow: [CIDR]) -> Bool {
        guard let ip = address?.ipAddress, let v4 = Endpoint.parse(ip) else { return false }
        return CIDR.loopback.contains(v4) || allow.contains { $0.contains(v4) }
    }
}

public struct WebError: Error, CustomStringConvertible {
    public var description: String
    /// The page's port was in use.
    public var portInUse = false
    init(_ d: String, portInUse: Bool = false) {
        description = d
        self.portInUse = portInUse
    }
}

/// The page's own files, shipped with the program (no network at run time, no build step):
/// found beside it in the build tree (SwiftPM's resource bundle), or installed under
/// `share/podium/page` beside its `bin` directory (the Debian package: /usr/share/podium/page),
/// or in `$PODIUM_PAGE`. Not through `Bundle.module`, which outside the build tree ends the
/// program instead of failing.
struct WebPage: Sendable {
    static let fileNames = [("index.html", "text/html"), ("app.js", "text/javascript"), ("style.css", "text/css"),
                            ("editor.html", "text/html"), ("editor.js", "text/javascript"), ("editor-host.js", "text/javascript"),
                            ("modes.js", "text/javascript"), ("editor.css", "text/css")]
    /// The files a page may ask for by name (the two pages are `/` and `/editor`).
    static let served: Set<String> = ["app.js", "style.css", "editor.js", "editor-host.js", "modes.js", "editor.css"]
    let files: [String: (String, ByteBuffer)]

    /// The first of the places the page may be that holds its files.
    static func directory() -> (found: String?, searched: [String]) {
        var places: [String] = []
        if let env = ProcessInfo.processInfo.environment["PODIUM_PAGE"], !env.isEmpty { places.append(env) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let bin = (exe as NSString).deletingLastPathComponent
            places.append(bin + "/Podium_PodiumWeb.resources/Page")
            places.append((bin as NSString).deletingLastPathComponent + "/share/podium/page")
        }
        let found = places.first { dir in fileNames.allSatisfy { FileManager.default.isReadableFile(atPath: "\(dir)/\($0.0)") } }
        return (found, places)
    }

    init() throws {
        let (found, searched) = WebPage.directory()
        guard let dir = found else {
            throw WebError("the stage page's files (index.html, app.js, style.css, editor.html, …) are not installed: looked in \(searched.joined(separator: ", ")) (set PODIUM_PAGE to their directory)")
        }
        var files: [String: (String, ByteBuffer)] = [:]
        for (name, type) in WebPage.fileNames {
            guard let data = FileManager.default.contents(atPath: "\(dir)/\(name)") else { throw WebError("cannot read \(dir)/\(name)") }
            files[name] = ("\(type); charset=utf-8", ByteBuffer(bytes: data))
        }
        self.files = files
    }

    func response(_ name: String) -> Response {
        guard let (type, body) = files[name] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }
}
