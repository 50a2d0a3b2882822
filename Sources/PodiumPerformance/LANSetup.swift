import Foundation
import PodiumDiscovery
import PodiumOSC

// Found on the LAN: the OSC surface (`_osc._udp`, which TouchOSC and other controllers list) and
// the stage page (`_http._tcp`), published through Avahi when they listen beyond loopback.

extension Performance {
    /// The DNS-SD instance name: the orchestra's, and the machine's (`synth (podium on stagebox)`).
    // Thread: any
    static func lanName(orchestra: String, host: String?) -> String {
        let base = ((orchestra as NSString).lastPathComponent as NSString).deletingPathExtension
        return AvahiPublisher.instanceName("\(base) (podium\(host.map { " on \($0)" } ?? ""))")
    }

    /// Publishes the surfaces that listen on a LAN address; loopback-only ones publish nothing.
    /// The page's token is not published: the page's address printed at the start carries it.
    // Thread: NRT (owner)
    func startAdvertising() {
        guard options.advertise else { return }
        var listeners: [LANPlan.Listener] = []
        if let osc { listeners.append(.init(service: LANService(type: "_osc._udp", port: osc.port), bind: osc.options.bind)) }
        if let web { listeners.append(.init(service: LANService(type: "_http._tcp", port: UInt16(web.port), txt: ["path=/"]), bind: web.options.bind)) }
        let name = Performance.lanName(orchestra: options.orchestra, host: InterfaceAddresses.hostName)
        let router = self.router
        let entries = LANPlan.entries(listeners, interfaceIndex: InterfaceAddresses.interfaceIndex(holding:))
        guard !entries.isEmpty else { return }
        let publisher = AvahiPublisher(name: name, entries: entries) { router.notice("lan: \($0)") }
        do {
            try publisher.start()
            advertiser = publisher
        } catch {
            router.notice("lan: not found on the LAN: \(error)", level: .warning)
        }
    }
}
