/// A small parser for the command lines scripts actually run: notify-send's options and
/// `notify`'s own simple ones, each option with its value as the next word or after `=`.
///
/// swift-argument-parser builds its whole command tree through runtime reflection before it
/// reads a word: in a profile of `notify --version` that was over 80% of the time spent in
/// `main`, several milliseconds per process, more than the D-Bus round trips. A one-shot
/// command pays it every time, so the common shapes are read here, and anything else (a
/// subcommand, help, completion, grouped short flags, `--`, a value that starts with `-` or
/// is empty after `=`, a number that does not parse, an unknown option, more than two words)
/// returns `nil` and goes to swift-argument-parser, whose messages and behaviour stay the
/// reference.
package enum QuickArguments {
    private enum Slot {
        case urgency, expireTime, appName, icon, category, hint, replaceID, action, reply, timeout, image, sound, identifier
    }

    private enum Switch {
        case transient, printID, wait, version, json, noFallback
    }

    private static let valued: [String: Slot] = [
        "-u": .urgency, "--urgency": .urgency,
        "-t": .expireTime, "--expire-time": .expireTime,
        "-a": .appName, "--app-name": .appName,
        "-i": .icon, "--icon": .icon,
        "-c": .category, "--category": .category,
        "-h": .hint, "--hint": .hint,
        "-r": .replaceID, "--replace-id": .replaceID,
        "-A": .action, "--action": .action,
        "--reply": .reply, "--timeout": .timeout, "--image": .image, "--sound": .sound, "--id": .identifier,
    ]

    private static let switches: [String: Switch] = [
        "-e": .transient, "--transient": .transient,
        "-p": .printID, "--print-id": .printID,
        "-w": .wait, "--wait": .wait,
        "-v": .version, "--version": .version,
        "--json": .json, "--no-fallback": .noFallback,
    ]

    /// The options, or `nil` when swift-argument-parser must read this command line.
    package static func parse(_ arguments: [String]) -> NotifyOptions? {
        var options = NotifyOptions()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                options.text.append(word)
                continue
            }
            if let flag = switches[word] {
                set(flag, in: &options)
                continue
            }
            let name: String
            let value: String
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
                // swift-argument-parser reads `--name=` as `--name` followed by the next word.
                guard !value.isEmpty else { return nil }
            } else {
                guard index < arguments.count else { return nil }
                name = word
                value = arguments[index]
                index += 1
                // swift-argument-parser decides whether such a word is a value or an option.
                guard !value.hasPrefix("-") else { return nil }
            }
            guard let slot = valued[name], set(slot, to: value, in: &options) else { return nil }
        }
        // The first word must not be a subcommand's name (they read the rest themselves),
        // and more than two words is an error whose message swift-argument-parser gives.
        guard options.text.count <= 2, !(arguments.first.map(NotifySubcommand.isNamed) ?? false) else { return nil }
        return options
    }

    private static func set(_ flag: Switch, in options: inout NotifyOptions) {
        switch flag {
        case .transient: options.transient = true
        case .printID: options.printID = true
        case .wait: options.wait = true
        case .version: options.version = true
        case .json: options.json = true
        case .noFallback: options.noFallback = true
        }
    }

    private static func set(_ slot: Slot, to value: String, in options: inout NotifyOptions) -> Bool {
        switch slot {
        case .urgency: options.urgency = value
        case .expireTime:
            guard let number = Int32(value) else { return false }
            options.expireTime = number
        case .appName: options.appName = value
        case .icon: options.icon = value
        case .category: options.category = value
        case .hint: options.hint.append(value)
        case .replaceID:
            guard let number = Int32(value) else { return false }
            options.replaceID = number
        case .action: options.action.append(value)
        case .reply: options.reply = value
        case .timeout:
            guard let number = Double(value) else { return false }
            options.timeout = number
        case .image: options.image = value
        case .sound: options.sound = value
        case .identifier: options.identifier = value
        }
        return true
    }
}
