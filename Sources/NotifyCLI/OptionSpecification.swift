import ArgumentParser

/// One option of a plain `notify`: its names, whether it takes a value, its help, and where
/// its value goes in ``NotifyOptions``.
///
/// The specifications of ``NotifyOption`` are the one table of `notify`'s options. The fast
/// parser (``QuickArguments``) reads command lines from the table alone; ``NotifyCommand``
/// gives each of its `@Option` and `@Flag` properties the names and help of its entry
/// (``names`` and ``argumentHelp``). A test holds the properties and the table to each other.
package struct OptionSpecification: Sendable {
    /// Where an option's value goes in ``NotifyOptions``, and how its text is read.
    package enum Destination: Sendable {
        /// A flag, which takes no value: present is `true`.
        case flag(any WritableKeyPath<NotifyOptions, Bool> & Sendable)
        /// Text, as given; the last one wins.
        case text(any WritableKeyPath<NotifyOptions, String?> & Sendable)
        /// Text, repeatable: every one is kept, in order.
        case texts(any WritableKeyPath<NotifyOptions, [String]> & Sendable)
        /// A 32-bit integer, as `Int32(_:)` reads it.
        case integer(any WritableKeyPath<NotifyOptions, Int32?> & Sendable)
        /// A number of seconds, as `Double(_:)` reads it.
        case seconds(any WritableKeyPath<NotifyOptions, Double?> & Sendable)
        /// Scheduling (`--in`, `--at`, `--every`), which only swift-argument-parser reads:
        /// a scheduled `notify` waits, so the fast path's start-up gains nothing there.
        case schedule
    }

    /// The long name, without its dashes: `expire-time`.
    package let long: String
    /// The one-letter name, if the option has one: `t`.
    package let short: Character?
    /// The value's name in help (`TIME`), or `nil` for a flag.
    package let valueName: String?
    /// The option's help, one sentence or a few.
    package let help: String
    /// Where its value goes.
    package let destination: Destination

    /// Whether the option takes a value (every option but a flag).
    package var takesValue: Bool {
        if case .flag = destination { false } else { true }
    }

    /// The words that name it on a command line: `-t` (if it has a short name) and `--expire-time`.
    package var spellings: [String] {
        (short.map { ["-\($0)"] } ?? []) + ["--\(long)"]
    }

    /// Its names for swift-argument-parser: the short one first, as in help.
    var names: NameSpecification {
        guard let short else { return [.customLong(long)] }
        return [.customShort(short), .customLong(long)]
    }

    /// Its help for swift-argument-parser.
    var argumentHelp: ArgumentHelp {
        ArgumentHelp(help, valueName: valueName)
    }

    /// Stores `value` in `options`; `false` when the value does not read as the option's type,
    /// or the option is a flag or one that only swift-argument-parser reads.
    func store(_ value: String, in options: inout NotifyOptions) -> Bool {
        switch destination {
        case .flag, .schedule:
            return false
        case .text(let path):
            options[keyPath: path] = value
        case .texts(let path):
            options[keyPath: path].append(value)
        case .integer(let path):
            guard let number = Int32(value) else { return false }
            options[keyPath: path] = number
        case .seconds(let path):
            guard let number = Double(value) else { return false }
            options[keyPath: path] = number
        }
        return true
    }
}
