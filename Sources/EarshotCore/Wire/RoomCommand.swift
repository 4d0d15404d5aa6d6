import FoundationEssentials

/// A `room.*` command (issue 17): a Snapcast client's volume and mute, and whether it plays
/// Earshot's stream. Carried out by the server's Snapcast link, not the engine.
public enum RoomCommand: Sendable, Equatable {
    case volume(room: String, value: Int)
    case mute(room: String, on: Bool)
    case join(room: String)
    case leave(room: String)
}
