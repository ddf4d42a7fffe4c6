import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications

/// `notify [OPTIONS] SUMMARY [BODY]`: a drop-in for libnotify's `notify-send` (its main branch after 0.8.7,
/// its default app name when started as `notify-send`, its portal mode in a sandbox), with
/// waiting that always ends, inline replies, JSON output, a terminal fallback and a small
/// notification server.
package struct NotifyCommand: AsyncParsableCommand {
    static let version = "1.0.0"

    package static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Show a desktop notification (a drop-in for notify-send).",
        discussion: """
            Takes the options of notify-send: scripts written for it work unchanged. The body \
            understands C escapes such as \\n, as notify-send's does. Started as notify-send (a \
            symbolic link), the default app name is notify-send, as libnotify's; otherwise it \
            is notify. In a Flatpak or Snap sandbox, or with NOTIFY_FORCE_PORTAL set (never \
            with NOTIFY_IGNORE_PORTAL), notify sends through the notification portal as \
            libnotify does, when the portal answers; the portal has no field for -a, -n, -c, \
            -h, -e, --image, --sound, --id or --reply, and notify says which it drops.

            With no session bus or no notification server (an SSH session, a container), the \
            notification is shown in this terminal instead, and actions can be chosen from the \
            keyboard: a number chooses an action, "> text" replies, an empty line dismisses. \
            --no-fallback turns that off.

            What `notify` prints on standard output is only what a script asks for: the id \
            (-p), the chosen action (-A), the reply (--reply), or one JSON object (--json). \
            Exit status: 0 on success; 1 on a bad option or hint, when the notification could \
            not be shown, or when actions or a reply were asked of a server that cannot do them.

            With --in, --at or --every, when the notification agent (notify agent) is running \
            or the bus can start it, notify hands the notification to it, prints the id notify \
            cancel takes (agent-XXXXXXXX) and exits at once; the agent shows it when it is due. \
            Otherwise notify stays and shows it when it is due, exactly as it would have at \
            once, following the wall clock through a suspend or a clock change; so does a \
            scheduled notify that needs its own process: -w, -A, --reply and --timeout wait for \
            the person, -p, --json, --id and -r print or remember what the server answers, -i, \
            -c, -e, -h, -t and --image have no field in the agent, an --app-name that is not an \
            application id (dot-separated names of ASCII letters, digits, _ and -), --every Nd \
            for N above 1, and --every after --in or --at when the first delivery is not one \
            period from now (--at TIME --every 1d is handed over). notify pending lists the ones waiting; notify cancel stops one before it \
            fires, as Control-C or SIGTERM stops a waiting notify (exit status 0, nothing shown).

            Subcommands:
            \(NotifySubcommand.listing)
            Each takes --help (or: notify help SUBCOMMAND). To send a notification whose summary is one of these words, \
            put "--" before it: notify -- info
            """,
        subcommands: describingCommandTree ? NotifySubcommand.allCases.map(\.command) : [],
        helpNames: [.customShort("?"), .long]
    )

    @Option(name: NotifyOption.urgency.names, help: NotifyOption.urgency.help)
    var urgency: String?

    @Option(name: NotifyOption.expireTime.names, help: NotifyOption.expireTime.help)
    var expireTime: Int32?

    @Option(name: NotifyOption.appName.names, help: NotifyOption.appName.help)
    var appName: String?

    @Option(name: NotifyOption.icon.names, help: NotifyOption.icon.help)
    var icon: String?

    @Option(name: NotifyOption.appIcon.names, help: NotifyOption.appIcon.help)
    var appIcon: String?

    @Option(name: NotifyOption.category.names, help: NotifyOption.category.help)
    var category: String?

    @Flag(name: NotifyOption.transient.names, help: NotifyOption.transient.help)
    var transient = false

    @Option(name: NotifyOption.hint.names, help: NotifyOption.hint.help)
    var hint: [String] = []

    @Flag(name: NotifyOption.printID.names, help: NotifyOption.printID.help)
    var printID = false

    @Option(name: NotifyOption.idFD.names, help: NotifyOption.idFD.help)
    var idFD: Int32?

    @Option(name: NotifyOption.replaceID.names, help: NotifyOption.replaceID.help)
    var replaceID: Int32?

    @Flag(name: NotifyOption.wait.names, help: NotifyOption.wait.help)
    var wait = false

    @Option(name: NotifyOption.action.names, help: NotifyOption.action.help)
    var action: [String] = []

    @Option(name: NotifyOption.selectedActionFD.names, help: NotifyOption.selectedActionFD.help)
    var selectedActionFD: Int32?

    @Option(name: NotifyOption.activationTokenFD.names, help: NotifyOption.activationTokenFD.help)
    var activationTokenFD: Int32?

    @Flag(name: NotifyOption.version.names, help: NotifyOption.version.help)
    var version = false

    @Option(name: NotifyOption.reply.names, help: NotifyOption.reply.help)
    var reply: String?

    @Option(name: NotifyOption.timeout.names, help: NotifyOption.timeout.help)
    var timeout: Double?

    @Option(name: NotifyOption.image.names, help: NotifyOption.image.help)
    var image: String?

    @Option(name: NotifyOption.sound.names, help: NotifyOption.sound.help)
    var sound: String?

    @Option(name: NotifyOption.progress.names, help: NotifyOption.progress.help)
    var progress: Int32?

    @Option(name: NotifyOption.identifier.names, help: NotifyOption.identifier.help)
    var identifier: String?

    @Flag(name: NotifyOption.json.names, help: NotifyOption.json.help)
    var json = false

    @Flag(name: NotifyOption.noFallback.names, help: NotifyOption.noFallback.help)
    var noFallback = false

    @Option(name: NotifyOption.delay.names, help: NotifyOption.delay.help)
    var delay: String?

    @Option(name: NotifyOption.at.names, help: NotifyOption.at.help)
    var at: String?

    @Option(name: NotifyOption.every.names, help: NotifyOption.every.help)
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
        let now = Date()
        if let schedule = try makeSchedule(now: now) {
            if let handoff = AgentHandoff.make(options: options, schedule: schedule, now: now) {
                switch await handoff.run() {
                case .handed(let identifier):
                    Terminal.out(identifier + "\n")
                    return
                case .failed(let message):
                    Terminal.error(message + "\n")
                    throw ExitCode(1)
                case .unavailable:
                    break
                }
            }
            let code = await ScheduledDelivery(plan: plan, schedule: schedule, fallback: !noFallback).run()
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
            urgency: urgency, expireTime: expireTime, appName: appName, icon: icon, appIcon: appIcon, category: category,
            transient: transient, hint: hint, printID: printID, idFD: idFD, replaceID: replaceID, wait: wait, action: action,
            selectedActionFD: selectedActionFD, activationTokenFD: activationTokenFD, version: version, reply: reply, timeout: timeout, image: image, sound: sound, progress: progress, identifier: identifier,
            json: json, noFallback: noFallback, text: text)
    }
}
