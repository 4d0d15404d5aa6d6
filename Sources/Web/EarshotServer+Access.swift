import EarshotCore
import Foundation

extension EarshotServer: AccessGate {
    /// The transport for a configuration: loopback alone, or every IPv4 address with `--lan`; a
    /// Host may name loopback, (on the LAN) this machine's addresses and names, and `--allow-host` extras.
    static func makeTransport(_ configuration: ServerConfiguration) -> LWSServer {
        var names = AccessPolicy.loopbackNames
        if configuration.lan { names.formUnion(NetworkInterfaces.names()) }
        let extras = configuration.extraHostNames.map { $0.lowercased() }
        names.formUnion(extras)
        let transport = LWSServer(host: configuration.lan ? "0.0.0.0" : configuration.host, hostNames: names)
        transport.policy.proxyNames = Set(extras)
        return transport
    }

    /// Service thread: who asks. A loopback peer is the host unless a proxy says it forwarded the
    /// request (then its clients are strangers like any LAN client); anyone with a known token is
    /// that device; everyone else is a stranger. Then `PairingAccess` decides.
    func admit(_ request: AdmissionRequest) -> Admission {
        let requester: Requester
        if NetworkInterfaces.isLoopback(request.peer) && !request.forwarded {
            requester = .host
        } else if let token = DeviceToken.fromCookieHeader(request.cookie), let id = devices.device(for: token) {
            requester = .device(id)
            noteSeen(id)
        } else {
            requester = .stranger
        }
        return Admission(requester: requester,
                         verdict: PairingAccess.verdict(requester, access: Self.access(method: request.method, path: request.path)))
    }

    func isPaired(_ device: Int64) -> Bool {
        guard devices.isPaired(device) else { return false }
        noteSeen(device)
        return true
    }

    /// Keeps the library's last-seen at most a minute behind.
    private func noteSeen(_ device: Int64) {
        guard devices.seen(device) else { return }
        let store = self.store
        let transport = self.transport
        Task {
            do {
                try await store.touchDevice(id: device, at: Date())
                transport.send(.devices) // "last seen" moved on (at most once a minute a device)
            } catch {
                Log.warning("pairing", "could not store when device \(device) was last seen: \(String(reflecting: error))")
            }
        }
    }
}
