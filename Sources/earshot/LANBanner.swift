import Web

/// What `earshot serve --lan` prints under its URL: where a phone finds it, and how it pairs.
enum LANBanner {
    static func text(port: Int) -> String {
        let addresses = NetworkInterfaces.ranked(NetworkInterfaces.ipv4Addresses())
        var names = addresses.map { "http://\($0):\(port)/" }
        names += NetworkInterfaces.ipv6Addresses().map { "http://[\($0)]:\(port)/" }
        if let host = NetworkInterfaces.hostName() {
            let short = host.split(separator: ".").first.map(String.init) ?? host
            names.append("http://\(short).local:\(port)/")
        }
        guard !names.isEmpty else { return "Listening on the LAN too, but this machine has no LAN address yet." }
        return (["Also on the LAN (a phone pairs first: open Devices in this machine's browser for the code):"]
            + names.map { "  \($0)" }).joined(separator: "\n")
    }
}
