import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import PodiumOSC

/// Whom the stage page answers. Browsers let any page open a WebSocket to 127.0.0.1 (there is
/// no CORS for WebSockets) and reach a loopback server by a name of its own that resolves to
/// 127.0.0.1 (DNS rebinding). So, besides the sender's address (loopback or `--web-allow`) and
/// the token (every performance has one, loopback too, as notebook servers do: another user's
/// process on this machine must not drive the show either):
///   - every request's `Host` must name an address podium serves the page on, with its port;
///   - a request that carries an `Origin` (every browser's WebSocket and cross-site fetch does)
///     must come from the page's own origin — `http://` and the Host it was served as — or one
///     given with `--web-origin`; `null` (sandboxed frames, files) is foreign;
///   - the WebSocket upgrade must carry an `Origin`: only a browser page can make one without
///     the token in hand, and only the page itself holds it.
/// Anything else is answered 403 and counted (`WebStats`).
struct WebTrust: Sendable {
    /// Host names and addresses the page is served as (lowercased, no port).
    let hosts: Set<String>
    /// Origins accepted besides the page's own (`--web-origin`), without a trailing slash.
    let extraOrigins: Set<String>

    enum Refusal: Error, Equatable {
        case host(String), origin(String)
        var text: String {
            switch self {
            case let .host(h): return "the Host \"\(h.prefix(80))\" is not an address podium serves this page on"
            case let .origin(o): return "the Origin \"\(o.prefix(80))\" is not this page's (add it with --web-origin)"
            }
        }
    }

    /// The names a page served on `bind` is reached by: the bound address (every interface's for
    /// 0.0.0.0), loopback's names when loopback is served, the machine's name and its `.local`
    /// (mDNS) name when a LAN address is.
    init(bind: String, extraOrigins: [String]) {
        var hosts: Set<String> = []
        let addresses = bind == "0.0.0.0" ? InterfaceAddresses.ipv4(loopback: true) : [bind]
        for a in addresses {
            hosts.insert(a)
            if a.hasPrefix("127.") { hosts.insert("localhost") }
        }
        if addresses.contains(where: { !$0.hasPrefix("127.") }), let name = InterfaceAddresses.hostName {
            hosts.insert(name)
            hosts.insert(name.hasSuffix(".local") ? name : name + ".local")
        }
        self.hosts = hosts
        self.extraOrigins = Set(extraOrigins.map(WebTrust.normalized))
    }

    /// An origin as browsers send it: lowercased, no trailing slash.
    static func normalized(_ origin: String) -> String {
        var o = origin.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// Checks a request's Host (the first; `others` more Host headers) and Origin, for the page
    /// served on `port`. `originRequired`: the WebSocket upgrade.
    func check(host authority: String?, otherHosts: Int, origin: String?, port: Int, originRequired: Bool) throws(Refusal) {
        guard let authority, otherHosts == 0 else { throw .host(authority ?? "(none)") }
        let a = authority.lowercased()
        guard let (name, p) = WebTrust.split(a), p == port, hosts.contains(name) else { throw .host(authority) }
        guard let origin else {
            if originRequired { throw .origin("(none)") }
            return
        }
        let o = WebTrust.normalized(origin)
        guard o == "http://" + a || extraOrigins.contains(o) else { throw .origin(origin) }
    }

    /// "host:port" → (host, port); no port → port 80 (HTTP's, which browsers leave out).
    static func split(_ authority: String) -> (String, Int)? {
        guard !authority.isEmpty, !authority.hasPrefix("[") else { return nil }  // podium serves IPv4 only
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (authority, 80)
        case 2: return Int(parts[1]).map { (String(parts[0]), $0) }
        default: return nil
        }
    }
}

/// Why a request was answered 403.
enum WebRefusal: Sendable { case host, origin, address, token }

/// The server's channels with `WebTrustHandler` right after the HTTP decoder: every request head
/// is checked before Hummingbird routes it or its WebSocket upgrader sees it (which would answer
/// any refused upgrade with a bare 400).
struct TrustedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let handler: @Sendable () -> WebTrustHandler

    // Thread: the channel's event loop
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(handler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}

/// Checks each request head: the sender's address (loopback or --web-allow), Host and Origin
/// (WebTrust), and the token for the page and its WebSocket. A refused request is answered 403
/// with the reason, counted, and its connection closed; an accepted upgrade leaves the handler
/// out of the WebSocket's pipeline.
final class WebTrustHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Rules: Sendable {
        let trust: WebTrust
        let allow: [CIDR]
        let token: String
        /// The audience's token: the same pages, read-only (`WebOptions.audienceToken`).
        let audienceToken: String
        /// The port the server listens on (known once it runs).
        let port: @Sendable () -> Int
        let refused: @Sendable (WebRefusal, String) -> Void
    }
    let rules: Rules
    /// The parts of a refused request are dropped until its end.
    private var refusing = false

    init(_ rules: Rules) { self.rules = rules }

    // Thread: the channel's event loop
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard case let .head(head) = part else {
            if !refusing { context.fireChannelRead(data) }
            return
        }
        if let (kind, why) = refusal(head, from: context.channel.remoteAddress) {
            refusing = true
            rules.refused(kind, why)
            let body = ByteBuffer(string: "podium: \(why)\n")
            var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")])
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .forbidden, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
            return
        }
        refusing = false
        context.fireChannelRead(data)
        if head.headers.contains(name: "Upgrade") { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func refusal(_ head: HTTPRequestHead, from address: SocketAddress?) -> (WebRefusal, String)? {
        guard WebSurface.isAllowed(address, allow: rules.allow) else { return (.address, "this address may not use the page (--web-allow)") }
        let hosts = head.headers["Host"]
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        do throws(WebTrust.Refusal) {
            try rules.trust.check(host: hosts.first, otherHosts: max(0, hosts.count - 1), origin: head.headers["Origin"].first,
                                  port: rules.port(), originRequired: path == "/ws" || path.hasPrefix("/collab/"))
        } catch {
            if case .host = error { return (.host, error.text) }
            return (.origin, error.text)
        }
        if path == "/" || path == "/ws" || path == "/editor" || path.hasPrefix("/collab/") {
            let given = URLComponents(string: head.uri)?.queryItems?.first(where: { $0.name == "token" })?.value
            guard given == rules.token || given == rules.audienceToken else {
                return (.token, "wrong or missing token: open the address podium printed")
            }
        }
        return nil
    }
}
