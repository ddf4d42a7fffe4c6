/// A small parser for the command lines scripts actually run: notify-send's options and
/// `notify`'s own simple ones, each option with its value as the next word or after `=`.
///
/// swift-argument-parser builds its whole command tree through runtime reflection before it
/// reads a word: in a profile of `notify --version` that was over 80% of the time spent in
/// `main`, several milliseconds per process, more than the D-Bus round trips. A one-shot
/// command pays it every time, so the common shapes are read here, and anything else (a
/// subcommand, help, completion, grouped short flags, `--`, a value that starts with `-` or
/// is empty after `=`, a number that does not parse, a scheduling or unknown option, more
/// than two words) returns `nil` and goes to swift-argument-parser, whose messages and
/// behaviour stay the reference.
///
/// The options it knows, and how it reads each, come from ``NotifyOption``'s table alone.
package enum QuickArguments {
    /// Every option by each of its spellings (`-u`, `--urgency`).
    private static let bySpelling: [String: OptionSpecification] = Dictionary(
        NotifyOption.allCases.map(\.specification).flatMap { option in option.spellings.map { ($0, option) } },
        uniquingKeysWith: { first, _ in first })

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
            if let option = bySpelling[word], case .flag(let path) = option.destination {
                options[keyPath: path] = true
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
            guard let option = bySpelling[name], option.store(value, in: &options) else { return nil }
        }
        // The first word must not be a subcommand's name (they read the rest themselves),
        // and more than two words is an error whose message swift-argument-parser gives.
        guard options.text.count <= 2, !(arguments.first.map(NotifySubcommand.isNamed) ?? false) else { return nil }
        return options
    }
}
