import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import PodiumHost
import PodiumOSC
import PodiumRealtime
import Synchronization

/// Where the stage page listens and who may use it.
public struct WebOptions: Sendable {
    public static let defaultPort: Int = 7780
    public var port: Int = WebOptions.defaultPort
    /// Loopback by default; a LAN address for phones and tablets (then a token is required).
    public var bind = "127.0.0.1"
    /// Source ranges allowed besides loopback.
    public var allow: [CIDR] = []
    /// The access token in the page's URL; nil: none (loopback only). Made up when a LAN
    /// address is bound without one.
    public var token: String?

    public init(port: Int = WebOptions.defaultPort, bind: String = "127.0.0.1", allow: [CIDR] = [], token: String? = nil) {
        self.port = port
        self.bind = bind
        self.allow = allow
        self.token = token ?? (bind.hasPrefix("127.") ? nil : WebOptions.newToken())
    }

    public static func newToken() -> String {
        (0..<16).map { _ in String("abcdefghijkmnpqrstuvwxyz23456789".randomElement()!) }.joined()
    }
}

/// The request context: Hummingbird's, with the WebSocket upgrade and the sender's address.
struct WebContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}

/// The browser surface: `podium play` serves the stage page (HTTP) and talks to it over a
/// WebSocket (`/ws`): the orchestra's controls, meters, console, status and a score box.
/// Hummingbird runs the server on its own event loops (never the audio thread); every action
/// from a page becomes the `Command` the other surfaces post (`WebClients`).
public final class WebSurface: @unchecked Sendable {
    public let options: WebOptions
    let clients: WebClients
    private var task: Task<Void, Error>?
    /// Filled in when the server runs (or fails to).
    private final class ServerState: Sendable {
        let port = Mutex<Int?>(nil)
        let failure = Mutex<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
    }
    private let server = ServerState()
    /// Notices for the console (a refused page, a client's error).
    public var onNotice: (@Sendable (String) -> Void)? {
        get { clients.onNotice }
        set { clients.onNotice = newValue }
    }

    // Thread: NRT (owner)
    public init(driver: JackDriver, options: WebOptions, orchestra: String, map: OSCMap?) {
        self.options = options
        clients = WebClients(driver: driver, orchestra: orchestra, map: map)
    }

    /// The port the server listens on (once started).
    public var port: Int { server.port.withLock { $0 } ?? options.port }

    /// The host a phone reaches this machine by, for the URL when bound to every address
    /// (`podium play` sets it from `StartHints.lanAddress`).
    public var lanHost: String?

    /// The page's address, with its token.
    public var url: String {
        let host = options.bind == "0.0.0.0" ? (lanHost ?? "127.0.0.1") : options.bind
        return "http://\(host):\(port)/" + (options.token.map { "?token=\($0)" } ?? "")
    }

    /// Starts serving; returns once the socket listens (throws when it cannot).
    // Thread: NRT (owner)
    public func start() throws {
        let router = Router(context: WebContext.self)
        let page = WebPage()
        let token = options.token
        let allowed = options.allow
        @Sendable func admitted(_ request: Request, _ context: WebContext) -> String? {
            if !WebSurface.isAllowed(context.remoteAddress, allow: allowed) { return "this address may not use the page (--web-allow)" }
            if let token, request.uri.queryParameters["token"].map(String.init) != token { return "wrong or missing token: open the address podium printed" }
            return nil
        }
        router.get("/") { request, context -> Response in
            if let why = admitted(request, context) { return WebSurface.refusal(why) }
            return page.response("index.html")
        }
        router.get("/:file") { request, context -> Response in
            guard let file = context.parameters.get("file"), ["app.js", "style.css"].contains(file) else { return Response(status: .notFound) }
            return page.response(file)
        }
        let clients = self.clients
        router.ws("/ws") { request, context in
            admitted(request, context) == nil ? .upgrade() : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            try await clients.serve(inbound: inbound, outbound: outbound)
        }
        let app = Application(router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
                              configuration: .init(address: .hostname(options.bind, port: options.port), serverName: "podium"),
                              onServerRunning: { [server] channel in
                                  server.port.withLock { $0 = channel.localAddress?.port }
                                  server.ready.signal()
                              },
                              logger: Logger(label: "podium-web", factory: { _ in SwiftLogNoOpLogHandler() }))
        task = Task { [server] in
            do { try await app.runService(gracefulShutdownSignals: []) } catch {
                server.failure.withLock { $0 = "\(error)" }
                server.ready.signal()
                throw error
            }
        }
        guard server.ready.wait(timeout: .now() + 10) == .success, server.port.withLock({ $0 }) != nil else {
            task?.cancel()
            let why = server.failure.withLock { $0 } ?? "it did not start within 10 s"
            throw WebError("cannot serve the page on \(options.bind):\(options.port): \(why)")
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

    /// Console lines for every open page.
    // Thread: the console router's
    public func console(_ lines: [String]) { clients.console(lines) }

    static func refusal(_ why: String) -> Response {
        Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "podium: \(why)\n")))
    }

    static func isAllowed(_ address: SocketAddress?, allow: [CIDR]) -> Bool {
        guard let ip = address?.ipAddress, let v4 = Endpoint.parse(ip) else { return false }
        return CIDR.loopback.contains(v4) || allow.contains { $0.contains(v4) }
    }
}

public struct WebError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}

/// The page's own files, shipped with the program (no network at run time, no build step).
struct WebPage: Sendable {
    let files: [String: (String, ByteBuffer)]

    init() {
        var files: [String: (String, ByteBuffer)] = [:]
        for (name, type) in [("index.html", "text/html"), ("app.js", "text/javascript"), ("style.css", "text/css")] {
            if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page"),
               let data = try? Data(contentsOf: url) {
                files[name] = ("\(type); charset=utf-8", ByteBuffer(bytes: data))
            }
        }
        self.files = files
    }

    func response(_ name: String) -> Response {
        guard let (type, body) = files[name] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }
}
