import ArgumentParser

/// The options of a plain `notify [OPTIONS] SUMMARY [BODY]`, one case each, in the order of
/// `notify --help`: the one table of them (``specification``).
package enum NotifyOption: CaseIterable, Sendable {
    /// One of notify-send's options.
    case urgency, expireTime, appName, icon, appIcon, category, transient, hint, printID, idFD, replaceID, wait, action,
         selectedActionFD, activationTokenFD, version
    /// One of `notify`'s own options.
    case reply, timeout, image, sound, progress, identifier, json, noFallback
    /// A scheduling option: `--in`, `--at` or `--every`.
    case delay, at, every

    /// The option's names, value, help and destination.
    package var specification: OptionSpecification {
        switch self {
        case .urgency:
            .init(long: "urgency", short: "u", valueName: "LEVEL", help: "The urgency: low, normal or critical.",
                  destination: .text(\.urgency))
        case .expireTime:
            .init(long: "expire-time", short: "t", valueName: "TIME",
                  help: "How long the server shows it, in milliseconds (0: until dismissed).", destination: .integer(\.expireTime))
        case .appName:
            .init(long: "app-name", short: "a", valueName: "APP_NAME", help: "The application name shown with it.",
                  destination: .text(\.appName))
        case .icon:
            .init(long: "icon", short: "i", valueName: "ICON", help: "An icon name or an image file to show (sent as the image-path hint).",
                  destination: .text(\.icon))
        case .appIcon:
            .init(long: "app-icon", short: "n", valueName: "ICON",
                  help: "The application's icon: an icon name or an image file. The server may or may not show it.",
                  destination: .text(\.appIcon))
        case .category:
            .init(long: "category", short: "c", valueName: "TYPE[,TYPE...]", help: "The category, such as im.received or email.arrived.",
                  destination: .text(\.category))
        case .transient:
            .init(long: "transient", short: "e", valueName: nil, help: "Ask the server not to keep it in its history.",
                  destination: .flag(\.transient))
        case .hint:
            .init(long: "hint", short: "h", valueName: "TYPE:NAME:VALUE",
                  help: "Extra data: TYPE is boolean, int, double, string, byte or variant (GVariant text). Repeatable.",
                  destination: .texts(\.hint))
        case .printID:
            .init(long: "print-id", short: "p", valueName: nil, help: "Print the notification's id.", destination: .flag(\.printID))
        case .idFD:
            .init(long: "id-fd", short: nil, valueName: "FD", help: "Write the notification's id to this inherited file descriptor.",
                  destination: .integer(\.idFD))
        case .replaceID:
            .init(long: "replace-id", short: "r", valueName: "REPLACE_ID", help: "The id of a notification to replace.",
                  destination: .integer(\.replaceID))
        case .wait:
            .init(long: "wait", short: "w", valueName: nil, help: "Wait until the notification is closed.", destination: .flag(\.wait))
        case .action:
            .init(long: "action", short: "A", valueName: "[NAME=]Text", help: """
                A button. Repeatable; implies --wait. The NAME of the chosen one is printed; \
                without NAME, its position (from 0) is.
                """, destination: .texts(\.action))
        case .selectedActionFD:
            .init(long: "selected-action-fd", short: nil, valueName: "FD",
                  help: "Write the name of the chosen action to this inherited file descriptor.", destination: .integer(\.selectedActionFD))
        case .activationTokenFD:
            .init(long: "activation-token-fd", short: nil, valueName: "FD", help: """
                When an action is chosen, write its activation token (an empty line when the server \
                sends none) to this inherited file descriptor.
                """, destination: .integer(\.activationTokenFD))
        case .version:
            .init(long: "version", short: "v", valueName: nil, help: "Print the version.", destination: .flag(\.version))

        // notify's own options, beyond notify-send's.
        case .reply:
            .init(long: "reply", short: nil, valueName: "PLACEHOLDER",
                  help: "Offer a reply field with this placeholder (servers listing inline-reply); implies --wait; prints the text typed.",
                  destination: .text(\.reply))
        case .timeout:
            .init(long: "timeout", short: nil, valueName: "SECONDS", help: "Stop waiting after this many seconds, closing the notification.",
                  destination: .seconds(\.timeout))
        case .image:
            .init(long: "image", short: nil, valueName: "PATH", help: "An image file to show with the text (sent as the image-path hint).",
                  destination: .text(\.image))
        case .sound:
            .init(long: "sound", short: nil, valueName: "NAME|PATH",
                  help: "A sound to play: a name from the sound theme, such as message-new-instant, or the absolute path of a sound file.",
                  destination: .text(\.sound))
        case .progress:
            .init(long: "progress", short: nil, valueName: "PERCENT", help: """
                A progress bar at PERCENT (0 to 100), as the value hint; with --id, a later \
                notify --progress under the same name moves the bar in place.
                """, destination: .integer(\.progress))
        case .identifier:
            .init(long: "id", short: nil, valueName: "IDENTIFIER", help: """
                A name for this notification. A later notify --id with the same name replaces \
                it while it is still shown, and notify close NAME closes it.
                """, destination: .text(\.identifier))
        case .json:
            .init(long: "json", short: nil, valueName: nil,
                  help: "Print one JSON object: id, identifier, server, action, reply, activation token, close reason, how the wait ended.",
                  destination: .flag(\.json))
        case .noFallback:
            .init(long: "no-fallback", short: nil, valueName: nil,
                  help: "Fail like notify-send when there is no bus or no server, instead of using the terminal.",
                  destination: .flag(\.noFallback))

        // Scheduling.
        case .delay:
            .init(long: "in", short: nil, valueName: "DURATION",
                  help: "Show it after this long, waiting meanwhile: 90s, 10m, 1h30m, 2d (a plain number is seconds).",
                  destination: .schedule)
        case .at:
            .init(long: "at", short: nil, valueName: "TIME", help: """
                Show it at this time, waiting meanwhile: HH:MM or HH:MM:SS (the next one, local \
                time), or a date and time such as 2026-12-24T18:30 (ISO 8601, with or without \
                seconds and UTC offset).
                """, destination: .schedule)
        case .every:
            .init(long: "every", short: nil, valueName: "DURATION", help: """
                Show it again every DURATION (after --in or --at, else first after one DURATION) \
                until notify cancel or Control-C. Whole days (1d, 7d) keep the local time of day \
                across daylight-saving changes; 24h is 86400 elapsed seconds.
                """, destination: .schedule)
        }
    }

    /// The option's names, for its `@Option` or `@Flag` in ``NotifyCommand``.
    var names: NameSpecification { specification.names }

    /// The option's help, for its `@Option` or `@Flag` in ``NotifyCommand``.
    var help: ArgumentHelp { specification.argumentHelp }
}
