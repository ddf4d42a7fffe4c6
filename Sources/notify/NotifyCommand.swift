import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications

/// `notify [OPTIONS] SUMMARY [BODY]`: a drop-in for libnotify's `notify-send` (0.8), with
/// waiting that always ends, inline replies, JSON output, a terminal fallback and a small
/// notification server.
struct NotifyCommand: AsyncParsableCommand {
    static let version = "1.0.0"

    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Show a desktop notification (a drop-in for notify-send).",
        discussion: """
            Takes the options of notify-send: scripts written for it work unchanged. The body \
            understands C escapes such as \\n, as notify-send's does.

            With no session bus or no notification server (an SSH session, a container), the \
            notification is shown in this terminal instead, and actions can be chosen from the \
            keyboard: a number chooses an action, "> text" replies, an empty line dismisses. \
            --no-fallback turns that off.

            What `notify` prints on standard output is only what a script asks for: the id \
            (-p), the chosen action (-A), the reply (--reply), or one JSON object (--json). \
            Exit status: 0 on success; 1 on a bad option or hint, when the notification could \
            not be shown, or when actions or a reply were asked of a server that cannot do them.

            Subcommands:
              notify info [--json]        the server: name, vendor, version, capabilities
              notify close ID|IDENTIFIER  close a notification by its id or its --id name
              notify list                 the notifications shown with --id, still known
              notify push PAYLOAD.json    show an APNs-style payload (-: standard input)
              notify server [--private]   serve notifications in this terminal (no desktop)
            Each takes --help (or: notify help SUBCOMMAND). To send a notification whose summary is one of these words, \
            put "--" before it: notify -- info
            """,
        subcommands: describingCommandTree ? [Info.self, Close.self, List.self, Push.self, Server.self] : [],
        helpNames: [.customShort("?"), .long]
    )

    @Option(name: [.short, .long], help: ArgumentHelp("The urgency: low, normal or critical.", valueName: "LEVEL"))
    var urgency: String?

    @Option(name: [.customShort("t"), .customLong("expire-time")],
            help: ArgumentHelp("How long the server shows it, in milliseconds (0: until dismissed).", valueName: "TIME"))
    var expireTime: Int32?

    @Option(name: [.short, .customLong("app-name")], help: ArgumentHelp("The application name shown with it.", valueName: "APP_NAME"))
    var appName: String?

    @Option(name: [.short, .long], help: ArgumentHelp("An icon name or an image file to show.", valueName: "ICON"))
    var icon: String?

    @Option(name: [.short, .long], help: ArgumentHelp("The category, such as im.received or email.arrived.", valueName: "TYPE[,TYPE...]"))
    var category: String?

    @Flag(name: [.customShort("e"), .long], help: "Ask the server not to keep it in its history.")
    var transient = false

    @Option(name: [.customShort("h"), .long],
            help: ArgumentHelp("Extra data: TYPE is boolean, int, double, string, byte or variant (GVariant text). Repeatable.",
                               valueName: "TYPE:NAME:VALUE"))
    var hint: [String] = []

    @Flag(name: [.short, .customLong("print-id")], help: "Print the notification's id.")
    var printID = false

    @Option(name: [.short, .customLong("replace-id")], help: ArgumentHelp("The id of a notification to replace.", valueName: "REPLACE_ID"))
    var replaceID: Int32?

    @Flag(name: [.short, .long], help: "Wait until the notification is closed.")
    var wait = false

    @Option(name: [.customShort("A"), .long],
            help: ArgumentHelp("""
                A button. Repeatable; implies --wait. The NAME of the chosen one is printed; \
                without NAME, its position (from 0) is.
                """, valueName: "[NAME=]Text"))
    var action: [String] = []

    @Flag(name: [.short, .long], help: "Print the version.")
    var version = false

    @Option(help: ArgumentHelp("Offer a reply field with this placeholder (servers listing inline-reply); implies --wait; prints the text typed.",
                               valueName: "PLACEHOLDER"))
    var reply: String?

    @Option(help: ArgumentHelp("Stop waiting after this many seconds, closing the notification.", valueName: "SECONDS"))
    var timeout: Double?

    @Option(help: ArgumentHelp("An image file to show with the text (sent as the image-path hint).", valueName: "PATH"))
    var image: String?

    @Option(help: ArgumentHelp("A sound to play: a name from the sound theme, such as message-new-instant, or the absolute path of a sound file.",
                               valueName: "NAME|PATH"))
    var sound: String?

    @Option(name: .customLong("id"),
            help: ArgumentHelp("""
                A name for this notification. A later notify --id with the same name replaces \
                it while it is still shown, and notify close NAME closes it.
                """, valueName: "IDENTIFIER"))
    var identifier: String?

    @Flag(help: "Print one JSON object: id, identifier, server, action, reply, activation token, close reason, how the wait ended.")
    var json = false

    @Flag(name: .customLong("no-fallback"), help: "Fail like notify-send when there is no bus or no server, instead of using the terminal.")
    var noFallback = false

    @Argument(help: ArgumentHelp("The summary (one line) and the body.", valueName: "SUMMARY [BODY]"))
    var text: [String] = []

    mutating func run() async throws {
        if version {
            Terminal.out("notify \(Self.version)\n")
            return
        }
        let plan = try makePlan()
        let delivery = Delivery(plan: plan)
        let code = await delivery.run(bus: .session, fallback: !noFallback)
        if code != 0 { throw ExitCode(code) }
    }

    /// Everything the options ask for, checked, in notify-send's order of checks.
    func makePlan() throws -> Delivery.Plan {
        guard let summary = text.first else { return try fail("No summary specified.") }
        var body = ""
        if text.count > 1 {
            guard let decoded = String(validating: compressEscapes(text[1]), as: UTF8.self) else {
                return try fail("Invalid UTF-8 provided for parameter: Body")
            }
            body = decoded
            if text.count > 2 { return try fail("Invalid number of options.") }
        }
        var level = NotificationUrgency.normal
        if let urgency {
            switch urgency.lowercased() {
            case "low": level = .low
            case "normal": level = .normal
            case "critical": level = .critical
            default: return try fail("Unknown urgency \(urgency) specified. Known urgency levels: low, normal, critical.")
            }
        }
        if let timeout, !(timeout > 0 && timeout.isFinite) {
            return try fail("--timeout needs a number of seconds above 0, not \(timeout).")
        }
        if let identifier, !IdentifierStore.isValidName(identifier) {
            return try fail("--id needs a name that is not empty and not a number (numbers are ids), not \"\(identifier)\".")
        }
        var request = NotifyRequest(
            appName: appName ?? "notify", replacesID: UInt32(max(replaceID ?? 0, 0)), appIcon: icon ?? "",
            summary: summary, body: body, expiry: NotificationExpiry(rawValue: expireTime ?? -1))
        request.hints.category = category
        request.hints.urgency = level
        if transient { request.hints.transient = true }
        // libnotify names the sending process; servers use it to find the application.
        try? request.hints.setVendorHint("sender-pid", .int64(Int64(getpid())))
        // --image and --sound come before -h, so that an explicit hint wins.
        if let image { request.hints.imagePath = try imageURI(image) }
        if let sound {
            var isFolder: ObjCBool = false
            if sound.hasPrefix("/") && FileManager.default.fileExists(atPath: sound, isDirectory: &isFolder) && !isFolder.boolValue {
                request.hints.soundFile = sound
            } else {
                request.hints.soundName = sound
            }
        }
        for argument in hint {
            do {
                let (name, value) = try HintParser.parse(argument)
                try request.hints.setVendorHint(name, value)
            } catch {
                return try fail("\(error)")
            }
        }
        var actions: [NotificationAction] = []
        for (position, argument) in action.enumerated() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts.count == 1 ? "\(position)" : parts[0].trimmingCharacters(in: .whitespaces)
            let label = parts[parts.count - 1].trimmingCharacters(in: .whitespaces)
            if !key.isEmpty && !label.isEmpty { actions.append(NotificationAction(key: key, label: label)) }
        }
        do {
            try request.validate()
        } catch {
            return try fail("\(error)")
        }
        return Delivery.Plan(
            request: request, actions: actions, replyPlaceholder: reply, wait: wait, printID: printID,
            json: json, timeout: timeout.map { Duration.milliseconds(Int64($0 * 1000)) }, identifier: identifier)
    }

    /// `--image PATH` as a `file://` URI: the path made absolute (the server runs elsewhere),
    /// and checked to be a readable file.
    private func imageURI(_ path: String) throws -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute.path, isDirectory: &isFolder) else {
            return try fail("--image: no such file: \(path)")
        }
        guard !isFolder.boolValue else { return try fail("--image: \(path) is a folder, not an image file") }
        guard access(absolute.path, R_OK) == 0 else { return try fail("--image: cannot read \(path): permission denied") }
        return absolute.absoluteString
    }

    private func fail<T>(_ message: String) throws -> T {
        Terminal.error(message + "\n")
        throw ExitCode(1)
    }
}
