import ArgumentParser

/// `notify`'s subcommands, in the order of `notify --help`: the one list that the command
/// tree, `main.swift`'s dispatch, the fast path's check and the listing in `notify --help`
/// come from.
///
/// Each is named by the word that starts it; its type (``command``) is looked up only once a
/// subcommand is run or described, since the types' metadata costs start-up time that the
/// fast path (``QuickArguments``) saves.
package enum NotifySubcommand: String, CaseIterable, Sendable {
    /// A subcommand, named by the word that starts it.
    case info, close, list, pending, cancel, push, server, agent
    case appFiles = "app-files"

    /// `help`, which swift-argument-parser adds to every command tree: `notify help [SUBCOMMAND]`.
    package static let helpWord = "help"

    /// Whether `word`, first on a command line, names a subcommand (or `help`) rather than
    /// being a summary.
    package static func isNamed(_ word: String) -> Bool {
        word == helpWord || Self(rawValue: word) != nil
    }

    /// The command that runs it.
    package var command: any ParsableCommand.Type {
        switch self {
        case .info: NotifyCommand.Info.self
        case .close: NotifyCommand.Close.self
        case .list: NotifyCommand.List.self
        case .pending: NotifyCommand.Pending.self
        case .cancel: NotifyCommand.Cancel.self
        case .push: NotifyCommand.Push.self
        case .server: NotifyCommand.Server.self
        case .agent: NotifyCommand.Agent.self
        case .appFiles: NotifyCommand.AppFiles.self
        }
    }

    /// Its name in its command's configuration (``subcommandName(_:)``).
    var commandName: String { subcommandName(rawValue) }

    /// How it is used and what it does, for the listing in `notify --help`.
    private var synopsis: (usage: String, summary: String) {
        switch self {
        case .info: ("notify info [--json]", "the server: name, vendor, version, capabilities")
        case .close: ("notify close ID|IDENTIFIER", "close a notification by its id or its --id name")
        case .list: ("notify list", "the notifications shown with --id, still known")
        case .pending: ("notify pending [--json]", "the scheduled notifications still waiting")
        case .cancel: ("notify cancel ID...|--all", "cancel scheduled notifications")
        case .push: ("notify push PAYLOAD.json", "show an APNs-style payload (-: standard input)")
        case .server: ("notify server [--private]", "serve notifications in this terminal (no desktop)")
        case .agent: ("notify agent --foreground|status", "run the per-user agent, or show what it holds")
        case .appFiles: ("notify app-files --id ID --exec PATH", "write an app's desktop entry and D-Bus service file")
        }
    }

    /// One line per subcommand, its usage and what it does in two columns, for `notify --help`.
    static var listing: String {
        let width = allCases.map(\.synopsis.usage.count).max() ?? 0
        return allCases.map { subcommand in
            let (usage, summary) = subcommand.synopsis
            return "  " + usage + String(repeating: " ", count: width - usage.count + 2) + summary
        }.joined(separator: "\n")
    }
}
