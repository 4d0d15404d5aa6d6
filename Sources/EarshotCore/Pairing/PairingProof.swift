/// How a client proves it may pair: the code it was shown, or the secret in the QR code's URL.
public enum PairingProof: Sendable, Equatable {
    case code(String)
    case secret(String)
}
