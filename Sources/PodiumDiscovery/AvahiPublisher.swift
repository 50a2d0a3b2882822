import CAvahi
import Glibc

/// One DNS-SD service to publish: `_osc._udp` on the OSC port, `_http._tcp` on the page's.
public struct LANService: Sendable, Equatable {
    public var type: String
    public var port: UInt16
    public var txt: [String]
    public init(type: String, port: UInt16, txt: [String] = []) {
        self.type = type
        self.port = port
        self.txt = txt
    }
}

/// Publishes services through the Avahi daemon (libavahi-client over D-Bus); this file is the
/// only one that calls `avahi_*` (`AvahiDaemon`, below, is what `podium doctor` reads). Avahi's threaded poll runs the client and its callbacks on a thread of its
/// own; this object's state is touched there, or by the owner under the poll's lock.
///
/// Without a daemon the client waits for one (`AVAHI_CLIENT_NO_FAIL`): the services appear when
/// it starts, and again after it restarts. A name taken on the network gets Avahi's alternative
/// (`NAME #2`). `stop()` frees the client, which withdraws the services (goodbye packets).
///
/// Threads: `start` and `stop` on the owner's; `report` is called on Avahi's poll thread.
public final class AvahiPublisher: @unchecked Sendable {
    /// Each service and the interface to publish it on (nil: all of them), as `LANPlan` says.
    public let entries: [(interface: Int32?, service: LANService)]
    /// What happens, in words (published, the name it took, waiting for the daemon, a failure).
    let report: @Sendable (String) -> Void

    /// The name asked for, and the one published (Avahi's alternative after a collision).
    public let requestedName: String
    private(set) var name: String
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var saidWaiting = false

    /// Service instance names are at most 63 bytes of UTF-8 (DNS-SD): longer ones are cut at a
    /// character boundary.
    // Thread: any
    public static func instanceName(_ name: String) -> String {
        var out = ""
        for c in name where out.utf8.count + String(c).utf8.count <= 63 { out.append(c) }
        return out
    }

    // Thread: NRT (owner)
    public init(name: String, entries: [(interface: Int32?, service: LANService)], report: @escaping @Sendable (String) -> Void) {
        requestedName = AvahiPublisher.instanceName(name)
        self.name = requestedName
        self.entries = entries
        self.report = report
    }

    /// Connects to the daemon (or starts waiting for it) and publishes once it runs.
    // Thread: NRT (owner)
    public func start() throws {
        guard let p = avahi_threaded_poll_new() else { throw DiscoveryError(call: "avahi_threaded_poll_new", code: Int32(AVAHI_ERR_NO_MEMORY)) }
        poll = p
        var error: Int32 = 0
        // The callback may run inside avahi_client_new: it uses the client it is given.
        let c = avahi_client_new(avahi_threaded_poll_get(p), AVAHI_CLIENT_NO_FAIL, avahiClientChanged,
                                 Unmanaged.passUnretained(self).toOpaque(), &error)
        guard let c else {
            avahi_threaded_poll_free(p)
            poll = nil
            throw DiscoveryError(call: "avahi_client_new", code: error)
        }
        client = c
        guard avahi_threaded_poll_start(p) >= 0 else {
            avahi_client_free(c)
            avahi_threaded_poll_free(p)
            client = nil
            poll = nil
            throw DiscoveryError(call: "avahi_threaded_poll_start", code: Int32(AVAHI_ERR_FAILURE))
        }
    }

    /// Withdraws the services and lets the daemon go. Idempotent.
    // Thread: NRT (owner)
    public func stop() {
        guard let p = poll else { return }
        avahi_threaded_poll_stop(p)     // the poll thread has ended: nothing else touches the client
        if let client { avahi_client_free(client) }   // frees the group too: the services are withdrawn
        client = nil
        group = nil
        avahi_threaded_poll_free(p)
        poll = nil
    }

    deinit { stop() }

    // MARK: callbacks (Avahi's poll thread)

    // Thread: Avahi's poll thread
    fileprivate func clientChanged(_ c: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            saidWaiting = false
            publish(c)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name is being (re)registered: the services follow once it runs again.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            if !saidWaiting { report("waiting for the Avahi daemon (avahi-daemon is not running): not yet found on the LAN") }
            saidWaiting = true
        case AVAHI_CLIENT_FAILURE:
            let code = avahi_client_errno(c)
            if code == AVAHI_ERR_DISCONNECTED {
                // The daemon went away: a new client waits for it to come back.
                report("the Avahi daemon went away: waiting for it to publish again")
                avahi_client_free(c)
                group = nil
                var error: Int32 = 0
                client = avahi_client_new(avahi_threaded_poll_get(poll!), AVAHI_CLIENT_NO_FAIL, avahiClientChanged,
                                          Unmanaged.passUnretained(self).toOpaque(), &error)
                if client == nil { report("cannot wait for the Avahi daemon: \(DiscoveryError(call: "avahi_client_new", code: error))") }
            } else {
                report("Avahi failed: \(DiscoveryError(call: "avahi client", code: code)); not found on the LAN")
            }
        default:
            break
        }
    }

    // Thread: Avahi's poll thread
    fileprivate func groupChanged(_ g: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            let list = entries.map { "\($0.service.type) \($0.service.port)" }.joined(separator: ", ")
            report("found on the LAN as “\(name)” (\(list)) through Avahi")
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another service on the network has this name: take Avahi's next one ("NAME #2").
            if let next = avahi_alternative_service_name(name) {
                let taken = name
                name = String(cString: next)
                avahi_free(next)
                report("the name “\(taken)” is taken on the LAN: publishing as “\(name)”")
            }
            avahi_entry_group_reset(g)
            if let c = avahi_entry_group_get_client(g) { publish(c) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = avahi_client_errno(avahi_entry_group_get_client(g))
            report("Avahi could not publish: \(DiscoveryError(call: "avahi entry group", code: code)); not found on the LAN")
        default:
            break
        }
    }

    /// Adds every service to the group (made on first use) and commits it.
    // Thread: Avahi's poll thread
    private func publish(_ c: OpaquePointer) {
        if group == nil {
            group = avahi_entry_group_new(c, avahiGroupChanged, Unmanaged.passUnretained(self).toOpaque())
            if group == nil {
                report("Avahi could not publish: \(DiscoveryError(call: "avahi_entry_group_new", code: avahi_client_errno(c)))")
                return
            }
        }
        guard let g = group, avahi_entry_group_is_empty(g) != 0 else { return }
        for (interface, service) in entries {
            var txt: UnsafeMutablePointer<AvahiStringList>? = nil
            for entry in service.txt { txt = avahi_string_list_add(txt, entry) }
            let r = avahi_entry_group_add_service_strlst(g, interface ?? AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                         AvahiPublishFlags(0), name, service.type, nil, nil, service.port, txt)
            avahi_string_list_free(txt)
            if r == AVAHI_ERR_COLLISION {
                groupChanged(g, AVAHI_ENTRY_GROUP_COLLISION)
                return
            }
            if r < 0 {
                report("Avahi could not publish \(service.type): \(DiscoveryError(call: "avahi_entry_group_add_service_strlst", code: r))")
                avahi_entry_group_reset(g)
                return
            }
        }
        let r = avahi_entry_group_commit(g)
        if r < 0 { report("Avahi could not publish: \(DiscoveryError(call: "avahi_entry_group_commit", code: r))") }
    }
}

// Thread: Avahi's poll thread
private func avahiClientChanged(_ c: OpaquePointer?, _ state: AvahiClientState, _ userdata: UnsafeMutableRawPointer?) {
    guard let c, let userdata else { return }
    Unmanaged<AvahiPublisher>.fromOpaque(userdata).takeUnretainedValue().clientChanged(c, state)
}

// Thread: Avahi's poll thread
private func avahiGroupChanged(_ g: OpaquePointer?, _ state: AvahiEntryGroupState, _ userdata: UnsafeMutableRawPointer?) {
    guard let g, let userdata else { return }
    Unmanaged<AvahiPublisher>.fromOpaque(userdata).takeUnretainedValue().groupChanged(g, state)
}

/// The Avahi daemon as a client finds it now (`podium doctor`): connected without waiting for
/// one, read, let go.
public enum AvahiDaemon {
    public struct Look: Sendable, Equatable {
        /// The name the daemon publishes this machine under (`stagebox.local`).
        public var hostName: String
        /// `avahi 0.8`.
        public var version: String
        /// False while the daemon registers its host name (or after a collision of it).
        public var running: Bool
    }

    /// The daemon's host name, version and state, or the call that failed (`Daemon not running`
    /// without one; a D-Bus error without a system bus).
    // Thread: NRT (any)
    public static func look() -> Result<Look, DiscoveryError> {
        guard let poll = avahi_simple_poll_new() else { return .failure(DiscoveryError(call: "avahi_simple_poll_new", code: Int32(AVAHI_ERR_NO_MEMORY))) }
        defer { avahi_simple_poll_free(poll) }
        var error: Int32 = 0
        // No AVAHI_CLIENT_NO_FAIL: without a daemon the call fails at once, naming why.
        guard let client = avahi_client_new(avahi_simple_poll_get(poll), AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
            return .failure(DiscoveryError(call: "avahi_client_new", code: error))
        }
        defer { avahi_client_free(client) }
        let host = avahi_client_get_host_name_fqdn(client).map { String(cString: $0) } ?? "?"
        let version = avahi_client_get_version_string(client).map { String(cString: $0) } ?? "?"
        return .success(Look(hostName: host, version: version, running: avahi_client_get_state(client) == AVAHI_CLIENT_S_RUNNING))
    }
}

/// A failed Avahi call: its name and Avahi's own words (`avahi_strerror`).
public struct DiscoveryError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call) failed: \(String(cString: avahi_strerror(code)))" }
}
