import Foundation

/// What an XXE test tries to leak: a file holding a unique secret, and a DTD that declares an
/// external entity pointing at it. A parser that ever shows `text` has read a local file.
public struct PlantedSecret: Sendable {
    public let text: String
    public let file: URL
    public let dtd: URL

    public init(in directory: TemporaryDirectory) throws {
        text = "TOP-SECRET-\(UUID().uuidString)"
        file = directory.file("secret.txt")
        try Data(text.utf8).write(to: file)
        dtd = directory.file("evil.dtd")
        try Data("<!ENTITY leak SYSTEM \"\(file.absoluteString)\">".utf8).write(to: dtd)
    }
}
