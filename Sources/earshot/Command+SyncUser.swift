import Foundation
import Library
import Web

/// `earshot sync-user NAME`: turns on sync for phone podcast apps (gpodder.net and Nextcloud sync)
/// with this user name, as the web UI's Devices view does. The password is read from standard input
/// when it is not a terminal (its first line; empty: one is made and printed); on a terminal it is
/// asked for twice, without echo.
enum SyncUserCommand {
    static func run(_ name: String, store: LibraryStore) async -> Int32 {
        let password: String?
        if isatty(STDIN_FILENO) == 1 {
            guard let first = ask("Password for \(name) (empty: make one): ") else { return 1 }
            if !first.isEmpty {
                guard let again = ask("The same password again: ") else { return 1 }
                guard again == first else {
                    ParseCommand.printError("the two passwords differ; nothing was changed")
                    return 1
                }
            }
            password = first
        } else {
            let input = FileHandle.standardInput.readDataToEndOfFile()
            password = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first
                .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        }
        do {
            let made = try await SyncAccountSetup.set(user: name, password: password, store: store)
            print("Sync is on for \(name).")
            if let made { print("Password (shown this once): \(made)") }
            print("In AntennaPod: Settings → Synchronization → gpodder.net, server http://<this machine>:<port> (serve with --lan for phones).")
            return 0
        } catch {
            ParseCommand.printError("\(error)")
            return 1
        }
    }

    /// One line from the terminal with echo off; nil at end of input.
    private static func ask(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
