import EarshotCore
import Foundation

/// Carries out `PairingState` (one open code, its guesses, the per-address throttle) with the
/// system's random numbers and a monotonic clock, one attempt at a time.
actor PairingDesk {
    private var state = PairingState()
    private var random = SystemRandomNumberGenerator() // getrandom(2): a CSPRNG
    /// The device paired last and when (monotonic), for the host's view to say so.
    private(set) var lastPaired: (device: PairedDevice, at: Double)?

    /// Seconds on a clock that never jumps (the wall clock may).
    nonisolated static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// Opens a fresh code and secret, replacing any open one.
    func open() -> PairingSession {
        let code = PairingState.randomCode(using: &random)
        let secret = PairingState.randomSecret(using: &random)
        return state.open(code: code, secret: secret, now: Self.now())
    }

    func close() { state.close() }

    /// The open session, if one is still good.
    func current() -> PairingSession? { state.active(now: Self.now()) }

    func attempt(_ proof: PairingProof, from address: String) -> PairingOutcome {
        state.attempt(proof, from: address, now: Self.now())
    }

    /// A fresh device token (256 bits from the CSPRNG).
    func newToken() -> DeviceToken { DeviceToken.generate(using: &random) }

    func paired(_ device: PairedDevice) { lastPaired = (device, Self.now()) }
}
