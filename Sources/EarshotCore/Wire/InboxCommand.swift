/// What a client may do to the Inbox (`inbox.dismiss`, `inbox.clear`). Queueing and playing an
/// episode take it out of the Inbox too; those are the engine's commands.
public enum InboxCommand: Sendable, Equatable {
    case dismiss(episode: Int64)
    case clear
}
