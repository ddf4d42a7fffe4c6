import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications

/// `notify [OPTIONS] SUMMARY [BODY]`: a drop-in for libnotify's `notify-send` (0.8), with
/// waiting that always ends, inline replies, JSON output, a terminal fallback and a small
/// notification server.
package struct NotifyCommand: AsyncParsableCommand {
    static let version = "1.0.0"

    package static let configuration = CommandConfiguration(
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

            With --in, --at or --every, notify stays and shows the notification when it is due, \
            exactly as it would have at once, following the wall clock through a suspend or a \
            clock change. notify pending lists the ones waiting; notify cancel, Control-C or \
            SIGTERM stops one before it fires (exit status 0, nothing shown).

            Subcommands:
            \(NotifySubcommand.listing)
            Each takes --help (or: notify help SUBCOMMAND). To send a notification whose summary is one of these words, \
            put "--" before it: notify -- info
            """,
        subcommands: describingCommandTree ? NotifySubcommand.allCases.map(\.command) : [],
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

    @Option(name: .customLong("in"),
            help: ArgumentHelp("Show it after this long, waiting meanwhile: 90s, 10m, 1h30m, 2d (a plain number is seconds).",
                               valueName: "DURATION"))
    var delay: String?

    @Option(help: ArgumentHelp("""
                Show it at this time, waiting meanwhile: HH:MM or HH:MM:SS (the next one, local \
                time), or a date and time such as 2026-12-24T18:30 (ISO 8601, with or without \
                seconds and UTC offset).
                """, valueName: "TIME"))
    var at: String?

    @Option(help: ArgumentHelp("""
                Show it again every DURATION (after --in or --at, else first after one DURATION) \
                until notify cancel or Control-C. Whole days (1d, 7d) keep the local time of day \
                across daylight-saving changes; 24h is 86400 elapsed seconds.
                """, valueName: "DURATION"))
    var every: String?

    @Argument(help: ArgumentHelp("The summary (one line) and the body.", valueName: "SUMMARY [BODY]"))
    var text: [String] = []

    /// The defaults; swift-argument-parser fills the options in from the command line.
    package init() {}

    /// Runs a plain `notify` read by ``QuickArguments`` (no scheduling options); returns the
    /// exit status.
    package static func run(_ options: NotifyOptions) async -> Int32 {
        if options.version {
            Terminal.out("notify \(version)\n")
            return 0
        }
        do {
            return await Delivery(plan: try options.makePlan()).run(bus: .session, fallback: !options.noFallback)
        } catch {
            // makePlan has printed why.
            return 1
        }
    }

    package mutating func run() async throws {
        if version {
            Terminal.out("notify \(Self.version)\n")
            return
        }
        let plan = try options.makePlan()
        if let rule = try makeScheduleRule() {
            let code = await ScheduledDelivery(plan: plan, rule: rule, fallback: !noFallback).run()
            if code != 0 { throw ExitCode(code) }
            return
        }
        let delivery = Delivery(plan: plan)
        let code = await delivery.run(bus: .session, fallback: !noFallback)
        if code != 0 { throw ExitCode(code) }
    }

    /// The options as values, for ``NotifyOptions/makePlan()``.
    package var options: NotifyOptions {
        NotifyOptions(
            urgency: urgency, expireTime: expireTime, appName: appName, icon: icon, category: category,
            transient: transient, hint: hint, printID: printID, replaceID: replaceID, wait: wait, action: action,
            version: version, reply: reply, timeout: timeout, image: image, sound: sound, identifier: identifier,
            json: json, noFallback: noFallback, text: text)
    }
}
