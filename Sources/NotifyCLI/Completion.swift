/// Whether this run describes the whole command tree for a tool: a shell completion script
/// (`--generate-completion-script`), or the JSON description that swift-argument-parser's
/// `generate-manual` plugin turns into a man page (`--experimental-dump-help`).
///
/// `main.swift` dispatches the subcommands by their first word itself (the root command takes
/// a summary, which swift-argument-parser would otherwise confuse with a subcommand), so they
/// are declared to the parser, under their own names, only for these descriptions: one
/// script, or one manual, then covers `notify` and every subcommand.
let describingCommandTree = CommandLine.arguments.dropFirst().contains {
    $0 == "--generate-completion-script" || $0.hasPrefix("--generate-completion-script=") || $0 == "--experimental-dump-help"
}

/// A subcommand's name as the parser sees it: `notify WORD` in its usage line when run, the
/// bare word in a completion script or manual.
func subcommandName(_ word: String) -> String {
    describingCommandTree ? word : "notify \(word)"
}
